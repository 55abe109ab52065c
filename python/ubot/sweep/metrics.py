"""The built-in per-robot metrics of a sweep run (docs/sweeps.md), gathered step by step.

- arrival_time: simulation time (s) at the end of the first step after which the robot has
  arrived (``Object.arrive``); empty when it never arrives.
- collisions: how many times the robot starts colliding (steps where ``Object.collision`` turns
  true, as ubot.VectorEnv's collision penalty counts them).
- min_clearance: the smallest distance (m) over the run, its start included, from the robot's
  shape to the nearest other object it can collide with (unobstructed objects are left out); 0
  when touching or overlapping; empty when there is no such object.
- path_length: the length (m) of the robot's path, the sum of the straight moves between steps.
"""

import numpy as np


class Outline:
    """An object's shape now: a circle (centre, radius) or a vertex chain (closed or open), with
    its segments and bounding box worked out once (static obstacles keep theirs all run)."""

    def __init__(self, obj):
        self.vertices = obj.vertices
        self.circle = len(self.vertices) == 0
        self.center = obj.center
        self.radius = obj.radius
        self.closed = obj.closed
        if not self.circle:
            v = self.vertices
            self.seg_a = v if self.closed else v[:-1]
            self.seg_b = np.concatenate([v[1:], v[:1]]) if self.closed else v[1:]
            self.low, self.high = v.min(axis=0), v.max(axis=0)

    def segments(self):
        return self.seg_a, self.seg_b


class StaticField:
    """All static obstacles at once, for a circle robot: one vectorised distance per step."""

    def __init__(self, outlines):
        circles = [o for o in outlines if o.circle]
        chains = [o for o in outlines if not o.circle and len(o.seg_a)]
        self.points = [o for o in outlines if not o.circle and not len(o.seg_a)]
        self.centers = np.array([o.center for o in circles]).reshape(-1, 2)
        self.radii = np.array([o.radius for o in circles])
        self.seg_a = np.concatenate([o.seg_a for o in chains]) if chains else None
        self.seg_b = np.concatenate([o.seg_b for o in chains]) if chains else None
        self.rings = [o for o in chains if o.closed]

    def distance(self, robot):
        c, d = robot.center, np.inf
        if len(self.radii):
            d = float((np.hypot(*(self.centers - c).T) - self.radii).min())
        if self.seg_a is not None:
            d = min(d, float(_point_segment_distances(c[None], self.seg_a, self.seg_b).min()))
        for p in self.points:
            d = min(d, float(np.hypot(*(p.vertices[0] - c))))
        for ring in self.rings:
            if (ring.low <= c).all() and (c <= ring.high).all() and \
                    _inside(c[None], ring.vertices)[0]:
                return 0.0
        return max(0.0, d - robot.radius)


def _point_segment_distances(points, a, b):
    """Distances from each point (n, 2) to each segment a[j]-b[j]: an (n, m) array."""
    ab = b - a
    ap = points[:, None, :] - a[None, :, :]
    length2 = np.maximum((ab * ab).sum(axis=1), 1e-300)
    t = np.clip((ap * ab[None]).sum(axis=2) / length2[None], 0.0, 1.0)
    closest = a[None] + t[..., None] * ab[None]
    return np.hypot(*(points[:, None, :] - closest).transpose(2, 0, 1))


def _inside(points, polygon):
    """Even-odd test of each point (n, 2) against a closed ring (m, 2)."""
    x, y = points[:, 0:1], points[:, 1:2]
    xa, ya = polygon[:, 0][None], polygon[:, 1][None]
    xb, yb = np.roll(polygon[:, 0], -1)[None], np.roll(polygon[:, 1], -1)[None]
    crosses = (ya > y) != (yb > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_cross = xa + (y - ya) * (xb - xa) / (yb - ya)
    return (crosses & (x < x_cross)).sum(axis=1) % 2 == 1


def _segments_cross(a0, a1, b0, b1):
    """Whether any segment a0[i]-a1[i] meets any b0[j]-b1[j] (proper or touching)."""
    def orient(p, q, r):
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))
    A0, A1, B0, B1 = a0[:, None], a1[:, None], b0[None], b1[None]
    d1, d2 = orient(B0, B1, A0), orient(B0, B1, A1)
    d3, d4 = orient(A0, A1, B0), orient(A0, A1, B1)
    return bool(((d1 * d2 < 0) & (d3 * d4 < 0)).any())


