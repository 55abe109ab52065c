"""``ubot.irsim``: IR-SIM's Python surface (``irsim.make``, ``EnvBase``) over ubot.

``python3 -m ubot.irsim SCRIPT.py`` runs an IR-SIM script with ``import irsim`` resolving here.
"""

import os
import sys

from ubot._quote import quote

from .env import EnvBase
from .world.object_base import ObjectBase  # noqa: F401

__version__ = "2.12.0+ubot"  # the IR-SIM release whose surface this follows


def make(world_name=None, projection=None, step_mode=None, **kwargs) -> EnvBase:
    """An environment for ``world_name`` (default: the running script's name with .yaml).

    ``projection='3d'`` is accepted and drawn as the 2-D picture; every other keyword
    (display, save_ani, seed, ...) is EnvBase's.
    """
    if projection not in (None, "2d", "3d"):
        raise ValueError(f"Unknown projection {quote(projection)}. Allowed: 2d, 3d")
    if world_name is None:
        world_name = os.path.basename(sys.argv[0]).split(".")[0] + ".yaml"
    if step_mode is not None:
        kwargs["step_mode"] = step_mode
    return EnvBase(world_name, **kwargs)
