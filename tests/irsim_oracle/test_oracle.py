#!/usr/bin/env python3
"""Closed-form checks of irsim_oracle.py. Plain script: exit 0 if every check
passes, 1 otherwise. Run: python3 test_oracle.py"""

import io
import json
import math
import os
import sys
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import irsim_oracle as O  # noqa: E402

# The IR-SIM example worlds, kept unchanged in the repository's examples/.
WORLDS = os.path.join(HERE, "..", "..", "examples")

PI = math.pi


def close(a, b, tol=1e-12):
    return abs(a - b) <= tol


def world(robots=None, obstacles=None, **w):
    cfg = {"world": dict({"width": 10, "height": 10, "step_time": 0.1}, **w)}
    if robots is not None:
        cfg["robot"] = robots
    if obstacles is not None:
        cfg["obstacle"] = obstacles
    return O.load_world(cfg)


def robot(**kw):
    base = {"kinematics": {"name": "diff"}, "shape": {"name": "circle", "radius": 0.2}}
    base.update(kw)
    return base


# ---------------------------------------------------------------------------

def test_wrap_to_pi():
    assert O.wrap_to_pi(PI) == -PI
    assert O.wrap_to_pi(-PI) == -PI
    assert O.wrap_to_pi(3 * PI) == -PI
    assert O.wrap_to_pi(0.5) == 0.5
    assert close(O.wrap_to_pi(PI + 0.25), -PI + 0.25, 1e-15)
    assert close(O.wrap_to_pi(-PI - 0.25), PI - 0.25, 1e-15)
    assert O.wrap_to_pi(float("nan")) == 0.0
    # the modulo form is not the identity in range: it may move the last bits
    assert O.wrap_to_pi(-0.3) == -0.2999999999999998
    assert O.wrap_to_pi(-0.3, positive=True) == 0.2999999999999998


def test_arange_rules():
    # numpy float arange: n = ceil((stop - start) / step), v[i] = start + i*delta,
    # delta = (start + step) - start; upper bound exclusive
    assert len(np.arange(1, 1.3, 0.1)) == 4          # (1.3-1)/0.1 = 3.0000000000000004
    assert len(np.arange(0.1, 0.4, 0.1)) == 4        # (0.4-0.1)/0.1 = 3.0000000000000004
    assert len(np.arange(0.0, 0.3, 0.1)) == 3        # 0.3/0.1 = 2.9999999999999996
    for start, stop in [(-1.0, 1.0), (-0.35, 1.0), (-1.0, 0.7071067811865476), (0.2, 1.0)]:
        g = np.arange(start, stop, 0.05)
        assert len(g) == math.ceil((stop - start) / 0.05), (start, stop)
        delta = (start + 0.05) - start
        for i in range(2, len(g)):
            assert g[i] == start + i * delta
    # the RVO grid of a robot at rest with acce 1 and vmax 1: 40 x 40, vx outer
    rvo = O.RVO([0, 0, 0.0, 0.0, 0.3, 1.0, 0.0, 0.0], [], 1.0, 1.0, 1.0, 1.0, [])
    cand, outside = rvo.candidates([])
    assert cand.shape == (1600, 2) and outside.all()
    assert cand[0, 0] == -1.0 and cand[0, 1] == -1.0 and cand[1, 0] == -1.0
    assert cand[40, 0] == np.arange(-1.0, 1.0, 0.05)[1]
    assert cand[-1, 0] < 1.0 and cand[-1, 1] < 1.0


def test_diff_dash_straight():
    env = world([robot(state=[0, 0, 0], goal=[10, 0, 0], behavior={"name": "dash"},
                       vel_max=[2, 1])])
    x_prev = 0.0
    for _ in range(20):
        env.step()
        r = env.objects[0]
        x = r.state[0, 0]
        assert close(x - x_prev, 0.2, 1e-14), x - x_prev
        assert r.state[1, 0] == 0.0 and r.state[2, 0] == 0.0
        assert r.velocity[0, 0] == 2.0 and r.velocity[1, 0] == 0.0
        x_prev = x


