"""ubot.irsim against what the real IR-SIM 2.12.0 returns (fixtures made by record_irsim_api.py).

Shapes, dict keys and names must be IR-SIM's exactly; states, velocities and goals agree to
1e-9 (ubot's parity bound, docs/irsim-parity.md).
"""

import json
import math
import os
import shutil
import tempfile

import numpy as np
import pytest

import ubot
from ubot import irsim

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
USAGE = os.path.join(ROOT, "tests", "data", "irsim_usage")
LIDAR_WORLD = os.path.join(USAGE, "05lidar_world", "lidar_world.yaml")
FMCW_WORLD = os.path.join(USAGE, "22fmcw_lidar_world", "fmcw_lidar_world.yaml")


def fixture(name: str) -> dict:
    with open(os.path.join(HERE, "data", name), encoding="utf-8") as f:
        return json.load(f)


def describe(value) -> dict:
    if isinstance(value, np.ndarray):
        return {"type": "ndarray", "shape": list(value.shape)}
    if value is None:
        return {"type": "None"}
    return {"type": type(value).__name__}


def same_kind(ours: dict, theirs: dict) -> bool:
    """Arrays: same shape; scalars: both numbers, both bools or both strings."""
    numbers = {"int", "float", "float64", "int64"}
    if theirs["type"] in numbers:
        return ours["type"] in numbers
    return ours == theirs


@pytest.fixture(scope="module")
def lidar_record():
    return fixture("irsim_api_lidar_world.json")


def test_attributes_have_irsim_shapes(lidar_record):
    env = irsim.make(LIDAR_WORLD, display=False)
    for name, theirs in lidar_record["attributes"].items():
        ours = describe(getattr(env.robot, name))
        assert same_kind(ours, theirs), f"robot.{name}: ubot {ours}, IR-SIM {theirs}"
    assert describe(env.get_robot_state()) == lidar_record["get_robot_state"]
    assert [describe(v) for v in env.robot.get_vel_range()] == lidar_record["get_vel_range"]
    assert env.get_lidar_offset() == pytest.approx(lidar_record["get_lidar_offset"], abs=1e-12)
    info = env.get_robot_info()
    assert set(lidar_record["robot_info_fields"]) <= set(vars(info))
    for key, value in lidar_record["robot_info"].items():
        assert getattr(info, key) == value, key
    assert env.step_time == lidar_record["step_time"]
    assert env.status == lidar_record["status0"]
    assert [o.name for o in env.objects] == lidar_record["names"]
    assert [o.role for o in env.objects] == lidar_record["roles"]
    for obj, theirs in zip(env.objects, lidar_record["vertices"]):
        if obj.shape in ("circle", "rectangle", "polygon"):  # IR-SIM's closed outlines
            np.testing.assert_allclose(obj.vertices, theirs, atol=1e-9, err_msg=obj.name)


def test_steps_match_irsim(lidar_record):
    env = irsim.make(LIDAR_WORLD, display=False)
    for k, frame in enumerate(lidar_record["frames"]):
        env.step()
        where = f"step {k + 1}"
        np.testing.assert_allclose(env.get_robot_state(), frame["state"], atol=1e-9, err_msg=where)
        np.testing.assert_allclose(env.robot.velocity, frame["velocity"], atol=1e-9, err_msg=where)
        np.testing.assert_allclose(env.robot.goal, frame["goal"], atol=0, err_msg=where)
        lo, hi = env.robot.get_vel_range()
        np.testing.assert_allclose(lo, frame["vel_range"][0], atol=1e-9, err_msg=where)
        np.testing.assert_allclose(hi, frame["vel_range"][1], atol=1e-9, err_msg=where)
        assert env.done() == frame["done"], where
        assert env.status == frame["status"], where


