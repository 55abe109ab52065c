"""ubot.pettingzoo (docs/learning.md): PettingZoo's own API and seed tests on the four-robot
swap world, agents leaving on arrival and collision, per-agent rewards from one reward_fn
call, neighbour observations against numpy, the vectorised form against the parallel env, and
bad input."""

import math
import os
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test

import ubot.pettingzoo
from ubot.pettingzoo import UbotParallelEnv, VectorParallelEnv

SWAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "learning",
                    "swap4.yaml")
AGENTS = ["robot_0", "robot_1", "robot_2", "robot_3"]

# Two robots in an empty room, each 1.5 m from its goal: both can arrive.
PAIR_WORLD = """
world: {width: 8, height: 8, step_time: 0.1}
robot:
  - number: 2
    distribution: {name: manual}
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [[2, 2, 0], [2, 6, 0]]
    goal: [[3.5, 2, 0], [3.5, 6, 0]]
    vel_max: [1, 1]
    vel_min: [-1, -1]
    sensors:
      - {type: lidar2d, range_min: 0, range_max: 4, angle_range: 6.283, number: 8}
"""


@pytest.fixture
def pair_world(tmp_path):
    path = tmp_path / f"pair_{os.getpid()}.yaml"
    path.write_text(PAIR_WORLD)
    return str(path)


def steer(obs):
    """A proportional controller on goal_polar (distance, bearing): normalized [v, w]."""
    distance, bearing = obs[:2]
    return np.clip([distance, 2 * bearing], -1, 1).astype(np.float32)


# -- PettingZoo's own tests ------------------------------------------------------------------


def test_pettingzoo_api_and_seed_tests_pass():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the tests report problems as warnings
        parallel_api_test(ubot.pettingzoo.parallel_env(world=SWAP, max_steps=80),
                          num_cycles=200)
        parallel_seed_test(lambda: ubot.pettingzoo.parallel_env(world=SWAP, max_steps=80))
        api_test(ubot.pettingzoo.env(world=SWAP, max_steps=80), num_cycles=200)
        parallel_api_test(ubot.pettingzoo.parallel_env(
            world=SWAP, max_steps=50, normalize=True,
            observations=("lidar", "goal", "neighbors", "flags", "clearance")), num_cycles=100)


def test_agents_are_the_robots_with_their_own_spaces():
    env = ubot.pettingzoo.parallel_env(world=SWAP)
    assert env.possible_agents == AGENTS
    obs, infos = env.reset(seed=0)
    assert env.agents == AGENTS and set(obs) == set(infos) == set(AGENTS)
    for a in AGENTS:
        assert obs[a].shape == (16 + 2 + 2,) and obs[a] in env.observation_space(a)
        assert env.action_space(a).shape == (2,)
    np.testing.assert_allclose(obs["robot_0"][16:18], [math.hypot(6, 6), 0.0], atol=1e-3)
    assert env.state().shape == (12,) and env.state() in env.state_space


# -- agents leave ----------------------------------------------------------------------------


def test_an_agent_that_collides_leaves_and_its_actions_are_refused():
    env = UbotParallelEnv(SWAP, reward_weights={"collision": -10.0})
    env.reset(seed=0)
    # robot_0 drives straight at the pillar at (4, 4); the others stand.
    actions = {a: np.zeros(2, np.float32) for a in AGENTS}
    actions["robot_0"] = np.array([1, 0], np.float32)
    for _ in range(60):
        obs, rewards, terms, truncs, infos = env.step(actions)
        if terms["robot_0"]:
            break
    assert terms["robot_0"] and not infos["robot_0"]["is_success"]
    assert rewards["robot_0"] == -10.0 and env.sim.object("robot_0").collision
    assert env.agents == AGENTS[1:] and set(obs) == set(AGENTS)
    with pytest.raises(ValueError, match=r"robot_0.*no longer in the episode \(collided at "
                                         r"step \d+\)"):
        env.step(actions)
    del actions["robot_0"]
    obs, rewards, terms, *_ = env.step(actions)  # the others go on
    assert set(obs) == set(rewards) == set(terms) == set(AGENTS[1:])