def test_diff_dash_turns_first():
    # goal straight left: |e| = pi/2 -> linear = vmax*cos(e) ~ 0, angular = +vmax
    env = world([robot(state=[0, 0, 0], goal=[0, 5, 0], behavior={"name": "dash"})])
    env.step()
    r = env.objects[0]
    assert close(r.velocity[0, 0], math.cos(PI / 2), 1e-15)
    assert r.velocity[1, 0] == 1.0
    assert close(r.state[2, 0], 0.1, 1e-15)


def test_omni_dash():
    for theta in (0.0, PI / 2, -2.0):
        env = world([robot(kinematics={"name": "omni"}, state=[0, 0, theta], goal=[3, 4, 0],
                           behavior={"name": "dash"})])
        env.step()
        r = env.objects[0]
        # world displacement = (cos phi, sin phi) * vmax * dt, phi = atan2(4, 3)
        assert close(r.state[0, 0], 0.06, 1e-14), r.state[:, 0]
        assert close(r.state[1, 0], 0.08, 1e-14), r.state[:, 0]
        assert r.state[2, 0] == theta  # omni keeps its heading
        e = O.wrap_to_pi(math.atan2(4, 3) - theta)
        assert close(r.velocity[0, 0], math.cos(e), 1e-15)   # body-frame forward
        assert close(r.velocity[1, 0], math.sin(e), 1e-15)   # body-frame lateral
    # anisotropic limits: forward = vmax0 cos e, lateral = vmax1 sin e
    env = world([robot(kinematics={"name": "omni"}, state=[0, 0, 0], goal=[3, 4, 0],
                       vel_max=[1, 0.5], behavior={"name": "dash"})])
    env.step()
    r = env.objects[0]
    assert close(r.state[0, 0], 0.06, 1e-14) and close(r.state[1, 0], 0.04, 1e-14)


def test_acker():
    # (shape wheelbase, kinematics wheelbase) -> the wheelbase the heading turns with: the
    # shape's (IR-SIM's `wheelbase or 1.0`), else ubot's kinematics key, else 1.
    for shape_wb, kin_wb, wb in ((None, None, 1.0), (0.6, None, 0.6), (0, None, 1.0),
                                 (None, 2.5, 2.5)):
        kin = {"name": "acker"}
        if kin_wb is not None:
            kin["wheelbase"] = kin_wb
        shape = {"name": "rectangle", "length": 1, "width": 0.5}
        if shape_wb is not None:
            shape["wheelbase"] = shape_wb
        env = world([robot(kinematics=kin, shape=shape,
                           state=[0, 0, 0], goal=[0, 10, 0], behavior={"name": "dash"})])
        r = env.objects[0]
        assert r.state.shape == (4, 1)
        env.step()
        # e = pi/2 -> steer = clip(e, -1, 1) = 1, v = vmax = 1; theta uses OLD steer 0
        assert r.velocity[0, 0] == 1.0 and r.velocity[1, 0] == 1.0
        assert close(r.state[0, 0], 0.1) and r.state[1, 0] == 0.0
        assert r.state[2, 0] == 0.0 and r.state[3, 0] == 1.0
        env.step()
        assert close(r.state[2, 0], math.tan(1.0) / wb * 0.1, 1e-15), (shape_wb, kin_wb)
        assert close(r.state[0, 0], 0.2) and r.state[1, 0] == 0.0  # cos/sin of theta=0
    try:
        world([robot(kinematics={"name": "acker", "wheelbase": 0.6},
                     shape={"name": "rectangle", "length": 1, "width": 0.5, "wheelbase": 0.6})])
    except O.Unsupported as e:
        assert "shape and in the kinematics" in str(e)
    else:
        raise AssertionError("a wheelbase in the shape and in the kinematics must be rejected")


