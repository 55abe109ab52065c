"""ubot.gym (docs/learning.md): the registered Gymnasium Env and its vector entry point, checked
by Gymnasium's own checker and against Gymnasium's SyncVectorEnv, observations against numpy
computed from the simulation's objects, rewards against ubot.VectorEnv's C++ reward, seeds,
random resets and bad input."""

import math
import os
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.env_match import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import ubot
import ubot.gym
from ubot import _learning
from ubot.gym import UbotEnv, UbotVectorEnv
from conftest import WALL_WORLD, example

LIDAR_WORLD = example("lidar_world.yaml")

# An empty room: the robot at (2, 2) facing +x, its goal 1.5 m ahead.
ROOM_WORLD = """
world: {width: 6, height: 6, step_time: 0.1}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [2, 2, 0]
    goal: [3.5, 2, 0]
    goal_threshold: 0.1
    vel_max: [1, 1]
    vel_min: [-1, -1]
    sensors:
      - {type: lidar2d, range_min: 0, range_max: 4, angle_range: 6.283, number: 8}
obstacle:
  - shape: {name: circle, radius: 0.3}
    state: [4.5, 4.5, 0]
"""


def world_file(tmp_path, text, name):
    path = tmp_path / f"{name}_{os.getpid()}.yaml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def wall_world(tmp_path):
    return world_file(tmp_path, WALL_WORLD, "wall")


@pytest.fixture
def room_world(tmp_path):
    return world_file(tmp_path, ROOM_WORLD, "room")


@pytest.fixture
def noisy_world(tmp_path):
    return world_file(tmp_path, WALL_WORLD.replace("number: 3}", "number: 3, noise: true, "
                                                   "std: 0.05}"), "noisy")


def rotate_into(yaw, dx, dy):
    """World offsets in a frame turned by yaw, by a rotation matrix (independent of ubot)."""
    rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    return rot.T @ np.array([dx, dy])


# -- registration, Gymnasium's checker -----------------------------------------------------


def test_make_and_make_vec_build_the_registered_envs():
    env = gymnasium.make("ubot/World-v0", world=LIDAR_WORLD, robot="robot_0", reward_fn=None)
    assert isinstance(env.unwrapped, UbotEnv) and env.spec.id == "ubot/World-v0"
    envs = gymnasium.make_vec("ubot/World-v0", num_envs=3,
                              vectorization_mode="vector_entry_point", world=LIDAR_WORLD)
    assert isinstance(envs, UbotVectorEnv) and envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=0)
    assert obs.shape == (3, 204) and obs.dtype == np.float32 and info == {}
    ubot.gym.register()  # again: no "overriding" warning, the same spec
    assert gymnasium.spec("ubot/World-v0").vector_entry_point == "ubot.gym:UbotVectorEnv"
    env.close()


