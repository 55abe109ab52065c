"""Sampling tree planners: ``RRT``, ``RRTStar`` and ``InformedRRTStar`` (IR-SIM's interfaces).

The robot is a disc of ``robot.radius``; an edge is usable when that disc swept along it stays in
the world, off occupied grid cells and off obstacles (exact segment tests, see _collision.py).
Samples come from the planner's own generator seeded with the map's ``seed`` (``env.get_map``
gives the world's seed), so a script plans the same path on every run. ``planning`` returns the
``2 x N`` waypoints from the goal back to the start, or None; ``self.end.cost`` is the path's
length and ``self.node_list`` the tree, as IR-SIM's scripts read them.
"""

import math

import numpy as np

from ._collision import MapCollision


class TreeNode:
    def __init__(self, x: float, y: float, cost: float = 0.0, parent=None) -> None:
        self.x, self.y, self.cost, self.parent = x, y, cost, parent
        self.children = []

    def attach(self, parent, edge_cost: float) -> None:
        """Re-parents this node and moves the cost change down its subtree."""
        if self.parent is not None:
            self.parent.children.remove(self)
        self.parent = parent
        parent.children.append(self)
        delta = parent.cost + edge_cost - self.cost
        self.cost = parent.cost + edge_cost  # the goal starts at inf: inf - inf is no delta
        stack = list(self.children)
        while stack:
            node = stack.pop()
            node.cost += delta
            stack.extend(node.children)


class RRT:
    """Grows a tree toward random samples; stops at the first edge that reaches the goal."""

    def __init__(self, env_map, robot, expand_dis: float = 1.0, path_resolution: float = 0.25,
                 goal_sample_rate: int = 5, max_iter: int = 500) -> None:
        if robot is None:
            raise ValueError("robot is required (e.g. robot=env.robot).")
        self._map = env_map
        self.obstacle_list = list(env_map.obstacle_list)
        self._collision = MapCollision(env_map)
        self.robot_radius = float(robot.radius)
        self.expand_dis = float(expand_dis)
        self.path_resolution = float(path_resolution)  # IR-SIM's edge sampling; ubot tests edges exactly
        self.goal_sample_rate = goal_sample_rate
        self.max_iter = int(max_iter)
        self.node_list, self.start, self.end = [], None, None
        self.rng = np.random.default_rng(getattr(env_map, "seed", 0))

    # -- tree ------------------------------------------------------------------------------
    def _reset(self, start_pose, goal_pose) -> None:
        s = np.asarray(start_pose, dtype=float).flatten()
        g = np.asarray(goal_pose, dtype=float).flatten()
        self.start = TreeNode(float(s[0]), float(s[1]))
        self.end = TreeNode(float(g[0]), float(g[1]), cost=math.inf)
        self.node_list = [self.start]
        self._xy = np.empty((self.max_iter + 1, 2))
        self._xy[0] = (self.start.x, self.start.y)

    def _add(self, node) -> None:
        self._xy[len(self.node_list)] = (node.x, node.y)
        self.node_list.append(node)

    def _distances(self, x: float, y: float) -> np.ndarray:
        xy = self._xy[: len(self.node_list)]
        return np.hypot(xy[:, 0] - x, xy[:, 1] - y)

    def edge_free(self, a, b) -> bool:
        return self._collision.segment_free((a.x, a.y), (b.x, b.y), self.robot_radius)

    def steer(self, from_node, to_x: float, to_y: float) -> "TreeNode":
        d = math.hypot(to_x - from_node.x, to_y - from_node.y)
        t = 1.0 if d <= self.expand_dis else self.expand_dis / d
        return TreeNode(from_node.x + t * (to_x - from_node.x), from_node.y + t * (to_y - from_node.y))

    def sample(self):
        rng = self.rng
        if rng.integers(0, 101) > self.goal_sample_rate:
            c = self._collision
            return float(rng.uniform(c.min_x, c.max_x)), float(rng.uniform(c.min_y, c.max_y))
        return self.end.x, self.end.y

    def _grow(self):
        """One iteration: the new node joined to its nearest tree node, or None."""
        sx, sy = self.sample()
        nearest = self.node_list[int(np.argmin(self._distances(sx, sy)))]
        new = self.steer(nearest, sx, sy)
        if not self.edge_free(nearest, new):
            return None
        new.attach(nearest, math.hypot(new.x - nearest.x, new.y - nearest.y))
        self._add(new)
        return new

    def _try_goal(self, node) -> bool:
        """Joins the goal to ``node`` when near and free and cheaper than the goal's edge so far."""
        d = math.hypot(self.end.x - node.x, self.end.y - node.y)
        if d > self.expand_dis or node.cost + d >= self.end.cost or not self.edge_free(node, self.end):
            return False
        self.end.attach(node, d)
        return True

    def path(self) -> np.ndarray:
        xs, ys, node = [], [], self.end
        while node is not None:
            xs.append(node.x)
            ys.append(node.y)
            node = node.parent
        return np.array([xs, ys])

    def planning(self, start_pose, goal_pose, show_animation: bool = True):
        self._reset(start_pose, goal_pose)
        for _ in range(self.max_iter):
            new = self._grow()
            if new is not None and self._try_goal(new):
                return self.path()
        return None