def test_velocity_clip_with_acce():
    env = world([robot(state=[0, 0, 0], goal=[50, 0, 0], behavior={"name": "dash"},
                       acce=[0.5, float("inf")])])
    r = env.objects[0]
    for k in range(1, 30):
        env.step()
        assert close(r.velocity[0, 0], min(0.05 * k, 1.0), 1e-12), (k, r.velocity[0, 0])
    # an omni command above vel_max is clipped to vel_max
    env = world([robot(kinematics={"name": "omni"}, state=[0, 0, 0], goal=[10, 0, 0],
                       behavior={"name": "dash"}, vel_max=[0.3, 0.3])])
    env.step()
    assert env.objects[0].velocity[0, 0] == 0.3


def test_circle_distribution():
    env = O.load_world(os.path.join(WORLDS, "collision_avoidance.yaml"))
    assert len(env.objects) == 10
    for i, r in enumerate(env.objects):
        th = 2 * PI * i / 10
        assert r.name == f"robot_{i}"
        assert close(r.state[0, 0], 5 + 4 * math.cos(th)) and close(r.state[1, 0], 5 + 4 * math.sin(th))
        assert close(r.state[2, 0], th - PI)
        g = r.goal
        assert close(g[0, 0], 5 - 4 * math.cos(th)) and close(g[1, 0], 5 - 4 * math.sin(th))
        assert close(g[2, 0], th - PI)
        assert r.goal_threshold == 0.2 and r.loop
        assert close(r.radius_extend, 0.3)
    assert env.objects[0].state[2, 0] == -PI


def test_ids_and_names():
    env = O.load_world(os.path.join(WORLDS, "lidar_world.yaml"))
    assert [o.name for o in env.objects] == ["robot_0", "obstacle_1", "obstacle_2",
                                              "obstacle_3", "obstacle_4"]
    assert env.objects[1].geometry.center == (6.0, 6.0)  # circle centre offset [1, 1]
    assert env.objects[1].unobstructed and env.objects[4].unobstructed


def test_collision_touching():
    def two(a, b):
        env = world(obstacles=[a, b])
        env.step()
        return env.objects[0].collision_flag, env.objects[1].collision_flag

    c = {"shape": {"name": "circle", "radius": 0.5}}
    assert two(dict(c, state=[0, 0, 0]), dict(c, state=[1, 0, 0])) == (True, True)
    assert two(dict(c, state=[0, 0, 0]), dict(c, state=[1 + 1e-9, 0, 0])) == (False, False)
    rect = {"shape": {"name": "rectangle", "length": 1, "width": 1}}
    assert two(dict(c, state=[0, 0, 0]), dict(rect, state=[1, 0, 0])) == (True, True)
    assert two(dict(c, state=[0, 0, 0]), dict(rect, state=[1.001, 0, 0])) == (False, False)
    big = {"shape": {"name": "circle", "radius": 3}}
    assert two(dict(c, state=[0, 0, 0]), dict(big, state=[0.5, 0, 0])) == (True, True)  # containment
    line = {"shape": {"name": "linestring", "vertices": [[0.5, -1], [0.5, 1]]}, "state": [0, 0, 0]}
    assert two(dict(c, state=[0, 0, 0]), line) == (True, True)
    # stop mode: the colliding robot freezes from the next step on
    env = world([robot(state=[0, 0, 0], goal=[5, 0, 0], behavior={"name": "dash"})],
                [{"shape": {"name": "circle", "radius": 0.5}, "state": [1.0, 0, 0]}])
    steps = 0
    while not env.done():
        env.step()
        steps += 1
    r = env.objects[0]
    # centre distance 1 - 0.1 k <= 0.7  <=>  k >= 3
    assert steps == 3 and r.collision_flag and r.stop_flag
    x = r.state[0, 0]
    env.step()
    assert r.state[0, 0] == x and r.velocity[0, 0] == 0.0


