"""Collision queries of the path planners against an IR-SIM ``Map``-shaped object.

The map has ``width``, ``height``, ``world_offset``, ``resolution``, ``obstacle_list`` and
``grid`` (occupancy 0..100 indexed ``[ix, iy]``, as IR-SIM's; None when there is none). A cell
is an obstacle when its occupancy is above 50 (IR-SIM's threshold). Contacts are strict: a
shape that only touches a cell's border or an obstacle's outline is free, so a path may run
along a wall (the tests check every segment with the same rule).
"""

import math

import numpy as np

_OCCUPIED = 50.0


def _interval_overlap_open(t0: float, t1: float, p: float, q_lo: float, q_hi: float):
    """Liang-Barsky step for one axis against the open slab (q_lo, q_hi); None when empty."""
    if p == 0.0:
        return (t0, t1) if q_lo < 0.0 < q_hi else None
    a, b = q_lo / p, q_hi / p
    lo, hi = min(a, b), max(a, b)
    t0, t1 = max(t0, lo), min(t1, hi)
    return (t0, t1) if t0 < t1 else None


def segment_enters_open_box(p0, p1, box) -> bool:
    """True when segment p0-p1 has points inside the open box (x0, y0, x1, y1)."""
    (x0, y0), (x1, y1) = p0, p1
    span = _interval_overlap_open(0.0, 1.0, x1 - x0, box[0] - x0, box[2] - x0)
    if span is None:
        return False
    return _interval_overlap_open(*span, y1 - y0, box[1] - y0, box[3] - y0) is not None


def _point_segment_distance(p, a, b) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    denom = ab[0] * ab[0] + ab[1] * ab[1]
    along = (p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]
    t = 0.0 if denom == 0.0 else max(0.0, min(1.0, along / denom))
    return math.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1])


def _segments_cross(a, b, c, d) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (orient(a, b, c) * orient(a, b, d) < 0.0) and (orient(c, d, a) * orient(c, d, b) < 0.0)


def segment_segment_distance(a, b, c, d) -> float:
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(_point_segment_distance(a, c, d), _point_segment_distance(b, c, d),
               _point_segment_distance(c, a, b), _point_segment_distance(d, a, b))


def segment_box_hits(p0, p1, box, radius: float) -> bool:
    """True when the segment swept by a disc of ``radius`` overlaps the box's interior."""
    if segment_enters_open_box(p0, p1, box):
        return True
    if radius <= 0.0:
        return False
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    edges = zip(corners, corners[1:] + corners[:1])
    return min(segment_segment_distance(p0, p1, c, d) for c, d in edges) < radius


def _point_in_polygon(p, poly) -> bool:
    inside = False
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        if (ay > p[1]) != (by > p[1]) and p[0] < ax + (p[1] - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


class MapCollision:
    """Swept-disc collision checks on a map's grid, bounds and obstacle outlines."""

    def __init__(self, env_map):
        off = np.asarray(env_map.world_offset, dtype=float).flatten()
        self.min_x, self.min_y = float(off[0]), float(off[1])
        self.max_x = self.min_x + float(env_map.width)
        self.max_y = self.min_y + float(env_map.height)
        grid = getattr(env_map, "grid", None)
        self.occupied = None if grid is None else np.asarray(grid, dtype=float) > _OCCUPIED
        if self.occupied is not None:
            nx, ny = self.occupied.shape
            self.cell = ((self.max_x - self.min_x) / nx, (self.max_y - self.min_y) / ny)
        self.polygons = [self._outline(o) for o in getattr(env_map, "obstacle_list", [])]

    @staticmethod
    def _outline(obstacle) -> list:
        vertices = np.asarray(obstacle.vertices, dtype=float)
        return [(float(x), float(y)) for x, y in vertices.T]

    def inside_bounds(self, x: float, y: float, radius: float = 0.0) -> bool:
        return (self.min_x <= x - radius and x + radius < self.max_x
                and self.min_y <= y - radius and y + radius < self.max_y)

    def segment_free(self, p0, p1, radius: float = 0.0) -> bool:
        """True when a disc of ``radius`` moved from p0 to p1 stays in the world, off the grid's
        occupied cells and off the obstacles."""
        if not (self.inside_bounds(*p0, radius) and self.inside_bounds(*p1, radius)):
            return False
        return not (self._hits_grid(p0, p1, radius) or self._hits_obstacles(p0, p1, radius))

    def box_free(self, box) -> bool:
        """True when the open box (x0, y0, x1, y1) overlaps no occupied cell and no obstacle."""
        if box[0] < self.min_x or box[1] < self.min_y or box[2] > self.max_x or box[3] > self.max_y:
            return False
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(_point_in_polygon((cx, cy), poly) for poly in self.polygons):
            return False
        if any(segment_enters_open_box(a, b, box) for poly in self.polygons
               for a, b in zip(poly, poly[1:] + poly[:1])):
            return False
        return not any(self._cell_box_overlaps(box))

    def _cell_range(self, lo: float, hi: float, origin: float, size: float, n: int) -> range:
        return range(max(0, int(math.floor((lo - origin) / size))),
                     min(n, int(math.floor((hi - origin) / size)) + 1))

    def _candidate_cells(self, x_lo, y_lo, x_hi, y_hi):
        nx, ny = self.occupied.shape
        for i in self._cell_range(x_lo, x_hi, self.min_x, self.cell[0], nx):
            for j in self._cell_range(y_lo, y_hi, self.min_y, self.cell[1], ny):
                if self.occupied[i, j]:
                    x0, y0 = self.min_x + i * self.cell[0], self.min_y + j * self.cell[1]
                    yield (x0, y0, x0 + self.cell[0], y0 + self.cell[1])

    def _cell_box_overlaps(self, box):
        if self.occupied is None:
            return
        for cell in self._candidate_cells(*box):
            if cell[0] < box[2] and box[0] < cell[2] and cell[1] < box[3] and box[1] < cell[3]:
                yield cell

    def _hits_grid(self, p0, p1, radius: float) -> bool:
        if self.occupied is None:
            return False
        cells = self._candidate_cells(min(p0[0], p1[0]) - radius, min(p0[1], p1[1]) - radius,
                                      max(p0[0], p1[0]) + radius, max(p0[1], p1[1]) + radius)
        return any(segment_box_hits(p0, p1, cell, radius) for cell in cells)

    def _hits_obstacles(self, p0, p1, radius: float) -> bool:
        for poly in self.polygons:
            if _point_in_polygon(p0, poly) or _point_in_polygon(p1, poly):
                return True
            edges = zip(poly, poly[1:] + poly[:1])
            if any(segment_segment_distance(p0, p1, a, b) < max(radius, 1e-12) for a, b in edges):
                return True
        return False
