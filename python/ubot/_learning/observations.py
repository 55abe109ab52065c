"""Observation items and the Observer that assembles them (docs/learning.md, "Observations")."""

import math
from dataclasses import field

import numpy as np

from .frames import _find_sensor, to_robot_frame, wrap_angle  # noqa: F401

__all__ = ['Item', 'Lidar', 'Pose', 'Goal', 'GoalPolar', 'goal_in_robot_frame', 'Velocity',
           'Flags', 'Neighbors', 'Fov', 'Clearance', 'Imu', 'Depth', 'Observer', 'pick',
           'ITEMS', 'DEFAULT_OBSERVATIONS']


# ---------------------------------------------------------------------------------------------
# Observation items. Each gives, per robot, its width, raw bounds (values are clipped into
# them, so that every observation lies in its space) and the (offset, scale) of normalize=True.


class Item:
    name = ""
    sim_only = False  # needs a Simulation (not in the C++ VectorEnv's arrays)
    needs_lidar = False

    def __init__(self, layout, options):
        self.layout = layout

    def bounds(self):  # (R, k) low, high
        raise NotImplementedError

    def norm(self):  # (R, k) offset, scale: normalized = (raw - offset) / scale
        raise NotImplementedError

    def compute(self, frame):  # (E, R, k)
        return frame.extra[self.name]

    def _rows(self, values):
        return np.tile(np.asarray(values, np.float64), (self.layout.n_robots, 1))


class Lidar(Item):
    name = "lidar"
    needs_lidar = True

    def __init__(self, layout, options):
        super().__init__(layout, options)
        if layout.lidar_max is None:
            raise ValueError("observation 'lidar' needs a lidar2d on every robot")
        if layout.beams < 0:
            raise ValueError("observation 'lidar': the robots' lidars have different beam counts")
        self.high = np.repeat(layout.lidar_max[:, None], layout.beams, axis=1)

    def bounds(self):
        return np.zeros_like(self.high), self.high

    def norm(self):
        return np.zeros_like(self.high), self.high

    def compute(self, frame):
        return frame.lidar


class Pose(Item):
    name = "pose"

    def bounds(self):
        x0, x1, y0, y1 = self.layout.world_size
        return self._rows([x0, y0, -np.pi]), self._rows([x1, y1, np.pi])

    def norm(self):
        x0, x1, y0, y1 = self.layout.world_size
        return (self._rows([(x0 + x1) / 2, (y0 + y1) / 2, 0]),
                self._rows([(x1 - x0) / 2, (y1 - y0) / 2, np.pi]))

    def compute(self, frame):
        s = frame.state
        return np.stack([s[..., 0], s[..., 1], wrap_angle(s[..., 2])], axis=-1)


class Goal(Item):
    """The goal in the robot's frame: dx (ahead), dy (to the left), m; zeros without a goal."""

    name = "goal"

    def bounds(self):
        d = self.layout.diagonal
        return self._rows([-d, -d]), self._rows([d, d])

    def norm(self):
        return self._rows([0, 0]), self._rows([self.layout.diagonal] * 2)

    def compute(self, frame):
        dx, dy = goal_in_robot_frame(frame)
        return np.stack([dx, dy], axis=-1)


class GoalPolar(Goal):
    """The goal as distance (m) and bearing (rad, counter-clockwise from ahead)."""

    name = "goal_polar"

    def bounds(self):
        return self._rows([0, -np.pi]), self._rows([self.layout.diagonal, np.pi])

    def norm(self):
        return self._rows([0, 0]), self._rows([self.layout.diagonal, np.pi])

    def compute(self, frame):
        dx, dy = goal_in_robot_frame(frame)
        bearing = np.where(frame.has_goal, np.arctan2(dy, dx), 0.0)
        return np.stack([np.hypot(dx, dy), bearing], axis=-1)


def goal_in_robot_frame(frame):
    dx = np.where(frame.has_goal, frame.goal[..., 0] - frame.state[..., 0], 0.0)
    dy = np.where(frame.has_goal, frame.goal[..., 1] - frame.state[..., 1], 0.0)
    return to_robot_frame(frame.state, dx, dy)


class Velocity(Item):
    name = "velocity"

    def bounds(self):
        return self.layout.vel_min.copy(), self.layout.vel_max.copy()

    def norm(self):
        scale = np.maximum(np.abs(self.layout.vel_min), np.abs(self.layout.vel_max))
        return np.zeros_like(scale), np.where(scale > 0, scale, 1.0)

    def compute(self, frame):
        return frame.velocity


class Flags(Item):
    name = "flags"

    def bounds(self):
        return self._rows([0, 0, 0]), self._rows([1, 1, 1])

    def norm(self):
        return self._rows([0, 0, 0]), self._rows([1, 1, 1])

    def compute(self, frame):
        return np.stack([frame.arrive, frame.collision, frame.stop], axis=-1).astype(np.float64)


