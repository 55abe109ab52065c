#!/usr/bin/env python3
"""IR-SIM's own draws for random_shapes_world.yaml, reduced to what the statistical test compares.

Run with the test venv's pinned IR-SIM (requirements/test.txt; samples.json: IR-SIM 2.12.0,
whose draws equal those 2.10.2 (checkout a76275f) made before, value for value):

    MPLBACKEND=Agg ../../../build/venv/bin/python make_samples.py   # writes samples.json here

Output: {"polygons": [[[x, y], ...] body-frame vertices, ...], "circle_radii": [...],
"placements": [[x, y, theta], ...]} for the three obstacle groups, in order.
"""
import json
import os

import irsim

HERE = os.path.dirname(os.path.abspath(__file__))
env = irsim.make(os.path.join(HERE, "random_shapes_world.yaml"), display=False, seed=0)
polygons, radii, placements = [], [], []
for obj in env.obstacle_list:
    if obj.group == 0:
        polygons.append([[round(float(x), 6), round(float(y), 6)] for x, y in obj.original_vertices.T])
    elif obj.group == 1:
        radii.append(round(float(obj.radius), 6))  # minimum bounding radius: a 64-gon's
    else:
        placements.append([round(float(v), 6) for v in obj.state[:3, 0]])
with open(os.path.join(HERE, "samples.json"), "w") as f:
    json.dump({"irsim_version": irsim.__version__, "polygons": polygons, "circle_radii": radii,
               "placements": placements}, f, separators=(",", ":"))
