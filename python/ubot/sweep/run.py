"""One sweep run, start to finish: the task a Dask worker executes (docs/sweeps.md).

``run_task(run, out_dir)`` is a pure function of its arguments: it builds the world with the run's
parameters, steps it as ``ubot run`` does (``steps`` steps, or fewer when every robot is done),
and returns the run's row. Anything that goes wrong becomes the row's ``error``; it never raises.
"""

import dataclasses
import importlib
import math
import os
import sys
import traceback

import numpy as np
import yaml

import ubot
from ubot._world_yaml import parse_world
from ubot.sweep import metrics as builtin
from ubot.sweep.spec import BUILTIN_METRICS, parse_key_path


class ParameterError(ValueError):
    pass


def set_key_path(world, path, value):
    """Sets ``path`` (e.g. ``robot[0].sensors[0].std``) in the parsed world. Every step but the
    last must exist; the last key may be new (a key the world leaves at its default)."""
    tokens = parse_key_path(path)
    node, walked = world, ""
    for i, token in enumerate(tokens):
        last = i == len(tokens) - 1
        here = f"{walked}[{token}]" if isinstance(token, int) else (
            f"{walked}.{token}" if walked else token)
        if isinstance(token, int) and token == 0 and isinstance(node, dict) and walked in (
                "robot", "obstacle"):
            # IR-SIM's shorthand: `robot:` (or `obstacle:`) given as one mapping is the list of
            # that one entry, so `robot[0]...` works whichever way the world writes it.
            if last:
                raise ParameterError(f"{path}: replace {walked} itself, not {here}")
            walked = here
            continue
        if isinstance(token, int):
            if not isinstance(node, list):
                raise ParameterError(f"{path}: {walked or 'the world'} is not a list")
            if token >= len(node):
                raise ParameterError(f"{path}: {walked} has {len(node)} entries, no [{token}]")
        else:
            if not isinstance(node, dict):
                raise ParameterError(f"{path}: {walked or 'the world'} is not a mapping")
            if token not in node and not last:
                raise ParameterError(f"{path}: the world has no {here}")
        if last:
            node[token] = value
        else:
            node = node[token]
            walked = here


def world_text(run):
    """The run's world: the file unchanged without parameters, else re-written with them."""
    if not run.params:
        return run.world_text
    world = parse_world(run.world_text, os.path.join(run.base_dir, os.path.basename(run.world)))
    for path, value in run.params:
        set_key_path(world, path, value)
    return yaml.safe_dump(world, sort_keys=False)


def load_user_metric(spec, sweep_dir):
    module_name, function_name = spec.split(":")
    if sweep_dir not in sys.path:
        sys.path.insert(0, sweep_dir)
    return getattr(importlib.import_module(module_name), function_name)


@dataclasses.dataclass
class RunInfo:
    """What a user metric ``module:function(sim, run)`` gets besides the simulation (after the
    last step): the run's definition and each robot's trajectory."""

    index: int
    world: str
    seed: int
    params: dict
    steps: int
    trajectories: dict  # robot name -> (steps + 1, 3) array of x, y, yaw, the start included


def _record(sim, run, out_dir):
    if not run.outputs:
        return
    keep = set(run.outputs)
    run_dir = os.path.join(out_dir, "runs", f"{run.index:06d}")
    os.makedirs(run_dir, exist_ok=True)
    sim.record(run_dir, frames="frames" in keep,
               mcap=os.path.join(run_dir, "run.mcap") if "mcap" in keep else None,
               map=os.path.join(run_dir, "map.ply") if "map" in keep else None,
               picture="pictures" in keep, gif="gif" in keep,
               sensor_files="sensor_files" in keep)


def _user_values(spec, value):
    """A user metric returns a number (column named after the function) or a dict of them."""
    if isinstance(value, dict):
        return {f"{spec.split(':')[1]}.{k}": v for k, v in value.items()}
    return {spec.split(":")[1]: value}


def _plain(value):
    """Numbers as Python floats/ints (numpy scalars pickle and print differently)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    return value


def simulate(run, out_dir=None):
    """Steps the run and returns its metric columns (raises on any failure)."""
    sim = ubot.Simulation.from_yaml(world_text(run), seed=run.seed, threads=1,
                                    base_dir=run.base_dir)
    with sim:
        if run.start_state:  # from the saved step on, with this run's random streams
            sim.restore(sim.snapshot_from_bytes(run.start_state))
            sim.reseed(run.seed)
        first_step = sim.step_count
        if out_dir is not None:
            _record(sim, run, out_dir)
        robots = builtin.robot_metrics(sim, clearance="min_clearance" in run.metrics)
        while sim.step_count - first_step < run.steps and not sim.done():
            sim.step()
            for r in robots:
                r.after_step(sim.time)
        columns = {"steps": sim.step_count, "time": sim.time}
        wanted = [m for m in run.metrics if m in BUILTIN_METRICS]
        for name, r in zip(sim.robot_names, robots):
            for metric, value in r.values(wanted).items():
                columns[f"{name}.{metric}"] = value
        info = RunInfo(run.index, run.world, run.seed, dict(run.params), run.steps,
                       {name: np.array(r.states) for name, r in zip(sim.robot_names, robots)})
        for spec in run.metrics:
            if spec not in BUILTIN_METRICS:
                value = load_user_metric(spec, run.sweep_dir)(sim, info)
                columns.update(_user_values(spec, value))
    return {k: _plain(v) for k, v in columns.items()}


def describe(run):
    """The row's leading columns: which run it is and its parameters."""
    row = {"run": run.index, "world": run.world, "seed": run.seed}
    for path, value in run.params:
        row[path] = value if isinstance(value, (int, float, str, bool)) or value is None \
            else yaml.safe_dump(value, default_flow_style=True).strip()
    return row


def error_row(run, error):
    row = describe(run)
    row.update(status="error", error=error)
    return row


def run_task(run, out_dir=None):
    """The row of one run: its description, ``status`` ok/error, ``error`` and its metrics."""
    try:
        columns = simulate(run, out_dir)
    except Exception as e:  # a failed run is a row, never a lost sweep
        where = traceback.extract_tb(e.__traceback__)[-1]
        detail = "" if isinstance(e, (ParameterError, ubot.Error)) else \
            f" (at {os.path.basename(where.filename)}:{where.lineno})"
        return error_row(run, f"{type(e).__name__}: {e}{detail}")
    row = describe(run)
    row.update(status="ok", error="")
    for k, v in columns.items():
        row[k] = None if isinstance(v, float) and math.isnan(v) else v
    return row
