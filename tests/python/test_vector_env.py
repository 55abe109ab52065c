"""ubot.VectorEnv: shapes, reward / termination / truncation rules, auto-reset with derived
seeds, and the same trajectories whatever the thread count (docs/python.md, "VectorEnv")."""

import math
import os

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import ubot
from conftest import WALL_WORLD, example

# WALL_WORLD with a noisy lidar: episodes of different seeds see different ranges.
NOISY_WORLD = WALL_WORLD.replace("number: 3}", "number: 3, noise: true, std: 0.05}")


@pytest.fixture
def noisy_world(tmp_path):
    path = tmp_path / f"noisy_{os.getpid()}.yaml"
    path.write_text(NOISY_WORLD)
    return path


def mix64(z):
    m = (1 << 64) - 1
    z = (z + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def stream_seed(world_seed, stream_id):
    """docs/determinism.md: mix64(mix64(w) XOR fnv1a64(id))."""
    h = 0xCBF29CE484222325
    for b in stream_id.encode():
        h = ((h ^ b) * 0x100000001B3) & ((1 << 64) - 1)
    return mix64(mix64(world_seed) ^ h)


def test_observation_shapes_and_spaces():
    envs = ubot.VectorEnv(example("lidar_world.yaml"), num_envs=3, seed=0)
    obs, info = envs.reset()
    assert info == {}
    assert {k: (v.shape, v.dtype) for k, v in obs.items()} == {
        "lidar": ((3, 1, 200), np.float32), "state": ((3, 1, 3), np.float32),
        "goal": ((3, 1, 3), np.float32), "flags": ((3, 1, 3), np.bool_)}
    np.testing.assert_array_equal(obs["state"][:, 0], [[1, 1, 0]] * 3)
    np.testing.assert_array_equal(obs["goal"][:, 0], [[9, 9, 0]] * 3)
    np.testing.assert_array_equal(envs.action_low, [[-1, -1]])
    np.testing.assert_array_equal(envs.action_high, [[1, 1]])
    chosen = ubot.VectorEnv(example("lidar_world.yaml"), 2, observations=["velocity"])
    assert list(chosen.reset()[0]) == ["velocity"]


def test_reward_is_the_progress_towards_the_goal(tmp_path):
    path = tmp_path / f"wall_{os.getpid()}.yaml"
    path.write_text(WALL_WORLD)
    envs = ubot.VectorEnv(path, num_envs=2, max_steps=5)
    envs.reset()
    # Env 0 drives at 0.5 m/s towards its goal (9, 5) along +x: 0.05 m closer per step; env 1
    # stands still.
    actions = np.array([[[0.5, 0.0]], [[0.0, 0.0]]])
    for k in range(4):
        obs, reward, terminated, truncated, info = envs.step(actions)
        np.testing.assert_allclose(reward, [0.05, 0.0], atol=1e-9)
        assert not terminated.any() and not truncated.any() and info == {}
    np.testing.assert_allclose(obs["state"][0, 0], [2.2, 5, 0], atol=1e-6)
    np.testing.assert_allclose(obs["lidar"][0, 0], [8, 3.3, 8], atol=1e-5)
    # Step 5 = max_steps: truncated, auto-reset in the same step.
    obs, reward, terminated, truncated, info = envs.step(actions)
    np.testing.assert_array_equal(truncated, [True, True])
    np.testing.assert_array_equal(info["_final_observation"], [True, True])
    np.testing.assert_allclose(info["final_observation"]["state"][0, 0], [2.25, 5, 0], atol=1e-6)
    np.testing.assert_allclose(obs["state"][:, 0], [[2, 5, 0]] * 2)
    assert envs.episode(0) == envs.episode(1) == 1


def test_collision_terminates_with_the_penalty(tmp_path):
    # The robot starts 0.05 m from the wall's face and drives into it.
    path = tmp_path / f"crash_{os.getpid()}.yaml"
    path.write_text(WALL_WORLD.replace("state: [2, 5, 0]", "state: [5.25, 5, 0]"))
    envs = ubot.VectorEnv(path, num_envs=1, arrive_reward=0.0, collision_penalty=2.5)
    envs.reset()
    obs, reward, terminated, truncated, info = envs.step(np.array([[[1.0, 0.0]]]))
    assert terminated[0] and not truncated[0]
    # 0.1 m of progress towards (9, 5), minus the penalty; the final flags show the collision.
    assert reward[0] == pytest.approx(0.1 - 2.5)
    assert info["final_observation"]["flags"][0, 0].tolist() == [False, True, True]
    np.testing.assert_allclose(obs["state"][0, 0], [5.25, 5, 0])


def test_episode_seeds_follow_the_stream_seed_rule(noisy_world):
    envs = ubot.VectorEnv(noisy_world, num_envs=3, seed=11, max_steps=2)
    envs.reset()
    assert [envs.episode_seed(i) for i in range(3)] == [
        stream_seed(11, f"vector_env/{i}/0") for i in range(3)]
    zero = np.zeros((3, 1, 2))
    obs, *_ = envs.step(zero)
    # Each env is the Simulation of its episode's seed.
    for i in range(3):
        sim = ubot.Simulation(noisy_world, seed=envs.episode_seed(i))
        sim.step({"robot_0": [0, 0]})
        np.testing.assert_array_equal(obs["lidar"][i, 0],
                                      sim.sensor(0, "lidar2d_0").ranges.astype(np.float32))
    assert len({tuple(obs["lidar"][i, 0]) for i in range(3)}) == 3  # different noise
    envs.step(zero)  # max_steps: every env starts episode 1
    assert envs.episode_seed(2) == stream_seed(11, "vector_env/2/1")


def run(world, threads, steps=60, seed=5):
    envs = ubot.VectorEnv(world, num_envs=8, seed=seed, threads=threads, max_steps=17)
    obs, _ = envs.reset()
    rng = np.random.default_rng(0)
    trace = []
    for _ in range(steps):
        actions = rng.uniform(-1, 1, size=(8, 1, 2))
        obs, reward, terminated, truncated, info = envs.step(actions)
        trace.append((obs["lidar"].copy(), obs["state"].copy(), reward.copy(),
                      terminated.copy(), truncated.copy()))
    return trace


def test_same_seed_same_trajectories_for_any_thread_count(noisy_world):
    one, two = run(noisy_world, 1), run(noisy_world, 2)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    other = run(noisy_world, 2, seed=6)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(one, other))