def test_lidar_scan_dict_matches_irsim(lidar_record):
    env = irsim.make(LIDAR_WORLD, display=False)
    for k, frame in enumerate(lidar_record["frames"]):
        env.step()
        theirs = frame["scan"]
        ours = env.get_lidar_scan()
        assert list(ours) == list(theirs)
        for key, entry in theirs.items():
            assert same_kind(describe(ours[key]), entry["describe"]), key
        for key in ("angle_min", "angle_max", "angle_increment", "time_increment", "scan_time",
                    "range_min", "range_max"):
            assert ours[key] == pytest.approx(theirs[key]["value"], abs=1e-12), key
        # every beam agrees to ubot's parity bound (docs/irsim-parity.md)
        np.testing.assert_allclose(ours["ranges"], theirs["ranges"]["value"], atol=1e-9,
                                   err_msg=f"step {k + 1}")
        np.testing.assert_allclose(ours["velocity"], theirs["velocity"]["value"], atol=1e-9)
        np.testing.assert_array_equal(ours["valid"], theirs["valid"]["value"])


@pytest.mark.parametrize("name,world", [("lidar_world", LIDAR_WORLD),
                                        ("fmcw_lidar_world", FMCW_WORLD)])
def test_physical_properties_match_irsim(name, world):
    """IR-SIM 2.12.0's mass, friction, inertia and restitution of every object (their
    defaults: these worlds set none), on the objects and in their info."""
    record = fixture(f"irsim_api_{name}.json")
    env = irsim.make(world, display=False)
    assert len(record["physical"]) == len(env.objects)
    for obj, theirs in zip(env.objects, record["physical"]):
        for key, value in theirs.items():
            expected = float(value)  # "inf" for the infinite ones
            assert getattr(obj, key) == pytest.approx(expected, rel=1e-12), (obj.name, key)
            assert getattr(obj.info, key) == getattr(obj, key), (obj.name, key)


def test_fmcw_scan_dict_matches_irsim():
    record = fixture("irsim_api_fmcw_lidar_world.json")
    env = irsim.make(FMCW_WORLD, display=False)
    for frame in record["frames"]:
        env.step()
        theirs = frame["scan"]
        ours = env.get_lidar_scan()
        assert list(ours) == list(theirs)
        for key, entry in theirs.items():
            assert same_kind(describe(ours[key]), entry["describe"]), key
        np.testing.assert_array_equal(ours["valid"], theirs["valid"]["value"])
        np.testing.assert_allclose(ours["radial_velocity"], theirs["radial_velocity"]["value"],
                                   atol=1e-9)


def test_get_msg_marks_missed_beams_inf_only_when_asked():
    env = irsim.make(LIDAR_WORLD, display=False)
    env.step()
    scan = env.get_lidar_scan()
    valid = np.asarray(env.robot.lidar.valid)
    assert 0 < valid.sum() < valid.size  # some beams hit, some miss: both cases are checked
    plain = env.get_msg()
    np.testing.assert_array_equal(plain["ranges"], scan["ranges"])
    inf = env.get_msg(use_inf=True)
    assert np.isinf(inf["ranges"][~valid]).all()
    np.testing.assert_array_equal(inf["ranges"][valid], scan["ranges"][valid])


OMNI_WORLD = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'omni'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 1, 0]
    goal: [9, 1, 0]
    vel_max: [2, 2]
    vel_min: [-2, -2]
    behavior: {name: 'BEHAVIOR', gain: 0.5}
  - kinematics: {name: 'omni'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 5, 0]
    goal: [9, 5, 0]
    vel_max: [2, 2]
    vel_min: [-2, -2]
