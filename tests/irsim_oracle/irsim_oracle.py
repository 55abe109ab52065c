#!/usr/bin/env python3
"""Independent test oracle for ubot's IR-SIM compatibility.

A small re-implementation of IR-SIM's step semantics (GitHub hanruihua/ir-sim,
newest 2.x code) written with numpy only, for deterministic worlds: no
kinematic or sensor noise, no random distributions, no wander, no random
shapes. Where ubot's specification (SPEC.md sections 1 and 2)
deliberately departs from IR-SIM, this oracle follows ubot:

* circles are exact circles (IR-SIM uses 64-gons), for collisions, lidar and
  the RVO radius (radius_extend = r + 0.1);
* collisions are exact geometric `intersects` tests (touching counts);
* lidar beams: linspace(-R/2, R/2, N) for R < 2*pi - 1e-6, otherwise N distinct
  beams -R/2 + i*R/N with R = 2*pi; ranges by exact ray intersection
  (nearest hit with t >= 0; a beam starting inside another closed shape reads 0);
  a miss reads range_max; a hit closer than range_min reads range_min and is
  invalid; valid = hit with range in [range_min, range_max].

Everything else mirrors IR-SIM, down to the numpy operation where the result
could otherwise differ in the last bits (np.arange grids, np.clip,
np.linalg.norm, math.hypot, first-argmin ties). Each rule names the IR-SIM file
it comes from.

Usage:
    python3 irsim_oracle.py WORLD.yaml --steps N [--until-done] [--skip-random]

Prints one JSON line per step k = 1..N (after the k-th env.step()):
    {"step": k, "objects": [...], "sensors": [...]}

Exit codes: 0 ok; 2 unsupported or invalid world; 77 world skipped because it
needs randomness and --skip-random was given.
"""

import argparse
import json
import math
import sys
from collections import deque

import numpy as np
import yaml

PI = math.pi
EXIT_UNSUPPORTED = 2
EXIT_SKIPPED = 77


class Unsupported(Exception):
    """The world uses a feature the oracle does not model."""


class NeedsRandom(Unsupported):
    """The world needs random numbers (distribution random, wander, ...)."""


# ---------------------------------------------------------------------------
# Angle and list helpers  (irsim/util/util.py)
# ---------------------------------------------------------------------------

def wrap_to_pi(rad, positive=False):
    """Newest WrapToPi: Python float modulo, range [-pi, pi)."""
    rad = float(rad)
    if not math.isfinite(rad):
        return 0.0
    out = (rad + PI) % (2 * PI) - PI
    return abs(out) if positive else out


def wrap_to_region(rad, lo, hi):
    """WrapToRegion: while loops; IR-SIM asserts hi - lo == 2*pi exactly."""
    if hi - lo != 2 * PI:
        raise Unsupported("angle_range must span exactly 2*pi")
    while rad > hi:
        rad = rad - 2 * PI
    while rad < lo:
        rad = rad + 2 * PI
    return rad


def _is_number(v):
    return isinstance(v, (int, float, np.number)) and not isinstance(v, bool)


def convert_list_length(value, number):
    """convert_list_length: a scalar, a dict, or a list of numbers is shared by
    all `number` objects; any other list is a per-object list, padded with its
    last element or truncated."""
    if number == 0:
        return []
    if not isinstance(value, list) or all(_is_number(v) for v in value):
        return [value] * number
    value = list(value)
    if len(value) <= number:
        value.extend([value[-1]] * (number - len(value)))
    return value[:number]


def convert_list_length_dict(value, number):
    """convert_list_length_dict: a list of dicts goes whole to every object."""
    if number == 0:
        return []
    if not isinstance(value, list) or all(isinstance(v, dict) for v in value):
        return [value] * number
    value = list(value)
    if len(value) <= number:
        value.extend([value[-1]] * (number - len(value)))
    return value[:number]


def is_2d_list(data):
    """util.is_2d_list: a non-empty list whose first element is a list/tuple."""
    return isinstance(data, (list, deque)) and len(data) > 0 and isinstance(data[0], (list, tuple))


def relative_position(p1, p2):
    """util.relative_position: distance by math.hypot, angle wrapped."""
    dist = math.hypot(p2[0, 0] - p1[0, 0], p2[1, 0] - p1[1, 0])
    diff = p2[0:2] - p1[0:2]
    radian = wrap_to_pi(math.atan2(diff[1, 0], diff[0, 0]))
    return dist, radian


def omni_to_diff(state_ori, vel_omni, w_max=1.5, guarantee_time=0.2,
                 tolerance=0.1, mini_speed=0.02):
    """util.omni_to_diff with its default constants."""
    if isinstance(vel_omni, list):
        vel_omni = np.array(vel_omni).reshape((2, 1))
    speed = np.sqrt(vel_omni[0, 0] ** 2 + vel_omni[1, 0] ** 2)
    if speed <= mini_speed:
        return np.zeros((2, 1))
    vel_radians = math.atan2(vel_omni[1, 0], vel_omni[0, 0])
    diff_radians = wrap_to_pi(state_ori - vel_radians)
    if abs(diff_radians) < tolerance:
        w = 0
    else:
        w = -diff_radians / guarantee_time
        if w > w_max:
            w = w_max
        if w < -w_max:
            w = -w_max
    v = speed * math.cos(diff_radians)
    if v < 0:
        v = 0
    return np.array([[v], [w]])


# ---------------------------------------------------------------------------
# Geometry (ubot: exact shapes; IR-SIM: irsim/lib/handler/geometry_handler.py)
# ---------------------------------------------------------------------------

