"""Rewards: the step's RewardContext, the built-in terms and their weights, the reward_fn call
(docs/learning.md, "Rewards")."""

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

import ubot
from ubot._quote import quote

__all__ = ['RewardContext', 'reward_context', 'built_in_terms', 'Terms', 'Rewarder',
           'broadcast_reward', 'TERMS', 'DEFAULT_WEIGHTS']


# ---------------------------------------------------------------------------------------------
# Rewards.

TERMS = ("progress", "arrival", "collision", "time", "clearance", "smoothness")
DEFAULT_WEIGHTS = {"progress": 1.0, "arrival": 1.0, "collision": -1.0}  # ubot.VectorEnv's


@dataclass
class RewardContext:
    """What ``reward_fn(ctx)`` gets: the step's arrays for every env and robot, (E, R, ...)."""

    robot_names: list
    dt: float  # the world's step, s
    prev_state: np.ndarray  # (E, R, 3) before the step
    state: np.ndarray  # (E, R, 3) after it
    goal: np.ndarray  # (E, R, 3) the goal each robot had when the step began
    has_goal: np.ndarray  # (E, R) it had one
    next_goal: np.ndarray  # (E, R, 3) its goal now (the next waypoint after an arrival)
    prev_distance: np.ndarray  # (E, R) to ``goal`` before the step (0 without a goal)
    distance: np.ndarray  # (E, R) to ``goal`` after it
    action: np.ndarray  # (E, R, 2) the commands sent (kinematics frame, after scaling)
    prev_action: np.ndarray  # (E, R, 2) the previous step's (zeros at an episode's start)
    arrive: np.ndarray  # (E, R) bool flags after the step
    collision: np.ndarray
    stop: np.ndarray
    arrived: np.ndarray  # (E, R) bool: arrived on this step
    collided: np.ndarray  # (E, R) bool: started colliding on this step
    lidar: np.ndarray  # (E, R, beams) ranges after the step, or None
    step: np.ndarray  # (E,) steps of each env's episode, this one included
    active: np.ndarray  # (E, R) bool: robots an agent still controls
    terms: dict  # every built-in term (E, R) float64, by name


def reward_context(prev, frame, action, prev_action, step, active, layout, clearance_margin):
    def distance(state):
        d = np.hypot(state[..., 0] - prev.goal[..., 0], state[..., 1] - prev.goal[..., 1])
        return np.where(prev.has_goal, d, 0.0)

    ctx = RewardContext(
        robot_names=layout.robot_names, dt=layout.step_time, prev_state=prev.state,
        state=frame.state, goal=prev.goal, has_goal=prev.has_goal, next_goal=frame.goal,
        prev_distance=distance(prev.state), distance=distance(frame.state), action=action,
        prev_action=prev_action, arrive=frame.arrive, collision=frame.collision,
        stop=frame.stop, arrived=frame.arrive & ~prev.arrive,
        collided=frame.collision & ~prev.collision, lidar=frame.lidar, step=step,
        active=active, terms={})
    ctx.terms = built_in_terms(ctx, layout, clearance_margin)
    return ctx


def built_in_terms(ctx, layout, clearance_margin):
    """The built-in reward terms, each (E, R) float64 (docs/learning.md, "Rewards"), computed
    when first read: a weighted sum pays only for its own terms."""
    def smoothness():
        scale = np.maximum(np.abs(layout.vel_min), np.abs(layout.vel_max))
        change = (ctx.action - ctx.prev_action) / np.where(scale > 0, scale, 1.0)
        return np.sum(change * change, axis=-1)

    makers = {
        "progress": lambda: ctx.prev_distance - ctx.distance,
        "arrival": lambda: ctx.arrived.astype(np.float64),
        "collision": lambda: ctx.collided.astype(np.float64),
        "time": lambda: np.ones(ctx.arrive.shape),
        "smoothness": smoothness,
    }
    if ctx.lidar is not None and ctx.lidar.shape[-1] > 0:
        makers["clearance"] = lambda: np.maximum(
            0.0, clearance_margin - ctx.lidar.min(axis=-1).astype(np.float64))
    return Terms(makers)


class Terms(Mapping):
    """name -> term array, each made by its function on first access and kept."""

    def __init__(self, makers):
        self._makers, self._values = makers, {}

    def __getitem__(self, name):
        if name not in self._values:
            if name not in self._makers:
                raise KeyError(f"no reward term {quote(name)} (terms: {', '.join(self._makers)})")
            self._values[name] = self._makers[name]()
        return self._values[name]

    def __iter__(self):
        return iter(self._makers)

    def __len__(self):
        return len(self._makers)


class Rewarder:
    """``reward_fn`` or weighted built-in terms -> (E, R) float64."""

    def __init__(self, reward_fn=None, reward_weights=None, has_lidar=False):
        if reward_fn is not None and reward_weights is not None:
            raise ValueError("give reward_fn or reward_weights, not both (reward_fn gets every "
                             "built-in term in ctx.terms)")
        if reward_fn is not None and not callable(reward_fn):
            raise TypeError(f"reward_fn must be callable, got {type(reward_fn).__name__}")
        weights = dict(DEFAULT_WEIGHTS if reward_weights is None else reward_weights)
        unknown = sorted(set(weights) - set(TERMS))
        if unknown:
            raise ValueError(f"reward_weights: unknown terms {unknown} (known: {', '.join(TERMS)})")
        for name, w in weights.items():
            if not isinstance(w, (int, float, np.integer, np.floating)) or not math.isfinite(w):
                raise ValueError(f"reward_weights[{quote(name)}] must be a finite number, got {quote(w)}")
        if weights.get("clearance") and not has_lidar:
            raise ValueError("reward term 'clearance' needs a lidar2d on every robot")
        self.fn, self.weights = reward_fn, {k: float(w) for k, w in weights.items() if w}

    def __call__(self, ctx):
        shape = ctx.arrive.shape
        if self.fn is None:
            total = np.zeros(shape)
            for name, w in self.weights.items():
                total += w * ctx.terms[name]
            return total
        try:
            value = self.fn(ctx)
        except Exception as error:
            raise ValueError(f"reward_fn raised {type(error).__name__}: {error}") from error
        return broadcast_reward(value, shape)


def broadcast_reward(value, shape):
    """reward_fn's return as (E, R): a scalar, (E,) per env or (E, R)."""
    try:
        r = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"reward_fn must return numbers, got {type(value).__name__}") from error
    if r.ndim == 0:
        r = np.full(shape, float(r))
    elif r.shape == shape[:1]:
        r = np.repeat(r[:, None], shape[1], axis=1)
    elif r.shape != shape:
        raise ValueError(f"reward_fn returned shape {r.shape}; expected a scalar, ({shape[0]},) "
                         f"(per env) or {shape} (per env and robot)")
    if not np.all(np.isfinite(r)):
        raise ValueError("reward_fn returned NaN or infinite rewards")
    return r
