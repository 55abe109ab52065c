"""ubot: a headless deterministic robot-perception simulator (docs/python.md).

The native part is the extension ``ubot._core``; its public names are re-exported here, with
``VectorEnv`` (a ``gymnasium.vector.VectorEnv``) from ``ubot.vector_env``, and ``sweep`` (scenario
sweeps on Dask, docs/sweeps.md). Gymnasium is optional (``pip install 'ubot[gym]'``): ``import
ubot`` works without it, and ``ubot.VectorEnv`` then raises an ImportError saying what to install.
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
from ubot import sweep  # noqa: F401,E402  (a callable module: ubot.sweep(spec, client=...))


def __getattr__(name):
    # VectorEnv on first use, so that `import ubot` needs no Gymnasium (PEP 562).
    if name == "VectorEnv":
        from ubot.vector_env import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'ubot' has no attribute {name!r}")