@pytest.mark.parametrize("kwargs", [
    {},
    {"normalize": True, "observations": ("lidar", "pose", "goal", "goal_polar", "velocity",
                                         "flags", "neighbors", "fov", "clearance")},
    {"flatten": False, "normalize": True, "randomize": {"robots": True, "goals": True}},
])
def test_check_env_passes_without_warnings(kwargs):
    env = gymnasium.make("ubot/World-v0", world=LIDAR_WORLD, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of the checker fails the test
        check_env(env.unwrapped)  # also makes it with render_mode "rgb_array" and "human"
    env.close()


def test_render_modes():
    env = UbotEnv(LIDAR_WORLD, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    np.testing.assert_array_equal(frame, env.sim.picture()[..., :3])
    human = UbotEnv(LIDAR_WORLD, render_mode="human")
    human.reset(seed=0)  # starts the live page once
    url = human.live_url
    assert url and url.startswith("http://127.0.0.1:")
    assert human.render() is None and human.live_url == url
    human.step(np.zeros(2, np.float32))
    human.close()
    with pytest.raises(ValueError, match="render_mode"):
        UbotEnv(LIDAR_WORLD, render_mode="ansi")


# -- observations --------------------------------------------------------------------------


def test_observations_match_numpy_from_the_objects():
    names = ("pose", "goal", "goal_polar", "velocity", "flags", "lidar", "clearance", "fov")
    env = UbotEnv(LIDAR_WORLD, observations=names, flatten=False)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(5)
    for _ in range(25):
        o = env.sim.object("robot_0")
        x, y, yaw = o.state
        dx, dy = rotate_into(yaw, o.goal[0] - x, o.goal[1] - y)
        np.testing.assert_allclose(obs["pose"], [x, y, math.remainder(yaw, 2 * math.pi)],
                                   atol=1e-5)
        np.testing.assert_allclose(obs["goal"], [dx, dy], atol=1e-5)
        np.testing.assert_allclose(obs["goal_polar"], [math.hypot(dx, dy), math.atan2(dy, dx)],
                                   atol=1e-5)
        np.testing.assert_allclose(obs["velocity"], o.velocity, atol=1e-6)
        np.testing.assert_array_equal(obs["flags"], [o.arrive, o.collision, o.stop])
        np.testing.assert_allclose(obs["lidar"], env.sim.sensor("robot_0", "lidar2d_0").ranges,
                                   atol=1e-5)
        np.testing.assert_allclose(obs["clearance"], [min(env.sim.min_clearance("robot_0"), 5)],
                                   atol=1e-5)
        fov = np.zeros(len(env.sim.object_names))
        fov[env.sim.fov_detections()[0]] = 1
        np.testing.assert_array_equal(obs["fov"], fov)
        obs, *_ = env.step(rng.uniform(-1, 1, 2).astype(np.float32))
    assert obs["velocity"][0] != 0  # the robot moved


def test_normalize_scales_to_the_documented_ranges():
    names = ("lidar", "pose", "goal", "goal_polar", "velocity")
    raw = UbotEnv(LIDAR_WORLD, observations=names, flatten=False)
    norm = UbotEnv(LIDAR_WORLD, observations=names, flatten=False, normalize=True)
    a, _ = raw.reset(seed=0)
    b, _ = norm.reset(seed=0)
    for _ in range(5):
        a, *_ = raw.step(np.array([0.8, 0.3], np.float32))
        b, *_ = norm.step(np.array([0.8, 0.3], np.float32))
    diagonal = math.hypot(10, 10)
    np.testing.assert_allclose(b["lidar"], a["lidar"] / 5, atol=1e-6)  # range_max 5
    np.testing.assert_allclose(b["pose"], [(a["pose"][0] - 5) / 5, (a["pose"][1] - 5) / 5,
                                           a["pose"][2] / np.pi], atol=1e-6)
    np.testing.assert_allclose(b["goal"], a["goal"] / diagonal, atol=1e-6)
    np.testing.assert_allclose(b["goal_polar"], a["goal_polar"] / [diagonal, np.pi], atol=1e-6)
    np.testing.assert_allclose(b["velocity"], a["velocity"], atol=1e-6)  # limits are +-1
    for key, space in norm.observation_space.items():
        assert space.low.min() >= -1 and space.high.max() <= 1, key
    flat = UbotEnv(LIDAR_WORLD, observations=names, normalize=True)
    f, _ = flat.reset(seed=0)
    for _ in range(5):
        f, *_ = flat.step(np.array([0.8, 0.3], np.float32))
    np.testing.assert_array_equal(f, np.concatenate([b[n] for n in names]))
    offsets = flat.observer.offsets()
    np.testing.assert_array_equal(f[offsets["goal"]], b["goal"])


def test_imu_observation_is_the_imu_sample():
    env = UbotEnv(example("imu_world.yaml"), robot="rover", observations=("imu",),
                  others="stand")
    env.reset(seed=0)
    for _ in range(5):
        obs, *_ = env.step(np.array([1.0, 0.5], np.float32))
    sample = env.sim.sensor("rover", "imu_0")
    np.testing.assert_allclose(obs, np.concatenate([sample.linear_acceleration,
                                                    sample.angular_velocity]), atol=1e-5)
    assert abs(obs[2]) > 5  # gravity on z


def test_depth_observation_is_the_depth_image():
    env = UbotEnv(example("camera_world.yaml"), observations=("depth",), normalize=True,
                  observation_options={"depth_max": 12.0})
    env.reset(seed=0)
    for _ in range(3):
        obs, *_ = env.step(np.zeros(2, np.float32))
    depth = env.sim.sensor("rover", "depth_camera_0").depth
    assert obs.shape == (320 * 240,) and obs in env.observation_space
    np.testing.assert_allclose(obs, np.clip(depth.ravel() / 12.0, 0, 1), atol=1e-6)
    assert 0 < obs.mean() < 1


# -- rewards, termination, truncation -------------------------------------------------------


def test_default_reward_is_ubot_vector_envs_reward(wall_world):
    """The default weights are the C++ VectorEnv's reward: progress + arrival - collision."""
    env = UbotEnv(wall_world, normalize_actions=False, max_steps=0)
    core = ubot.VectorEnv(wall_world, num_envs=1, max_steps=0, auto_reset=False)
    env.reset(seed=0)
    core.reset(seed=0)
    rewards, core_rewards = [], []
    for _ in range(100):
        _, r, terminated, _, info = env.step(np.array([0.9, 0.0]))
        _, cr, *_ = core.step(np.array([[[0.9, 0.0]]]))
        rewards.append(r)
        core_rewards.append(cr[0])
        if terminated:
            break
    assert terminated and not info["is_success"]  # drove into the wall
    assert rewards[-1] < -0.5  # the collision penalty
    np.testing.assert_allclose(rewards, core_rewards, atol=1e-6)


def test_built_in_terms_and_weights(wall_world):
    weights = {"progress": 2.0, "time": -0.01, "smoothness": -0.5, "clearance": -1.0}
    env = UbotEnv(wall_world, reward_weights=weights, normalize_actions=False,
                  clearance_margin=4.0)
    env.reset(seed=0)
    actions = [np.array([0.5, 0.0]), np.array([0.5, 0.4])]
    prev_action = np.zeros(2)
    for a in actions:
        x_before = env.sim.object("robot_0").state[0]
        _, r, *_ = env.step(a)
        x_after = env.sim.object("robot_0").state[0]
        ranges = env.sim.sensor("robot_0", env.layout.lidar[0]).ranges
        progress = (9 - x_before) - math.hypot(9 - x_after,
                                               5 - env.sim.object("robot_0").state[1])
        smooth = float(np.sum((a - prev_action) ** 2))  # vel limits are 1: no scaling
        clearance = max(0.0, 4.0 - float(np.min(ranges)))
        expected = 2 * progress - 0.01 - 0.5 * smooth - clearance
        assert r == pytest.approx(expected, abs=1e-5)
        prev_action = a


def test_reward_fn_is_called_once_per_step_for_every_env(wall_world):
    calls = []

    def reward_fn(ctx):
        calls.append(ctx)
        assert ctx.state.shape == (4, 1, 3) and ctx.arrive.shape == (4, 1)
        assert set(ctx.terms) == set(_learning.TERMS)
        return np.arange(4) + 10 * ctx.terms["progress"][:, 0]  # (num_envs,): per env

    envs = UbotVectorEnv(4, wall_world, reward_fn=reward_fn, normalize_actions=False)
    envs.reset(seed=0)
    actions = np.array([[0.5, 0], [0, 0], [0.2, 0], [0, 0.3]])
    _, reward, *_ = envs.step(actions)
    assert len(calls) == 1
    np.testing.assert_allclose(reward, np.arange(4) + 10 * actions[:, 0] * 0.1, atol=1e-5)
    np.testing.assert_allclose(calls[0].action[:, 0], actions)
    envs2 = UbotVectorEnv(2, wall_world, reward_fn=lambda ctx: 3.0)  # a scalar broadcasts
    envs2.reset(seed=0)
    np.testing.assert_array_equal(envs2.step(np.zeros((2, 2), np.float32))[1], [3.0, 3.0])


def test_arrival_terminates_with_success(room_world):
    env = UbotEnv(room_world, observations=("goal_polar",), reward_weights={"arrival": 10.0})
    obs, _ = env.reset(seed=0)
    for step in range(100):
        distance, bearing = obs
        obs, reward, terminated, truncated, info = env.step(
            np.clip([distance, 2 * bearing], -1, 1).astype(np.float32))
        if terminated:
            break
    assert terminated and not truncated and info["is_success"] and reward == 10.0
    assert env.sim.object("robot_0").arrive and 10 < step < 40


def test_truncation_after_max_steps(room_world):
    env = UbotEnv(room_world, max_steps=7)
    env.reset(seed=0)
    ends = [env.step(np.zeros(2, np.float32))[2:4] for _ in range(7)]
    assert ends == [(False, False)] * 6 + [(False, True)]


def test_others_run_their_behaviours_or_stand():
    swap = os.path.join(os.path.dirname(__file__), "..", "data", "learning", "swap4.yaml")
    moving = UbotEnv(swap, robot="robot_1")
    standing = UbotEnv(swap, robot="robot_1", others="stand")
    for env in (moving, standing):
        env.reset(seed=0)
        for _ in range(10):
            env.step(np.zeros(2, np.float32))
    assert moving.sim.object("robot_0").state[0] > 1.3  # dash towards (7, 7)
    np.testing.assert_allclose(standing.sim.object("robot_0").state, [1, 1, 0.785])
    np.testing.assert_allclose(moving.sim.object("robot_1").state, [7, 7, -2.356])


# -- seeds --------------------------------------------------------------------------------


def test_seeds_follow_the_vector_env_rule(noisy_world):
    env = UbotEnv(noisy_world, observations=("lidar",))
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    np.testing.assert_array_equal(a, b)
    env.step(np.zeros(2, np.float32))
    first = env.step(np.zeros(2, np.float32))[0]
    env.reset()  # the next episode: another world seed
    assert env.sim.seed == ubot.stream_seed(7, "vector_env/0/1")
    assert not np.array_equal(env.step(np.zeros(2, np.float32))[0], first)
    # Env 0 of the vector env with base seed 7 is this env.
    envs = UbotVectorEnv(2, noisy_world, observations=("lidar",))
    env.reset(seed=7)
    envs.reset(seed=7)
    for _ in range(3):
        one = env.step(np.zeros(2, np.float32))[0]
        many = envs.step(np.zeros((2, 2), np.float32))[0]
        np.testing.assert_array_equal(one, many[0])
    assert not np.array_equal(many[0], many[1])  # env 1: another seed


# -- the vector env against Gymnasium's SyncVectorEnv ---------------------------------------


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_matches_sync_vector_env(room_world, mode):
    """The same actions through UbotVectorEnv and SyncVectorEnv of UbotEnv (others stand):
    equal observations, rewards, ends and infos, autoreset included."""
    kwargs = dict(observations=("lidar", "goal_polar", "velocity", "flags"), max_steps=20,
                  reward_weights={"progress": 1, "arrival": 5, "time": -0.1})
    ours = UbotVectorEnv(3, room_world, autoreset_mode=mode, **kwargs)
    sync = SyncVectorEnv([lambda: UbotEnv(room_world, others="stand", **kwargs)] * 3,
                         autoreset_mode=mode)
    assert ours.single_observation_space == sync.single_observation_space
    assert ours.single_action_space == sync.single_action_space
    o1, i1 = ours.reset(seed=0)
    o2, i2 = sync.reset(seed=0)
    assert data_equivalence(o1, o2) and i1 == i2 == {}
    rng = np.random.default_rng(0)
    terminations = truncations = 0
    for step in range(70):
        # env 0 drives to its goal 1.5 m ahead (arrives in about 14 steps), 1 and 2 at random
        actions = rng.uniform(-1, 1, (3, 2)).astype(np.float32)
        actions[0] = [1, 0]
        r1 = ours.step(actions)
        r2 = sync.step(actions)
        for a, b, what in zip(r1, r2, ("obs", "reward", "terminated", "truncated", "info")):
            if what == "info":
                assert a.keys() == b.keys(), (step, a.keys(), b.keys())
            assert data_equivalence(a, b), (step, what, a, b)
        assert r1[0] in ours.observation_space
        terminations += int(r1[2].sum())
        truncations += int(r1[3].sum())
    assert terminations >= 3 and truncations >= 4  # env 0 arrives; 1 and 2 time out
    ours.close()
    assert ours.closed


def test_vector_env_shapes_and_spaces(room_world):
    envs = UbotVectorEnv(5, room_world, observations=("lidar", "goal", "neighbors"),
                         normalize=True, flatten=False)
    obs, _ = envs.reset(seed=1)
    assert {k: v.shape for k, v in obs.items()} == {"lidar": (5, 8), "goal": (5, 2),
                                                   "neighbors": (5, 12)}
    assert obs in envs.observation_space
    envs.action_space.seed(0)
    for _ in range(20):
        obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
        assert obs in envs.observation_space
        assert reward.shape == terminated.shape == truncated.shape == (5,)
        assert reward.dtype == np.float64 and terminated.dtype == np.bool_
    np.testing.assert_array_equal(obs["neighbors"], 0)  # one robot: no neighbours


# -- random resets ------------------------------------------------------------------------


def test_randomize_places_starts_goals_and_obstacles(room_world):
    spec = {"robots": True, "goals": True, "obstacles": True, "margin": 0.3,
            "min_goal_distance": 2.0, "region": [0.5, 5.5, 0.5, 5.5]}
    env = UbotEnv(room_world)
    places = []
    for seed in (1, 1, 2):
        env.reset(seed=seed, options={"randomize": spec})
        robot, pillar = env.sim.object("robot_0"), env.sim.object("obstacle_1")
        assert env.sim.clearance("robot_0", "obstacle_1") >= 0.3
        assert math.dist(robot.state[:2], robot.goal[:2]) >= 2.0
        for o in (robot, pillar):
            assert 0.5 + o.radius <= o.state[0] <= 5.5 - o.radius
            assert 0.5 + o.radius <= o.state[1] <= 5.5 - o.radius
        # the goal is clear of the pillar too: the robot would fit there
        assert math.dist(robot.goal[:2], pillar.state[:2]) >= 0.2 + 0.3 + 0.3 - 1e-9
        places.append(np.concatenate([robot.state, robot.goal[:2], pillar.state]))
        obs, *_ = env.step(np.zeros(2, np.float32))
    np.testing.assert_array_equal(places[0], places[1])  # same seed, same places
    assert not np.allclose(places[0], places[2])
    env.reset(seed=3)  # no randomize: the world's own places again
    np.testing.assert_allclose(env.sim.object("robot_0").state, [2, 2, 0])
    with pytest.raises(ValueError, match="unknown keys"):
        env.reset(options={"randomize": {"robot": True}})
    with pytest.raises(ValueError, match="no free place"):  # only on the pillar
        env.reset(options={"randomize": {"robots": True, "region": [4.2, 4.8, 4.2, 4.8]}})
    with pytest.raises(ValueError, match="does not fit"):
        env.reset(options={"randomize": {"robots": True, "region": [0, 0.3, 0, 6]}})
    env.reset(seed=3)  # usable after the failures
    np.testing.assert_allclose(env.sim.object("robot_0").state, [2, 2, 0])


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("action, error, match", [
    (np.zeros(3, np.float32), ValueError, "shape"),
    (np.zeros((1, 2), np.float32), ValueError, "shape"),
    (np.array([np.nan, 0], np.float32), ValueError, "NaN"),
    (np.array([np.inf, 0]), ValueError, "NaN or infinite"),
    (np.array([1.5, 0], np.float32), ValueError, "outside the action space"),
    (np.array([True, False]), TypeError, "dtype"),
    (np.array(["a", "b"]), TypeError, "dtype"),
    ([0.1, None], TypeError, "dtype"),
])
def test_bad_actions_raise_and_leave_the_env_usable(room_world, action, error, match):
    env = UbotEnv(room_world)
    env.reset(seed=0)
    before = env.sim.object("robot_0").state
    with pytest.raises(error, match=match):
        env.step(action)
    np.testing.assert_array_equal(env.sim.object("robot_0").state, before)  # not stepped
    env.step(np.zeros(2, np.float32))
    envs = UbotVectorEnv(2, room_world)
    envs.reset(seed=0)
    with pytest.raises(error, match=match):
        envs.step(np.stack([np.asarray(action)] * 2) if np.ndim(action) == 1 else action)
    envs.step(np.zeros((2, 2), np.float32))


def test_clip_actions_clips_instead(room_world):
    env = UbotEnv(room_world, clip_actions=True, observations=("velocity",))
    env.reset(seed=0)
    obs, *_ = env.step(np.array([3.0, -2.0], np.float32))
    np.testing.assert_allclose(obs, [1, -1])


@pytest.mark.parametrize("reward_fn, match", [
    (lambda ctx: 1 / 0, "reward_fn raised ZeroDivisionError"),
    (lambda ctx: np.zeros(5), r"reward_fn returned shape \(5,\)"),
    (lambda ctx: np.nan, "NaN"),
    (lambda ctx: "good", "reward_fn must return numbers"),
])
def test_bad_reward_fn_raises_then_reset_recovers(room_world, reward_fn, match):
    broken = [True]

    def wrapped(ctx):
        return reward_fn(ctx) if broken[0] else 0.5

    env = UbotEnv(room_world, reward_fn=wrapped)
    envs = UbotVectorEnv(2, room_world, reward_fn=wrapped)
    for e, action in ((env, np.zeros(2, np.float32)), (envs, np.zeros((2, 2), np.float32))):
        broken[0] = True
        e.reset(seed=0)
        with pytest.raises((ValueError, TypeError), match=match):
            e.step(action)
        with pytest.raises(ValueError, match="reset"):  # the failed step ended the episode
            e.step(action)
        broken[0] = False
        e.reset(seed=0)
        assert np.all(e.step(action)[1] == 0.5)


def test_bad_arguments_name_what_is_wrong(room_world):
    cases = [
        (dict(observations=("lidar", "sonar")), ValueError, "sonar"),
        (dict(robot="robot_9"), ValueError, "robot_9"),
        (dict(reward_weights={"speed": 1}), ValueError, "speed"),
        (dict(reward_weights={"time": float("nan")}), ValueError, "finite"),
        (dict(reward_fn=3), TypeError, "callable"),
        (dict(reward_fn=lambda c: 0, reward_weights={"time": 1}), ValueError, "not both"),
        (dict(others="dance"), ValueError, "others"),
    ]
    for kwargs, error, match in cases:
        with pytest.raises(error, match=match):
            UbotEnv(room_world, **kwargs)
    for kwargs, match in [(dict(randomize={"robot": True}), "unknown keys \\['robot'\\]"),
                          (dict(randomize={"robots": ["robot_9"]}), "robot_9"),
                          (dict(observations=("fov",)), "fov"),
                          (dict(others="behavior"), "others"),
                          (dict(autoreset_mode=AutoresetMode.DISABLED), "autoreset_mode")]:
        with pytest.raises(ValueError, match=match):
            UbotVectorEnv(2, room_world, **kwargs)
    with pytest.raises(ValueError, match="reset"):
        UbotEnv(room_world).step(np.zeros(2, np.float32))
    with pytest.raises(TypeError, match="seed"):
        UbotVectorEnv(2, room_world).reset(seed=[1, 2])
