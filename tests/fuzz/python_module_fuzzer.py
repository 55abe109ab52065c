#!/usr/bin/env python3
"""fuzz_python (issue 27, item 1; issue 51): atheris drives the Python module's entry points.

Each input is a short program of calls on a small world: Simulation(...) / from_yaml (a bundled
world, maybe with bytes spliced in), then step, set_state, set_velocity, set_goals, sensor,
object, reset, snapshot / restore, clearance, picture, add_medium_provider, close and calls on
the closed object, with arguments of every kind: NaN and inf, huge and negative integers,
arrays of any shape and dtype, long strings, objects of the wrong type; and the VectorEnv core
with as wild arguments; Simulation.serve (loopback only: never with a token, so any other
address is refused), ubot.gym's and ubot.pettingzoo's environments, ubot.irsim (headless) and
the sweep spec reader, each on fuzzed worlds, options and actions, and Python group and
per-object behaviours (ubot.register_group_behavior, ubot.register_behavior) whose answers are
fuzzed. A call may raise only a Python exception that says what is wrong (the
REFUSALS below); a crash, an abort, another exception type, more than -timeout seconds or more
than -rss_limit_mb fails the run. Atheris is libFuzzer for Python: the module's Python code is
instrumented, and so is this harness (each @atheris.instrument_func), whose branches (which
call, which argument kind, refused or not) are the coverage that steers it; the C++ extension is
not instrumented (its crashes are what this looks for).

usage: python python_module_fuzzer.py [libFuzzer flags] [corpus dirs]   (scripts/run-fuzz.sh)
"""
import os
import sys
import tempfile
import warnings

import atheris

import numpy as np

with atheris.instrument_imports():  # ubot's Python code only: numpy's would slow every input
    import ubot
    from ubot import _core

# What a refused argument may raise: ubot.Error (WorldError is one) for a bad world or a call
# the simulation cannot make, and Python's own errors for a bad argument. MemoryError is not
# among them: an input that needs more memory than it is worth must be refused by a check.
REFUSALS = (ubot.Error, ValueError, TypeError, KeyError, IndexError, OverflowError)

WORLDS = [
    """
world: {width: 10, height: 10, step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 5, 0]
    goal: [9, 5, 0]
    sensors:
      - {name: lidar2d, range_max: 5, number: 32}
      - {name: rgb_camera, width: 8, height: 6}
      - {name: imu}
obstacle:
  - {shape: {name: rectangle, length: 1, width: 1}, state: [5, 5, 0]}
""",
    """
world: {width: 8, height: 6, step_time: 0.05}
robot:
  - number: 3
    distribution: {name: manual}
    kinematics: {name: omni}
    shape: {name: circle, radius: 0.15}
    state: [[1, 1, 0], [2, 1, 0], [3, 1, 0]]
    goal: [[7, 5, 0], [6, 5, 0], [5, 5, 0]]
    behavior: {name: rvo}
    sensors:
      - {name: fov, range: 3, angle: 1.5}
      - {name: depth_camera, width: 6, height: 4}
obstacle:
  - {shape: {name: polygon, vertices: [[3, 3], [4, 3], [3.5, 4]]}}
""",
    """
world: {width: 6, height: 6}
robot:
  - kinematics: {name: acker}
    shape: {name: rectangle, length: 0.6, width: 0.3}
    state: [1, 1, 0, 0]
    goal: [5, 5, 0]
    sensors: [{name: lidar3d}]
""",
]

LONG = 200_000
TRACE = bool(os.environ.get("UBOT_FUZZ_TRACE"))  # replaying a failure: print each call


def trace(*what):
    if TRACE:
        print("fuzz_python:", *(repr(w)[:200] for w in what), file=sys.stderr, flush=True)


