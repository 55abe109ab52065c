"""``irsim.lib`` as ubot provides it: the behaviour registries and ``path_planners``.

IR-SIM's other Python algorithms (RVO/SFM/ORCA, geometry handlers) are not part of this layer;
ubot runs its built-in behaviours natively.
"""

from .behavior.behavior_registry import (  # noqa: F401
    register_behavior,
    register_behavior_class,
    register_group_behavior,
    register_group_behavior_class,
)