def test_reset_with_a_seed_replays(noisy_world):
    assert all(all(np.array_equal(x, y) for x, y in zip(a, b))
               for a, b in zip(run(noisy_world, 2), run(noisy_world, 2)))


def test_misuse_raises(noisy_world):
    envs = ubot.VectorEnv(noisy_world, num_envs=2)
    envs.reset()
    for bad in (np.zeros((2, 2)), np.zeros((3, 1, 2)), np.zeros((2, 1, 3)), "go"):
        with pytest.raises(ValueError, match="shape \\(2, 1, 2\\)"):
            envs.step(bad)
    with pytest.raises(ValueError, match="finite"):
        envs.step(np.full((2, 1, 2), math.nan))
    with pytest.raises(ValueError, match="num_envs"):
        ubot.VectorEnv(noisy_world, num_envs=0)
    with pytest.raises(ValueError, match="unknown observation 'camera'"):
        ubot.VectorEnv(noisy_world, 1, observations=["camera"])
    with pytest.raises(ValueError, match="no lidar2d named 'front'"):
        ubot.VectorEnv(noisy_world, 1, lidar="front")
    with pytest.raises(ubot.WorldError):
        ubot.VectorEnv("/nowhere.yaml", 1)
    # Whole numbers only, as Simulation takes them (int() would run 1.5 envs as 1).
    for name, bad in (("num_envs", 1.5), ("num_envs", "2"), ("threads", "2"), ("seed", 0.5),
                      ("max_steps", True)):
        kwargs = {"num_envs": 1, name: bad}
        with pytest.raises(TypeError, match=f"VectorEnv: {name} must be an int, got"):
            ubot.VectorEnv(noisy_world, **kwargs)
    assert ubot.VectorEnv(noisy_world, num_envs=np.int64(2), threads=np.int32(1)).num_envs == 2
    # Found by fuzz_python: an env index out of range read past the end (a segfault).
    for name in ("episode", "episode_seed", "episode_steps"):
        for env in (-1, 2, 2**31 - 1):
            message = rf"VectorEnv.{name}: env must be in \[0, 2\), got {env}"
            with pytest.raises(ValueError, match=message):
                getattr(envs, name)(env)
        assert getattr(envs, name)(1) >= 0