"""


@pytest.fixture()
def world_dir():
    path = tempfile.mkdtemp(prefix=f"ubot_irsim_api_{os.getpid()}_")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def write_world(folder: str, text: str, name: str = "world.yaml") -> str:
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def test_step_action_and_action_id():
    env = irsim.make(os.path.join(USAGE, "11collision_avoidance", "collision_avoidance.yaml"),
                     display=False)
    before = [o.state.copy() for o in env.robot_list]
    env.step(np.array([[0.0], [0.0]]), action_id=2)  # one ndarray: robot 2 stays
    np.testing.assert_allclose(env.robot_list[2].state, before[2], atol=0)
    assert not np.allclose(env.robot_list[0].state, before[0])  # the others follow rvo
    before = [o.state.copy() for o in env.robot_list]
    env.step([np.zeros((2, 1)), np.zeros((2, 1))], action_id=3)  # a list: robots 3 and 4
    for i in (3, 4):
        np.testing.assert_allclose(env.robot_list[i].state, before[i], atol=0)
        np.testing.assert_allclose(env.robot_list[i].velocity, np.zeros((2, 1)), atol=0)


def test_step_takes_irsim_2_12_action_forms():
    """IR-SIM 2.12's forms of env.step: a dict {name: action}, names as action_id, a flat list
    of numbers as one action, action_id None (the first robot); surplus actions are dropped and
    an unknown name raises."""
    world = os.path.join(USAGE, "11collision_avoidance", "collision_avoidance.yaml")

    def held(env, names):
        before = {n: env.get_object_by_name(n).state.copy() for n in names}
        return lambda: [np.testing.assert_allclose(env.get_object_by_name(n).state, before[n],
                                                   atol=0, err_msg=n) for n in names]

    env = irsim.make(world, display=False)
    check = held(env, ["robot_1", "robot_3"])
    env.step({"robot_1": [0.0, 0.0], "robot_3": np.zeros((2, 1))})
    check()
    check = held(env, ["robot_2"])
    env.step([0.0, 0.0], action_id="robot_2")  # a flat list is one action
    check()
    check = held(env, ["robot_0"])
    env.step(np.zeros((2, 1)))  # action_id None: the first robot
    check()
    check = held(env, ["robot_2", "robot_4"])
    env.step([0.0, 0.0], action_id=["robot_2", 4])  # one action for each listed object
    check()
    last = env.robot_list[-1]
    check = held(env, [last.name])
    with pytest.warns(UserWarning, match="ignored"):
        env.step([np.zeros((2, 1))] * 3, action_id=last.id)  # 2 surplus actions
    check()
    with pytest.raises(ValueError, match="nobody"):
        env.step({"nobody": [0.0, 0.0]})


def test_make_accepts_headless():
    """IR-SIM 2.12's `headless` (no figure, window or keyboard; `disable_all_plot` is its
    alias there): accepted, and like disable_all_plot it draws nothing."""
    env = irsim.make(LIDAR_WORLD, display=True, headless=True)
    assert env.headless and env.disable_all_plot and not env.display
    env.step()
    env.render()
    env.end()


def test_irsim_2_12_spans_and_keyboard_defaults(world_dir):
    """IR-SIM 2.12.0 clips a field of view to [0, 2 pi] (ClipTo2Pi: a full circle stays 2 pi,
    where 2.10.2's WrapTo2Pi made it 0) and gives key_vel as zeros (3, 1) without a keyboard."""
    env = irsim.make(write_world(world_dir, LIDAR_WORLD_FULL_FOV), display=False)
    assert env.robot.fov == pytest.approx(2 * np.pi, abs=0)
    from ubot.irsim.util.util import ClipTo2Pi

    assert ClipTo2Pi(7.0) == 2 * np.pi and ClipTo2Pi(-1) == 0.0
    np.testing.assert_array_equal(env.key_vel, np.zeros((3, 1)))
    assert irsim.__version__.startswith("2.12.0")


LIDAR_WORLD_FULL_FOV = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'diff'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 5, 0]
    fov: 6.283185307179586
    fov_radius: 3
