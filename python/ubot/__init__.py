"""ubot: a headless deterministic robot-perception simulator (docs/python.md).

The native part is the extension ``ubot._core``; its public names are re-exported here, with
``VectorEnv`` (a ``gymnasium.vector.VectorEnv``) from ``ubot.vector_env``, and ``sweep`` (scenario
sweeps on Dask, docs/sweeps.md). Both are optional extras (``pip install 'ubot[gym]'``,
``'ubot[sweep]'``): ``import ubot`` works without them, and ``ubot.VectorEnv`` / ``ubot.sweep``
then raise an ImportError saying what to install.
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
    register_behavior,
    register_group_behavior,
)


def __getattr__(name):
    # VectorEnv and sweep on first use, so that `import ubot` needs neither Gymnasium nor the
    # sweep extra's packages (PEP 562).
    if name == "VectorEnv":
        from ubot.vector_env import VectorEnv

        return VectorEnv
    if name == "sweep":  # a callable module: ubot.sweep(spec, client=...)
        import importlib

        try:
            return importlib.import_module("ubot.sweep")
        except ImportError as error:
            raise ImportError(f"ubot.sweep needs {error.name or 'a package'}, which is not "
                              "installed: pip install 'ubot[sweep]'") from error
    raise AttributeError(f"module 'ubot' has no attribute {name!r}")
