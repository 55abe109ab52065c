"""The other process of test_state_files.py: continues a run from a pickled Snapshot, a pickled
Simulation or a state file, and returns what it observed.

Run as ``python state_worker.py``: reads a pickled request on stdin, writes the pickled result
on stdout. ``resume`` is also what a ``multiprocessing`` (spawn) worker calls. ``drive`` and
``observe`` are shared with the test, so both processes step and look the same way.
"""

import math
import os
import pickle
import sys

import numpy as np

import ubot

# What a sample exposes, by attribute; every array is compared byte for byte.
_SAMPLE_ARRAYS = ("ranges", "valid", "angles", "intensities", "velocities", "hit_object", "points",
                  "intensity", "ring", "time", "points_world", "image", "depth",
                  "linear_acceleration", "angular_velocity", "orientation", "origin", "position")


def make(world):
    """A fresh simulation of ``world``: ("path", path, seed) or ("yaml", text, seed, base_dir)."""
    if world[0] == "path":
        return ubot.Simulation(world[1], seed=world[2], threads=1)
    return ubot.Simulation.from_yaml(world[1], seed=world[2], threads=1, base_dir=world[3])


def _exact(value):
    """A value as something == compares exactly: array bytes with dtype and shape, float repr."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return tuple((k, _exact(v)) for k, v in sorted(value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_exact(v) for v in value)
    a = np.asarray(value)
    return (str(a.dtype), a.shape, a.tobytes())


def observe(sim):
    """Everything a step shows: time, seed, every object's state and every sensor's sample."""
    seen = [sim.step_count, sim.time_ns, sim.seed]
    for obj in sim.objects:
        seen.append((obj.name, _exact(obj.state), _exact(obj.velocity), _exact(obj.goal),
                     obj.arrive, obj.collision, obj.stop))
        for name in obj.sensor_names:
            sample = sim.sensor(obj.name, name)
            seen.append((name, sample.sequence, sample.stamp_ns, sample.status))
            for attr in _SAMPLE_ARRAYS:
                if hasattr(sample, attr):
                    seen.append((attr, _exact(getattr(sample, attr))))
            if hasattr(sample, "samples"):  # an IMU: every sample of the step
                seen.append(("samples", _exact(sample.samples)))
    return seen


def drive(sim, until):
    """Steps ``sim`` to step ``until``: built-in behaviours every third step, else a command for
    the first robot that depends on the step number only. Returns each step's observation."""
    seen = []
    robot = sim.robot_names[0]
    while sim.step_count < until:
        k = sim.step_count
        if k % 3 == 0:
            sim.step()
        else:
            sim.step({robot: [0.3 + 0.2 * math.sin(k), 0.5 * math.cos(0.7 * k)]})
        seen.append(observe(sim))
    return seen


def resume(request):
    """Continues a run as ``request`` says; returns the observations of every step to
    ``request["until"]``, and what the simulation said about itself on the way."""
    mode = request["mode"]
    info = {"cwd": os.getcwd()}
    if mode == "simulation":
        sim = pickle.loads(request["pickle"])
        info["world_file"] = sim.world_file
    else:
        sim = make(request["world"])
        # Somewhere else first, with other noise: what is put back must replace all of it (a
        # fresh run of the same seed would repeat the original's steps by itself).
        sim.reset(seed=999)
        drive(sim, 3)
        if mode == "snapshot":
            snap = pickle.loads(request["pickle"])
            info["snapshot"] = (snap.step_count, snap.seed)
            sim.restore(snap)
        elif mode == "bytes":
            sim.restore(sim.snapshot_from_bytes(request["bytes"]))
        elif mode == "state_file":
            sim.load_state(request["path"])
        else:
            raise ValueError(f"unknown mode {mode!r}")
    info["start"] = (sim.step_count, sim.seed)
    return {"info": info, "seen": drive(sim, request["until"])}


def main():
    request = pickle.load(sys.stdin.buffer)
    result = resume(request)
    sys.stdout.buffer.write(pickle.dumps(result))


if __name__ == "__main__":
    main()
