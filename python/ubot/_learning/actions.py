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
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{what} holds NaN or infinite values: {a.tolist()}")
        low, high = self.bounds(robots)
        if self.clip:
            a = np.clip(a, low, high)
        else:
            tol = 1e-6 * np.maximum(1.0, np.abs(high - low))  # float32 rounding of a sample
            outside = (a < low - tol) | (a > high + tol)
            if outside.any():
                raise ValueError(f"{what} {a.tolist()} is outside the action space [{low.tolist()}"
                                 f", {high.tolist()}] (clip_actions=True clips instead)")
            a = np.clip(a, low, high)
        if self.normalized:
            a = self.mid[robots] + a * self.half[robots]
        return a