"""


def test_repeated_vertex_is_no_phantom_hit():
    """tests/data/irsim_dup_vertex.yaml (docs/irsim-parity.md): a linestring repeating its vertex
    (5, 8). IR-SIM 2.12.0's ray casting hits the zero-length segment with every beam, at the
    vertex's projection on the beam (beam 0: 3.281 m); ubot, as IR-SIM 2.10.2, reads the wall x = 5
    (4 / cos 0.1 m)."""
    env = irsim.make(os.path.join(ROOT, "tests", "data", "irsim_dup_vertex.yaml"), display=False)
    env.step()
    ranges = env.get_lidar_scan()["ranges"]
    np.testing.assert_allclose(ranges, [4 / np.cos(0.1), 4.0, 4 / np.cos(0.1)], atol=1e-12)


def test_desired_omni_vel_is_irsims(world_dir):
    """get_desired_omni_vel against IR-SIM 2.12.0's rule (_desired_speed_bounds): a diff robot
    (vel_max [1, 3]) wants vel_max[0] along the goal bearing on both axes, an omni one (vel_max
    [2, 0.5]) vel_max[0] cos and vel_max[1] sin; zero within the threshold."""
    env = irsim.make(write_world(world_dir, DESIRED_WORLD), display=False)
    diff, omni = env.robot_list
    c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
    np.testing.assert_allclose(diff.get_desired_omni_vel(), [[c], [s]], atol=1e-15)
    np.testing.assert_allclose(omni.get_desired_omni_vel(), [[2 * c], [0.5 * s]], atol=1e-15)
    np.testing.assert_allclose(omni.get_desired_omni_vel(normalized=True),
                               np.array([[2 * c], [0.5 * s]]) / math.hypot(2 * c, 0.5 * s),
                               atol=1e-15)
    np.testing.assert_array_equal(diff.get_desired_omni_vel(goal_threshold=10), np.zeros((2, 1)))
    # compute_max_speed: diff vel_max[0], omni the norm, an object without kinematics 0
    assert diff.max_speed == 1.0 and omni.max_speed == pytest.approx(math.hypot(2, 0.5), abs=0)
    assert env.obstacle_list[0].max_speed == 0.0


DESIRED_WORLD = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'diff'}
    state: [1, 1, 0]
    goal: [4, 4, 0]
    vel_max: [1, 3]
    vel_min: [-1, -3]
  - kinematics: {name: 'omni'}
    state: [5, 1, 0]
    goal: [8, 4, 0]
    vel_max: [2, 0.5]
    vel_min: [-2, -0.5]
obstacle:
  - {shape: {name: 'circle', radius: 0.5}, state: [5, 8, 0]}
"""


def test_set_text_is_recorded():
    """IR-SIM's obj.set_text (2.10.2 and 2.12; push_box_world.py labels its boxes with it):
    accepted and recorded, as ubot's pictures draw no labels."""
    env = irsim.make(LIDAR_WORLD, display=False)
    box = env.obstacle_list[0]
    box.set_text("m = 1 kg")
    assert box.text == "m = 1 kg"
    box.set_text(None)
    assert box.text is None


BLIND_WORLD = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'diff'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 5, 0]
    sensors:
      - {name: 'lidar2d', range_min: 0.5, range_max: 5, angle_range: 0.2, number: 3}
obstacle:
  - shape: {name: 'rectangle', length: 0.2, width: 3}
    state: [1.5, 5, 0]