def test_replacing_a_returned_array_changes_nothing_inside(noisy_world):
    envs = ubot.VectorEnv(noisy_world, num_envs=2)
    obs, _ = envs.reset()
    obs["lidar"] = np.zeros(1)  # the caller's dict: the env writes into its own arrays
    del obs["state"]
    obs, *_ = envs.step(np.zeros((2, 1, 2)))
    assert obs["lidar"].shape == (2, 1, 3) and obs["state"].shape == (2, 1, 3)
    with pytest.raises(ValueError):
        obs["lidar"].resize((1,))  # numpy refuses: the env holds a reference


# Two robots with different limits: the action bounds are each robot's own.
TWO_ROBOTS = WALL_WORLD.replace("""obstacle:""", """  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.2}
    state: [2, 8, 0]
    goal: [4, 8, 0]
    vel_min: [-0.5, -0.25]
    vel_max: [0.5, 0.25]
    sensors:
      - {type: lidar2d, range_min: 0, range_max: 6, angle_range: 3.141592653589793, number: 3}
obstacle:""")


@pytest.fixture
def two_robots(tmp_path):
    path = tmp_path / f"two_{os.getpid()}.yaml"
    path.write_text(TWO_ROBOTS.replace("number: 3}", "number: 3, noise: true, std: 0.05}"))
    return path


def test_gymnasium_spaces_shapes_dtypes_and_bounds(two_robots):
    envs = ubot.VectorEnv(two_robots, num_envs=4, seed=1, max_steps=25,
                          observations=("lidar", "state", "goal", "flags", "velocity"))
    assert envs.num_envs == 4
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.metadata["autoreset_mode"].value == "SameStep"
    single, batched = envs.single_observation_space, envs.observation_space
    assert {k: (single[k].shape, single[k].dtype) for k in single.keys()} == {
        "lidar": ((2, 3), np.float32), "state": ((2, 3), np.float32),
        "goal": ((2, 3), np.float32), "flags": ((2, 3), np.bool_),
        "velocity": ((2, 2), np.float32)}
    assert all(batched[k].shape == (4, *single[k].shape) for k in single.keys())
    # Bounds: each robot's lidar range_max, its velocity limits (as the Simulation reads them).
    sim = ubot.Simulation(two_robots)
    limits_low = np.array([sim.object(n).vel_min for n in ("robot_0", "robot_1")])
    limits_high = np.array([sim.object(n).vel_max for n in ("robot_0", "robot_1")])
    np.testing.assert_array_equal(limits_high, [[1, 1], [0.5, 0.25]])
    assert envs.single_action_space.shape == (2, 2)
    assert envs.single_action_space.dtype == np.float64
    np.testing.assert_array_equal(envs.single_action_space.low, limits_low)
    np.testing.assert_array_equal(envs.single_action_space.high, limits_high)
    np.testing.assert_array_equal(envs.action_space.high, np.stack([limits_high] * 4))
    np.testing.assert_array_equal(single["lidar"].high, [[8] * 3, [6] * 3])
    np.testing.assert_array_equal(single["lidar"].low, np.zeros((2, 3)))
    np.testing.assert_array_equal(single["velocity"].high, limits_high)
    # Every observation of a noisy run with random actions (some outside the limits: clipped)
    # lies in the observation space.
    obs, _ = envs.reset()
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(2)
    for _ in range(60):
        obs, reward, terminated, truncated, info = envs.step(rng.uniform(-2, 2, (4, 2, 2)))
        assert envs.observation_space.contains(obs)
        assert reward.shape == terminated.shape == truncated.shape == (4,)
        assert reward.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
    # Robot 1's last commands, clipped to its limits (the random actions went up to 2 m/s).
    assert (np.abs(obs["velocity"][:, 1]) <= [0.5, 0.25]).all()
    assert (np.abs(obs["velocity"][:, 1]) == [0.5, 0.25]).any()