def lidar_env(obstacles, number=3, angle_range=PI / 2, offset=(0, 0, 0), state=(0, 0, 0),
              range_min=0, range_max=10, kind="lidar2d"):
    sensor = {"name": kind, "range_min": range_min, "range_max": range_max,
              "angle_range": angle_range, "number": number, "offset": list(offset)}
    env = world([robot(state=list(state), static=True, sensors=[sensor])], obstacles)
    return env


def test_lidar_wall_and_circle():
    wall = {"shape": {"name": "linestring", "vertices": [[5, -10], [5, 10]]}, "state": [0, 0, 0]}
    env = lidar_env([wall])
    env.step()
    s = env.objects[0].sensors[0]
    assert close(s.ranges[0], 5 * math.sqrt(2), 1e-12) and close(s.ranges[2], 5 * math.sqrt(2), 1e-12)
    assert close(s.ranges[1], 5.0, 1e-12) and all(s.valid)

    circ = {"shape": {"name": "circle", "radius": 1.0}, "state": [4, 0, 0]}
    env = lidar_env([circ], number=5, angle_range=0.4)
    env.step()
    s = env.objects[0].sensors[0]
    for a, rng, ok in zip(np.linspace(-0.2, 0.2, 5), s.ranges, s.valid):
        expect = 4 * math.cos(a) - math.sqrt(1 - (4 * math.sin(a)) ** 2)
        assert ok and close(rng, expect, 1e-12), (a, rng, expect)
    env = lidar_env([circ], number=3, angle_range=PI / 2)  # side beams miss
    env.step()
    s = env.objects[0].sensors[0]
    assert s.ranges == [10.0, 3.0, 10.0] and s.valid == [False, True, False]

    # mounting offset: lidar at (0.1, 0.1) rotated 0.5 on a robot at (1, 1, 0.3)
    env = lidar_env([wall], number=1, offset=(0.1, 0.1, 0.5), state=(1, 1, 0.3))
    env.step()
    s = env.objects[0].sensors[0]
    ox = 1 + math.cos(0.3) * 0.1 - math.sin(0.3) * 0.1
    assert close(s.ranges[0], (5 - ox) / math.cos(0.8), 1e-12)

    # own body and unobstructed objects are ignored
    hidden = dict(circ, unobstructed=True)
    env = lidar_env([hidden], number=1)
    env.step()
    assert env.objects[0].sensors[0].ranges == [10.0]


def test_lidar_range_min_and_inside():
    wall = {"shape": {"name": "linestring", "vertices": [[0.5, -10], [0.5, 10]]}, "state": [0, 0, 0]}
    env = lidar_env([wall], number=1, range_min=1.0)
    env.step()
    s = env.objects[0].sensors[0]
    assert s.ranges == [1.0] and s.valid == [False]
    box = {"shape": {"name": "rectangle", "length": 4, "width": 4}, "state": [0, 0, 0]}
    env = lidar_env([box], number=3)
    env.step()
    s = env.objects[0].sensors[0]
    assert s.ranges == [0.0, 0.0, 0.0] and s.valid == [True, True, True]


def test_full_circle_beams():
    a = O.beam_angles(2 * PI, 8)
    assert len(a) == 8 and a[0] == -PI and close(a[4], 0.0, 1e-15)
    assert close(a[1] - a[0], PI / 4, 1e-15)
    assert O.beam_angles(6.283185, 4) == O.beam_angles(2 * PI, 4)   # within 1e-6 of 2*pi
    b = O.beam_angles(3.14, 200)
    assert b[0] == -1.57 and b[-1] == 1.57 and len(b) == 200


