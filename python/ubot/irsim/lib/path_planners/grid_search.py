"""Grid planners: A* (``AStarPlanner``) and Jump Point Search (``JPSPlanner``).

As IR-SIM's: node ``(i, j)`` sits at ``world_offset + (i, j) * resolution`` (the map grid's own
cell size when the map has a grid) and is usable when a square one cell wide centred on it lies
in the world and overlaps no occupied cell and no obstacle. Moves go to the 8 neighbours, cost
their length; ``planning`` returns the ``2 x N`` waypoints from the goal back to the start (IR-SIM's
order), or None when start or goal is unusable or no path exists. ``show_animation`` draws
nothing: ubot is headless.
"""

import heapq
import math

import numpy as np

from ._collision import MapCollision

_MOVES = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def _octile(a, b) -> float:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + (math.sqrt(2.0) - 1.0) * min(dx, dy)


class _GridPlanner:
    def __init__(self, env_map) -> None:
        self._map = env_map
        self.obstacle_list = list(env_map.obstacle_list)
        self._collision = MapCollision(env_map)
        self.origin_x, self.origin_y = self._collision.min_x, self._collision.min_y
        grid = getattr(env_map, "grid", None)
        if grid is not None:
            self.resolution = self._collision.cell[0]
            self.x_width, self.y_width = np.asarray(grid).shape
        else:
            self.resolution = float(env_map.resolution)
            self.x_width = round((self._collision.max_x - self.origin_x) / self.resolution)
            self.y_width = round((self._collision.max_y - self.origin_y) / self.resolution)
        self.free = self._free_nodes()

    def _free_nodes(self) -> np.ndarray:
        """Usable nodes: with a grid, a node is free when none of the 4 cells its square overlaps
        is occupied (the square reaches half a cell into each)."""
        nx, ny, res, c = self.x_width, self.y_width, self.resolution, self._collision
        xs = self.origin_x + np.arange(nx) * res
        ys = self.origin_y + np.arange(ny) * res
        free = np.outer((xs - res / 2 >= c.min_x) & (xs + res / 2 <= c.max_x),
                        (ys - res / 2 >= c.min_y) & (ys + res / 2 <= c.max_y))
        if c.occupied is not None:
            occ = np.pad(c.occupied, ((1, 0), (1, 0)))  # occ[i, j] is cell (i-1, j-1)
            near = occ[:-1, :-1] | occ[1:, :-1] | occ[:-1, 1:] | occ[1:, 1:]
            free &= ~near
        if c.polygons:
            for i, j in zip(*np.nonzero(free)):
                x, y = xs[i], ys[j]
                free[i, j] = c.box_free((x - res / 2, y - res / 2, x + res / 2, y + res / 2))
        return free

    def calc_xy_index(self, position: float, min_pos: float) -> int:
        return round((position - min_pos) / self.resolution)

    def calc_grid_position(self, index: int, min_pos: float) -> float:
        return index * self.resolution + min_pos

    def is_free(self, i: int, j: int) -> bool:
        return 0 <= i < self.x_width and 0 <= j < self.y_width and bool(self.free[i, j])

    def _node_of(self, pose):
        p = np.asarray(pose, dtype=float).flatten()
        return (self.calc_xy_index(p[0], self.origin_x), self.calc_xy_index(p[1], self.origin_y))

    def planning(self, start_pose, goal_pose, show_animation: bool = True):
        start, goal = self._node_of(start_pose), self._node_of(goal_pose)
        if not (self.is_free(*start) and self.is_free(*goal)):
            print("Start or goal is not free")
            return None
        parents = self._search(start, goal)
        if parents is None:
            print("Open set is empty..")
            return None
        nodes = [goal]
        while nodes[-1] != start:
            nodes.append(parents[nodes[-1]])
        rx = [self.calc_grid_position(i, self.origin_x) for i, _ in nodes]
        ry = [self.calc_grid_position(j, self.origin_y) for _, j in nodes]
        return np.array([rx, ry])

    def _search(self, start, goal):
        """Best-first search over ``self._successors``; the parents map, or None."""
        g = {start: 0.0}
        parents = {}
        tie = 0  # insertion order breaks f ties, so the result never depends on hashing
        open_heap = [(math.dist(start, goal), tie, start)]
        closed = set()
        while open_heap:
            _, _, node = heapq.heappop(open_heap)
            if node in closed:
                continue
            if node == goal:
                return parents
            closed.add(node)
            for nxt, step in self._successors(node, goal):
                cost = g[node] + step
                if nxt not in closed and cost < g.get(nxt, math.inf):
                    g[nxt], parents[nxt] = cost, node
                    tie += 1
                    heapq.heappush(open_heap, (cost + math.dist(nxt, goal), tie, nxt))
        return None


class AStarPlanner(_GridPlanner):
    """A* over every free 8-neighbour (heuristic: Euclidean distance, admissible)."""

    def _successors(self, node, goal):
        for dx, dy in _MOVES:
            nxt = (node[0] + dx, node[1] + dy)
            if self.is_free(*nxt):
                yield nxt, math.hypot(dx, dy)


class JPSPlanner(_GridPlanner):
    """Jump Point Search (Harabor & Grastien 2011) on the same graph as A*: from each jump point
    it jumps in all 8 directions, stopping at the goal and at nodes with forced neighbours, so
    its paths are as short as A*'s with far fewer expansions."""

    def _successors(self, node, goal):
        for dx, dy in _MOVES:
            jump = self._jump(node, dx, dy, goal)
            if jump is not None:
                yield jump, _octile(node, jump)

    def _forced_straight(self, x, y, dx, dy) -> bool:
        if dy == 0:
            return any(not self.is_free(x, y + s) and self.is_free(x + dx, y + s) for s in (1, -1))
        return any(not self.is_free(x + s, y) and self.is_free(x + s, y + dy) for s in (1, -1))

    def _jump_straight(self, x, y, dx, dy, goal):
        while True:
            x, y = x + dx, y + dy
            if not self.is_free(x, y):
                return None
            if (x, y) == goal or self._forced_straight(x, y, dx, dy):
                return (x, y)

    def _jump(self, node, dx, dy, goal):
        if dx == 0 or dy == 0:
            return self._jump_straight(*node, dx, dy, goal)
        x, y = node
        while True:
            x, y = x + dx, y + dy
            if not self.is_free(x, y):
                return None
            if (x, y) == goal:
                return (x, y)
            forced = ((not self.is_free(x - dx, y) and self.is_free(x - dx, y + dy))
                      or (not self.is_free(x, y - dy) and self.is_free(x + dx, y - dy)))
            if (forced or self._jump_straight(x, y, dx, 0, goal) is not None
                    or self._jump_straight(x, y, 0, dy, goal) is not None):
                return (x, y)