def test_spaces_are_gymnasiums(two_robots):
    envs = ubot.VectorEnv(two_robots, num_envs=2)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert isinstance(envs.single_action_space, gymnasium.spaces.Box)
    assert isinstance(envs.observation_space, gymnasium.spaces.Dict)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    # Gymnasium's own batching of the single spaces gives the batched ones.
    assert envs.observation_space == gymnasium.vector.utils.batch_space(
        envs.single_observation_space, 2)
    envs.close()
    assert envs.closed


def test_without_gymnasium_import_ubot_works_and_vector_env_says_what_to_install(two_robots):
    # Gymnasium made unimportable in a fresh interpreter (as in a venv without the extra).
    script = ("import sys; sys.modules['gymnasium'] = None\n"
              "import ubot\n"
              f"sim = ubot.Simulation({str(two_robots)!r}); sim.step()\n"
              "try:\n"
              "    ubot.VectorEnv\n"
              "except ImportError as e:\n"
              "    print(e)\n"
              "else:\n"
              "    raise SystemExit('VectorEnv imported without Gymnasium')\n")
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                         text=True).stdout
    assert "pip install 'ubot[gym]'" in out, out
    assert "Gymnasium" in out


def test_action_space_samples_are_seeded_and_in_bounds(two_robots):
    envs = ubot.VectorEnv(two_robots, num_envs=3)
    envs.action_space.seed(7)
    first = [envs.action_space.sample() for _ in range(3)]
    envs.action_space.seed(7)
    assert all(np.array_equal(a, envs.action_space.sample()) for a in first)
    assert all(envs.action_space.contains(a) and a.shape == (3, 2, 2) for a in first)
    assert not np.array_equal(first[0], first[1])


def rollout(envs, seed, steps=40):
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [obs["lidar"].copy()]
    for _ in range(steps):
        obs, *_ = envs.step(rng.uniform(-1, 1, (envs.num_envs, 2, 2)))
        out.append(obs["lidar"].copy())
    return np.array(out)


def test_reset_seed_determinism(two_robots):
    envs = ubot.VectorEnv(two_robots, num_envs=3, max_steps=15)
    a = rollout(envs, 9)
    b = rollout(envs, 9)  # the same env, reset with the same seed, after a run
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, rollout(ubot.VectorEnv(two_robots, num_envs=3, seed=9,
                                                            max_steps=15), 9))
    assert envs.seed == 9 and not np.array_equal(a, rollout(envs, 10))
    with pytest.raises(TypeError, match="seed must be an int"):
        envs.reset(seed=[1, 2, 3])


@pytest.fixture
def crash_world(tmp_path):
    # The robot starts 0.05 m from the wall's face: driving at 1 m/s it collides in one step.
    path = tmp_path / f"crash2_{os.getpid()}.yaml"
    path.write_text(WALL_WORLD.replace("state: [2, 5, 0]", "state: [5.25, 5, 0]"))
    return path


CRASH = np.array([[[1.0, 0.0]], [[0.0, 0.0]]])  # env 0 drives into the wall, env 1 waits


