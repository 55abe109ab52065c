"""ubot: a headless deterministic robot-perception simulator (docs/python.md).

The native part is the extension ``ubot._core``; everything it defines is re-exported here.
"""

from ubot._core import *  # noqa: F401,F403
from ubot._core import Error, WorldError, Simulation, Object, __version__  # noqa: F401
