"""The world's layout (what does not change while it runs) and the Frame: the step's arrays
for every env and robot, read from simulations or from the C++ VectorEnv's observations."""

import math
from dataclasses import dataclass, field

import numpy as np

import ubot

LIDAR_TYPES = ("lidar2d", "fmcw_lidar2d")


__all__ = ['LIDAR_TYPES', 'Layout', 'read_layout', '_find_lidar', '_find_sensor', 'Frame',
           'frame_from_sims', 'frame_from_vector', '_pad3', '_ranges', 'wrap_angle',
           'to_robot_frame']


# ---------------------------------------------------------------------------------------------
# The world's layout: what does not change while it runs.


@dataclass
class Layout:
    """Static facts of a world, read once from a ``Simulation``."""

    robot_names: list
    object_names: list
    vel_min: np.ndarray  # (R, 2)
    vel_max: np.ndarray  # (R, 2)
    world_size: tuple  # x_min, x_max, y_min, y_max
    step_time: float
    lidar: list = field(default_factory=list)  # per robot: its lidar's name or None
    lidar_max: np.ndarray = None  # (R,) range_max of that lidar
    beams: int = 0

    @property
    def n_robots(self):
        return len(self.robot_names)

    @property
    def diagonal(self):
        x0, x1, y0, y1 = self.world_size
        return math.hypot(x1 - x0, y1 - y0)


def read_layout(sim, lidar=None):
    """The layout of ``sim``'s world; ``lidar`` names each robot's lidar (None: its first, as
    ubot.VectorEnv picks it)."""
    names = list(sim.robot_names)
    robots = [sim.object(n) for n in names]
    layout = Layout(robot_names=names, object_names=list(sim.object_names),
                    vel_min=np.array([r.vel_min[:2] for r in robots], dtype=np.float64),
                    vel_max=np.array([r.vel_max[:2] for r in robots], dtype=np.float64),
                    world_size=tuple(sim.world_size), step_time=float(sim.step_time))
    layout.lidar = [_find_lidar(sim, n, lidar) for n in names]
    if all(name is not None for name in layout.lidar):
        samples = [sim.sensor(r, s) for r, s in zip(names, layout.lidar)]
        layout.lidar_max = np.array([s.range_max for s in samples], dtype=np.float64)
        beams = {len(s.angles) for s in samples}
        layout.beams = beams.pop() if len(beams) == 1 else -1  # -1: the counts differ
    return layout


def _find_lidar(sim, robot, name):
    for sensor in sim.object(robot).sensor_names:
        if (name is None or sensor == name) and sim.sensor(robot, sensor).type in LIDAR_TYPES:
            return sensor
    return None


def _find_sensor(sim, robot, types, name=None):
    for sensor in sim.object(robot).sensor_names:
        if (name is None or sensor == name) and sim.sensor(robot, sensor).type in types:
            return sensor
    raise ValueError(f"robot {robot} has no {' or '.join(types)} sensor"
                     + (f" named {name!r}" if name else ""))


# ---------------------------------------------------------------------------------------------
# A Frame: the step's arrays, for every env and robot.


@dataclass
class Frame:
    """The state of every env and robot at one moment (float64 arrays, (E, R, ...))."""

    state: np.ndarray  # (E, R, 3) x, y, yaw (world frame)
    goal: np.ndarray  # (E, R, 3) current waypoint (the state when none)
    has_goal: np.ndarray  # (E, R) bool
    velocity: np.ndarray  # (E, R, 2) last command, kinematics frame
    arrive: np.ndarray  # (E, R) bool
    collision: np.ndarray
    stop: np.ndarray
    lidar: np.ndarray = None  # (E, R, beams) float32 (as the C++ core keeps it), or None
    extra: dict = field(default_factory=dict)  # Simulation-only items: name -> (E, R, k)


def frame_from_sims(sims, layout, extra_items=(), lidar=True):
    """A Frame of the Simulations ``sims`` (one env each); ``extra_items`` are the
    Simulation-only observation items to read as well."""
    e, r = len(sims), layout.n_robots
    f = Frame(state=np.zeros((e, r, 3)), goal=np.zeros((e, r, 3)),
              has_goal=np.zeros((e, r), bool), velocity=np.zeros((e, r, 2)),
              arrive=np.zeros((e, r), bool), collision=np.zeros((e, r), bool),
              stop=np.zeros((e, r), bool))
    if lidar and layout.lidar_max is not None:
        f.lidar = np.zeros((e, r, max(layout.beams, 0)), np.float32)
    for i, sim in enumerate(sims):
        for k, name in enumerate(layout.robot_names):
            o = sim.object(name)
            f.state[i, k] = o.state[:3]
            goal = o.goal
            f.has_goal[i, k] = goal is not None
            f.goal[i, k] = o.state[:3] if goal is None else _pad3(goal)
            f.velocity[i, k] = o.velocity[:2]
            f.arrive[i, k], f.collision[i, k], f.stop[i, k] = o.arrive, o.collision, o.stop
            if f.lidar is not None:
                f.lidar[i, k] = _ranges(sim.sensor(name, layout.lidar[k]), layout.lidar_max[k])
    # Rounded as ubot.VectorEnv's float32 arrays are: both backends then compute the same.
    for a in (f.state, f.goal, f.velocity):
        a[...] = a.astype(np.float32)
    for item in extra_items:
        f.extra[item.name] = np.array([[item.from_sim(sim, k) for k in range(r)] for sim in sims],
                                      dtype=np.float64).reshape(e, r, -1)
    return f


def frame_from_vector(obs):
    """A Frame of ubot.VectorEnv's observation dict (it must hold state, goal, flags and
    velocity; lidar when used). The vector env writes the state as the goal of a robot without
    one: that is how ``has_goal`` is told."""
    state = obs["state"].astype(np.float64)
    goal = obs["goal"].astype(np.float64)
    flags = obs["flags"]
    lidar = obs.get("lidar")
    return Frame(state=state, goal=goal, has_goal=~np.all(obs["goal"] == obs["state"], axis=-1),
                 velocity=obs["velocity"].astype(np.float64), arrive=flags[..., 0].copy(),
                 collision=flags[..., 1].copy(), stop=flags[..., 2].copy(),
                 lidar=None if lidar is None else lidar.copy())


def _pad3(goal):
    g = np.zeros(3)
    g[:len(goal[:3])] = goal[:3]
    return g


def _ranges(sample, range_max):
    # Before the first sample there are no ranges: nothing seen, as far as the lidar reaches
    # (what ubot.VectorEnv writes too). Beams without a return read range_max.
    ranges = np.asarray(sample.ranges, dtype=np.float64)
    if ranges.size == 0:
        return np.full(len(sample.angles), range_max)
    return np.nan_to_num(ranges, nan=range_max, posinf=range_max, neginf=0.0)


def wrap_angle(a):
    return (a + np.pi) % (2 * np.pi) - np.pi


def to_robot_frame(state, dx, dy):
    """World-frame offsets (dx, dy) in the frame of robots at ``state`` (x forward, y left)."""
    c, s = np.cos(state[..., 2]), np.sin(state[..., 2])
    return c * dx + s * dy, -s * dx + c * dy
