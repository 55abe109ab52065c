#!/usr/bin/env python3
"""IR-SIM's own draws for random_layout_world.yaml, reduced to what the statistical test compares.

Run with the test venv's pinned IR-SIM (requirements/test.txt; layout_samples.json: IR-SIM
2.12.0, whose draws equal those 2.10.2 (checkout a76275f) made before, value for value):

    MPLBACKEND=Agg ../../../build/venv/bin/python make_layout_samples.py   # writes it here

Output: {"states": [[x, y, theta], ...], "goals": [[x, y, theta], ...]} of the robots, and
"polygon_centres": [[x, y], ...], the mean of each random polygon's body-frame vertices.
"""
import json
import os

import irsim

HERE = os.path.dirname(os.path.abspath(__file__))
env = irsim.make(os.path.join(HERE, "random_layout_world.yaml"), display=False, seed=0)


def rounded(values):
    return [round(float(v), 6) for v in values]


states = [rounded(r.state[:3, 0]) for r in env.robot_list]
goals = [rounded(r.goal[:3, 0]) for r in env.robot_list]
centres = [rounded(o.original_vertices.mean(axis=1)) for o in env.obstacle_list]
with open(os.path.join(HERE, "layout_samples.json"), "w") as f:
    json.dump({"irsim_version": irsim.__version__, "states": states, "goals": goals,
               "polygon_centres": centres}, f, separators=(",", ":"))
