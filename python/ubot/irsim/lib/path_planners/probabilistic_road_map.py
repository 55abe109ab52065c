"""Probabilistic road map (``PRMPlanner``, IR-SIM's interface).

``n_sample`` collision-free points (discs of ``robot_radius``) drawn uniformly in the world, plus
start and goal, each joined to up to ``n_knn`` nearest points within ``max_edge_len`` by free
edges (undirected); Dijkstra then finds the shortest road. Samples come from ``rng`` or else a
generator seeded with the map's ``seed`` (the world's), so runs repeat. ``planning`` returns
the ``2 x N`` waypoints from goal back to start, a ``2 x 0`` array when the road map does not
join them.
"""

import heapq
import math

import numpy as np

from ._collision import MapCollision


class PRMPlanner:
    def __init__(self, env_map, robot_radius: float, n_sample: int = 500, n_knn: int = 10,
                 max_edge_len: float = 30.0) -> None:
        self._map = env_map
        self.obstacle_list = list(env_map.obstacle_list)
        self._collision = MapCollision(env_map)
        self.rr = float(robot_radius)
        self.n_sample, self.n_knn, self.max_edge_len = int(n_sample), int(n_knn), float(max_edge_len)

    def _free(self, p) -> bool:
        return self._collision.segment_free(p, p, self.rr)

    def sample_points(self, start, goal, rng) -> np.ndarray:
        c, points = self._collision, []
        while len(points) < self.n_sample:
            p = (float(rng.uniform(c.min_x, c.max_x)), float(rng.uniform(c.min_y, c.max_y)))
            if self._free(p):
                points.append(p)
        return np.array([start, goal] + points)

    def road_map(self, points: np.ndarray) -> list:
        edges = [set() for _ in points]
        for i, p in enumerate(points):
            d = np.hypot(points[:, 0] - p[0], points[:, 1] - p[1])
            joined = 0
            for j in np.argsort(d, kind="stable")[1:]:
                if joined >= self.n_knn or d[j] > self.max_edge_len:
                    break
                if self._collision.segment_free(tuple(p), tuple(points[j]), self.rr):
                    edges[i].add(int(j))
                    edges[int(j)].add(i)
                    joined += 1
        return edges

    def planning(self, start_pose, goal_pose, rng=None, show_animation: bool = True):
        start = tuple(float(v) for v in np.asarray(start_pose, dtype=float).flatten()[:2])
        goal = tuple(float(v) for v in np.asarray(goal_pose, dtype=float).flatten()[:2])
        if rng is None:
            rng = np.random.default_rng(getattr(self._map, "seed", 0))
        points = self.sample_points(start, goal, rng)
        edges = self.road_map(points)
        parents = self._dijkstra(points, edges)
        if parents is None:
            print("Cannot find path")
            return np.array([[], []])
        chain = [1]  # index 1 is the goal, 0 the start
        while chain[-1] != 0:
            chain.append(parents[chain[-1]])
        return points[chain].T.copy()

    @staticmethod
    def _dijkstra(points, edges):
        dist, parents, heap = {0: 0.0}, {}, [(0.0, 0)]
        while heap:
            d, i = heapq.heappop(heap)
            if i == 1:
                return parents
            if d > dist[i]:
                continue
            for j in sorted(edges[i]):
                nd = d + math.dist(points[i], points[j])
                if nd < dist.get(j, math.inf):
                    dist[j], parents[j] = nd, i
                    heapq.heappush(heap, (nd, j))
        return None
