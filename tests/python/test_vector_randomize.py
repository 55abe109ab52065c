"""Randomised resets in the C++ vector core (issue 50): starts, goals and obstacles placed anew
at every episode's start, seeded by the episode's world seed, non-overlapping, and failing with
a message that names the env, the episode and the object. One definition
(ubot/sim/random_placement.h) serves ubot.VectorEnv, UbotVectorEnv, VectorParallelEnv and the
single envs."""
import math
import os

import numpy as np
import pytest

import ubot
from ubot.gym import UbotEnv, UbotVectorEnv
from ubot.pettingzoo import UbotParallelEnv, VectorParallelEnv

SWAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "learning",
                    "swap4.yaml")
AGENTS = ["robot_0", "robot_1", "robot_2", "robot_3"]
RADIUS = 0.3  # every robot of swap4.yaml
PILLAR = (4.0, 4.0, 0.5)  # its circular obstacle
SPEC = {"robots": True, "goals": True, "margin": 0.2}


def vector(num_envs=16, **kwargs):
    return ubot.VectorEnv(SWAP, num_envs=num_envs, observations=("state", "goal"),
                          randomize=kwargs.pop("randomize", SPEC), **kwargs)


def check_placed(state, goal, margin=0.2):
    """Inside the 8 x 8 room, apart from each other and from the pillar by the margin, each goal
    at least 1 m (min_goal_distance) from its start."""
    for r in range(len(AGENTS)):
        x, y = state[r, 0], state[r, 1]
        assert RADIUS <= x <= 8 - RADIUS and RADIUS <= y <= 8 - RADIUS
        assert math.hypot(x - PILLAR[0], y - PILLAR[1]) >= RADIUS + PILLAR[2] + margin - 1e-9
        assert math.hypot(goal[r, 0] - x, goal[r, 1] - y) >= 1.0
        for s in range(r):
            assert math.hypot(x - state[s, 0], y - state[s, 1]) >= 2 * RADIUS + margin - 1e-9
            assert math.hypot(goal[r, 0] - goal[s, 0], goal[r, 1] - goal[s, 1]) >= \
                2 * RADIUS + margin - 1e-9


def test_every_env_starts_somewhere_else_apart_and_in_the_room():
    envs = vector()
    obs, _ = envs.reset(seed=1)
    state, goal = obs["state"].astype(float), obs["goal"].astype(float)
    for i in range(envs.num_envs):
        check_placed(state[i], goal[i])
    starts = {tuple(np.round(state[i, 0, :2], 4)) for i in range(envs.num_envs)}
    assert len(starts) == envs.num_envs  # every env drew its own
    # Not the world's own corners any more.
    assert not np.allclose(state[:, 0, :2], [1, 1], atol=1e-3)


def test_placements_are_seeded_and_new_each_episode():
    a = vector(threads=1).reset(seed=5)[0]["state"].copy()
    b = vector(threads=2).reset(seed=5)[0]["state"].copy()
    np.testing.assert_array_equal(a, b)  # the seed decides, not the threads
    c = vector().reset(seed=6)[0]["state"]
    assert not np.allclose(a, c)
    envs = vector(num_envs=2, max_steps=3)
    first = envs.reset(seed=5)[0]["state"].copy()
    np.testing.assert_array_equal(first, a[:2])
    still = np.zeros((2, 4, 2))
    for _ in range(2):
        envs.step(still)
    obs, _, terminated, truncated, info = envs.step(still)  # truncated: auto-reset
    assert truncated.all() and not terminated.any()
    assert info["_final_obs"].all()
    np.testing.assert_allclose(info["final_obs"][0]["state"][:, :2], first[0, :, :2], atol=1e-6)
    assert not np.allclose(obs["state"], first)  # episode 1 placed anew
    for i in range(2):
        check_placed(obs["state"][i].astype(float), obs["goal"][i].astype(float))


