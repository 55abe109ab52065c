"""The built-in per-robot metrics of a sweep run (docs/sweeps.md), gathered step by step.

- arrival_time: simulation time (s) at the end of the first step after which the robot has
  arrived (``Object.arrive``); empty when it never arrives.
- collisions: how many times the robot starts colliding (steps where ``Object.collision`` turns
  true, as ubot.VectorEnv's collision penalty counts them).
- min_clearance: the smallest distance (m) over the run, its start included, from the robot's
  shape to the nearest other object it can collide with (unobstructed objects are left out); 0
  when touching or overlapping; empty when there is no such object. Each distance is
  ``Simulation.clearance`` (the simulator's exact shape-to-shape distance).
- path_length: the length (m) of the robot's path, the sum of the straight moves between steps.
"""

from functools import partial

import numpy as np


class RobotMetrics:
    """One robot's built-in metrics and its trajectory, updated after every step."""

    def __init__(self, sim, robot, others):
        self.robot = sim.object(robot)
        self.clearance = partial(sim.clearance, self.robot.id)
        self.others = [o.id for o in others]
        self.states = [self.robot.state]
        self.arrival_time = np.nan
        self.collisions = 0
        self.colliding = False
        self.min_clearance = np.nan
        self._update_clearance()

    def _update_clearance(self):
        if not self.others:
            return
        d = min(map(self.clearance, self.others))
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