@atheris.instrument_func
def number(fdp):
    kind = fdp.ConsumeIntInRange(0, 5)
    if kind == 0:
        return fdp.ConsumeFloat()  # NaN, inf, subnormals, huge
    if kind == 1:
        return fdp.ConsumeInt(9)  # beyond int64 both ways
    if kind == 2:
        return fdp.ConsumeIntInRange(-3, 12)
    if kind == 3:
        return fdp.ConsumeRegularFloat()
    if kind == 4:
        return [float("nan"), float("inf"), -float("inf"), 1e308, -0.0][fdp.ConsumeIntInRange(0, 4)]
    return fdp.ConsumeProbability() * 10


@atheris.instrument_func
def text(fdp):
    kind = fdp.ConsumeIntInRange(0, 3)
    if kind == 0:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 16))
    if kind == 1:
        return ["rover", "robot_0", "robot_1", "lidar2d", "rgb_camera", "imu", "fov",
                "depth_camera", "lidar3d", "obstacle_0", ""][fdp.ConsumeIntInRange(0, 10)]
    if kind == 2:
        return "x" * LONG
    return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 8))  # surrogates too


@atheris.instrument_func
def array(fdp):
    ndim = fdp.ConsumeIntInRange(0, 3)
    shape = tuple(fdp.ConsumeIntInRange(0, 4) for _ in range(ndim))
    dtype = [np.float64, np.float32, np.int64, np.int8, np.bool_, np.complex128, object,
             np.uint64][fdp.ConsumeIntInRange(0, 7)]
    size = int(np.prod(shape)) if shape else 1
    values = [number(fdp) for _ in range(size)]
    try:
        return np.array(values, dtype=dtype).reshape(shape)
    except (ValueError, TypeError, OverflowError):
        return np.zeros(shape)


@atheris.instrument_func
def value(fdp, depth=0):
    """Any argument: numbers, strings, arrays, nested lists and dicts, None, wrong types."""
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 2 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return number(fdp)
    if kind == 2:
        return text(fdp)
    if kind == 3:
        return fdp.ConsumeBool()
    if kind == 4:
        return array(fdp)
    if kind == 5:
        return [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 6:
        return {text(fdp): value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 3))}
    if kind == 7:
        return (number(fdp), number(fdp))
    if kind == 8:
        return [[number(fdp) for _ in range(fdp.ConsumeIntInRange(0, 4))]
                for _ in range(fdp.ConsumeIntInRange(0, 3))]
    return object()


@atheris.instrument_func
def world_text(fdp):
    world = WORLDS[fdp.ConsumeIntInRange(0, len(WORLDS) - 1)]
    if fdp.ConsumeBool():
        at = fdp.ConsumeIntInRange(0, len(world))
        cut = fdp.ConsumeIntInRange(0, 16)
        world = world[:at] + fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 24)) + \
            world[at + cut:]
    return world


class Provider:
    """A medium provider whose answer is fuzzed: None, an array of any shape, a dict, junk."""

    def __init__(self, answer, fails):
        self.answer = answer
        self.fails = fails

    def snapshot(self, time):
        if self.fails:
            raise ValueError("the provider's own error")
        return self.answer

    def __deepcopy__(self, memo):
        return Provider(self.answer, self.fails)


@atheris.instrument_func
def simulation_call(fdp, sim, tmp):
    target = value(fdp) if fdp.ConsumeBool() else text(fdp)
    op = fdp.ConsumeIntInRange(0, 17)
    trace("simulation op", op, target)
    if op == 0:
        sim.step()
    elif op == 1:
        sim.step(value(fdp))
    elif op == 2:
        sim.set_state(target, value(fdp))
    elif op == 3:
        sim.set_velocity(target, value(fdp))
    elif op == 4:
        sim.set_goals(target, value(fdp))
    elif op == 5:
        sim.sensor(target, text(fdp))
    elif op == 6:
        sim.object(target)
    elif op == 7:
        sim.reset(value(fdp) if fdp.ConsumeBool() else fdp.ConsumeInt(9))
    elif op == 8:
        sim.restore(sim.snapshot())
    elif op == 9:
        sim.clearance(target, value(fdp))
    elif op == 10:
        sim.min_clearance(target)
    elif op == 11:
        sim.picture(number(fdp) if fdp.ConsumeBool() else fdp.ConsumeIntInRange(-2, 64))
    elif op == 12:
        sim.add_medium_provider(Provider(value(fdp), fdp.ConsumeBool()))
    elif op == 13:
        sim.restore(value(fdp))
    elif op == 14:
        sim.record(os.path.join(tmp, "rec"), frames=value(fdp) if fdp.ConsumeBool() else True,
                   picture=False)
    elif op == 15:
        for o in sim.objects:
            o.state, o.goals, o.sensor_names
    elif op == 16:
        sim.close()
    else:
        sim._bench_step(fdp.ConsumeIntInRange(-2, 3))
    return op