def test_a_single_env_places_as_the_vector_core_places_env_zero():
    """The one seed rule: UbotEnv's episode k is env 0's episode k, placement included."""
    single = UbotEnv(SWAP, robot="robot_0", randomize=SPEC, flatten=False)
    single.reset(seed=9)
    core = UbotVectorEnv(3, SWAP, robot="robot_0", randomize=SPEC, flatten=False)
    core.reset(seed=9)
    vec = vector(num_envs=3)
    obs = vec.reset(seed=9)[0]
    for r, name in enumerate(AGENTS):
        o = single.unwrapped.sim.object(name)
        np.testing.assert_allclose(obs["state"][0, r], o.state[:3], atol=1e-5)
        np.testing.assert_allclose(obs["goal"][0, r, :2], o.goals[0][:2], atol=1e-5)
    # The Gymnasium and PettingZoo vector forms run the same core: their frames agree.
    np.testing.assert_allclose(core._frame.state, obs["state"], atol=1e-6)
    vpar = VectorParallelEnv(SWAP, 3, randomize=SPEC)
    vpar.reset(seed=9)
    np.testing.assert_allclose(vpar._frame.state, obs["state"], atol=1e-6)
    np.testing.assert_allclose(vpar._frame.goal[..., :2], obs["goal"][..., :2], atol=1e-6)
    parallel = UbotParallelEnv(SWAP, randomize=SPEC)
    parallel.reset(seed=9)
    np.testing.assert_allclose(parallel.state().reshape(4, 3), obs["state"][0], atol=1e-5)


def test_obstacles_move_too_and_stay_clear():
    envs = ubot.VectorEnv(SWAP, num_envs=8, observations=("state",),
                          randomize={"obstacles": True, "robots": True, "margin": 0.1})
    envs.reset(seed=2)
    # The pillar (object 4) is not where the world put it in most envs: read it through a
    # Simulation placed by the same rule.
    sim = ubot.Simulation(SWAP)
    from ubot._learning import resets
    from ubot._learning.frames import read_layout

    spec = resets.check_randomize({"obstacles": True, "robots": True, "margin": 0.1},
                                  read_layout(sim, None))
    moved = 0
    for episode_seed in (envs.episode_seed(i) for i in range(8)):
        sim.reset(episode_seed)
        resets.randomize(sim, spec, resets.randomize_seed(episode_seed))
        for name in sim.object_names:
            clear = sim.min_clearance(name)
            assert math.isnan(clear) or clear >= 0.1 - 1e-9
        moved += not np.allclose(sim.object("obstacle_4").state[:2], [4, 4])
    assert moved == 8


def test_no_room_is_a_value_error_naming_env_episode_and_object():
    with pytest.raises(ValueError, match=r"env \d+ episode 0: randomize: no free place for "
                                         r"robot_\d in 50 tries"):
        vector(randomize={"robots": True, "margin": 0.2, "region": [0, 2, 0, 2],
                          "tries": 50}).reset(seed=0)
    with pytest.raises(ValueError, match=r"robot_0 \(radius 0.3 m\) does not fit"):
        vector(randomize={"robots": ["robot_0"], "region": [0, 0.5, 0, 8]}).reset(seed=0)
    with pytest.raises(ValueError, match="unknown names"):
        vector(randomize={"robots": ["robot_9"]})


@pytest.mark.parametrize("bad, match", [
    ({"robots": True, "tries": 0}, r"tries'\] must be an int from 1 to 1000000"),
    ({"robots": True, "tries": 10**12}, "tries"),
    ({"robots": True, "tries": 2.5}, "tries"),
    ({"robots": True, "margin": float("nan")}, r"margin'\] must be a finite number >= 0"),
    ({"robots": True, "min_goal_distance": -1}, "min_goal_distance"),
    ({"robots": True, "region": [0, float("inf"), 0, 8]}, "region"),
])
def test_a_bad_spec_is_refused_before_any_env_runs(bad, match):
    with pytest.raises(ValueError, match=match):
        vector(randomize=bad)
    with pytest.raises(ValueError, match=match):
        UbotEnv(SWAP, randomize=bad)


def test_reset_without_a_seed_starts_the_next_episodes_in_every_class():
    """The Runner's one seed rule: after reset(seed=S), reset() starts every env's next
    episode, the same for the same S (VectorParallelEnv drew a fresh seed each time before)."""
    runs = []
    for _ in range(2):
        vpar = VectorParallelEnv(SWAP, 2, randomize=SPEC)
        vpar.reset(seed=3)
        first = vpar._frame.state.copy()
        vpar.reset()
        runs.append((first, vpar._frame.state.copy()))
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    assert not np.allclose(runs[0][0], runs[0][1])
    core = UbotVectorEnv(2, SWAP, randomize=SPEC)
    core.reset(seed=3)
    core.reset()
    np.testing.assert_array_equal(core._frame.state, runs[0][1])
