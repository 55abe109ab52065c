from .behavior_registry import (  # noqa: F401
    register_behavior,
    register_behavior_class,
    register_group_behavior,
    register_group_behavior_class,
)