@atheris.instrument_func
def new_simulation(fdp, tmp):
    seed = value(fdp) if fdp.ConsumeBool() else None
    threads = fdp.ConsumeInt(5) if fdp.ConsumeBool() else 1
    trace("simulation", seed, threads)
    if fdp.ConsumeBool():
        return ubot.Simulation.from_yaml(world_text(fdp), seed=seed, threads=threads)
    path = os.path.join(tmp, "w.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(world_text(fdp))
    return ubot.Simulation(path, seed=seed, threads=threads)


@atheris.instrument_func
def vector_env(fdp, tmp):
    path = os.path.join(tmp, "v.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(world_text(fdp))
    # A few envs, or a count past int32 (refused by the binding): a valid count's memory is the
    # caller's to spend (655 360 envs of a camera world take more than the 2 GB limit, as they
    # should), so counts between are not this fuzzer's business.
    num_envs = fdp.ConsumeIntInRange(-2, 4) if fdp.ConsumeBool() else \
        (2**31 + fdp.ConsumeIntInRange(0, 2**40)) * (1 if fdp.ConsumeBool() else -1)
    kwargs = dict(seed=fdp.ConsumeIntInRange(0, 2**64 - 1), threads=fdp.ConsumeIntInRange(-1, 3),
                  max_steps=fdp.ConsumeInt(9) if fdp.ConsumeBool() else 5,
                  observations=[text(fdp) for _ in range(fdp.ConsumeIntInRange(0, 3))]
                  if fdp.ConsumeBool() else ["lidar", "state", "goal", "flags"],
                  lidar=text(fdp) if fdp.ConsumeBool() else "",
                  arrive_reward=number(fdp), collision_penalty=number(fdp))
    trace("vector env", num_envs, kwargs)
    env = _core._VectorEnv(path, num_envs, **kwargs)
    if fdp.ConsumeBool():  # random starts, through the checks ubot.VectorEnv's users go through
        from ubot._learning.resets import check_randomize, core_layout
        layout = core_layout(env)
        spec = value(fdp) if fdp.ConsumeBool() else {"robots": True, "goals": True,
                                                      "tries": fdp.ConsumeIntInRange(1, 50)}
        trace("vector env randomize", spec)
        try:
            env.set_randomize(check_randomize(spec, layout))
        except REFUSALS:
            pass
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        op = fdp.ConsumeIntInRange(0, 5)
        trace("vector env op", op)
        try:
            if op == 0:
                env.step(value(fdp))
            elif op == 1:
                env.step(np.zeros((env.num_envs, env.num_robots, 2)))
            elif op == 2:
                env.reset(value(fdp) if fdp.ConsumeBool() else None)
            elif op == 3:
                env.reset_envs(value(fdp))
            elif op == 4:
                env.episode(fdp.ConsumeInt(5))
            else:
                env.close()
        except REFUSALS:
            pass


def write_world(fdp, tmp, name):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(world_text(fdp))
    return path


@atheris.instrument_func
def serve(fdp, sim):
    """Simulation.serve on a fuzzed address, always without a token: a loopback one listens
    (port 0, or whatever port the text names, on loopback only), any other is refused."""
    address = ["127.0.0.1:0", "localhost:0", "[::1]:0", "0", ""][fdp.ConsumeIntInRange(0, 4)] \
        if fdp.ConsumeBool() else text(fdp)
    trace("serve", address)
    sim.serve(address) if fdp.ConsumeBool() else sim.serve(value(fdp))
    sim.live_url
    sim.step()


@atheris.instrument_func
def learning_env(fdp, tmp):
    """ubot.gym.UbotEnv and ubot.pettingzoo.UbotParallelEnv with fuzzed options and actions."""
    import ubot.gym
    import ubot.pettingzoo
    path = write_world(fdp, tmp, "g.yaml")
    options = {}
    for _ in range(fdp.ConsumeIntInRange(0, 3)):
        key = ["observations", "reward_weights", "max_steps", "randomize", "lidar", "normalize",
               "clip_actions", "clearance_margin", "observation_options", "threads"][
            fdp.ConsumeIntInRange(0, 9)]
        options[key] = value(fdp)
    trace("learning env", options)
    if fdp.ConsumeBool():
        if fdp.ConsumeBool():
            options["robot"] = value(fdp)
        env = ubot.gym.UbotEnv(path, **options)
        try:
            env.reset(seed=fdp.ConsumeIntInRange(0, 2**32 - 1) if fdp.ConsumeBool() else None)
            for _ in range(fdp.ConsumeIntInRange(0, 4)):
                env.step(value(fdp) if fdp.ConsumeBool() else env.action_space.sample())
        finally:
            env.close()
    else:
        env = ubot.pettingzoo.UbotParallelEnv(path, **options)
        try:
            env.reset(seed=fdp.ConsumeIntInRange(0, 2**32 - 1) if fdp.ConsumeBool() else None)
            for _ in range(fdp.ConsumeIntInRange(0, 4)):
                if fdp.ConsumeBool():
                    env.step(value(fdp))
                else:
                    env.step({a: env.action_space(a).sample() for a in env.agents})
        finally:
            env.close()


@atheris.instrument_func
def irsim_env(fdp, tmp):
    """ubot.irsim.make (IR-SIM's API) on a fuzzed world, headless, and its calls."""
    import ubot.irsim
    path = write_world(fdp, tmp, "i.yaml")
    trace("irsim")
    env = ubot.irsim.make(path, display=False, disable_all_plot=True,
                          seed=fdp.ConsumeIntInRange(0, 2**31) if fdp.ConsumeBool() else None)
    try:
        for _ in range(fdp.ConsumeIntInRange(0, 5)):
            op = fdp.ConsumeIntInRange(0, 7)
            trace("irsim op", op)
            if op == 0:
                env.step(value(fdp))
            elif op == 1:
                env.step()
            elif op == 2:
                env.done(text(fdp) if fdp.ConsumeBool() else "all")
            elif op == 3:
                env.reset(fdp.ConsumeBool())
            elif op == 4:
                try:
                    env.get_lidar_scan(value(fdp))
                except AttributeError as e:  # what IR-SIM raises for a robot without a lidar
                    if "has no 2D lidar" not in str(e):
                        raise
            elif op == 5:
                env.get_object_by_name(value(fdp))
            elif op == 6:
                env.random_obstacle_position(value(fdp), value(fdp))
            else:
                env.get_robot_info(value(fdp))
    finally:
        env.end(0)


SWEEP = """name: fuzz
worlds: [w.yaml]
steps: 3
seeds: 2
parameters:
  world.step_time: [0.1, 0.2]
metrics: [collisions, min_clearance]
outputs: [frames]
"""


@atheris.instrument_func
def sweep_spec(fdp, tmp):
    """ubot.sweep's spec reader on a fuzzed sweep file (and its worlds), then its runs' worlds."""
    from ubot.sweep import spec as sweep_spec_module
    from ubot.sweep import run as sweep_run
    write_world(fdp, tmp, "w.yaml")
    sweep = SWEEP
    if fdp.ConsumeBool():
        at = fdp.ConsumeIntInRange(0, len(sweep))
        sweep = sweep[:at] + fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 32)) + \
            sweep[at + fdp.ConsumeIntInRange(0, 16):]
    path = os.path.join(tmp, "s.yaml")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(sweep)
    trace("sweep", sweep)
    loaded = sweep_spec_module.load(path)
    for run in loaded.runs[:2]:
        sweep_run.world_text(run)


