"""ubot: a headless deterministic robot-perception simulator (docs/python.md).

The native part is the extension ``ubot._core``; its public names are re-exported here, with
``VectorEnv`` (Gymnasium conventions) from ``ubot.vector_env``, and ``sweep`` (scenario sweeps on
Dask, docs/sweeps.md).
"""

from ubot._core import (  # noqa: F401
    CameraSample,
    Contact2dSample,
    ContactReading,
    ContactReport,
    Error,
    ImuSample,
    Lidar2dSample,
    Lidar3dSample,
    Object,
    Simulation,
    Snapshot,
    WorldError,
    stream_seed,
    __version__,
    behavior_names,
    group_behavior_names,
)
from ubot import spaces  # noqa: F401
from ubot.vector_env import VectorEnv  # noqa: F401
from ubot import sweep  # noqa: F401,E402  (a callable module: ubot.sweep(spec, client=...))