def test_agents_that_arrive_leave_and_the_episode_ends(pair_world):
    env = UbotParallelEnv(pair_world, observations=("goal_polar",),
                          reward_weights={"arrival": 5.0})
    obs, _ = env.reset(seed=0)
    arrived = {}
    for step in range(100):
        obs, rewards, terms, truncs, infos = env.step({a: steer(obs[a]) for a in env.agents})
        for a, done in terms.items():
            if done:
                assert infos[a]["is_success"] and rewards[a] == 5.0
                arrived[a] = step
        if not env.agents:
            break
    assert set(arrived) == {"robot_0", "robot_1"} and not env.agents
    assert arrived["robot_0"] == arrived["robot_1"]  # the same task, side by side
    obs, _ = env.reset()
    assert env.agents == ["robot_0", "robot_1"]


def test_max_steps_truncates_every_agent_left(pair_world):
    env = UbotParallelEnv(pair_world, max_steps=4)
    env.reset(seed=0)
    for _ in range(4):
        _, _, terms, truncs, _ = env.step({a: np.zeros(2, np.float32) for a in env.agents})
    assert truncs == {"robot_0": True, "robot_1": True} and not any(terms.values())
    assert env.agents == []


# -- observations and rewards -----------------------------------------------------------------


def test_neighbours_are_the_nearest_robots_in_the_robot_frame():
    env = UbotParallelEnv(SWAP, observations=("neighbors",), observation_options={
        "neighbors": 2})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(15):
        obs, *_ = env.step({a: rng.uniform(-1, 1, 2).astype(np.float32) for a in env.agents})
    states = {a: env.sim.object(a).state for a in AGENTS}
    for a in env.agents:
        x, y, yaw = states[a]
        others = sorted((math.hypot(s[0] - x, s[1] - y), b) for b, s in states.items() if b != a)
        expected = []
        for _, b in others[:2]:
            dx, dy = states[b][0] - x, states[b][1] - y
            expected += [math.cos(yaw) * dx + math.sin(yaw) * dy,
                         -math.sin(yaw) * dx + math.cos(yaw) * dy,
                         math.remainder(states[b][2] - yaw, 2 * math.pi), 1.0]
        np.testing.assert_allclose(obs[a], expected, atol=1e-4)


def test_reward_fn_sees_every_robot_once_per_step():
    calls = []

    def reward_fn(ctx):
        calls.append(ctx)
        assert ctx.state.shape == (1, 4, 3) and ctx.robot_names == AGENTS
        return ctx.terms["progress"] * 100 + np.arange(4)  # (1, 4): per robot

    env = UbotParallelEnv(SWAP, reward_fn=reward_fn)
    env.reset(seed=0)
    before = {a: env.sim.object(a).state[:2] for a in AGENTS}
    actions = {a: np.array([0.5 * (i % 2), 0], np.float32) for i, a in enumerate(AGENTS)}
    _, rewards, *_ = env.step(actions)
    assert len(calls) == 1
    goals = {"robot_0": (7, 7), "robot_1": (1, 1), "robot_2": (7, 1), "robot_3": (1, 7)}
    for i, a in enumerate(AGENTS):
        now = env.sim.object(a).state[:2]
        progress = math.dist(before[a], goals[a]) - math.dist(now, goals[a])
        assert rewards[a] == pytest.approx(100 * progress + i, abs=1e-3)
    assert rewards["robot_1"] > 4 and rewards["robot_0"] == pytest.approx(0, abs=1e-3)


# -- the vectorised form ----------------------------------------------------------------------