class Shape:
    """A 2-D shape: 'circle' (center, radius), 'polygon' (closed ring of
    vertices, no repeated closing point) or 'linestring' (open polyline)."""

    def __init__(self, kind, verts=None, center=None, radius=0.0):
        self.kind = kind
        self.verts = verts or []
        self.center = center
        self.radius = radius

    def transformed(self, state):
        """geometry_transform: x' = cos*x + (-sin)*y + x0, y' = sin*x + cos*y + y0
        (shapely affine_transform [a, b, d, e, xoff, yoff])."""
        x0 = float(state[0, 0])
        y0 = float(state[1, 0])
        th = float(state[2, 0]) if state.shape[0] >= 3 else 0.0
        c = float(np.cos(th))
        s = float(np.sin(th))

        def tf(p):
            return (c * p[0] + (-s) * p[1] + x0, s * p[0] + c * p[1] + y0)

        if self.kind == "circle":
            return Shape("circle", center=tf(self.center), radius=self.radius)
        return Shape(self.kind, verts=[tf(p) for p in self.verts])

    def edges(self):
        v = self.verts
        if self.kind == "polygon":
            return [(v[i], v[(i + 1) % len(v)]) for i in range(len(v))]
        if self.kind == "linestring":
            return [(v[i], v[i + 1]) for i in range(len(v) - 1)]
        return []

    def centroid(self):
        """ubot: circle centre; polygon area centroid; linestring
        length-weighted midpoint (the GEOS definitions)."""
        if self.kind == "circle":
            return self.center
        v = self.verts
        if self.kind == "polygon":
            # shoelace relative to the first vertex (as GEOS does)
            bx, by = v[0]
            a2 = 0.0
            cx = 0.0
            cy = 0.0
            for i in range(1, len(v) - 1):
                x1, y1 = v[i][0] - bx, v[i][1] - by
                x2, y2 = v[i + 1][0] - bx, v[i + 1][1] - by
                cr = x1 * y2 - x2 * y1
                a2 += cr
                cx += (x1 + x2) * cr
                cy += (y1 + y2) * cr
            if a2 == 0.0:
                raise Unsupported("degenerate polygon")
            return (cx / (3.0 * a2) + bx, cy / (3.0 * a2) + by)
        total = 0.0
        sx = 0.0
        sy = 0.0
        for a, b in self.edges():
            seg = math.hypot(b[0] - a[0], b[1] - a[1])
            total += seg
            sx += seg * (a[0] + b[0]) / 2.0
            sy += seg * (a[1] + b[1]) / 2.0
        if total == 0.0:
            return v[0]
        return (sx / total, sy / total)

    def min_bounding_radius(self):
        """shapely.minimum_bounding_radius (exact circle: r)."""
        if self.kind == "circle":
            return self.radius
        return min_enclosing_radius(self.verts)


def min_enclosing_radius(points):
    """Radius of the smallest circle containing all points (brute force over
    pairs and triples; shapes here have few vertices)."""
    pts = list(dict.fromkeys((float(x), float(y)) for x, y in points))
    n = len(pts)
    if n <= 1:
        return 0.0

    def covers(cx, cy, r):
        lim = r * (1 + 1e-12) + 1e-12
        return all(math.hypot(px - cx, py - cy) <= lim for px, py in pts)

    best = math.inf
    for i in range(n):
        for j in range(i + 1, n):
            (ax, ay), (bx, by) = pts[i], pts[j]
            cx, cy = (ax + bx) / 2, (ay + by) / 2
            r = math.hypot(ax - bx, ay - by) / 2
            if r < best and covers(cx, cy, r):
                best = r
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                (ax, ay), (bx, by), (qx, qy) = pts[i], pts[j], pts[k]
                d = 2 * (ax * (by - qy) + bx * (qy - ay) + qx * (ay - by))
                if d == 0:
                    continue
                a2, b2, q2 = ax * ax + ay * ay, bx * bx + by * by, qx * qx + qy * qy
                cx = (a2 * (by - qy) + b2 * (qy - ay) + q2 * (ay - by)) / d
                cy = (a2 * (qx - bx) + b2 * (ax - qx) + q2 * (bx - ax)) / d
                r = math.hypot(ax - cx, ay - cy)
                if r < best and covers(cx, cy, r):
                    best = r
    return best


def acker_wheelbase(shape_wheelbase, kinematics_wheelbase):
    """The wheelbase acker kinematics turn with.

    IR-SIM (object_base.py, kinematics_handler.py): ObjectBase passes the *shape's* wheelbase
    (gf.wheelbase) to KinematicsFactory.create_kinematics, which takes ``wheelbase or 1.0``, so
    a shape wheelbase of None or 0 means 1.0. A ``kinematics: {wheelbase: ...}`` key makes IR-SIM
    fail (create_kinematics() gets ``wheelbase`` twice); ubot accepts it when the shape has no
    wheelbase and rejects the two together, and so does the oracle.
    """
    if kinematics_wheelbase is not None:
        if shape_wheelbase is not None:
            raise Unsupported("the wheelbase is given in the shape and in the kinematics")
        return float(kinematics_wheelbase)
    return float(shape_wheelbase or 1.0)


def make_original_shape(spec):
    """Body-frame shape from a YAML `shape` dict (geometry_handler.py)."""
    if spec is None:
        # object_base: no shape -> circle radius 1 (with a warning)
        spec = {"name": "circle", "radius": 1, "center": [0, 0]}
    if not isinstance(spec, dict):
        raise Unsupported(f"shape must be a dict, got {spec!r}")
    name = spec.get("name", "circle")
    if spec.get("random_shape", False):
        raise NeedsRandom("random_shape needs random numbers")
    wheelbase = spec.get("wheelbase")
    if name == "circle":
        r = float(spec.get("radius", 0.2))
        cx, cy = (float(c) for c in spec.get("center", [0, 0]))
        if wheelbase is not None:
            cx = cx + wheelbase / 2
        return Shape("circle", center=(cx, cy), radius=r), wheelbase
    if name == "rectangle":
        L = float(spec.get("length", 1.0))
        W = float(spec.get("width", 1.0))
        if wheelbase is None:
            verts = [(-L / 2, -W / 2), (L / 2, -W / 2), (L / 2, W / 2), (-L / 2, W / 2)]
        else:
            sx = -(L - wheelbase) / 2
            sy = -W / 2
            verts = [(sx, sy), (sx + L, sy), (sx + L, sy + W), (sx, sy + W)]
        return Shape("polygon", verts=verts), wheelbase
    if name == "polygon":
        verts = spec.get("vertices")
        if verts is None:
            verts = [[-1, -1], [1, -1], [1, 1], [-1, 1]]
        verts = [(float(p[0]), float(p[1])) for p in verts]
        if len(verts) > 1 and verts[0] == verts[-1]:
            verts = verts[:-1]
        return Shape("polygon", verts=verts), wheelbase
    if name == "linestring":
        verts = [(float(p[0]), float(p[1])) for p in spec["vertices"]]
        return Shape("linestring", verts=verts), wheelbase
    raise Unsupported(f"shape {name!r} not modelled by the oracle")


# --- exact predicates (ubot SPEC section 1: exact intersects, touching counts)

