"""ubot.sweep: scenario sweeps (worlds x seeds x parameter grids) on Dask (docs/sweeps.md).

``ubot.sweep(spec, client=dask_client, out=folder)`` runs a sweep and returns its table (a
pandas DataFrame); ``python3 -m ubot.sweep`` (and ``ubot sweep``) is its command line. The module
itself is callable, so ``ubot.sweep(...)`` and ``ubot.sweep.run_task(...)`` both work. Dask,
pandas and matplotlib are imported only when a sweep runs: ``import ubot`` stays light.
"""

import sys
import types

# The public names; `sweep` is also what calling the module does.
from ubot.sweep.runner import execute, load_spec, local_client, sweep  # noqa: F401
from ubot.sweep.run import run_task  # noqa: F401
from ubot.sweep.spec import Run, Sweep, SweepError, load, run_seed  # noqa: F401


class _CallableModule(types.ModuleType):
    def __call__(self, *args, **kwargs):
        return sweep(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