def test_same_step_autoreset_puts_the_last_observation_in_final_obs(crash_world):
    envs = ubot.VectorEnv(crash_world, num_envs=2)
    envs.reset()
    obs, reward, terminated, truncated, info = envs.step(CRASH)
    np.testing.assert_array_equal(terminated, [True, False])
    np.testing.assert_array_equal(info["_final_obs"], [True, False])
    assert info["final_obs"].dtype == object and info["final_obs"][1] is None
    final = info["final_obs"][0]
    assert final["flags"].tolist() == [[False, True, True]]  # the collision, as it ended
    np.testing.assert_allclose(final["state"], [[5.35, 5, 0]], atol=1e-6)
    assert final["lidar"].shape == (1, 3) and final["lidar"].dtype == np.float32
    np.testing.assert_array_equal(final["state"], info["final_observation"]["state"][0])
    assert info["final_info"] == {} and info["_final_info"].tolist() == [True, False]
    # The returned observation is env 0's new episode at its start; env 1 goes on.
    np.testing.assert_allclose(obs["state"][:, 0], [[5.25, 5, 0]] * 2)
    assert envs.episode(0) == 1 and envs.episode(1) == 0
    final["state"][:] = 0  # a copy: the env's arrays are untouched
    assert info["final_observation"]["state"][0, 0, 0] == pytest.approx(5.35)
    obs, reward, terminated, truncated, info = envs.step(np.zeros((2, 1, 2)))
    assert "final_obs" not in info and not terminated.any()


def test_disabled_autoreset_waits_for_reset_mask(crash_world):
    envs = ubot.VectorEnv(crash_world, num_envs=2, seed=4, auto_reset=False)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.DISABLED
    envs.reset()
    obs, reward, terminated, truncated, info = envs.step(CRASH)
    np.testing.assert_array_equal(terminated, [True, False])
    assert info == {} and envs.episode(0) == 0
    np.testing.assert_allclose(obs["state"][0, 0], [5.35, 5, 0], atol=1e-6)  # not reset
    with pytest.raises(ValueError, match=r"envs \[0\] ended"):
        envs.step(np.zeros((2, 1, 2)))
    for bad in (np.array([1, 0]), np.array([True]), np.array([False, False])):
        with pytest.raises(ValueError, match="reset_mask"):
            envs.reset(options={"reset_mask": bad})
    with pytest.raises(ValueError, match="not both"):
        envs.reset(seed=3, options={"reset_mask": np.array([True, False])})
    with pytest.raises(ValueError, match="unknown options"):
        envs.reset(options={"colour": 1})
    obs, info = envs.reset(options={"reset_mask": np.array([True, False])})
    assert info == {} and envs.episode(0) == 1 and envs.episode(1) == 0
    assert envs.episode_seed(0) == stream_seed(4, "vector_env/0/1")
    np.testing.assert_allclose(obs["state"][:, 0], [[5.25, 5, 0]] * 2)
    assert (envs.episode_steps(0), envs.episode_steps(1)) == (0, 1)  # env 1 went on
    envs.step(np.zeros((2, 1, 2)))  # both may step again
    assert (envs.episode_steps(0), envs.episode_steps(1)) == (1, 2)


def test_close_follows_gymnasium(crash_world):
    envs = ubot.VectorEnv(crash_world, num_envs=1)
    assert not envs.closed and envs.unwrapped is envs and envs.render_mode is None
    envs.close()
    assert envs.closed


def test_actions_and_reset_masks_are_read_as_numpy_shows_them():
    # Non-contiguous and reversed views give what numpy shows (the same steps as their copies).
    def run(actions_of, mask_of):
        envs = ubot.VectorEnv(example("lidar_world.yaml"), num_envs=4, seed=3, auto_reset=False)
        envs.reset()
        wide = np.zeros((4, 1, 4))
        wide[..., ::2] = [[[0.8, 0.3]], [[0.2, -0.4]], [[0.0, 0.0]], [[1.0, 0.1]]]
        obs = envs.step(actions_of(wide))[0]
        mask = np.array([True, False, False, True, True, False, False, False])
        obs_after = envs.reset(options={"reset_mask": mask_of(mask)})[0]
        return obs["state"].copy(), obs_after["state"].copy()

    views = run(lambda w: w[..., ::2], lambda m: m[::2][::-1][::-1])
    copies = run(lambda w: np.ascontiguousarray(w[..., ::2]), lambda m: m[::2].copy())
    for a, b in zip(views, copies):
        np.testing.assert_array_equal(a, b)