"""


def test_blind_zone_beams_read_range_min(world_dir):
    """A return closer than range_min reads range_min and is not valid (IR-SIM 2.12's lidar2d
    and fmcw_lidar2d: the beam is blocked but carries no measurement); a miss reads range_max."""
    env = irsim.make(write_world(world_dir, BLIND_WORLD), display=False)
    env.step()
    scan = env.get_lidar_scan()
    np.testing.assert_array_equal(scan["ranges"], [0.5, 0.5, 0.5])  # the wall is 0.4 m ahead
    assert not np.asarray(env.robot.lidar.valid).any()
    env.robot.set_state([1, 5, np.pi])  # facing away: every beam misses
    env.step()
    np.testing.assert_array_equal(env.get_lidar_scan()["ranges"], [5.0, 5.0, 5.0])


def test_python_behavior_is_called_each_step(world_dir):
    from ubot.irsim.lib import register_behavior

    calls = []

    @register_behavior("omni", f"test_push_{os.getpid()}")
    def push(ego_object, external_objects=None, **kwargs):
        calls.append((ego_object.name, [o.name for o in external_objects], kwargs["gain"]))
        return np.array([[kwargs["gain"]], [0.0]])

    path = write_world(world_dir, OMNI_WORLD.replace("BEHAVIOR", f"test_push_{os.getpid()}"))
    env = irsim.make(path, display=False)
    for _ in range(3):
        env.step()
    assert calls == [("robot_0", ["robot_1"], 0.5)] * 3
    np.testing.assert_allclose(env.robot.state, [[1 + 3 * 0.5 * 0.1], [1], [0]], atol=1e-12)
    np.testing.assert_allclose(env.robot_list[1].state, [[1], [5], [0]], atol=0)  # no behaviour


def test_unregistered_behavior_names_itself(world_dir):
    env = irsim.make(write_world(world_dir, OMNI_WORLD.replace("BEHAVIOR", "nobody_has_this")),
                     display=False)
    with pytest.raises(ValueError, match="nobody_has_this"):
        env.step()


def test_group_behavior_class_gets_members(world_dir):
    from ubot.irsim.lib import register_group_behavior_class

    name = f"test_hold_{os.getpid()}"

    class Hold:
        def __init__(self, members, **kwargs):
            self.names = [m.name for m in members]
            self.calls = 0

        def __call__(self, members, **kwargs):
            self.calls += 1
            return [np.array([[0.2 * (i + 1)], [0.0]]) for i, _ in enumerate(members)]

    made = []
    register_group_behavior_class("omni", name)(lambda members, **kw: made.append(Hold(members, **kw)) or made[-1])
    text = OMNI_WORLD.replace("    behavior: {name: 'BEHAVIOR', gain: 0.5}\n", "")
    text = text.replace("robot:\n  - kinematics", f"robot:\n  - number: 2\n    distribution: {{name: 'manual'}}\n    group_behavior: {{name: '{name}'}}\n    kinematics", 1)
    text = text.replace("    state: [1, 1, 0]\n    goal: [9, 1, 0]", "    state: [[1, 1, 0], [1, 3, 0]]\n    goal: [[9, 1, 0], [9, 3, 0]]", 1)
    env = irsim.make(write_world(world_dir, text), display=False)
    env.step()
    env.step()
    assert len(made) == 1 and made[0].names == ["robot_0", "robot_1"] and made[0].calls == 2
    np.testing.assert_allclose(env.robot_list[0].state[:2, 0], [1 + 2 * 0.02, 1], atol=1e-12)
    np.testing.assert_allclose(env.robot_list[1].state[:2, 0], [1 + 2 * 0.04, 3], atol=1e-12)


def test_fov_detect_object_follows_the_native_fov():
    env = irsim.make(os.path.join(USAGE, "15fov_world", "fov_world.yaml"), display=False)
    for _ in range(20):
        env.step()
        native = env.simulation.fov_detections()
        for obs in env.obstacle_list:
            assert obs.fov_detect_object(env.robot) == (env.robot.id in native[obs.id]), obs.name


def test_render_headless_writes_nothing_and_save_figure_writes(world_dir, monkeypatch):
    monkeypatch.setattr("sys.path", [world_dir, *__import__("sys").path])
    env = irsim.make(LIDAR_WORLD, display=False)
    env.step()
    env.render()
    assert os.listdir(world_dir) == []
    png = env.save_figure()
    assert png == os.path.join(world_dir, "figure", "lidar_world.png")
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    pdf = env.save_figure("render2.pdf")
    with open(pdf, "rb") as f:
        assert f.read(5) == b"%PDF-"


def test_save_ani_assembles_a_gif_of_every_rendered_step(world_dir, monkeypatch):
    from PIL import Image

    monkeypatch.setattr("sys.path", [world_dir, *__import__("sys").path])
    env = irsim.make(LIDAR_WORLD, display=False, save_ani=True)
    for _ in range(4):
        env.step()
        env.render()
    env.end()
    gif = os.path.join(world_dir, "animation", "animation_lidar_world.gif")
    with Image.open(gif) as image:
        assert image.n_frames == 4
    assert os.listdir(os.path.join(world_dir, "animation_buffer")) == []


def test_reset_returns_to_random_obstacle_position():
    env = irsim.make(LIDAR_WORLD, display=False, seed=4)
    ids = [o.id for o in env.obstacle_list if not o.static] or [env.obstacle_list[-1].id]
    env.random_obstacle_position([1, 1, -1], [9, 9, 1], ids)
    placed = {i: env.get_object_by_id(i).state.copy() for i in ids}
    for i in ids:
        assert np.all(placed[i] >= [[1], [1], [-1]]) and np.all(placed[i] <= [[9], [9], [1]])
    env.step()
    env.reset()
    for i in ids:
        np.testing.assert_allclose(env.get_object_by_id(i).state, placed[i], atol=0)
    assert env.status == "Reset"


def test_missing_world_and_bad_world_raise(world_dir):
    with pytest.raises(FileNotFoundError, match="no_such_world.yaml"):
        irsim.make("no_such_world.yaml")
    bad = write_world(world_dir, "world: {height: 10, width: 10}\nrobot:\n  - kinematics: {name: 'warp'}\n")
    with pytest.raises(ubot.WorldError) as err:
        irsim.make(bad)
    assert "kinematics" in err.value.key


def test_error_after_a_python_behavior_names_the_file_line(world_dir):
    """The Python behaviour is taken out of the text handed to ubot; errors still point at
    the world file's own line and column."""
    text = OMNI_WORLD.replace("BEHAVIOR", "only_in_python") + "    bogus_key: 1\n"
    path = write_world(world_dir, text)
    line = text.splitlines().index("    bogus_key: 1") + 1
    with pytest.raises(ubot.WorldError) as err:
        irsim.make(path)
    assert err.value.file == path
    assert err.value.line == line and err.value.column == 5
    assert str(err.value).startswith(f"{path}:{line}:5: ")
    e = err.value  # the attributes of the edited text's error, renamed to the file (_in_file)
    assert str(e) == e.message == f"{path}:{line}:5: {e.key}: {e.reason}"