class RRTStar(RRT):
    """RRT* (Karaman & Frazzoli 2011): each new node takes the cheapest near parent, then near
    nodes re-parent through it when that shortens them. Near radius:
    ``min(connect_circle_dist * sqrt(log(n) / n), expand_dis)`` for a tree of n nodes."""

    def __init__(self, env_map, robot, expand_dis: float = 1.5, path_resolution: float = 0.25,
                 goal_sample_rate: int = 5, max_iter: int = 500, connect_circle_dist: float = 0.5,
                 search_until_max_iter: bool = False) -> None:
        super().__init__(env_map, robot, expand_dis, path_resolution, goal_sample_rate, max_iter)
        self.connect_circle_dist = float(connect_circle_dist)
        self.search_until_max_iter = search_until_max_iter

    def _near(self, node) -> list:
        n = len(self.node_list) + 1
        r = min(self.connect_circle_dist * math.sqrt(math.log(n) / n), self.expand_dis)
        d = self._distances(node.x, node.y)
        return [(self.node_list[i], float(d[i])) for i in np.nonzero(d <= r)[0]]

    def _grow(self):
        new = super()._grow()
        if new is None:
            return None
        near = self._near(new)
        for cand, d in near:  # cheapest parent
            if cand.cost + d < new.cost and cand is not new and self.edge_free(cand, new):
                new.attach(cand, d)
        for cand, d in near:  # rewire through the new node
            if new.cost + d < cand.cost and cand is not new and self.edge_free(new, cand):
                cand.attach(new, d)
        return new

    def planning(self, start_pose, goal_pose, show_animation: bool = True):
        self._reset(start_pose, goal_pose)
        for _ in range(self.max_iter):
            new = self._grow()
            if new is not None and self._try_goal(new) and not self.search_until_max_iter:
                return self.path()
        if self.end.parent is None:
            return None
        print(f"[RRT*] path cost = {self.end.cost:.3f}, tree nodes = {len(self.node_list)}")
        return self.path()


class InformedRRTStar(RRTStar):
    """Informed RRT* (Gammell et al. 2014): once a path of length c exists, samples are drawn
    uniformly from the ellipse of points whose start + goal distance is below c."""

    def __init__(self, env_map, robot, expand_dis: float = 1.5, path_resolution: float = 0.25,
                 goal_sample_rate: int = 10, max_iter: int = 500,
                 connect_circle_dist: float = 50.0, search_until_max_iter: bool = True) -> None:
        super().__init__(env_map, robot, expand_dis, path_resolution, goal_sample_rate, max_iter,
                         connect_circle_dist, search_until_max_iter)

    def sample(self):
        c_best = self.end.cost
        if not math.isfinite(c_best):
            return super().sample()
        rng = self.rng
        sx, sy, gx, gy = self.start.x, self.start.y, self.end.x, self.end.y
        c_min = math.hypot(gx - sx, gy - sy)
        a, b = c_best / 2.0, math.sqrt(max(c_best * c_best - c_min * c_min, 0.0)) / 2.0
        r, t = math.sqrt(rng.uniform(0.0, 1.0)), rng.uniform(0.0, 2.0 * math.pi)
        ex, ey = a * r * math.cos(t), b * r * math.sin(t)
        yaw = math.atan2(gy - sy, gx - sx)
        return ((sx + gx) / 2 + ex * math.cos(yaw) - ey * math.sin(yaw),
                (sy + gy) / 2 + ex * math.sin(yaw) + ey * math.cos(yaw))
