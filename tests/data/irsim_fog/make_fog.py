#!/usr/bin/env python3
"""IR-SIM's own FogMap (irsim/world/map/fog_map.py) on fixed reveals, for
tests/world/fog_map_test.cpp. Run with the test venv's pinned IR-SIM (requirements/test.txt);
IR-SIM 2.12.0 writes the same fog.json, byte for byte, as 2.10.2 (checkout a76275f) did:

    MPLBACKEND=Agg ../../../build/venv/bin/python make_fog.py

Writes fog.json: the calls made and, after each, the explored cells as [i, j] pairs.
"""
import json
import os

import numpy as np
from irsim.world.map.fog_map import FogMap

HERE = os.path.dirname(os.path.abspath(__file__))
fog = FogMap(width=20, height=15, resolution=0.13, world_offset=[-2.0, 1.0])
angles = np.linspace(-1.57, 1.57, 180)
ranges = np.array([1.5 + (i % 7) * 0.4 for i in range(180)])
calls = [
    {"lidar": [6.03, 7.97, 0.3], "angles": angles.tolist(), "ranges": ranges.tolist()},
    {"fov": [1.2, 5.1, 1.0], "angle": 2.0, "radius": 3.0},
    {"fov": [13.5, 12.5, -2.0], "angle": 4.0, "radius": 2.5},
    {"fov": [3.0, 14.0, 0.0], "angle": 2 * np.pi, "radius": 1.7},
]
out = {"width": 20, "height": 15, "resolution": 0.13, "offset": [-2.0, 1.0], "steps": []}
for c in calls:
    if "lidar" in c:
        fog.reveal_from_lidar(c["lidar"], c["angles"], c["ranges"])
    else:
        fog.reveal_fov(c["fov"], c["angle"], c["radius"])
    cells = np.argwhere(fog.explored).tolist()
    out["steps"].append({"call": c, "explored": cells, "ratio": fog.explored_ratio})
out["shape"] = list(fog.shape)
with open(os.path.join(HERE, "fog.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"))