class Neighbors(Item):
    """The ``neighbors`` nearest other robots: per neighbour dx, dy (robot frame, m), dyaw
    (rad) and present (1, or 0 for a padding row when there are fewer robots)."""

    name = "neighbors"

    def __init__(self, layout, options):
        super().__init__(layout, options)
        self.k = int(options.get("neighbors", 3))
        if self.k < 1:
            raise ValueError("neighbors must be at least 1")

    def bounds(self):
        d = self.layout.diagonal
        return (self._rows([-d, -d, -np.pi, 0] * self.k), self._rows([d, d, np.pi, 1] * self.k))

    def norm(self):
        d = self.layout.diagonal
        return self._rows([0, 0, 0, 0] * self.k), self._rows([d, d, np.pi, 1] * self.k)

    def compute(self, frame):
        s = frame.state
        e, r = s.shape[:2]
        dx = s[:, None, :, 0] - s[:, :, None, 0]  # [env, me, other]
        dy = s[:, None, :, 1] - s[:, :, None, 1]
        dist = np.hypot(dx, dy)
        dist[:, np.arange(r), np.arange(r)] = np.inf  # not my own neighbour
        order = np.argsort(dist, axis=-1, kind="stable")[..., :min(self.k, r - 1)]
        take = lambda a: np.take_along_axis(a, order, axis=-1)  # noqa: E731
        me = s[:, :, None, :]
        fx, fy = to_robot_frame(me, take(dx), take(dy))
        dyaw = wrap_angle(take(s[:, None, :, 2] - s[:, :, None, 2]))
        rows = np.stack([fx, fy, dyaw, np.ones_like(fx)], axis=-1)  # (E, R, n, 4)
        out = np.zeros((e, r, self.k, 4))
        out[:, :, :rows.shape[2]] = rows
        return out.reshape(e, r, 4 * self.k)


class Fov(Item):
    """1 for each object (in id order) the robot detects in its field of view, else 0."""

    name = "fov"
    sim_only = True

    def bounds(self):
        n = len(self.layout.object_names)
        return self._rows([0] * n), self._rows([1] * n)

    norm = bounds  # (offset, scale) = (0, max): normalized into [0, 1]

    def from_sim(self, sim, k):
        out = np.zeros(len(self.layout.object_names))
        detected = sim.fov_detections()[k]
        out[list(detected)] = 1.0
        return out


class Clearance(Item):
    """The distance (m) from the robot to the nearest object it can collide with
    (``Simulation.min_clearance``), clipped to ``clearance_max``."""

    name = "clearance"
    sim_only = True

    def __init__(self, layout, options):
        super().__init__(layout, options)
        self.max = float(options.get("clearance_max", 5.0))

    def bounds(self):
        return self._rows([0]), self._rows([self.max])

    norm = bounds  # (offset, scale) = (0, max): normalized into [0, 1]

    def from_sim(self, sim, k):
        d = sim.min_clearance(self.layout.robot_names[k])
        return [self.max if math.isnan(d) else d]


class Imu(Item):
    """The robot's IMU: linear acceleration (m/s^2) and angular velocity (rad/s), body frame,
    clipped to +-imu_accel_max and +-imu_gyro_max."""

    name = "imu"
    sim_only = True

    def __init__(self, layout, options):
        super().__init__(layout, options)
        self.a = float(options.get("imu_accel_max", 50.0))
        self.w = float(options.get("imu_gyro_max", 20.0))
        self.sensors = {}

    def bounds(self):
        a, w = self.a, self.w
        return self._rows([-a] * 3 + [-w] * 3), self._rows([a] * 3 + [w] * 3)

    def norm(self):
        return self._rows([0] * 6), self._rows([self.a] * 3 + [self.w] * 3)

    def from_sim(self, sim, k):
        robot = self.layout.robot_names[k]
        if robot not in self.sensors:
            self.sensors[robot] = _find_sensor(sim, robot, ("imu",))
        sample = sim.sensor(robot, self.sensors[robot])
        acc, gyro = sample.linear_acceleration, sample.angular_velocity
        if acc is None or gyro is None:
            return np.zeros(6)
        return np.concatenate([np.asarray(acc, float)[:3], np.asarray(gyro, float)[:3]])