def test_fmcw_radial_velocity():
    mover = {"kinematics": {"name": "omni"}, "shape": {"name": "circle", "radius": 0.25},
             "state": [5, 0, 0], "goal": [10, 0, 0], "vel_max": [0.8, 0.8],
             "vel_min": [-0.8, -0.8], "behavior": {"name": "dash"}}
    env = lidar_env([mover], number=3, kind="fmcw_lidar2d")
    env.step()
    s = env.objects[0].sensors[0]
    assert close(s.ranges[1], 5.08 - 0.25, 1e-12) and s.valid[1]
    assert close(s.radial_velocity[1], 0.8, 1e-15)
    assert s.radial_velocity[0] == 0.0 and not s.valid[0]
    out = s.to_json(0)
    assert set(out) == {"object_id", "index", "ranges", "valid", "radial_velocity"}


def test_rvo_cone_at_rest():
    # IR-SIM 2.12.0: an ego at rest reads the neighbour as [x, y, vx, vy, r] too: true radius
    # (0.3 + 0.3 over 2 m), reciprocal apex = half the neighbour's velocity (2.10.2: apex 0,
    # mr = vx + 0.2 = 0.7)
    rvo = O.RVO([0, 0, 0.0, 0.0, 0.3, 1, 0, 0], [], 1, 1, 1, 1, [])
    apex, lv, rv = rvo.cone([2.0, 0.0, 0.5, 0.0, 0.3], "rvo")
    assert apex == [0.25, 0.0] and close(math.atan2(lv[1], lv[0]), math.asin(0.6 / 2.0), 1e-15)
    apex, _, _ = rvo.cone([2.0, 0.0, 0.5, 0.0, 0.3], "vo")
    assert apex == [0.5, 0.0]
    # moving ego: rvo apex = mean of the two velocities, mr = neighbour radius
    rvo = O.RVO([0, 0, 0.4, 0.0, 0.3, 1, 0, 0], [], 1, 1, 1, 1, [])
    apex, lv, rv = rvo.cone([2.0, 0.0, -0.2, 0.0, 0.3], "rvo")
    assert close(apex[0], 0.1) and apex[1] == 0.0
    assert close(math.atan2(lv[1], lv[0]), math.asin(0.6 / 2.0), 1e-15)


def test_rvo_empty_window_is_the_clipped_velocity():
    # IR-SIM 2.12.0's _axis_candidates: vx = 3 with acce 1, vmax 1: [2, 1) is empty, so 1 is
    # the one x candidate; y keeps its arange grid
    rvo = O.RVO([0, 0, 3.0, 0.0, 0.3, 1, 0, 0], [], 1.0, 1.0, 1.0, 1.0, [])
    cand, _ = rvo.candidates([])
    assert cand.shape == (40, 2) and (cand[:, 0] == 1.0).all()


def test_omni_to_diff():
    v = O.omni_to_diff(0.0, [1.0, 0.0])
    assert v[0, 0] == 1.0 and v[1, 0] == 0
    v = O.omni_to_diff(0.0, [0.0, 1.0])       # 90 deg left: turn at w_max, v = cos(pi/2)
    assert v[1, 0] == 1.5 and close(v[0, 0], math.cos(PI / 2), 1e-15)
    v = O.omni_to_diff(0.0, [0.01, 0.0])      # below mini_speed
    assert not v.any()
    v = O.omni_to_diff(0.0, [-1.0, 0.0])      # behind: v clamped to 0
    assert v[0, 0] == 0


def test_loop_and_waypoints():
    env = world([robot(state=[0, 0, 0], goal=[0.35, 0, 0], behavior={"name": "dash", "loop": True})])
    r = env.objects[0]
    arrived = None
    for k in range(1, 10):
        env.step()
        if r.arrive_flag:
            arrived = k
            break
    assert arrived == 3 and r.done() and env.done()     # 0.35 - 0.3 < 0.1
    env.step()                                          # loop: goals -> [goal, start], pop goal
    assert not r.arrive_flag and list(r.goals) == [[0.0, 0.0]]
    # multi-waypoint goal needs one more nesting level (convert_list_length)
    env = world([robot(state=[0, 0, 0], goal=[[[1, 0, 0], [1, 1, 0]]], behavior={"name": "dash"})])
    r = env.objects[0]
    assert len(r.goals) == 2
    env = world([robot(state=[0, 0, 0], goal=[[1, 0, 0], [1, 1, 0]], behavior={"name": "dash"})])
    assert len(env.objects[0].goals) == 1               # truncated to the first goal
    env = world([robot(state=[0, 0, 0], goal=[[[0.05, 0, 0], [1, 1, 0]]], behavior={"name": "dash"})])
    r = env.objects[0]
    env.step()
    assert len(r.goals) == 1 and not r.arrive_flag      # waypoint popped, not arrived