def _orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _on_box(a, b, p):
    return (min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
            and min(a[1], b[1]) <= p[1] <= max(a[1], b[1]))


def segments_intersect(p1, p2, q1, q2):
    d1 = _orient(q1, q2, p1)
    d2 = _orient(q1, q2, p2)
    d3 = _orient(p1, p2, q1)
    d4 = _orient(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    if d1 == 0 and _on_box(q1, q2, p1):
        return True
    if d2 == 0 and _on_box(q1, q2, p2):
        return True
    if d3 == 0 and _on_box(p1, p2, q1):
        return True
    if d4 == 0 and _on_box(p1, p2, q2):
        return True
    return False


def point_segment_distance(p, a, b):
    vx, vy = b[0] - a[0], b[1] - a[1]
    wx, wy = p[0] - a[0], p[1] - a[1]
    l2 = vx * vx + vy * vy
    t = 0.0 if l2 == 0 else max(0.0, min(1.0, (wx * vx + wy * vy) / l2))
    return math.hypot(p[0] - (a[0] + t * vx), p[1] - (a[1] + t * vy))


def point_in_polygon(p, verts):
    """True if p is inside the polygon or on its boundary."""
    n = len(verts)
    for i in range(n):
        a, b = verts[i], verts[(i + 1) % n]
        if _orient(a, b, p) == 0 and _on_box(a, b, p):
            return True
    inside = False
    x, y = p
    for i in range(n):
        (xi, yi), (xj, yj) = verts[i], verts[(i + 1) % n]
        if (yi > y) != (yj > y):
            xc = xi + (y - yi) * (xj - xi) / (yj - yi)
            if x < xc:
                inside = not inside
    return inside


def shapes_intersect(a, b):
    """Exact `intersects` between two world-frame shapes."""
    if a.kind == "circle" and b.kind != "circle":
        a, b = b, a
    if b.kind == "circle":
        c, r = b.center, b.radius
        if a.kind == "circle":
            return math.hypot(a.center[0] - c[0], a.center[1] - c[1]) <= a.radius + r
        if a.kind == "polygon" and point_in_polygon(c, a.verts):
            return True
        return any(point_segment_distance(c, p, q) <= r for p, q in a.edges())
    for p1, p2 in a.edges():
        for q1, q2 in b.edges():
            if segments_intersect(p1, p2, q1, q2):
                return True
    if a.kind == "polygon" and b.verts and point_in_polygon(b.verts[0], a.verts):
        return True
    if b.kind == "polygon" and a.verts and point_in_polygon(a.verts[0], b.verts):
        return True
    return False


# --- ray casting (ubot SPEC section 2)

def ray_segment(o, d, a, b):
    """Distance t >= 0 along ray o + t*d to segment ab, or None.
    Same algebra as ray_casting_2d.cast_rays, but t >= 0 (ubot)."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    sx, sy = o[0] - a[0], o[1] - a[1]
    px, py = -d[1], d[0]
    den = vx * px + vy * py
    cross_vs = vx * sy - vy * sx
    if den != 0:
        u = (sx * px + sy * py) / den
        t = cross_vs / den
        if 0.0 <= u <= 1.0 and t >= 0.0:
            return t
        return None
    if abs(cross_vs) <= 1e-12:  # collinear: first point of the overlap
        ta = (a[0] - o[0]) * d[0] + (a[1] - o[1]) * d[1]
        tb = (b[0] - o[0]) * d[0] + (b[1] - o[1]) * d[1]
        lo, hi = min(ta, tb), max(ta, tb)
        if hi < 0.0:
            return None
        return max(lo, 0.0)
    return None


def ray_circle(o, d, c, r):
    """Entry distance of the ray into the disc, 0 if the origin is inside or
    on it, None if missed."""
    fx, fy = o[0] - c[0], o[1] - c[1]
    cc = fx * fx + fy * fy - r * r
    if cc <= 0.0:
        return 0.0
    a = d[0] * d[0] + d[1] * d[1]
    b = fx * d[0] + fy * d[1]
    disc = b * b - a * cc
    if disc < 0.0:
        return None
    t = (-b - math.sqrt(disc)) / a
    return t if t >= 0.0 else None


def ray_shape(o, d, shape):
    if shape.kind == "circle":
        return ray_circle(o, d, shape.center, shape.radius)
    if shape.kind == "polygon" and point_in_polygon(o, shape.verts):
        return 0.0
    best = None
    for a, b in shape.edges():
        t = ray_segment(o, d, a, b)
        if t is not None and (best is None or t < best):
            best = t
    return best


# ---------------------------------------------------------------------------
# Sensors (irsim/world/sensors/lidar2d.py, fmcw_lidar2d.py; ubot SPEC 2, 3)
# ---------------------------------------------------------------------------

class Lidar2D:
    def __init__(self, parent, cfg):
        self.parent = parent
        self.type = cfg.get("name") or cfg.get("type") or "lidar2d"
        if self.type not in ("lidar2d", "fmcw_lidar2d"):
            raise Unsupported(f"sensor type {self.type!r} not modelled")
        if cfg.get("noise", False):
            raise NeedsRandom("lidar noise")
        if self.type == "fmcw_lidar2d" and float(cfg.get("velocity_noise_std", 0.0)) > 0:
            raise NeedsRandom("fmcw velocity noise")
        self.range_min = float(cfg.get("range_min", 0))
        self.range_max = float(cfg.get("range_max", 10))
        self.angle_range = float(cfg.get("angle_range", PI))
        self.number = int(cfg.get("number", 100))
        self.offset = [float(v) for v in cfg.get("offset", [0, 0, 0])]
        self.motion_compensate = bool(cfg.get("motion_compensate", False))
        self.angles = beam_angles(self.angle_range, self.number)
        self.ranges = [self.range_max] * self.number
        self.valid = [False] * self.number
        self.radial_velocity = [0.0] * self.number

    def step(self, objects):
        """One scan of the end-of-step snapshot (env_base: sensors run after
        every object moved)."""
        st = self.parent.state
        ox, oy, oth = self.offset
        # lidar2d: beam segments (0,0)->(rmax cos a, rmax sin a) are moved by
        # the offset, then by the object state; origin = first coordinate;
        # direction = (end - origin) / range_max.
        off_state = np.array([[ox], [oy], [oth]])
        body = Shape("linestring", verts=[(0.0, 0.0)]).transformed(off_state)
        origin = Shape("linestring", verts=body.verts).transformed(st[0:3]).verts[0]
        rmax = self.range_max
        ends_local = [(rmax * float(np.cos(a)), rmax * float(np.sin(a))) for a in self.angles]
        ends = Shape("linestring", verts=ends_local).transformed(off_state)
        ends = ends.transformed(st[0:3]).verts
        # candidate objects: not own, not unobstructed
        cands = [o for o in objects if o.id != self.parent.id and not o.unobstructed]
        ranges, valid, rvel = [], [], []
        pv = self.parent.velocity_xy()
        for ex, ey in ends:
            d = ((ex - origin[0]) / rmax, (ey - origin[1]) / rmax)
            best, hit_obj = None, None
            for obj in cands:  # id order; first minimum wins ties
                t = ray_shape(origin, d, obj.geometry)
                if t is not None and t <= rmax and (best is None or t < best):
                    best, hit_obj = t, obj
            if best is None:
                ranges.append(rmax)
                valid.append(False)
                rvel.append(0.0)
            elif best < self.range_min:
                ranges.append(self.range_min)
                valid.append(False)
                rvel.append(0.0)
            else:
                ranges.append(best)
                valid.append(True)
                vt = hit_obj.velocity_xy()
                if self.motion_compensate:
                    vrx, vry = vt[0, 0], vt[1, 0]
                else:
                    vrx, vry = vt[0, 0] - pv[0, 0], vt[1, 0] - pv[1, 0]
                # fmcw_lidar2d: rv = dot(v_rel, dir), positive = moving away
                rvel.append(float(vrx * d[0] + vry * d[1]))
        self.ranges, self.valid, self.radial_velocity = ranges, valid, rvel

    def to_json(self, index):
        out = {"object_id": self.parent.id, "index": index,
               "ranges": [float(r) for r in self.ranges],
               "valid": [bool(v) for v in self.valid]}
        if self.type == "fmcw_lidar2d":
            out["radial_velocity"] = [float(v) for v in self.radial_velocity]
        return out


def beam_angles(angle_range, number):
    """Sensor-frame beam angles. IR-SIM: np.linspace(-R/2, R/2, N) (both ends).
    ubot: a full circle (R >= 2*pi - 1e-6) gives N distinct beams
    -R/2 + i*R/N with R = 2*pi. A single beam looks straight ahead (newest
    IR-SIM sets angle_min = angle_max = 0 when number == 1)."""
    R = float(angle_range)
    if number == 1:
        return [0.0]
    if R >= 2 * PI - 1e-6:
        R = 2 * PI
        return [-R / 2 + i * R / number for i in range(number)]
    return [float(a) for a in np.linspace(-R / 2, R / 2, number)]


# ---------------------------------------------------------------------------
# Objects (irsim/world/object_base.py, object_factory.py)
# ---------------------------------------------------------------------------

KIN_DEFAULTS = {  # kinematics_handler.py: state_dim, action_dim
    "diff": (3, 2),
    "omni": (3, 2),
    "acker": (4, 2),
}


class SimObject:
    def __init__(self, env, oid, role, group, cfg):
        self.env = env
        self.id = oid
        self.role = role
        self.group = group
        known = {"shape", "kinematics", "state", "velocity", "goal", "role", "color",
                 "static", "vel_min", "vel_max", "acce", "angle_range", "behavior",
                 "group_behavior", "goal_threshold", "sensors", "arrive_mode",
                 "description", "group", "group_name", "state_dim", "vel_dim",
                 "unobstructed", "fov", "fov_radius", "name", "plot",
                 "number", "distribution",
                 "mass"}  # ubot SPEC 1 lists `mass` (contact mode only): ignored here
        unknown = set(cfg) - known
        if unknown:
            raise Unsupported(f"unknown object keys {sorted(unknown)}")
        if cfg.get("group_behavior"):
            raise Unsupported("group_behavior not modelled")

        # --- kinematics (object_factory.create_robot / create_obstacle) -----
        kin = cfg.get("kinematics") or {}
        if not isinstance(kin, dict):
            raise Unsupported("kinematics must be a dict")
        kname = kin.get("name")
        if kname is not None:
            kname = str(kname).lower()
        if kname == "static":
            kname = None
        if kname is not None and kname not in KIN_DEFAULTS:
            raise Unsupported(f"kinematics {kname!r} not modelled")
        if kin.get("noise", False):
            raise NeedsRandom("kinematics noise")
        self.kin = kname  # None -> ObjectStatic (never moves)
        self.kin_mode = kin.get("mode", "steer") or "steer"
        state_dim, action_dim = KIN_DEFAULTS.get(kname, (3, 2))
        if cfg.get("state_dim") is not None:
            state_dim = int(cfg["state_dim"])
        self.state_dim = state_dim
        self.vel_dim = action_dim if cfg.get("vel_dim") is None else int(cfg["vel_dim"])

        # --- shape ------------------------------------------------------------
        self.shape0, shape_wb = make_original_shape(cfg.get("shape"))
        self.wheelbase = acker_wheelbase(shape_wb, kin.get("wheelbase"))

        # --- limits (object_base.__init__: defaults from the handler) ----------
        inf = float("inf")
        self.vel_min = np.c_[cfg.get("vel_min") if cfg.get("vel_min") is not None else [-1, -1]].astype(float)
        self.vel_max = np.c_[cfg.get("vel_max") if cfg.get("vel_max") is not None else [1, 1]].astype(float)
        self.acce = np.c_[cfg.get("acce") if cfg.get("acce") is not None else [inf, inf]].astype(float)
        ar = cfg.get("angle_range") or [-PI, PI]
        self.angle_range = (float(ar[0]), float(ar[1]))

        # --- state / velocity ----------------------------------------------------
        state = list(cfg.get("state") if cfg.get("state") is not None else [0, 0, 0])
        if len(state) > state_dim:
            state = state[:state_dim]
        elif len(state) < state_dim:
            state = state + [0] * (state_dim - len(state))
        self.state = np.c_[state].astype(float)
        self.init_state = self.state.copy()
        vel = cfg.get("velocity")
        self.velocity = np.c_[vel if vel is not None else [0] * action_dim].astype(float)
        self.static = bool(cfg.get("static", False)) if kname is not None else True

        # --- goal (deque of waypoints) --------------------------------------
        goal = cfg.get("goal")
        if goal is None:
            self.goals = None
        elif is_2d_list(goal):
            self.goals = deque(list(g) for g in goal)
        else:
            self.goals = deque([list(goal)])
        self.init_goals = deque(self.goals) if self.goals is not None else None
        self.goal_threshold = float(cfg.get("goal_threshold", 0.1))
        self.arrive_mode = cfg.get("arrive_mode", "position")

        # --- behaviour --------------------------------------------------------
        beh = cfg.get("behavior")
        if isinstance(beh, str):
            beh = {"name": beh}
        self.behavior = dict(beh) if beh else {}
        if self.behavior.get("wander", False):
            raise NeedsRandom("wander draws random goals")
        self.loop = bool(self.behavior.get("loop", False))

        self.unobstructed = bool(cfg.get("unobstructed", False))
        self._name = cfg.get("name")

        # --- flags ------------------------------------------------------------
        self.stop_flag = False
        self.arrive_flag = False
        self.collision_flag = False

        self.geometry = self.shape0.transformed(self.state)
        self.radius = self.shape0.min_bounding_radius()

        sensors = cfg.get("sensors") or []
        self.sensors = [Lidar2D(self, s) for s in sensors]

    # --- properties (object_base.py) ------------------------------------------
    @property
    def name(self):
        return self._name if self._name is not None else f"{self.role}_{self.id}"

    @property
    def goal(self):
        if self.goals is None or len(self.goals) == 0:
            return None
        return np.c_[self.goals[0]].astype(float)

    @property
    def radius_extend(self):
        return self.radius + 0.1

    def velocity_xy(self):
        """velocity_xy: diff/acker vel_diff2world, omni vel_omni2world (body
        frame rotated by theta), no kinematics -> 0."""
        if self.kin is None:
            return np.zeros((2, 1))
        th = self.state[2, 0]
        if self.kin == "omni":
            f, l = self.velocity[0, 0], self.velocity[1, 0]
            c, s = math.cos(th), math.sin(th)
            return np.array([[c * f + (-s) * l], [s * f + c * l]])
        v = self.velocity[0, 0]
        return np.array([[v * math.cos(th)], [v * math.sin(th)]])

    def rvo_neighbor_state(self):
        """[centroid x, centroid y, vx, vy, radius_extend] (newest: centroid)."""
        cx, cy = self.geometry.centroid()
        vxy = self.velocity_xy()
        return [cx, cy, vxy[0, 0], vxy[1, 0], self.radius_extend]

    def rvo_line_segments(self):
        if self.geometry.kind != "linestring":
            return []
        v = self.geometry.verts
        return [[v[i][0], v[i][1], v[i + 1][0], v[i + 1][1]] for i in range(len(v) - 1)]

    def desired_omni_vel(self):
        """get_desired_omni_vel: hard-coded threshold 0.1; the speed bounds are IR-SIM 2.12.0's
        _desired_speed_bounds: vel_max[0] on both axes for diff and acker (vel_max[1] is their
        turn rate; 2.10.2 used it for y), vel_max[0] and vel_max[1] otherwise."""
        g = self.goal
        if g is None:
            return 0, 0
        dis, radian = relative_position(self.state, g)
        if dis > 0.1:
            speed_x = self.vel_max[0, 0]
            speed_y = speed_x if self.kin in ("diff", "acker") else self.vel_max[1, 0]
            return speed_x * math.cos(radian), speed_y * math.sin(radian)
        return 0, 0

    def rvo_state(self):
        vxy = self.velocity_xy()
        vx_des, vy_des = self.desired_omni_vel()
        return [self.state[0, 0], self.state[1, 0], vxy[0, 0], vxy[1, 0],
                self.radius_extend, vx_des, vy_des, self.state[2, 0]]

    def get_vel_range(self):
        dt = self.env.step_time
        lo = np.maximum(self.vel_min, self.velocity - self.acce * dt)
        hi = np.minimum(self.vel_max, self.velocity + self.acce * dt)
        return lo, hi

    # --- step (object_base.step) ------------------------------------------------
    def step(self):
        if self.static or self.stop_flag:
            self.velocity = np.zeros((self.vel_dim, 1))
            return
        self.pre_process()
        lo, hi = self.get_vel_range()
        vel = np.clip(self.behavior_velocity(), lo, hi)
        new = self.kinematics_step(vel)
        if new.shape[0] > 2:  # mid_process: WrapToRegion(theta, angle_range)
            new[2, 0] = wrap_to_region(float(new[2, 0]), *self.angle_range)
        self.state = new
        self.velocity = vel
        self.geometry = self.shape0.transformed(self.state)

    def pre_process(self):
        """object_base.pre_process: `loop` resets the waypoints after arrival."""
        if self.loop and self.arrive_flag and self.init_goals:
            if len(self.init_goals) > 1:
                self.goals = deque(self.init_goals)
            else:
                start = [float(v) for v in self.init_state[0:2, 0]]
                self.goals = deque([list(self.init_goals[0][0:2]), start])
            self.arrive_flag = False

    def kinematics_step(self, vel):
        """irsim/lib/algorithm/kinematics.py (noise off)."""
        dt = self.env.step_time
        st = self.state
        if self.kin == "diff":
            phi = st[2, 0]
            co = np.array([[math.cos(phi), 0], [math.sin(phi), 0], [0, 1]])
            nxt = st[0:3] + co @ vel * dt
            nxt[2, 0] = wrap_to_pi(nxt[2, 0])
            return nxt
        if self.kin == "omni":  # newest: body-frame [forward, lateral]
            th = st[2, 0]
            c, s = np.cos(th), np.sin(th)
            f, l = vel[0, 0], vel[1, 0]
            dx = f * c - l * s
            dy = f * s + l * c
            nxt = st[0:3].astype(float)
            nxt[0:2] += np.array([[dx], [dy]]) * dt
            return nxt
        if self.kin == "acker":
            phi, psi = st[2, 0], st[3, 0]
            co = np.array([[math.cos(phi), 0], [math.sin(phi), 0],
                           [math.tan(psi) / self.wheelbase, 0], [0, 1]])
            nxt = st + (co @ vel) * dt
            if self.kin_mode == "steer":
                nxt[3, 0] = vel[1, 0]
            elif self.kin_mode != "angular":
                raise Unsupported(f"acker mode {self.kin_mode!r}")
            nxt[2, 0] = wrap_to_pi(nxt[2, 0])
            return nxt
        raise Unsupported(f"kinematics {self.kin!r}")

    # --- behaviours (irsim/lib/behavior/behavior.py, behavior_methods.py) -------
    def behavior_velocity(self):
        beh = self.behavior
        if not beh:
            return np.zeros((2, 1))
        roles = beh.get("target_roles", "all")
        ext = [o for o in self.env.objects if o.id != self.id]
        if roles in ("robot", "obstacle"):
            ext = [o for o in ext if o.role == roles]
        name = beh.get("name")
        if self.goal is None:
            return np.zeros((2, 1))
        if name == "dash":
            return self.dash(beh)
        if name == "rvo" and self.kin in ("diff", "omni"):
            return self.rvo(beh, ext)
        raise Unsupported(f"behavior {name!r} for kinematics {self.kin!r}")

    def dash(self, beh):
        lo, hi = self.get_vel_range()
        goal, vmax, thr = self.goal, self.vel_max, self.goal_threshold
        tol = beh.get("angle_tolerance", 0.1)
        dist, radian = relative_position(self.state, goal)
        if self.kin == "diff":  # DiffDash
            if dist < thr:
                v = np.zeros((2, 1))
            else:
                e = wrap_to_pi(radian - self.state[2, 0])
                linear = vmax[0, 0] * np.cos(e)
                if abs(e) < tol:
                    angular = 0.0
                else:
                    a = self.acce[1, 0]
                    if np.isfinite(a) and a > 0:
                        rem = abs(e) - tol
                        a_dt = a * self.env.step_time
                        m = -a_dt + np.sqrt(a_dt ** 2 + 2.0 * a * rem)
                        m = min(abs(vmax[1, 0]), m)
                    else:
                        m = abs(vmax[1, 0])
                    angular = np.sign(e) * m
                v = np.array([[linear], [angular]])
        elif self.kin == "omni":  # OmniDash (newest, body frame)
            th = self.state[2, 0]
            if dist > thr:
                e = wrap_to_pi(radian - th)
                v = np.array([[vmax[0, 0] * math.cos(e)], [vmax[1, 0] * math.sin(e)]])
            else:
                v = np.array([[0], [0]])
        elif self.kin == "acker":  # AckerDash
            e = wrap_to_pi(radian - self.state[2, 0])
            if -tol < e < tol:
                e = 0
            if dist < thr:
                v = np.array([[0], [0]])
            else:
                v = np.array([[vmax[0, 0]], [np.clip(e, -vmax[1, 0], vmax[1, 0])]])
        else:
            raise Unsupported(f"dash for {self.kin!r}")
        return np.clip(v, lo, hi)

    def rvo(self, beh, ext):
        """beh_diff_rvo / beh_omni_rvo -> DiffRVO / OmniRVO."""
        neighbors, lines = [], []
        for o in ext:
            segs = o.rvo_line_segments()
            if segs:
                lines.extend(segs)
            else:
                neighbors.append(o.rvo_neighbor_state())
        st = self.rvo_state()
        thr = beh.get("neighbor_threshold", 3.0)
        x, y = st[0], st[1]
        near = [n for n in neighbors if (x - n[0]) ** 2 + (y - n[1]) ** 2 < thr ** 2]
        vel = RVO(st, near, beh.get("vxmax", 1.5), beh.get("vymax", 1.5),
                  beh.get("acce", 1.0), beh.get("factor", 1.0), lines).cal_vel(beh.get("mode", "rvo"))
        if self.kin == "omni":
            # ubot deviation: RVO picks a world-frame velocity and the (newest) omni kinematics
            # read body-frame [forward, lateral]; IR-SIM passes it through unrotated, which
            # drives a robot with a non-zero heading the wrong way. ubot rotates it.
            c, s = math.cos(st[-1]), math.sin(st[-1])
            return np.array([[c * vel[0] + s * vel[1]], [-s * vel[0] + c * vel[1]]])
        diff = omni_to_diff(st[-1], vel)
        if not diff.any() and not near and not lines:
            # newest DiffRVO fallback: turn in place toward the desired heading
            diff = omni_to_diff(st[-1], [st[5], st[6]])
            diff[0, 0] = 0.0
        return diff

    # --- status (object_base.check_status) --------------------------------------
    def check_arrive(self):
        g = self.goal
        if g is None:
            return False
        if self.arrive_mode == "state":
            d = np.linalg.norm(self.state[:3] - g[:3])
        elif self.arrive_mode == "position":
            d = np.linalg.norm(self.state[:2] - g[:2])
        else:
            raise Unsupported(f"arrive_mode {self.arrive_mode!r}")
        return d < self.goal_threshold

    def check_status(self, mode):
        if self.check_arrive():
            if len(self.goals) == 1:
                self.arrive_flag = True
            else:
                self.goals.popleft()
                self.arrive_flag = False
        else:
            self.arrive_flag = False
        hits = [o for o in self.env.objects
                if o.id != self.id and not o.unobstructed
                and shapes_intersect(self.geometry, o.geometry)]
        self.collision_flag = len(hits) > 0
        if mode == "stop":
            self.stop_flag = len(hits) > 0
        elif mode == "unobstructed_obstacles":
            if self.role == "robot":
                self.stop_flag = len(hits) > 0
            elif self.role == "obstacle":
                self.stop_flag = False
        # 'unobstructed', 'reactive', others: flags only

    def done(self):
        return bool(self.stop_flag or self.arrive_flag)

    def to_json(self):
        vel = [float(v) for v in self.velocity[:, 0]]
        if self.kin is None:
            vel = [0.0, 0.0]
        return {"id": self.id, "name": self.name,
                "state": [float(v) for v in self.state[:, 0]],
                "velocity": vel,
                "collision": bool(self.collision_flag),
                "arrive": bool(self.arrive_flag),
                "stop": bool(self.stop_flag)}


# ---------------------------------------------------------------------------
# RVO / VO / HRVO (irsim/lib/algorithm/rvo.py, newest vectorised version)
# ---------------------------------------------------------------------------

class RVO:
    def __init__(self, state, obstacles, vxmax, vymax, acce, factor, lines):
        self.state = state          # [x, y, vx, vy, r, vx_des, vy_des, theta]
        self.obstacles = obstacles  # [[x, y, vx, vy, r], ...]
        self.lines = lines          # [[x1, y1, x2, y2], ...]
        self.vxmax, self.vymax = vxmax, vymax
        self.acce, self.factor = acce, factor

    def cal_vel(self, mode):
        if mode not in ("rvo", "vo", "hrvo"):
            raise Unsupported(f"rvo mode {mode!r}")
        cones = [self.cone(o, mode) for o in self.obstacles] + self.line_cones()
        cand, outside = self.candidates(cones)
        return self.select(cand[outside], cand[~outside])

    @staticmethod
    def cone_angles(x, y, r, mx, my, mr):
        dis = np.sqrt((my - y) ** 2 + (mx - x) ** 2)
        ang = math.atan2(my - y, mx - x)
        if dis < r + mr:
            dis = r + mr
        half = math.asin(min(max((r + mr) / dis, -1.0), 1.0))
        return ang + half, ang - half, half

    def cone(self, ob, mode):
        x, y, vx, vy, r = self.state[:5]
        # IR-SIM 2.12.0 (_neighbour_state, config_*_mode): the neighbour is [x, y, vx, vy, r]
        # whatever the ego's velocity (2.10.2 read it as [x, y, r] when the ego was at rest, so
        # mr was the neighbour's vx + 0.2, with apex 0)
        mx, my, mvx, mvy, mr = ob[0], ob[1], ob[2], ob[3], ob[4]
        left, right, half = self.cone_angles(x, y, r, mx, my, mr)
        lv = [math.cos(left), math.sin(left)]
        rv = [math.cos(right), math.sin(right)]
        if mode == "vo":
            apex = [mvx, mvy]
        elif mode == "rvo":
            apex = [(vx + mvx) / 2, (vy + mvy) / 2]
        else:  # hrvo
            rvo_apex = [(vx + mvx) / 2, (vy + mvy) / 2]
            vo_apex = [mvx, mvy]
            cl = [mx - x, my - y]
            cur_v = [vx - rvo_apex[0], vy - rvo_apex[1]]
            dis_rv = math.hypot(vo_apex[0] - rvo_apex[0], vo_apex[1] - rvo_apex[1])
            rad_rv = math.atan2(rvo_apex[1] - vo_apex[1], rvo_apex[0] - vo_apex[0])
            diff = left - rad_rv
            temp = PI - 2 * half
            if temp == 0:
                temp = temp + 0.01
            dis_diff = dis_rv * math.sin(diff) / math.sin(temp)
            if float(cl[0] * cur_v[1] - cur_v[0] * cl[1]) <= 0:
                apex = [rvo_apex[0] - dis_diff * math.cos(right),
                        rvo_apex[1] - dis_diff * math.sin(right)]
            else:
                apex = [vo_apex[0] + dis_diff * math.cos(right),
                        vo_apex[1] + dis_diff * math.sin(right)]
        return [apex, lv, rv]

    def line_cones(self):
        """config_vo_lines: VO cone with apex (0, 0) per line segment."""
        x, y, r = self.state[0], self.state[1], self.state[4]
        out = []
        for x1, y1, x2, y2 in self.lines:
            dxs, dys = x2 - x1, y2 - y1
            if dxs * dxs + dys * dys < 1e-12:
                continue
            a1 = math.atan2(y1 - y, x1 - x)
            a2 = math.atan2(y2 - y, x2 - x)
            d1 = math.sqrt((x1 - x) ** 2 + (y1 - y) ** 2)
            d2 = math.sqrt((x2 - x) ** 2 + (y2 - y) ** 2)
            e1 = math.asin(min(1.0, r / max(d1, r))) if d1 > 1e-6 else PI / 2
            e2 = math.asin(min(1.0, r / max(d2, r))) if d2 > 1e-6 else PI / 2
            diff = math.atan2(math.sin(a2 - a1), math.cos(a2 - a1))
            if diff >= 0:
                left, right = a2 + e2, a1 - e1
            else:
                left, right = a1 + e1, a2 - e2
            out.append([[0, 0], [math.cos(left), math.sin(left)],
                        [math.cos(right), math.sin(right)]])
        return out

    def axis_candidates(self, current, vmax):
        """IR-SIM 2.12.0's _axis_candidates: an empty window (the current velocity more than
        acce outside [-vmax, vmax]) gives the one clipped velocity (2.10.2 crashed there)."""
        low = max(current - self.acce, -vmax)
        high = min(current + self.acce, vmax)
        if high <= low:
            return np.array([float(np.clip(current, -vmax, vmax))])
        return np.arange(low, high, 0.05)

    def candidates(self, cones):
        """Reachable grid: np.arange (upper bound exclusive), vx outer / vy inner."""
        cvx, cvy = self.state[2], self.state[3]
        vxs = self.axis_candidates(cvx, self.vxmax)
        vys = self.axis_candidates(cvy, self.vymax)
        gx, gy = np.meshgrid(vxs, vys, indexing="ij")
        vx, vy = gx.ravel(), gy.ravel()
        outside = np.ones(vx.size, dtype=bool)
        for apex, lv, rv in cones:
            rx, ry = vx - apex[0], vy - apex[1]
            inside = (lv[0] * ry - rx * lv[1] <= 0) & (rv[0] * ry - rx * rv[1] >= 0)
            outside &= ~inside
        return np.column_stack((vx, vy)), outside

    def select(self, outside, inside):
        vdx, vdy = self.state[5], self.state[6]
        if len(outside) != 0:
            dist = np.hypot(outside[:, 0] - vdx, outside[:, 1] - vdy)
            return list(outside[int(np.argmin(dist))])
        cost = self.penalties(inside, vdx, vdy)
        return list(inside[int(np.argmin(cost))])

    def penalties(self, vels, vdx, vdy):
        x, y, vx, vy, r = self.state[:5]
        cols = []
        for mx, my, mvx, mvy, mr in self.obstacles:
            dist = math.hypot(x - mx, y - my)
            dis_vel = np.sqrt(max(dist ** 2 - (r + mr) ** 2, 0))
            tx = 2 * vels[:, 0] - vx - mvx
            ty = 2 * vels[:, 1] - vy - mvy
            cols.append(dis_vel / (np.sqrt(tx ** 2 + ty ** 2) + 1e-7))
        for seg in self.lines:
            cols.append(self.tc_line(x, y, r, vels, seg))
        dist_des = np.hypot(vels[:, 0] - vdx, vels[:, 1] - vdy)
        if not cols:
            return dist_des
        tc = np.min(cols, axis=0)
        tc = np.where(tc == 0, 0.0001, tc)
        return self.factor * (1 / tc) + dist_des

    @staticmethod
    def tc_line(x, y, r, vels, seg):
        x1, y1, x2, y2 = seg
        dxs, dys = x2 - x1, y2 - y1
        seg_len = math.sqrt(dxs * dxs + dys * dys)
        if seg_len < 1e-12:
            return np.full(len(vels), 1e6)
        nx, ny = -dys / seg_len, dxs / seg_len
        if nx * (x - x1) + ny * (y - y1) < 0:
            nx, ny = -nx, -ny
        perp = nx * (x - x1) + ny * (y - y1)
        toward = -(nx * vels[:, 0] + ny * vels[:, 1])
        appr = toward > 1e-7
        tc = np.maximum((perp - r) / np.where(appr, toward, 1.0), 0)
        cx = x + vels[:, 0] * tc
        cy = y + vels[:, 1] * tc
        tp = ((cx - x1) * dxs + (cy - y1) * dys) / (seg_len * seg_len)
        margin = r / seg_len
        hit = appr & (tp >= -margin) & (tp <= 1 + margin)
        return np.where(hit, tc, 1e6)


# ---------------------------------------------------------------------------
# Environment (irsim/env/env_base.py, irsim/world/world.py)
# ---------------------------------------------------------------------------

class Env:
    def __init__(self, cfg):
        if not isinstance(cfg, dict):
            raise Unsupported("world file must be a mapping")
        extra = set(cfg) - {"world", "gui", "robot", "obstacle"}
        if extra:
            raise Unsupported(f"unknown top-level keys {sorted(extra)}")
        w = cfg.get("world") or {}
        self.width = float(w.get("width", 10))
        self.height = float(w.get("height", 10))
        self.step_time = float(w.get("step_time", 0.1))
        self.offset = [float(v) for v in w.get("offset", [0, 0])]
        self.collision_mode = w.get("collision_mode", "stop")
        if w.get("control_mode", "auto") != "auto":
            raise Unsupported("only control_mode 'auto' is modelled")
        if w.get("obstacle_map"):
            raise Unsupported("obstacle_map not modelled")
        if self.collision_mode == "contact":
            raise Unsupported("collision_mode 'contact' not modelled")
        self.count = 0
        self.objects = []
        # ids: robots first (YAML order), then obstacles (env_base.initialize_objects)
        groups_r = self._groups(cfg.get("robot"))
        groups_o = self._groups(cfg.get("obstacle"))
        for gi, g in enumerate(groups_r):
            self._create(g, "robot", gi)
        start = len(groups_r)
        for gi, g in enumerate(groups_o):
            self._create(g, "obstacle", start + gi)
        names = [o.name for o in self.objects]
        if len(set(names)) != len(names):
            raise Unsupported("object names must be unique")

    @staticmethod
    def _groups(parse):
        if parse is None:
            return []
        if isinstance(parse, dict):
            return [parse]
        return list(parse)

    def _create(self, group_cfg, role, group_index):
        """object_factory.create_object + generate_state_list."""
        g = dict(group_cfg)
        group = g.pop("group", group_index)
        number = int(g.pop("number", 1))
        dist = g.pop("distribution", None) or {"name": "manual"}
        state = g.pop("state", None)
        state = [1, 1, 0] if state is None else state
        goal = g.pop("goal", None)
        goal = [1, 9, 0] if goal is None else goal
        name = dist.get("name")
        if name == "manual":
            states = convert_list_length(state, number)
            goals = convert_list_length(goal, number)
        elif name == "circle":
            radius = dist.get("radius", min(self.width, self.height) / 2 - 0.5)
            center = dist.get("center", [self.offset[0] + self.width / 2,
                                         self.offset[1] + self.height / 2, 0])
            states, goals = [], []
            for i in range(number):
                th = 2 * np.pi * i / number
                states.append([center[0] + radius * np.cos(th),
                               center[1] + radius * np.sin(th), th - np.pi])
                goals.append([center[0] - radius * np.cos(th),
                              center[1] - radius * np.sin(th), th - np.pi])
        elif name == "random":
            raise NeedsRandom("distribution 'random'")
        else:
            raise Unsupported(f"distribution {name!r}")
        sensors = g.pop("sensors", None) or []
        for i in range(number):
            obj_cfg = {k: convert_list_length(v, number)[i] for k, v in g.items()}
            obj_cfg["state"] = states[i]
            obj_cfg["goal"] = goals[i]
            obj_cfg["sensors"] = convert_list_length_dict(sensors, number)[i]
            self.objects.append(SimObject(self, len(self.objects), role, group, obj_cfg))

    def step(self):
        """env_base.step with action=None."""
        for obj in self.objects:           # (A) move in id order (Gauss-Seidel)
            obj.step()
        for obj in self.objects:           # (B) every sensor, end-of-step snapshot
            for s in obj.sensors:
                s.step(self.objects)
        self.count += 1                    # (C) world.step
        for obj in self.objects:           # (D) arrive, collision, stop flags
            obj.check_status(self.collision_mode)

    def done(self):
        flags = [o.done() for o in self.objects if o.role == "robot"]
        return bool(flags) and all(flags)

    def snapshot(self):
        sensors = []
        for obj in self.objects:
            for i, s in enumerate(obj.sensors):
                sensors.append(s.to_json(i))
        return {"step": self.count, "objects": [o.to_json() for o in self.objects],
                "sensors": sensors}


def load_world(path_or_dict):
    if isinstance(path_or_dict, dict):
        return Env(path_or_dict)
    with open(path_or_dict, "r", encoding="utf-8") as fh:
        return Env(yaml.safe_load(fh))


def run(env, steps, until_done=False, out=sys.stdout):
    for _ in range(steps):
        env.step()
        out.write(json.dumps(env.snapshot()) + "\n")
        if until_done and env.done():
            break


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("world")
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--until-done", action="store_true")
    ap.add_argument("--skip-random", action="store_true",
                    help="exit 77 (skip) instead of 2 when the world needs random numbers")
    a = ap.parse_args(argv)
    try:
        env = load_world(a.world)
        run(env, a.steps, a.until_done)
    except NeedsRandom as e:
        if a.skip_random:
            print(f"SKIP: {a.world}: needs random numbers ({e})", file=sys.stderr)
            return EXIT_SKIPPED
        print(f"unsupported: {a.world}: needs random numbers ({e})", file=sys.stderr)
        return EXIT_UNSUPPORTED
    except Unsupported as e:
        print(f"unsupported: {a.world}: {e}", file=sys.stderr)
        return EXIT_UNSUPPORTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