def _chain_circle(chain, circle):
    if chain.closed and _inside(circle.center[None], chain.vertices)[0]:
        return 0.0
    a, b = chain.segments()
    if len(a) == 0:
        d = float(np.hypot(*(chain.vertices[0] - circle.center)))
    else:
        d = float(_point_segment_distances(circle.center[None], a, b).min())
    return max(0.0, d - circle.radius)


def _chain_chain(p, q):
    pa, pb = p.segments()
    qa, qb = q.segments()
    if p.closed and _inside(q.vertices[:1], p.vertices)[0]:
        return 0.0
    if q.closed and _inside(p.vertices[:1], q.vertices)[0]:
        return 0.0
    if len(pa) and len(qa) and _segments_cross(pa, pb, qa, qb):
        return 0.0
    d = np.inf
    if len(qa):
        d = min(d, float(_point_segment_distances(p.vertices, qa, qb).min()))
    if len(pa):
        d = min(d, float(_point_segment_distances(q.vertices, pa, pb).min()))
    return d


def distance(p, q):
    """Distance between two outlines, 0 when they touch or overlap."""
    if p.circle and q.circle:
        return max(0.0, float(np.hypot(*(p.center - q.center))) - p.radius - q.radius)
    if p.circle:
        return _chain_circle(q, p)
    if q.circle:
        return _chain_circle(p, q)
    return _chain_chain(p, q)


class RobotMetrics:
    """One robot's built-in metrics and its trajectory, updated after every step."""

    def __init__(self, sim, robot, others):
        self.robot = sim.object(robot)
        fixed = [Outline(o) for o in others if o.static]
        self.moving = [o for o in others if not o.static]
        self.field = StaticField(fixed) if self.robot.shape_kind == "circle" else None
        self.fixed = [] if self.field is not None else fixed
        self.states = [self.robot.state]
        self.arrival_time = np.nan
        self.collisions = 0
        self.colliding = False
        self.min_clearance = np.nan
        self.any_other = bool(others)
        self._update_clearance()

    def _update_clearance(self):
        if not self.any_other:
            return
        mine = Outline(self.robot)
        d = self.field.distance(mine) if self.field is not None else np.inf
        for other in self.fixed:
            d = min(d, distance(mine, other))
        for obj in self.moving:
            d = min(d, distance(mine, Outline(obj)))
        self.min_clearance = d if np.isnan(self.min_clearance) else min(self.min_clearance, d)

    def after_step(self, time, clearance):
        self.states.append(self.robot.state)
        if np.isnan(self.arrival_time) and self.robot.arrive:
            self.arrival_time = time
        colliding = bool(self.robot.collision)
        self.collisions += colliding and not self.colliding
        self.colliding = colliding
        if clearance:
            self._update_clearance()

    def path_length(self):
        xy = np.array(self.states)[:, :2]
        return float(np.hypot(*np.diff(xy, axis=0).T).sum())

    def values(self, names):
        all_values = {"arrival_time": self.arrival_time, "collisions": self.collisions,
                      "min_clearance": self.min_clearance, "path_length": None}
        return {name: self.path_length() if name == "path_length" else all_values[name]
                for name in names}


def robot_metrics(sim):
    """A RobotMetrics per robot, against every other object it can collide with."""
    metrics = []
    for name in sim.robot_names:
        others = [o for o in sim.objects if o.name != name and not o.unobstructed]
        metrics.append(RobotMetrics(sim, name, others))
    return metrics
