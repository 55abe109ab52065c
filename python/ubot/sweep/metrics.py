"""The built-in per-robot metrics of a sweep run (docs/sweeps.md), gathered step by step.

- arrival_time: simulation time (s) at the end of the first step after which the robot has
  arrived (``Object.arrive``); empty when it never arrives.
- collisions: how many times the robot starts colliding (steps where ``Object.collision`` turns
  true, as ubot.VectorEnv's collision penalty counts them).
- min_clearance: the smallest distance (m) over the run, its start included, from the robot's
  shape to the nearest other object it can collide with (unobstructed objects are left out); 0
  when touching or overlapping; empty when there is no such object. Each step's value is
  ``Simulation.min_clearance`` (the simulator's exact shape-to-shape distance, in one native
  call per robot).
- path_length: the length (m) of the robot's path, the sum of the straight moves between steps.
"""

import numpy as np


class RobotMetrics:
    """One robot's built-in metrics and its trajectory, updated after every step; the clearance
    only when `clearance` (min_clearance is asked for)."""

    def __init__(self, sim, robot, clearance):
        self.robot = sim.object(robot)
        self.clearance = (lambda: sim.min_clearance(self.robot.id)) if clearance else None
        self.states = [self.robot.state]
        self.arrival_time = np.nan
        self.collisions = 0
        self.colliding = False
        self.min_clearance = np.nan
        self._update_clearance()

    def _update_clearance(self):
        if self.clearance is not None:
            self.min_clearance = np.fmin(self.min_clearance, self.clearance())

    def after_step(self, time):
        self.states.append(self.robot.state)
        if np.isnan(self.arrival_time) and self.robot.arrive:
            self.arrival_time = time
        colliding = bool(self.robot.collision)
        self.collisions += colliding and not self.colliding
        self.colliding = colliding
        self._update_clearance()

    def path_length(self):
        xy = np.array(self.states)[:, :2]
        return float(np.hypot(*np.diff(xy, axis=0).T).sum())

    def values(self, names):
        value_of = {"arrival_time": lambda: self.arrival_time,
                    "collisions": lambda: self.collisions,
                    "min_clearance": lambda: float(self.min_clearance),
                    "path_length": self.path_length}
        return {name: value_of[name]() for name in names}


def robot_metrics(sim, clearance=True):
    """A RobotMetrics per robot; `clearance`: whether to follow min_clearance."""
    return [RobotMetrics(sim, name, clearance) for name in sim.robot_names]