def test_set_goal_takes_irsim_forms():
    env = irsim.make(LIDAR_WORLD, display=False)
    robot = env.robot
    robot.set_goal([3, 4])
    np.testing.assert_array_equal(robot.goal, [[3], [4], [0]])
    robot.set_goal(np.array([[5], [6], [1]]))
    np.testing.assert_array_equal(robot.goal, [[5], [6], [1]])
    robot.set_goal([[1, 2, 0], [7, 8, 0]])
    assert len(robot.goals) == 2
    np.testing.assert_array_equal(robot.goal, [[1], [2], [0]])
    robot.append_goal([9, 9, 0])
    np.testing.assert_array_equal(robot.goals[-1], [[9], [9], [0]])
    robot.set_goal(None)
    assert robot.goal is None and robot.goals == []


def test_save_ani_keeps_one_frame_per_sample_time(world_dir, monkeypatch):
    """sample_time 0.3 s at step_time 0.1 s: IR-SIM 2.12.0 renders steps whose count divides by
    int(round(0.3 / 0.1, 9)) = 3 (World.sample_steps; 2.10.2 truncated 2.999... to 2), so 6
    steps keep frames 3 and 6."""
    monkeypatch.setattr("sys.path", [world_dir, *__import__("sys").path])
    text = OMNI_WORLD.replace("    behavior: {name: 'BEHAVIOR', gain: 0.5}\n", "")
    path = write_world(world_dir, text.replace("step_time: 0.1}", "step_time: 0.1, sample_time: 0.3}"))
    env = irsim.make(path, display=False, save_ani=True)
    for _ in range(6):
        env.step()
        env.render()
    frames = sorted(os.listdir(os.path.join(world_dir, "animation_buffer")))
    assert frames == ["world_0003.png", "world_0006.png"]


BEHAVIOR_FOLDER = os.path.join(USAGE, "13custom_behavior")


def _aliased_name(module: str) -> bool:
    """The module names ubot.irsim's runner (`install()`) may alias to ubot's own."""
    return module in ("irsim", "pyrvo") or module.startswith("irsim.")


