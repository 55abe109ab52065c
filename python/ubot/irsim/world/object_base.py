"""IR-SIM's ``ObjectBase`` surface over a ``ubot.Object``.

Every attribute is read from the native simulation when accessed and returned with IR-SIM's
shapes: states, velocities and goals are column vectors (n, 1), vertices are (2, n).
"""

import math
from types import SimpleNamespace

import numpy as np

from ..util.util import ClipTo2Pi, WrapToPi, relative_position
from .contact import ContactSensor

_CIRCLE_SEGMENTS = 64  # outline points for a circle (IR-SIM's Shapely buffer gives 64)


def _column(values) -> np.ndarray:
    return np.asarray(values, dtype=float).reshape(-1, 1)


def _goal_list(goal) -> list:
    """Waypoints for ``Simulation.set_goals`` from IR-SIM's goal forms."""
    if goal is None:
        return []
    arr = np.asarray(goal, dtype=float)
    if arr.ndim == 1 or (arr.ndim == 2 and arr.shape[1] == 1):
        return [arr.reshape(-1).tolist()]
    return [row.tolist() for row in arr]


class ObjectInfo(SimpleNamespace):
    """Fixed facts about an object, as IR-SIM's ``ObjectInfo`` names them."""

    def add_property(self, key, value):
        setattr(self, key, value)