class Depth(Item):
    """The robot's depth camera, (H * W,) row-major, m; 0 = no data; clipped to depth_max."""

    name = "depth"
    sim_only = True

    def __init__(self, layout, options):
        super().__init__(layout, options)
        self.max = float(options.get("depth_max", 10.0))
        sim, robot = options["_sim"], layout.robot_names[0]
        self.sensors = {}
        sample = sim.sensor(robot, self._sensor(sim, robot))
        self.size = int(sample.width) * int(sample.height)

    def _sensor(self, sim, robot):
        if robot not in self.sensors:
            self.sensors[robot] = _find_sensor(sim, robot, ("depth_camera",))
        return self.sensors[robot]

    def bounds(self):
        return self._rows([0] * self.size), self._rows([self.max] * self.size)

    norm = bounds  # (offset, scale) = (0, max): normalized into [0, 1]

    def from_sim(self, sim, k):
        robot = self.layout.robot_names[k]
        depth = sim.sensor(robot, self._sensor(sim, robot)).depth
        if depth is None:
            return np.zeros(self.size)
        depth = np.asarray(depth, np.float64).ravel()
        if depth.size != self.size:
            raise ValueError(f"robot {robot}'s depth camera has {depth.size} pixels, the "
                             f"observation was built for {self.size} (one camera size for all)")
        return depth


ITEMS = {c.name: c for c in (Lidar, Pose, Goal, GoalPolar, Velocity, Flags, Neighbors, Fov,
                             Clearance, Imu, Depth)}
DEFAULT_OBSERVATIONS = ("lidar", "goal_polar", "velocity")


class Observer:
    """Builds the chosen observation items' spaces and values."""

    def __init__(self, layout, names, normalize=False, flatten=True, options=None, sim=None):
        if isinstance(names, str):
            names = (names,)
        names = list(names)
        unknown = [n for n in names if n not in ITEMS]
        if unknown or not names or len(set(names)) != len(names):
            raise ValueError(f"observations: unknown or repeated names {unknown or names} "
                             f"(known: {', '.join(ITEMS)})")
        options = dict(options or {}, _sim=sim)
        self.layout, self.names = layout, names
        self.items = [ITEMS[n](layout, options) for n in names]
        self.normalize, self.flatten = bool(normalize), bool(flatten)
        self.sim_items = [i for i in self.items if i.sim_only]
        self.needs_lidar = any(i.needs_lidar for i in self.items)
        self._low, self._high, self._offset, self._scale = {}, {}, {}, {}
        for item in self.items:
            low, high = item.bounds()
            offset, scale = item.norm()
            if self.normalize:
                low, high = (low - offset) / scale, (high - offset) / scale
            self._low[item.name], self._high[item.name] = low, high
            self._offset[item.name], self._scale[item.name] = offset, scale
        # Bounds the same for every robot and component (a lidar's [0, range_max], unbounded
        # poses) clip as two scalars: numpy clips 4x faster than against broadcast arrays (43
        # against 10 us for 256 x 200 beams), with the same float32 values.
        self._low32 = {n: _uniform_or_array(v) for n, v in self._low.items()}
        self._high32 = {n: _uniform_or_array(v) for n, v in self._high.items()}
        self._slices = list(self.offsets().values())
        self.width = self._slices[-1].stop

    def space(self, robot):
        """The observation space of robot index ``robot`` (Gymnasium spaces)."""
        from gymnasium.spaces import Box, Dict

        boxes = {n: Box(self._low[n][robot].astype(np.float32),
                        self._high[n][robot].astype(np.float32), dtype=np.float32)
                 for n in self.names}
        if not self.flatten:
            return Dict(boxes)
        return Box(np.concatenate([b.low for b in boxes.values()]),
                   np.concatenate([b.high for b in boxes.values()]), dtype=np.float32)

    def observe(self, frame):
        """name -> (E, R, k) float32, clipped into the space (or, flattened, (E, R, total))."""
        lead = frame.state.shape[:2]
        flat = np.empty(lead + (self.width,), np.float32) if self.flatten else None
        out = {}
        for item, where in zip(self.items, self._slices):
            v = item.compute(frame)
            if self.normalize:
                v = (v - self._offset[item.name]) / self._scale[item.name]
            # One pass: clipped into the space and cast to float32, in place in the flat vector.
            dest = flat[..., where] if self.flatten else np.empty(lead + (where.stop - where.start,
                                                                         ), np.float32)
            out[item.name] = np.clip(v, self._low32[item.name], self._high32[item.name],
                                     out=dest, casting="same_kind")
        return flat if self.flatten else out

    def offsets(self):
        """Where each item sits in the flat vector: name -> slice."""
        out, start = {}, 0
        for item in self.items:
            width = self._low[item.name].shape[1]
            out[item.name] = slice(start, start + width)
            start += width
        return out


def _uniform_or_array(bound):
    """``bound`` as float32: one scalar when every entry is the same, else the array."""
    b = np.asarray(bound, dtype=np.float32)
    return b.flat[0] if b.size and np.all(b == b.flat[0]) else b


def pick(obs, env=slice(None), robot=0):
    """One robot's rows of an observation (flat array or dict)."""
    if isinstance(obs, dict):
        return {k: v[env, robot] for k, v in obs.items()}
    return obs[env, robot]
