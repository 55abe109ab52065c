"""Seeded random placement of starts, goals and obstacles, episode seeds, and making the
simulations (docs/learning.md, "Resets")."""

import math
import os

import ubot

from ubot._quote import quote

from .frames import Frame  # noqa: F401

__all__ = ['check_randomize', 'core_layout', 'randomize', 'randomize_seed', 'world_seed', 'make_core', 'load_sim',
           'RANDOMIZE_KEYS']


# ---------------------------------------------------------------------------------------------
# Seeded random placement of starts, goals and obstacles (docs/learning.md, "Resets").

RANDOMIZE_KEYS = ("robots", "goals", "obstacles", "region", "margin", "min_goal_distance",
                  "yaw", "tries")


MAX_TRIES = 1_000_000  # draws per object: more is a hang, not a search


def check_randomize(spec, layout):
    if spec is None or spec is False:
        return None
    if spec is True:
        spec = {"robots": True, "goals": True}
    if not isinstance(spec, dict):
        raise TypeError(f"randomize must be a dict (or True / None), got {type(spec).__name__}")
    unknown = sorted(set(spec) - set(RANDOMIZE_KEYS))
    if unknown:
        raise ValueError(f"randomize: unknown keys {unknown} (known: {', '.join(RANDOMIZE_KEYS)})")
    out = dict(spec)
    for key, pool in (("robots", layout.robot_names), ("goals", layout.robot_names),
                      ("obstacles", [n for n in layout.object_names
                                     if n not in layout.robot_names])):
        chosen = out.get(key, False)
        if chosen is True:
            chosen = list(pool)
        elif not chosen:
            chosen = []
        bad = [n for n in chosen if n not in pool]
        if bad:
            raise ValueError(f"randomize[{quote(key)}]: unknown names {bad} (known: {pool})")
        out[key] = list(chosen)
    region = out.get("region", layout.world_size)
    if len(region) != 4 or not region[0] < region[1] or not region[2] < region[3]:
        raise ValueError(f"randomize['region'] must be [x_min, x_max, y_min, y_max], got {region}")
    out["region"] = [float(v) for v in region]
    if not all(math.isfinite(v) for v in out["region"]):
        raise ValueError(f"randomize['region'] must be finite, got {region}")
    for key, default in (("margin", 0.1), ("min_goal_distance", 1.0)):
        out[key] = float(out.get(key, default))
        if not (math.isfinite(out[key]) and out[key] >= 0.0):
            raise ValueError(f"randomize[{quote(key)}] must be a finite number >= 0 (m), "
                             f"got {out[key]}")
    out["yaw"] = bool(out.get("yaw", True))
    tries = out.get("tries", 200)
    if isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= MAX_TRIES:
        raise ValueError(f"randomize['tries'] must be an int from 1 to {MAX_TRIES}, got "
                         f"{quote(tries)}")
    out["tries"] = tries
    return out


def core_layout(core):
    """What check_randomize reads of a world (robot and object names, its area), from
    ubot.VectorEnv's C++ core, for the classes that have no Simulation to read a Layout from."""
    from types import SimpleNamespace

    return SimpleNamespace(robot_names=list(core.robot_names),
                           object_names=list(core.object_names),
                           world_size=tuple(core.world_size))


def randomize(sim, spec, seed):
    """Places the chosen obstacles, then robots, then goals, one at a time, uniformly in the
    region; a place is taken when the object is at least ``margin`` (m) from every other object
    it can collide with (exact shapes). A goal must also be ``min_goal_distance`` from its
    robot's start and clear of the other goals by two radii. Draws from ``seed``. The one
    definition is native (ubot/sim/random_placement.h), which the vector core runs too; a
    ValueError names the object that finds no place."""
    from ubot import _core

    _core._place_randomly(sim, spec, int(seed))


def randomize_seed(world_seed):
    """The placement's seed in an episode of world seed ``world_seed``: the vector core's rule,
    so a single env and a vector env's env 0 place alike."""
    return ubot.stream_seed(int(world_seed), "randomize")


def world_seed(base, episode):
    """The world seed of episode ``episode`` of a run with base seed ``base``: ubot.VectorEnv's
    rule for its env 0, so a single Env and a vector env's first env see the same worlds."""
    return ubot.stream_seed(int(base), f"vector_env/0/{int(episode)}")


def make_core(world, num_envs, layout, lidar=None, threads=0, randomize=None):
    """ubot.VectorEnv's C++ core for the vector forms: every array a Frame needs, no reward,
    termination or auto-reset of its own (DISABLED mode; the Python side decides them);
    ``randomize`` (check_randomize's) places objects at every episode's start."""
    from ubot import _core

    arrays = ["state", "goal", "flags", "velocity"]
    if layout.lidar_max is not None and layout.beams >= 0:
        arrays.append("lidar")
    core = _core._VectorEnv(os.fspath(world), int(num_envs), seed=0, threads=int(threads),
                            max_steps=0, observations=arrays, lidar=lidar or "",
                            auto_reset=False)
    core.set_randomize(randomize)
    return core


def load_sim(world, seed=None, threads=1):
    """A Simulation of the world file ``world`` (str or os.PathLike)."""
    return ubot.Simulation(os.fspath(world), seed=seed, threads=threads)