@pytest.mark.parametrize("world,module", [
    (os.path.join(BEHAVIOR_FOLDER, "custom_smooth_dash.yaml"), "custom_behavior_methods"),
    (os.path.join(HERE, "data", "irsim_formation_world.yaml"), "custom_group_methods"),
])
def test_python_behaviors_match_irsim_step_by_step(world, module):
    """IR-SIM's own example behaviours, run in Python by ubot.irsim, against IR-SIM's run:
    custom_smooth_dash.yaml's robot_0 runs smooth_dash (register_behavior_class) next to
    robot_1 on ubot's dash; irsim_formation_world.yaml's three omni robots run the group
    behaviour formation (register_group_behavior_class). Every state equals IR-SIM's to 1e-9."""
    import sys

    from ubot.irsim.__main__ import install

    name = os.path.splitext(os.path.basename(world))[0]
    record = fixture(f"irsim_api_{name}.json")
    # install() aliases `irsim` for the whole process: undone below, so that a later test in the
    # same pytest run (test_irsim_usage's CBF check) still imports the real IR-SIM.
    saved_meta_path = list(sys.meta_path)
    saved_modules = {k: m for k, m in sys.modules.items() if _aliased_name(k)}
    # The real IR-SIM imported by an earlier test in this process would answer `import irsim`
    # before the alias is asked, and a behaviour module imported before would not register
    # again: both are put aside for this test.
    for k in saved_modules:
        del sys.modules[k]
    sys.modules.pop(module, None)
    install()  # the behaviour modules import irsim.lib
    sys.path.insert(0, BEHAVIOR_FOLDER)
    try:
        env = irsim.make(world, display=False)
        env.load_behavior(module)
        for k, frame in enumerate(record["frames"]):
            env.step()
            for obj, state in zip(env.objects, frame["states"]):
                np.testing.assert_allclose(obj.state, state, atol=1e-9,
                                           err_msg=f"step {k + 1} {obj.name}")
            assert env.done() == frame["done"] and env.status == frame["status"], f"step {k + 1}"
    finally:
        sys.path.remove(BEHAVIOR_FOLDER)
        sys.meta_path[:] = saved_meta_path
        for k in [k for k in sys.modules if _aliased_name(k)]:
            del sys.modules[k]
        sys.modules.update(saved_modules)
        sys.modules.pop(module, None)
    moved = np.abs(np.array(record["frames"][-1]["states"]) - np.array(record["frames"][0]["states"]))
    assert moved.max() > 0.5  # the behaviours drove the robots


RANDOM_WORLD = """
world: {height: 10, width: 10, step_time: 0.1}
robot:
  - kinematics: {name: 'omni'}
    shape: {name: 'circle', radius: 0.2}
    state: [1, 1, 0]
    goal: [1.05, 1, 0]
    behavior: {name: 'dash'}
obstacle:
  - number: 4
    distribution: {name: 'random', range_low: [2, 2, 0], range_high: [8, 8, 0]}
    shape: {name: 'circle', radius: 0.3}
"""


def test_reset_random_redraws_and_seeds_reproduce(world_dir):
    path = write_world(world_dir, RANDOM_WORLD)

    def layouts(seed):
        env = irsim.make(path, display=False, seed=seed)
        first = [o.state[:2, 0].copy() for o in env.obstacle_list]
        env.reset(random=True)
        return first, [o.state[:2, 0].copy() for o in env.obstacle_list]

    first, redrawn = layouts(5)
    assert not np.allclose(first, redrawn)  # random=True draws a new layout
    again_first, again_redrawn = layouts(5)
    np.testing.assert_array_equal(first, again_first)  # the same seed, the same layouts
    np.testing.assert_array_equal(redrawn, again_redrawn)


def test_done_modes_reload_and_pause(world_dir):
    env = irsim.make(os.path.join(USAGE, "11collision_avoidance", "collision_avoidance.yaml"),
                     display=False)
    assert not env.done() and not env.done("any")
    env.pause()
    env.step()
    assert env.time == 0.0  # paused: no step
    env.resume()
    for _ in range(400):
        env.step()
        if env.done("any"):
            break
    assert env.done("any") and any(r.arrive for r in env.robot_list)
    assert env.done() == all(r.done() for r in env.robot_list)
    assert env.done("neither") is None
    env.reload()
    assert env.time == 0.0 and not env.done("any")
    world = env.get_map(resolution=0.2)
    assert (world.width, world.height, world.resolution) == (10.0, 10.0, 0.2)


def test_quit_ends_the_script():
    env = irsim.make(LIDAR_WORLD, display=False)
    with pytest.raises(SystemExit):
        env.quit()
