#!/usr/bin/env python3
"""Run an IR-SIM world deterministically and dump per-step ground truth to JSON.

Usage:
    python3 dump.py WORLD.yaml N_STEPS [-o OUT.json] [--seed 0]
                    [--irsim-src DIR] [--keep-noise]
                    [--action "v,w"] [--action-id 0]
                    [--load-behavior MODULE]...

The project's trace maker (tests/irsim_parity/dump.py, docs/irsim-parity.md); it was
/work/shared/irsim/tools/dump.py, which made the committed traces of tests/data/irsim_traces/.

What it does
  * imports the *installed* IR-SIM (``pip install ir-sim``: the pinned test venv,
    requirements/test.txt) when --irsim-src is '' (the default, unless $IRSIM_SRC is
    set); --irsim-src DIR imports IR-SIM from the checkout DIR instead (a clone of
    github.com/hanruihua/ir-sim): DIR goes first on sys.path, with an ``ir-sim``
    metadata stub made in a temporary folder so ``irsim.__version__`` resolves, and
    meta.irsim_commit records DIR's commit. IR-SIM needs Shapely >= 2 either way.
  * ``irsim.make(world, display=False, seed=SEED)``: the seed drives IR-SIM's
    shared numpy Generator (irsim/util/random.py), i.e. random distributions,
    random shapes and (if kept) noise.
  * unless --keep-noise: turns sensor range/velocity noise and kinematic
    (motion) noise off *after* construction (construction-time randomness such
    as ``distribution: random`` still uses the seeded generator).
  * records frame 0 = initial state (no scans: IR-SIM computes the first scan
    inside the first env.step()), then one frame after every env.step().

JSON layout (all angles in rad, all lengths in m, world frame unless noted)
  meta     : versions (IR-SIM, its source, commit for a checkout, Shapely, GEOS,
             numpy, pyrvo), world file, seed, step_time, collision_mode ...
  objects  : static description of every object: id, name, role, shape,
             kinematics (static obstacles report IR-SIM's fallback 'diff'),
             static, unobstructed, radius (IR-SIM's minimum bounding radius),
             state (initial), behavior, goal, original_geometry (body frame) and
             geometry (world frame at t=0) as coordinate lists.
  sensors  : one entry per sensor: obj_id, index, type, range_min/max,
             angle_range, number, offset, angles (beam angles relative to the
             sensor frame; IR-SIM keeps them constant), motion_compensate.
  frames[] : step, time, status, done (env.done(): every robot stopped or
             arrived; frames k>=1 only), objects[{id, state, velocity, velocity_xy,
             collision, arrive, stop}], sensors[{obj_id, index, origin
             [x,y,theta], ranges, valid, radial_velocity?, velocity?}]
             ``valid`` is IR-SIM's own mask for fmcw_lidar2d; for lidar2d IR-SIM
             has no mask, so it is derived here (flagged by ``valid_derived:
             true``): the beam hit something, i.e. ``range < range_max`` and
             shorter than its uncut beam segment (_lidar2d_hits: the released
             2.10.2 reports a miss as that segment's length, range_max up to
             rounding).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile


def _setup_imports(irsim_src: str) -> None:
    os.environ.setdefault("MPLBACKEND", "Agg")
    if not irsim_src:
        return  # the installed IR-SIM (pip install ir-sim): nothing to add
    if not os.path.isdir(os.path.join(irsim_src, "irsim")):
        sys.exit(f"--irsim-src {irsim_src}: not an IR-SIM checkout (no irsim/ in it); "
                 "give '' for the installed IR-SIM")
    # An uninstalled checkout has no package metadata, which irsim/version.py reads: a stub
    # with the checkout's version (pyproject.toml) goes first on the path, then the checkout.
    with open(os.path.join(irsim_src, "pyproject.toml")) as fh:
        version = re.search(r'^version\s*=\s*"([^"]+)"', fh.read(), re.M).group(1)
    stub = tempfile.mkdtemp(prefix="irsim-meta-")
    dist_info = os.path.join(stub, f"ir_sim-{version}.dist-info")
    os.mkdir(dist_info)
    with open(os.path.join(dist_info, "METADATA"), "w") as fh:
        fh.write(f"Metadata-Version: 2.1\nName: ir-sim\nVersion: {version}\n")
    sys.path[:0] = [stub, os.path.abspath(irsim_src)]


def _f(x):
    """numpy -> plain python (lists of floats)."""
    import numpy as np

    if x is None:
        return None
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return x.item()
    return x


def _coords(geom):
    """Coordinates of a shapely geometry as nested lists (parts/rings)."""
    if geom is None or geom.is_empty:
        return None
    gt = geom.geom_type
    if gt == "Polygon":
        rings = [list(map(list, geom.exterior.coords))]
        rings += [list(map(list, r.coords)) for r in geom.interiors]
        return {"type": gt, "rings": rings}
    if gt in ("LineString", "LinearRing", "Point"):
        return {"type": gt, "coords": list(map(list, geom.coords))}
    return {"type": gt, "parts": [_coords(g) for g in geom.geoms]}


def _lidar2d_hits(s):
    """lidar2d's beams that hit something (IR-SIM keeps no mask for lidar2d).

    A beam that hits nothing reports range_max in IR-SIM's ray casting (commit a76275f on),
    but in the released 2.10.2, which cuts the beams with shapely's ``difference``, the GEOS
    length of its whole, uncut segment: range_max up to rounding, a few 1e-15 m either side.
    So a beam is a hit when it is shorter than both (for a76275f's traces that is exactly
    ``range < range_max``). With noise kept the ranges are noisy: ``range < range_max``.
    """
    import numpy as np
    import shapely

    ranges = np.asarray(s.range_data, dtype=float)
    hits = ranges < s.range_max
    if getattr(s, "noise", False):
        return hits
    from irsim.util.util import geometry_transform

    # the beams at full length as IR-SIM's step() placed them (its _original_geometry: the
    # sensor-frame segments, here moved to the sensor's state of that step)
    uncut = shapely.length(
        shapely.get_parts(geometry_transform(s._original_geometry, s._state))
    )
    return hits & (ranges < uncut)


def _git_commit(path: str) -> str | None:
    try:
        return subprocess.check_output(
            ["git", "-C", path, "rev-parse", "HEAD"], text=True, stderr=subprocess.DEVNULL
        ).strip()
    except Exception:
        return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("world")
    ap.add_argument("steps", type=int)
    ap.add_argument("-o", "--out", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--irsim-src", default=os.environ.get("IRSIM_SRC", ""),
        help="an IR-SIM checkout to import; '' (default): the installed IR-SIM",
    )
    ap.add_argument("--keep-noise", action="store_true")
    ap.add_argument(
        "--action", default=None,
        help="constant action for robot --action-id, e.g. '0.5,0.2' (default: behaviors)",
    )
    ap.add_argument("--action-id", type=int, default=0)
    ap.add_argument(
        "--load-behavior", action="append", default=[], metavar="MODULE",
        help="call env.load_behavior(MODULE) after make (custom behaviours, e.g. "
        "custom_behavior_methods); the world's folder is put on sys.path; repeatable",
    )
    args = ap.parse_args(argv)

    _setup_imports(args.irsim_src)
    import numpy as np
    import shapely

    if int(shapely.__version__.split(".")[0]) < 2:
        sys.exit(f"Shapely {shapely.__version__}: IR-SIM needs Shapely >= 2")
    import irsim

    try:
        import importlib.metadata

        import pyrvo  # noqa: F401  IR-SIM's `orca` drives it; recorded when present

        pyrvo_version = importlib.metadata.version("pyrvo")
    except ImportError:
        pyrvo_version = None
    except importlib.metadata.PackageNotFoundError:  # built from source, no metadata
        pyrvo_version = "unknown"

    world_path = os.path.abspath(args.world)
    env = irsim.make(world_path, display=False, seed=args.seed, log_level="ERROR")
    if args.load_behavior:
        # IR-SIM imports the module by name: the world's folder must be importable
        sys.path.insert(0, os.path.dirname(world_path))
        for mod in args.load_behavior:
            env.load_behavior(mod)

    noise_disabled = []
    if not args.keep_noise:
        for obj in env.objects:
            if obj.kf is not None and getattr(obj.kf, "noise", False):
                obj.kf.noise = False
                noise_disabled.append(f"{obj.name}.kinematics")
            for i, s in enumerate(obj.sensors):
                if getattr(s, "noise", False):
                    s.noise = False
                    noise_disabled.append(f"{obj.name}.sensors[{i}]")
                if getattr(s, "velocity_noise_std", 0):
                    s.velocity_noise_std = 0.0
                    noise_disabled.append(f"{obj.name}.sensors[{i}].velocity")

    action = None
    if args.action:
        action = np.array([[float(v)] for v in args.action.split(",")])

    wp = env._world_param
    meta = {
        "generator": "tests/irsim_parity/dump.py",
        "irsim_version": irsim.__version__,
        "irsim_source": os.path.dirname(os.path.abspath(irsim.__file__)),
        "irsim_commit": _git_commit(args.irsim_src) if args.irsim_src else None,
        "shapely_version": shapely.__version__,
        "geos_version": getattr(shapely, "geos_version_string", None),
        "numpy_version": np.__version__,
        "pyrvo_version": pyrvo_version,
        "python": platform.python_version(),
        "world_file": os.path.basename(world_path),
        "seed": args.seed,
        "steps": args.steps,
        "step_time": env.step_time,
        "collision_mode": wp.collision_mode,
        "step_mode": getattr(env, "step_mode", None),  # not in every 2.10.2 (PyPI lacks it)
        "world_size": [env._world.width, env._world.height],
        "world_offset": _f(np.asarray(env._world.offset, dtype=float)),
        "noise_disabled": noise_disabled,
        "keep_noise": args.keep_noise,
        "action": args.action,
        "action_id": args.action_id if args.action else None,
        "load_behavior": args.load_behavior,
        "frame0": "initial state before the first env.step(); no scans",
    }

    objects = []
    sensors = []
    for obj in env.objects:
        goal = obj.goal
        objects.append(
            {
                "id": obj.id,
                "name": obj.name,
                "role": obj.role,
                "shape": obj.shape,
                "kinematics": obj.kinematics,
                "acker_mode": getattr(obj.kf, "mode", None),
                "wheelbase": _f(obj.wheelbase),
                "static": bool(obj.static),
                "unobstructed": bool(obj.unobstructed),
                "radius": _f(obj.radius),
                "state": _f(obj.state.ravel()),
                "behavior": obj.beh_config or None,
                "goal_threshold": _f(obj.goal_threshold),
                "goal": _f(goal.ravel()) if goal is not None else None,
                "vel_min": _f(obj.vel_min.ravel()),
                "vel_max": _f(obj.vel_max.ravel()),
                "acce": _f(np.asarray(obj.info.acce, dtype=float).ravel()),
                "fov": _f(obj.fov),
                "fov_radius": _f(obj.fov_radius),
                "original_geometry": _coords(obj.original_geometry),
                "geometry": _coords(obj.geometry),
            }
        )
        for i, s in enumerate(obj.sensors):
            sensors.append(
                {
                    "obj_id": obj.id,
                    "index": i,
                    "type": s.sensor_type,
                    "range_min": _f(s.range_min),
                    "range_max": _f(s.range_max),
                    "angle_range": _f(s.angle_range),
                    "angle_inc_reported": _f(s.angle_inc),
                    "number": s.number,
                    "offset": _f(np.asarray(s.offset, dtype=float).ravel()),
                    "angles": _f(s.angle_list),
                    "has_velocity": bool(getattr(s, "has_velocity", False)),
                    "motion_compensate": getattr(s, "motion_compensate", None),
                    "valid_derived": s.sensor_type == "lidar2d",
                }
            )

    def obj_frame(obj):
        return {
            "id": obj.id,
            "state": _f(obj.state.ravel()),
            "velocity": _f(np.asarray(obj.velocity, dtype=float).ravel()),
            "velocity_xy": _f(np.asarray(obj.velocity_xy, dtype=float).ravel()),
            "collision": bool(obj.collision_flag),
            "arrive": bool(obj.arrive_flag),
            "stop": bool(obj.stop_flag),
        }

    def sensor_frame(obj, i, s):
        rec = {
            "obj_id": obj.id,
            "index": i,
            "origin": _f(np.asarray(s.lidar_origin, dtype=float).ravel()),
            "ranges": _f(np.asarray(s.range_data, dtype=float)),
        }
        if s.sensor_type == "fmcw_lidar2d":
            rec["valid"] = _f(np.asarray(s.valid, dtype=bool))
            rec["radial_velocity"] = _f(np.asarray(s.radial_velocity, dtype=float))
        else:
            rec["valid"] = _f(_lidar2d_hits(s))
            if getattr(s, "has_velocity", False):
                rec["velocity"] = _f(np.asarray(s.velocity, dtype=float))
        return rec

    frames = [
        {
            "step": 0,
            "time": 0.0,
            "status": env.status,
            "objects": [obj_frame(o) for o in env.objects if not o.static],
            "sensors": None,
        }
    ]
    for k in range(1, args.steps + 1):
        if action is not None:
            env.step(action, action_id=args.action_id)
        else:
            env.step()
        frames.append(
            {
                "step": k,
                "time": _f(env.time),
                "status": env.status,
                "done": bool(env.done()),
                "objects": [obj_frame(o) for o in env.objects if not o.static],
                "sensors": [
                    sensor_frame(o, i, s)
                    for o in env.objects
                    for i, s in enumerate(o.sensors)
                ],
            }
        )

    out = args.out or os.path.splitext(os.path.basename(world_path))[0] + ".json"
    with open(out, "w") as fh:
        json.dump(
            {"meta": meta, "objects": objects, "sensors": sensors, "frames": frames},
            fh,
            separators=(",", ":"),
        )
    env.end(0)
    print(f"wrote {out}: {len(frames)} frames, {len(objects)} objects, "
          f"{len(sensors)} sensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
