"""ubot.VectorEnv: shapes, reward / termination / truncation rules, auto-reset with derived
seeds, and the same trajectories whatever the thread count (docs/python.md, "VectorEnv")."""

import math
import os

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


def test_replacing_a_returned_array_changes_nothing_inside(noisy_world):
    envs = ubot.VectorEnv(noisy_world, num_envs=2)
    obs, _ = envs.reset()
    obs["lidar"] = np.zeros(1)  # the caller's dict: the env writes into its own arrays
    del obs["state"]
    obs, *_ = envs.step(np.zeros((2, 1, 2)))
    assert obs["lidar"].shape == (2, 1, 3) and obs["state"].shape == (2, 1, 3)
    with pytest.raises(ValueError):
        obs["lidar"].resize((1,))  # numpy refuses: the env holds a reference
