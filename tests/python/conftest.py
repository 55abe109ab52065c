"""Shared fixtures of the Python tests: the source tree and small analytic worlds."""

import os

import pytest

SOURCE_DIR = os.environ.get(
    "UBOT_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)


def example(name):
    return os.path.join(SOURCE_DIR, "examples", name)


# A diff robot at (2, 5) facing +x with a 3-beam exact lidar (beams at -90, 0, +90 degrees), in
# front of a wall whose face is the plane x = 5.5 (a 1 x 8 rectangle centred at (6, 5)).
WALL_WORLD = """
world: {width: 10, height: 10, step_time: 0.1}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [2, 5, 0]
    goal: [9, 5, 0]
    vel_max: [1, 1]
    sensors:
      - {type: lidar2d, range_min: 0, range_max: 8, angle_range: 3.141592653589793, number: 3}
obstacle:
  - shape: {name: rectangle, length: 1, width: 8}
    state: [6, 5, 0]
"""


@pytest.fixture
def wall_sim():
    import ubot

    with ubot.Simulation.from_yaml(WALL_WORLD, seed=0, threads=1) as sim:
        yield sim
