"""The shared random generator that IR-SIM scripts reach as ``irsim.util.random.rng``."""

import numpy as np

_rng = np.random.default_rng()


class _RNGProxy:
    """Forwards to the current generator, so ``set_seed`` takes effect for every holder."""

    def __getattr__(self, name):
        return getattr(_rng, name)


rng = _RNGProxy()


def set_seed(seed=None) -> None:
    global _rng
    _rng = np.random.default_rng(seed)
