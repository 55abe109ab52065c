"""Actions: checked, and mapped from [-1, 1] onto each robot's limits (docs/learning.md)."""

import numpy as np

__all__ = ['Actions']


# ---------------------------------------------------------------------------------------------
# Actions: normalized [-1, 1] per component (Gymnasium's and SB3's advice) or raw commands.


class Actions:
    def __init__(self, layout, normalized=True, clip=False):
        self.layout, self.normalized, self.clip = layout, bool(normalized), bool(clip)
        self.mid = (layout.vel_min + layout.vel_max) / 2
        self.half = (layout.vel_max - layout.vel_min) / 2
        self._rows = {}  # robots -> (mid, half) of their rows

    def space(self, robot):
        from gymnasium.spaces import Box

        if self.normalized:
            return Box(-1.0, 1.0, (2,), np.float32)
        return Box(self.layout.vel_min[robot].astype(np.float32),
                   self.layout.vel_max[robot].astype(np.float32), dtype=np.float32)

    def bounds(self, robots):
        if self.normalized:
            return -np.ones((len(robots), 2)), np.ones((len(robots), 2))
        return self.layout.vel_min[robots], self.layout.vel_max[robots]

    def check(self, action, shape, robots, what="action"):
        """``action`` as float64 of ``shape`` (..., len(robots), 2) commands in the kinematics
        frame; ValueError / TypeError naming what is wrong."""
        a = np.asarray(action)
        if a.dtype == object or not (np.issubdtype(a.dtype, np.floating)
                                     or np.issubdtype(a.dtype, np.integer)):
            raise TypeError(f"{what} must be a real number array, got dtype {a.dtype}")
        if a.shape != shape:
            raise ValueError(f"{what} must have shape {shape}, got {a.shape}")
        a = a.astype(np.float64)
        if self.normalized:
            return self._check_normalized(a, robots, what)
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} holds NaN or infinite values: {a.tolist()}")
        low, high = self.bounds(robots)
        if self.clip:
            return np.clip(a, low, high)
        tol = 1e-6 * np.maximum(1.0, np.abs(high - low))  # float32 rounding of a sample
        outside = (a < low - tol) | (a > high + tol)
        if outside.any():
            raise ValueError(f"{what} {a.tolist()} is outside the action space [{low.tolist()}"
                             f", {high.tolist()}] (clip_actions=True clips instead)")
        return np.clip(a, low, high)

    # [-1, 1] everywhere: the smallest and largest entries tell both whether all are finite (NaN
    # and infinities reach them) and whether all are inside, in two passes instead of a dozen
    # array operations (a fifth of UbotVectorEnv's Python at 256 envs).
    _TOL = 2e-6  # 1e-6 * max(1, high - low): float32 rounding of a sample

    def _check_normalized(self, a, robots, what):
        lo, hi = (a.min(), a.max()) if a.size else (0.0, 0.0)
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"{what} holds NaN or infinite values: {a.tolist()}")
        if not self.clip and (lo < -1.0 - self._TOL or hi > 1.0 + self._TOL):
            low, high = self.bounds(robots)
            raise ValueError(f"{what} {a.tolist()} is outside the action space [{low.tolist()}"
                             f", {high.tolist()}] (clip_actions=True clips instead)")
        np.clip(a, -1.0, 1.0, out=a)
        mid, half = self._mid_half(robots)
        return mid + a * half  # broadcast as before: one robot's (2,) becomes (1, 2)

    def _mid_half(self, robots):
        key = tuple(robots)
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = (self.mid[list(key)], self.half[list(key)])
        return rows