def test_cli_output_format():
    buf = io.StringIO()
    env = O.load_world(os.path.join(WORLDS, "collision_world.yaml"))
    O.run(env, 100, until_done=True, out=buf)
    lines = buf.getvalue().splitlines()
    last = json.loads(lines[-1])
    assert last["step"] == len(lines) and last["objects"][0]["collision"]
    assert list(last) == ["step", "objects", "sensors"]
    assert list(last["objects"][0]) == ["id", "name", "state", "velocity", "collision",
                                        "arrive", "stop"]
    first = json.loads(lines[0])
    assert repr(float(first["objects"][0]["state"][0])) in lines[0]


def test_random_worlds_rejected():
    path = os.path.join(WORLDS, "fov_world.yaml")
    assert O.main([path, "--steps", "1"]) == O.EXIT_UNSUPPORTED
    assert O.main([path, "--steps", "1", "--skip-random"]) == O.EXIT_SKIPPED


# Traces IR-SIM itself made (tests/data/irsim_traces/, or live ones: find_trace;
# docs/irsim-parity.md): the port must move every object as IR-SIM did. Worlds drawing random
# numbers are not modelled here.
TRACES = os.path.join(HERE, "..", "data", "irsim_traces")
TRACE_WORLDS = {"acker_wheelbase_world": os.path.join(HERE, "..", "data"),
                "collision_avoidance": WORLDS, "collision_world": WORLDS,
                "fmcw_lidar_world": WORLDS, "lidar_world": WORLDS}


def find_trace(name):
    """$UBOT_IRSIM_TRACES/NAME.json when set and there (made live by the installed IR-SIM:
    tests/irsim_parity/live_traces.py), else the committed trace; prints which (as the C++
    find_trace() in tests/irsim_parity/irsim_trace.h)."""
    live_dir = os.environ.get("UBOT_IRSIM_TRACES")
    if not live_dir:
        print(f"[trace] {name} <- committed")
        return os.path.join(TRACES, name + ".json")
    manifest = {}
    try:
        with open(os.path.join(live_dir, "manifest.json")) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        pass
    live = os.path.join(live_dir, name + ".json")
    if os.path.exists(live):
        version = manifest.get("irsim_version") or "(version unknown: no manifest.json)"
        print(f"[trace] {name} <- live IR-SIM {version} ({live})")
        return live
    reason = manifest.get("traces", {}).get(name, {}).get("reason")
    print(f"[trace] {name} <- committed ({'not made live: ' + reason if reason else 'no ' + live})")
    return os.path.join(TRACES, name + ".json")


def test_states_match_irsim_traces():
    for name, folder in TRACE_WORLDS.items():
        with open(find_trace(name)) as f:
            trace = json.load(f)
        env = O.load_world(os.path.join(folder, name + ".yaml"))
        for frame in trace["frames"][1:]:
            env.step()
            for t in frame["objects"]:
                state = env.objects[t["id"]].state[:, 0]
                assert len(state) == len(t["state"]), (name, t["id"])
                worst = max(abs(a - b) for a, b in zip(state, t["state"]))
                assert worst <= 1e-9, (name, frame["step"], t["id"], list(state), t["state"])


def main():
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
            print(f"ok   {name}")
        except Exception:  # noqa: BLE001
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    print(f"{len(tests) - failed}/{len(tests)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
