"""A user metric of examples/sweeps/lidar_noise.yaml (docs/sweeps.md): goal_distance.

A metric is ``function(sim, run)``, called once after the run's last step with the simulation
and a ``ubot.sweep.run.RunInfo`` (index, world, seed, params, steps, trajectories). It returns a
number (the column is named after the function) or a dict of numbers (``function.key`` columns).
"""

import numpy as np


def goal_distance(sim, run):
    """Per robot, how far (m) from its goal it ended: 0 for a robot that got there."""
    out = {}
    for name in sim.robot_names:
        robot = sim.object(name)
        goal = robot.goal if robot.goal is not None else robot.state
        out[name] = float(np.hypot(*(robot.state[:2] - goal[:2])))
    return out