def test_a_closed_vector_env_refuses_to_step(noisy_world):
    envs = ubot.VectorEnv(noisy_world, num_envs=2)
    envs.reset()
    envs.close()
    assert envs.closed
    with pytest.raises(ubot.Error, match="VectorEnv.step: the VectorEnv is closed"):
        envs.step(np.zeros((2, 1, 2)))
    with pytest.raises(ubot.Error, match="VectorEnv.reset: the VectorEnv is closed"):
        envs.reset()
    envs.close()  # twice is fine


def test_every_episode_starts_from_a_start_state_with_its_own_noise(noisy_world, tmp_path):
    # A state after 12 steps of driving towards the wall (issue 47: fan out from one state).
    sim = ubot.Simulation(noisy_world, seed=3)
    for _ in range(12):
        sim.step({"robot_0": [0.5, 0.0]})
    state_file = tmp_path / "warm.bin"
    sim.save_state(state_file)
    saved_xy = np.array(sim.object(0).state[:3], dtype=np.float32)

    def first_steps(start_state, seed=11):
        envs = ubot.VectorEnv(noisy_world, num_envs=3, seed=seed, max_steps=4,
                              start_state=start_state)
        obs, _ = envs.reset()
        assert [envs.episode_steps(i) for i in range(3)] == [0, 0, 0]
        for i in range(3):  # every env starts where the saved run was
            np.testing.assert_array_equal(obs["state"][i, 0], saved_xy)
        out = [obs["lidar"].copy()]
        for k in range(4):
            obs, _, terminated, truncated, _ = envs.step(np.zeros((3, 1, 2)))
            out.append(obs["lidar"].copy())
            # max_steps counts the steps after the start state.
            assert truncated.all() == (k == 3) and not terminated.any()
        return envs, out

    envs, a = first_steps(state_file)
    _, b = first_steps(state_file.read_bytes())  # bytes work as the file does
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    # Each env draws its episode seed's noise: the copies differ, and match a Simulation
    # restored from the state and reseeded with that seed.
    assert len({tuple(a[1][i, 0]) for i in range(3)} ) == 3
    for i in range(3):
        check = ubot.Simulation(noisy_world, seed=3)
        check.load_state(state_file)
        check.reseed(stream_seed(11, f"vector_env/{i}/0"))
        check.step({"robot_0": [0, 0]})
        np.testing.assert_array_equal(a[1][i, 0],
                                      check.sensor(0, "lidar2d_0").ranges.astype(np.float32))
    assert envs.episode_seed(0) == stream_seed(11, "vector_env/0/1")  # auto-reset: episode 1
    # A state of another world is refused, naming the difference.
    other = tmp_path / "other.yaml"
    other.write_text(NOISY_WORLD.replace("state: [6, 5, 0]", "state: [6, 5, 0]\n  - shape: "
                                         "{name: circle, radius: 0.5}\n    state: [3, 3, 0]"))
    with pytest.raises(ubot.Error, match="another world"):
        ubot.VectorEnv(other, num_envs=2, start_state=state_file)
    with pytest.raises(TypeError, match="start_state"):
        ubot.VectorEnv(noisy_world, num_envs=2, start_state=3.5)


def test_a_count_beyond_the_memory_limit_is_refused_before_anything_is_built(noisy_world,
                                                                           monkeypatch):
    monkeypatch.setenv("UBOT_MEMORY_LIMIT", "2M")
    assert ubot.VectorEnv(noisy_world, num_envs=2).num_envs == 2
    with pytest.raises(ubot.Error, match=r"VectorEnv: 1000 copies of .* would need about "
                                         r"[0-9.]+ MiB of memory .* more than the limit of "
                                         r"2.0 MiB \(UBOT_MEMORY_LIMIT\)"):
        ubot.VectorEnv(noisy_world, num_envs=1000)
    monkeypatch.delenv("UBOT_MEMORY_LIMIT")
    with pytest.raises(ubot.Error, match="10000000 copies"):
        ubot.VectorEnv(noisy_world, num_envs=10**7)
