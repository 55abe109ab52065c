"""``irsim.lib.path_planners``: ubot's own A*, JPS, PRM, RRT, RRT* and informed RRT* with
IR-SIM's class names, constructors and return shapes (docs/irsim-python.md#path-planners)."""

from .grid_search import AStarPlanner, JPSPlanner
from .probabilistic_road_map import PRMPlanner
from .rrt import RRT, InformedRRTStar, RRTStar

__all__ = ["RRT", "AStarPlanner", "InformedRRTStar", "JPSPlanner", "PRMPlanner", "RRTStar"]