def test_vector_parallel_env_matches_the_parallel_env():
    kwargs = dict(observations=("lidar", "goal_polar", "neighbors"), max_steps=30,
                  reward_weights={"progress": 1, "collision": -3, "time": -0.05})
    vec = VectorParallelEnv(SWAP, num_envs=3, **kwargs)
    par = UbotParallelEnv(SWAP, **kwargs)
    vobs, vinfo = vec.reset(seed=4)
    pobs, _ = par.reset(seed=4)
    assert vobs.shape == (3, 4, 16 + 2 + 12) and vinfo["active"].all()
    np.testing.assert_array_equal(vobs[0], np.stack([pobs[a] for a in AGENTS]))
    rng = np.random.default_rng(2)
    resets = 0
    for _ in range(70):
        actions = rng.uniform(-1, 1, (3, 4, 2)).astype(np.float32)
        live = list(par.agents)
        assert live == [a for a, on in zip(AGENTS, vinfo["active"][0]) if on]
        vobs, vrew, vterm, vtrunc, vinfo = vec.step(actions)
        pobs, prew, pterm, ptrunc, _ = par.step({a: actions[0, AGENTS.index(a)] for a in live})
        ended = not par.agents  # then the vector env reset env 0 within this step
        assert bool(vinfo.get("_final_obs", np.zeros(3, bool))[0]) == ended
        seen = vinfo["final_obs"][0] if ended else vobs[0]
        for a in live:
            i = AGENTS.index(a)
            np.testing.assert_array_equal(seen[i], pobs[a])
            assert vrew[0, i] == pytest.approx(prew[a], abs=1e-9)
            assert (vterm[0, i], vtrunc[0, i]) == (pterm[a], ptrunc[a])
        if ended:
            resets += 1
            pobs, _ = par.reset()
            np.testing.assert_array_equal(vobs[0], np.stack([pobs[a] for a in AGENTS]))
    assert resets >= 1


# -- bad input --------------------------------------------------------------------------------


def test_bad_actions_name_what_is_wrong():
    env = UbotParallelEnv(SWAP)
    env.reset(seed=0)
    ok = {a: np.zeros(2, np.float32) for a in AGENTS}
    cases = [
        ([np.zeros(2)] * 4, TypeError, "dict"),
        ({**ok, "robot_9": np.zeros(2)}, ValueError, "robot_9.*not an agent"),
        ({a: ok[a] for a in AGENTS[:3]}, ValueError, r"no action for the live agents \['robot_3"),
        ({**ok, "robot_1": np.array([np.nan, 0])}, ValueError, "robot_1 holds NaN"),
        ({**ok, "robot_1": np.array([np.inf, 0])}, ValueError, "NaN or infinite"),
        ({**ok, "robot_2": np.zeros(3)}, ValueError, "robot_2 must have shape"),
        ({**ok, "robot_2": np.array([1.5, 0])}, ValueError, "outside the action space"),
        ({**ok, "robot_3": np.array(["a", "b"])}, TypeError, "dtype"),
    ]
    before = env.state().copy()
    for actions, error, match in cases:
        with pytest.raises(error, match=match):
            env.step(actions)
    np.testing.assert_array_equal(env.state(), before)  # nothing stepped
    env.step(ok)
    vec = VectorParallelEnv(SWAP, num_envs=2)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2, 4, 2\)"):
        vec.step(np.zeros((2, 3, 2)))
    with pytest.raises(ValueError, match="NaN"):
        vec.step(np.full((2, 4, 2), np.nan))
    vec.step(np.zeros((2, 4, 2)))


def test_bad_reward_fn_raises_and_reset_recovers():
    broken = [True]

    def reward_fn(ctx):
        return np.zeros((2, 2)) if broken[0] else 1.0

    env = UbotParallelEnv(SWAP, reward_fn=reward_fn)
    env.reset(seed=0)
    zeros = {a: np.zeros(2, np.float32) for a in AGENTS}
    with pytest.raises(ValueError, match=r"reward_fn returned shape \(2, 2\)"):
        env.step(zeros)
    with pytest.raises(ValueError, match="reset"):
        env.step(zeros)
    broken[0] = False
    env.reset(seed=0)
    assert env.step(zeros)[1] == dict.fromkeys(AGENTS, 1.0)
    with pytest.raises(ValueError, match="unknown or repeated"):
        UbotParallelEnv(SWAP, observations=("lidar", "lidar"))
    with pytest.raises(ValueError, match="randomize"):
        UbotParallelEnv(SWAP, randomize={"robots": ["robot_7"]})


def test_randomized_reset_is_seeded():
    env = UbotParallelEnv(SWAP, randomize={"robots": True, "goals": True, "margin": 0.2})
    a = env.reset(seed=3)[0]
    states = env.state().copy()
    b = env.reset(seed=3)[0]
    np.testing.assert_array_equal(env.state(), states)
    for x in AGENTS:
        np.testing.assert_array_equal(a[x], b[x])
        for y in AGENTS:
            if x < y:
                assert env.sim.clearance(x, y) >= 0.2
    env.reset(seed=4)
    assert not np.allclose(env.state(), states)