# ubot.register_group_behavior: one behaviour per kinematics, registered once (a name is
# registered once per process), whose answers this input fuzzes: commands of any shape and
# type, None, too few or too many, NaN, or an exception of its own.
GROUP = {"fdp": None}


def fuzzed_group_behavior(members, **params):
    fdp = GROUP["fdp"]
    if fdp.ConsumeIntInRange(0, 9) == 0:
        raise ValueError("the behaviour's own error")
    if fdp.ConsumeBool():
        return value(fdp)
    return [value(fdp) for _ in range(len(members) + fdp.ConsumeIntInRange(-1, 1))]


def fuzzed_behavior(obj, **params):
    fdp = GROUP["fdp"]
    if fdp.ConsumeIntInRange(0, 9) == 0:
        raise ValueError("the behaviour's own error")
    return value(fdp)


@atheris.instrument_func
def group_behavior(fdp, tmp):
    """A world whose robots run a Python group or per-object behaviour (ubot.register_group_behavior,
    ubot.register_behavior), registered through the module."""
    if "fuzz_group" not in ubot.group_behavior_names("omni"):
        for kinematics in ("omni", "diff"):
            ubot.register_group_behavior(kinematics, "fuzz_group", fuzzed_group_behavior)
            ubot.register_behavior(kinematics, "fuzz_one", fuzzed_behavior)
    try:
        register = fdp.PickValueInList([ubot.register_group_behavior, ubot.register_behavior])
        register(text(fdp), text(fdp), fuzzed_group_behavior)
    except REFUSALS:
        pass
    GROUP["fdp"] = fdp
    kinematics = fdp.PickValueInList(["omni", "diff", "acker", text(fdp)])
    block = fdp.PickValueInList(["group_behavior: {name: fuzz_group", "behavior: {name: fuzz_one",
                                 "behavior: {name: " + text(fdp)])
    yaml = ("world: {width: 10, height: 10, step_time: 0.1}\nrobot:\n  - number: 3\n"
            "    distribution: {name: random}\n    kinematics: {name: " + kinematics + "}\n"
            "    shape: {name: circle, radius: 0.2}\n    goal: [9, 9, 0]\n"
            "    " + block + ", gain: " + str(number(fdp)) + "}\n")
    sim = ubot.Simulation.from_yaml(yaml, seed=fdp.ConsumeIntInRange(0, 9))
    try:
        for _ in range(fdp.ConsumeIntInRange(1, 4)):
            sim.step()
    finally:
        sim.close()


# The entry points that make their own objects; the rest of the inputs drive a Simulation.
OTHER_ENTRIES = (vector_env, learning_env, irsim_env, sweep_spec, group_behavior)


@atheris.instrument_func
def TestOneInput(data):
    fdp = atheris.FuzzedDataProvider(data)
    with tempfile.TemporaryDirectory(prefix="ubot-fuzz-python-") as tmp:
        try:
            kind = fdp.ConsumeIntInRange(0, 10)
            if kind < len(OTHER_ENTRIES):  # each entry point an eleventh of the inputs
                OTHER_ENTRIES[kind](fdp, tmp)
                return
            sim = new_simulation(fdp, tmp)
        except REFUSALS:
            return
        if kind == len(OTHER_ENTRIES):
            try:
                serve(fdp, sim)
            except REFUSALS:
                pass
        try:
            for _ in range(fdp.ConsumeIntInRange(0, 12)):
                try:
                    simulation_call(fdp, sim, tmp)
                except REFUSALS:
                    pass
        finally:
            try:
                sim.close()
            except REFUSALS:
                pass


def main():
    # numpy's casts of the fuzzed values warn (overflow, complex to real); a warning fails
    # nothing, and thousands of them would bury the report of what did.
    warnings.simplefilter("ignore")
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
