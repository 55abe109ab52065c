"""``ubot.spaces``: the few Gymnasium space types ubot.VectorEnv describes itself with.

With Gymnasium importable, these names are Gymnasium's own (``gymnasium.spaces.Box``,
``gymnasium.spaces.Dict``, ``gymnasium.vector.utils.batch_space``,
``gymnasium.vector.AutoresetMode``). Debian 12 has no Gymnasium, and then they are the small
stand-ins below, with the same constructor arguments, attributes (``low``, ``high``, ``shape``,
``dtype``, ``spaces``) and methods (``sample``, ``contains``, ``seed``) as far as VectorEnv
needs them; ``GYMNASIUM`` says which (docs/python.md, "ubot.VectorEnv").
"""

import enum

import numpy as np

try:  # Gymnasium is optional (not in Debian 12).
    from gymnasium.spaces import Box, Dict  # noqa: F401
    from gymnasium.vector import AutoresetMode  # noqa: F401
    from gymnasium.vector.utils import batch_space  # noqa: F401

    GYMNASIUM = True
except ImportError:
    GYMNASIUM = False

    class AutoresetMode(enum.Enum):
        """Gymnasium 1.x's AutoresetMode: when a vector env resets a sub-env that ended."""

        NEXT_STEP = "NextStep"
        SAME_STEP = "SameStep"
        DISABLED = "Disabled"

    class _Space:
        def __init__(self, seed=None):
            self._rng = np.random.default_rng(seed)

        def seed(self, seed=None):
            self._rng = np.random.default_rng(seed)
            return [seed]

        @property
        def np_random(self):
            return self._rng

    class Box(_Space):
        """Gymnasium's Box: arrays of ``shape`` and ``dtype`` with ``low <= x <= high``."""

        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            super().__init__(seed)
            self.dtype = np.dtype(dtype)
            if shape is None:
                shape = np.broadcast_shapes(np.shape(low), np.shape(high))
            self.shape = tuple(int(n) for n in shape)
            self.low = np.broadcast_to(np.asarray(low, self.dtype), self.shape).copy()
            self.high = np.broadcast_to(np.asarray(high, self.dtype), self.shape).copy()

        def sample(self):
            """Uniform within finite bounds; normal where a side is unbounded; bool 0/1."""
            if self.dtype == np.bool_:
                return self._rng.integers(0, 2, self.shape).astype(np.bool_)
            low, high = self.low.astype(float), self.high.astype(float)
            x = self._rng.uniform(np.where(np.isfinite(low), low, 0.0),
                                  np.where(np.isfinite(high), high, 1.0), self.shape)
            free = ~(np.isfinite(low) & np.isfinite(high))
            if free.any():
                x[free] = self._rng.normal(size=int(free.sum()))
                x = np.clip(x, low, high)
            return x.astype(self.dtype)

        def contains(self, x):
            x = np.asarray(x)
            return bool(x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                        and np.all(x >= self.low) and np.all(x <= self.high))

        __contains__ = contains

        def __eq__(self, other):
            return (isinstance(other, Box) and self.shape == other.shape
                    and self.dtype == other.dtype and np.array_equal(self.low, other.low)
                    and np.array_equal(self.high, other.high))

        def __repr__(self):
            return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"

    class Dict(_Space):
        """Gymnasium's Dict: a dict of spaces, sampled and checked key by key."""

        def __init__(self, spaces, seed=None):
            super().__init__(seed)
            self.spaces = dict(spaces)

        def seed(self, seed=None):
            streams = np.random.SeedSequence(seed).spawn(len(self.spaces))
            for space, stream in zip(self.spaces.values(), streams):
                space.seed(int(stream.generate_state(1)[0]))
            return [seed]

        def sample(self):
            return {k: s.sample() for k, s in self.spaces.items()}

        def contains(self, x):
            return (isinstance(x, dict) and set(x) == set(self.spaces)
                    and all(s.contains(x[k]) for k, s in self.spaces.items()))

        __contains__ = contains

        def __getitem__(self, key):
            return self.spaces[key]

        def keys(self):
            return self.spaces.keys()

        def __eq__(self, other):
            return isinstance(other, Dict) and self.spaces == other.spaces

        def __repr__(self):
            return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"

    def batch_space(space, n):
        """Gymnasium's batch_space for Box and Dict: n copies stacked along a new first axis."""
        if isinstance(space, Dict):
            return Dict({k: batch_space(s, n) for k, s in space.spaces.items()})
        return Box(np.stack([space.low] * n), np.stack([space.high] * n), dtype=space.dtype)
