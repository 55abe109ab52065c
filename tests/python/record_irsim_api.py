#!/usr/bin/env python3
"""Records what the real IR-SIM's Python API returns, for test_irsim_api.py to hold ubot.irsim to.

Run against IR-SIM itself, never against ubot: the test venv's pinned IR-SIM
(requirements/test.txt, `make venv`). The four fixtures in tests/python/data/ (IR-SIM 2.12.0):
    U=tests/data/irsim_usage R="env MPLBACKEND=Agg build/venv/bin/python tests/python/record_irsim_api.py"
    $R $U/05lidar_world/lidar_world.yaml 60 tests/python/data/irsim_api_lidar_world.json
    $R $U/22fmcw_lidar_world/fmcw_lidar_world.yaml 5 tests/python/data/irsim_api_fmcw_lidar_world.json
    $R $U/13custom_behavior/custom_smooth_dash.yaml 60 \
        tests/python/data/irsim_api_custom_smooth_dash.json custom_behavior_methods
    PYTHONPATH=$U/13custom_behavior $R tests/python/data/irsim_formation_world.yaml 40 \
        tests/python/data/irsim_api_irsim_formation_world.json custom_group_methods

For every step it stores get_robot_state(), the robot's velocity / goal / get_vel_range(),
env.done() and env.status, and get_lidar_scan() (keys, shapes and values); at the start the
types and shapes of the attributes scripts use. Sensor noise is switched off after
construction (as tools/dump.py does) so the values are deterministic.
"""

import json
import os
import sys

import numpy as np


def describe(value):
    """Type name and shape of a returned value (what the layer must reproduce)."""
    if isinstance(value, np.ndarray):
        return {"type": "ndarray", "shape": list(value.shape)}
    if value is None:
        return {"type": "None"}
    return {"type": type(value).__name__}


def as_json(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    return value


def scan_record(scan: dict) -> dict:
    return {key: {"describe": describe(val), "value": as_json(val)} for key, val in scan.items()}


def main(world: str, steps: int, out: str, behaviors=None) -> None:
    import irsim

    sys.path.insert(0, os.path.dirname(os.path.abspath(world)))
    env = irsim.make(world, display=False, seed=0)
    if behaviors:
        env.load_behavior(behaviors)
    for obj in env.objects:
        for sensor in getattr(obj, "sensors", []) or []:
            if hasattr(sensor, "noise"):
                sensor.noise = False
    robot = env.robot
    has_lidar = getattr(robot, "lidar", None) is not None
    shapes = {name: describe(getattr(robot, name)) for name in
              ("state", "velocity", "goal", "position", "vel_min", "vel_max", "vertices",
               "velocity_xy", "radius", "arrive", "collision", "name", "kinematics", "shape",
               "goal_threshold", "max_speed", "fov", "fov_radius")}
    info = env.get_robot_info()
    record = {
        "world": os.path.basename(world),
        "irsim_version": irsim.__version__,
        "attributes": shapes,
        "get_robot_state": describe(env.get_robot_state()),
        "get_vel_range": [describe(v) for v in robot.get_vel_range()],
        "get_lidar_offset": as_json(env.get_lidar_offset()) if has_lidar else None,
        "robot_info_fields": sorted(vars(info)),
        "robot_info": {k: as_json(getattr(info, k)) for k in ("id", "name", "kinematics", "role",
                                                                "shape", "goal_threshold")},
        # IR-SIM 2.12.0's physical properties of every object (inf as the string "inf")
        "physical": [{k: str(getattr(o, k)) if np.isinf(getattr(o, k)) else getattr(o, k)
                      for k in ("mass", "friction", "inertia", "restitution")}
                     for o in env.objects],
        "step_time": env.step_time,
        "status0": env.status,
        "names": [o.name for o in env.objects],
        "vertices": [as_json(o.vertices) for o in env.objects],
        "roles": [o.role for o in env.objects],
        "frames": [],
    }
    for _ in range(steps):
        env.step()
        lo, hi = robot.get_vel_range()
        record["frames"].append({
            "state": as_json(env.get_robot_state()),
            "velocity": as_json(robot.velocity),
            "goal": as_json(robot.goal),
            "vel_range": [as_json(lo), as_json(hi)],
            "done": bool(env.done()),
            "status": env.status,
            "scan": scan_record(env.get_lidar_scan()) if has_lidar else None,
            "states": [as_json(o.state) for o in env.objects],
        })
    with open(out, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], *sys.argv[4:5])