class ObjectBase:
    """One robot or obstacle of an ``EnvBase``; ``env`` owns the native simulation."""

    def __init__(self, env, native, config: dict):
        self._env = env
        self._native = native
        self._config = config  # the object's YAML entry (for fields ubot does not keep)
        self._laser_colors = {}
        self.text = None  # set_text's label (recorded, not drawn)
        self.group_name = config.get("group_name", native.role)
        self.info = ObjectInfo(
            id=native.id, name=native.name, shape=native.shape_kind,
            kinematics=self.kinematics, role=native.role, color=native.color,
            static=native.static, goal=self.goal, vel_min=self.vel_min, vel_max=self.vel_max,
            acce=_column(native.acce), angle_range=None, goal_threshold=native.goal_threshold,
            wheelbase=self.wheelbase, G=None, h=None, cone_type=None, convex_flag=None)
        self._init_physical(config)
        self._init_fov(config)

    def _init_physical(self, config: dict) -> None:
        """IR-SIM 2.12.0's physical properties, as ObjectBase.__init__ fills them: a configured
        value, else mass 1 (inf for static objects and those without kinematics), friction 0.5
        and restitution 0 (the world's defaults), and the shape's inertia
        (``_default_inertia``). Read only: ubot's contact mode is its own (docs/contact.md)."""
        def number(key, default):
            value = config.get(key)
            return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else default

        finite = not (self.static or self.kinematics is None)
        self.mass = number("mass", 1.0 if finite else math.inf)
        self.friction = number("friction", 0.5)
        self.restitution = number("restitution", 0.0)
        self.inertia = number("inertia", self._default_inertia())
        for key in ("mass", "friction", "inertia", "restitution"):
            setattr(self.info, key, getattr(self, key))

    def _default_inertia(self) -> float:
        """IR-SIM 2.12.0's ``_default_inertia``: m r^2 / 2 for a circle, the polygon's polar
        moment about its centroid, else a disc of the bounding radius; inf for an infinite mass."""
        if not math.isfinite(self.mass):
            return math.inf
        if self.shape in ("polygon", "rectangle"):
            x, y = np.asarray(self.vertices, dtype=float)
            x, y = np.append(x, x[0]), np.append(y, y[0])
            cross = x[:-1] * y[1:] - x[1:] * y[:-1]
            area2 = float(np.sum(cross))
            if area2 != 0.0:
                cx = float(np.sum((x[:-1] + x[1:]) * cross)) / (3.0 * area2)
                cy = float(np.sum((y[:-1] + y[1:]) * cross)) / (3.0 * area2)
                x, y = x - cx, y - cy
                cross = x[:-1] * y[1:] - x[1:] * y[:-1]
                second = (x[:-1] ** 2 + x[:-1] * x[1:] + x[1:] ** 2
                          + y[:-1] ** 2 + y[:-1] * y[1:] + y[1:] ** 2)
                return abs(float(self.mass * np.sum(cross * second) / (6.0 * np.sum(cross))))
        return 0.5 * self.mass * self.radius ** 2

    def _init_fov(self, config: dict) -> None:
        fov = config.get("fov")
        lidar = self._lidar_name()
        if fov is not None:
            self.fov = ClipTo2Pi(float(fov))  # IR-SIM 2.12.0 clips (2.10.2 wrapped)
            self.fov_radius = float(config.get("fov_radius", 5.0))
        elif lidar is not None:
            scan = self._env._sim.sensor(self._native.name, lidar)
            self.fov = ClipTo2Pi(float(scan.angle_max - scan.angle_min))
            self.fov_radius = float(scan.range_max)
        else:
            self.fov = None
            self.fov_radius = None

    def __repr__(self) -> str:
        return f"{self.name}({self.role}, id {self.id})"

    def __eq__(self, other) -> bool:
        return isinstance(other, ObjectBase) and other.id == self.id and other._env is self._env

    def __hash__(self) -> int:
        return hash((id(self._env), self.id))

    # --- identity and configuration -------------------------------------------------------
    @property
    def id(self) -> int:
        return self._native.id

    @property
    def _id(self) -> int:
        return self._native.id

    @property
    def name(self) -> str:
        return self._native.name

    @property
    def role(self) -> str:
        return self._native.role

    @property
    def kinematics(self):
        kind = self._native.kinematics
        return None if kind == "none" else kind

    @property
    def static(self) -> bool:
        return self._native.static

    @property
    def shape(self) -> str:
        return self._native.shape_kind

    @property
    def color(self) -> str:
        return self._native.color

    @property
    def radius(self) -> float:
        return float(self._native.radius)

    @property
    def radius_extend(self) -> float:
        return self.radius + 0.1

    @property
    def wheelbase(self):
        kin = self._config.get("kinematics") or {}
        return kin.get("wheelbase") if isinstance(kin, dict) else None

    @property
    def goal_threshold(self) -> float:
        return float(self._native.goal_threshold)

    @property
    def vel_min(self) -> np.ndarray:
        return _column(self._native.vel_min)

    @property
    def vel_max(self) -> np.ndarray:
        return _column(self._native.vel_max)

    @property
    def max_speed(self) -> float:
        """IR-SIM 2.12.0's compute_max_speed: the norm of the two translational limits for omni
        and omni_angular, vel_max[0] for diff and acker, 0 without kinematics (no drive)."""
        vmax = self._native.vel_max
        if self.kinematics is None:
            return 0.0
        if self.kinematics in ("omni", "omni_angular"):
            return float(np.hypot(vmax[0], vmax[1]))
        return float(vmax[0])

    @property
    def beh_config(self):
        return self._config.get("behavior")

    # --- motion state ----------------------------------------------------------------------
    @property
    def state(self) -> np.ndarray:
        return _column(self._native.state)

    @property
    def _state(self) -> np.ndarray:
        return self.state

    @property
    def position(self) -> np.ndarray:
        return self.state[:2]

    @property
    def centroid(self) -> np.ndarray:
        verts = self.vertices
        if self.shape == "circle" or verts is None or verts.shape[1] == 0:
            return self.position
        return verts.mean(axis=1).reshape(2, 1)

    @property
    def heading(self) -> float:
        return float(self._native.state[2])

    @property
    def orientation(self) -> float:
        return self.heading

    @property
    def velocity(self) -> np.ndarray:
        return _column(self._native.velocity)

    @property
    def velocity_xy(self) -> np.ndarray:
        return _column(self._native.velocity_xy)

    @property
    def goal(self):
        goal = self._native.goal
        return None if goal is None else _column(goal)

    @property
    def goals(self) -> list:
        return [_column(g) for g in self._native.goals]

    @property
    def arrive(self) -> bool:
        return bool(self._native.arrive)

    @property
    def arrive_flag(self) -> bool:
        return bool(self._native.arrive)

    @property
    def collision(self) -> bool:
        return bool(self._native.collision)

    @property
    def collision_flag(self) -> bool:
        return bool(self._native.collision)

    @property
    def stop_flag(self) -> bool:
        return bool(self._native.stop)

    def done(self) -> bool:
        native = self._native
        return bool(native.stop or native.arrive)

    @property
    def vertices(self) -> np.ndarray:
        """The outline (2, n) in the world frame; circles as IR-SIM's 64-point polygon (from
        angle 0, clockwise)."""
        if self.shape == "circle":
            x, y = self._circle_center()
            t = -np.linspace(0.0, 2 * math.pi, _CIRCLE_SEGMENTS, endpoint=False)
            return np.vstack((x + self.radius * np.cos(t), y + self.radius * np.sin(t)))
        return np.asarray(self._native.vertices, dtype=float).T.copy()

    def _circle_center(self) -> np.ndarray:
        """The circle's centre in the world: the state moved by the shape's ``center`` offset."""
        shape = self._config.get("shape")
        shape = shape[0] if isinstance(shape, list) and shape else shape
        offset = shape.get("center", [0, 0]) if isinstance(shape, dict) else [0, 0]
        x, y, yaw = self._native.state[:3]
        c, s = math.cos(yaw), math.sin(yaw)
        return np.array([x + c * offset[0] - s * offset[1], y + s * offset[0] + c * offset[1]])

    def get_vel_range(self) -> tuple[np.ndarray, np.ndarray]:
        """Velocity bounds for the next step: the limits narrowed by acceleration * step_time."""
        dv = self.info.acce * self._env.step_time
        velocity = self.velocity
        return np.maximum(self.vel_min, velocity - dv), np.minimum(self.vel_max, velocity + dv)

    def get_desired_omni_vel(self, goal_threshold: float = 0.1, normalized: bool = False):
        """The world-frame velocity (2, 1) straight at the goal at the top speed: IR-SIM 2.12.0's
        ``_desired_speed_bounds``, ``vel_max[0]`` on both axes for diff and acker (their
        ``vel_max[1]`` is a turn rate; 2.10.2 scaled y by it), ``vel_max[0]`` and ``vel_max[1]``
        otherwise."""
        goal = self.goal
        if goal is None:
            return np.zeros((2, 1))
        dist, radian = relative_position(self.state, goal)
        if dist <= goal_threshold:
            return np.zeros((2, 1))
        speed_x = float(self.vel_max[0, 0])
        speed_y = speed_x if self.kinematics in ("diff", "acker") else float(self.vel_max[1, 0])
        vx = speed_x * math.cos(radian)
        vy = speed_y * math.sin(radian)
        length = math.hypot(vx, vy)
        if normalized and length > 1:
            vx, vy = vx / length, vy / length
        return np.array([[vx], [vy]])

    # --- information -----------------------------------------------------------------------
    def get_info(self) -> ObjectInfo:
        self.info.goal = self.goal
        return self.info

    def get_obstacle_info(self):
        return SimpleNamespace(center=self.state[:2], vertex=self.vertices, velocity=self.velocity,
                               radius=self.radius, G=None, h=None, cone_type=None,
                               convex_flag=None)

    @property
    def external_objects(self) -> list:
        return [obj for obj in self._env.objects if obj.id != self.id]

    @property
    def ego_object(self):
        return self

    # --- sensors ---------------------------------------------------------------------------
    def _lidar_name(self):
        for name in self._native.sensor_names:
            if "lidar" in name and "3d" not in name:
                return name
        return None

    @property
    def lidar(self):
        name = self._lidar_name()
        return None if name is None else self._env._sim.sensor(self._native.name, name)

    @property
    def sensors(self) -> list:
        return list(self._native.sensor_names)

    def get_lidar_scan(self) -> dict:
        return self._env._scan_dict(self)

    def get_lidar_points(self) -> np.ndarray:
        """Points (2, n) of the beams that hit, in the lidar frame."""
        lidar = self._require_lidar()
        return np.asarray(lidar.points, dtype=float)[np.asarray(lidar.valid)].T.copy()

    def get_lidar_offset(self) -> list:
        offset = self._lidar_config().get("offset", [0, 0, 0])
        return [float(v) for v in offset]

    def _require_lidar(self):
        lidar = self.lidar
        if lidar is None:
            raise AttributeError(f"{self.name} has no 2D lidar")
        return lidar

    def _lidar_config(self) -> dict:
        for sensor in self._config.get("sensors") or []:
            if isinstance(sensor, dict) and "lidar" in str(sensor.get("type", sensor.get("name", ""))):
                return sensor
        return {}

    def set_laser_color(self, laser_indices, laser_color: str = "cyan", alpha: float = 0.3):
        """Kept for IR-SIM scripts; ubot's pictures draw beams in one colour, so this only
        records the request (``laser_colors``)."""
        for index in np.atleast_1d(laser_indices):
            self._laser_colors[int(index)] = (laser_color, alpha)

    def set_text(self, text=None) -> None:
        """Kept for IR-SIM scripts (``push_box_world.py`` labels its boxes): ubot's pictures
        draw no object labels, so this only records the text (``text``; None resets it)."""
        self.text = None if text is None else str(text)

    @property
    def contact(self) -> ContactSensor:
        """The contact sensor after the last step (collision_mode 'contact'; empty otherwise)."""
        return ContactSensor(self._native.contact, self._env._objects)

    # --- field of view ---------------------------------------------------------------------
    def fov_detect_object(self, detected_object) -> bool:
        """Whether ``detected_object`` (an ObjectBase) lies in this object's field of view."""
        if self.fov is None:
            return False
        rx, ry = self._native.state[:2]
        px, py = detected_object._native.state[:2]
        dx, dy = px - rx, py - ry
        distance = math.hypot(dx, dy)
        rad_diff = WrapToPi(WrapToPi(math.atan2(dy, dx)) - self._native.state[2], True)
        radius = detected_object.radius
        rad_offset = math.pi / 2 if distance == 0 else WrapToPi(math.asin(min(radius / distance, 1)))
        return bool(abs(rad_diff - rad_offset) <= self.fov / 2
                    and distance - radius <= self.fov_radius)

    def get_fov_detected_objects(self) -> list:
        return [obj for obj in self.external_objects if self.fov_detect_object(obj)]

    # --- changes ---------------------------------------------------------------------------
    def set_state(self, state=None, init: bool = False) -> None:
        """Moves the object now (``init`` also makes this the state ``reset`` returns to)."""
        values = np.asarray(state if state is not None else [0, 0, 0], dtype=float).reshape(-1)
        self._env._sim.set_state(self._native.name, values)
        if init:
            self._env._initial_states[self.id] = values.copy()

    def set_velocity(self, velocity=None, init: bool = False) -> None:
        """IR-SIM's set_velocity: the object's velocity in its kinematics frame (a (2, 1)
        column or 2 numbers; None: zero), as an outside driver reports it. ``init`` is accepted
        (IR-SIM keeps it for reset; ubot's reset starts every object at rest)."""
        values = np.zeros(2) if velocity is None else \
            np.asarray(velocity, dtype=float).reshape(-1)[:2]
        self._env._sim.set_velocity(self._native.name, values)

    def set_goal(self, goal=None, init: bool = False) -> None:
        """One goal [x, y(, theta)] (a list or a column), a list of goals, or None to clear."""
        self._env._sim.set_goals(self._native.name, _goal_list(goal))

    def append_goal(self, goal) -> None:
        goals = [list(g.reshape(-1)) for g in self.goals]
        goals.append(list(np.asarray(goal, dtype=float).reshape(-1)))
        self._env._sim.set_goals(self._native.name, goals)
