"""Issue 51: Python messages quote a long value as the CLI does (its first 64 characters and its
length), never echoing a name of megabytes whole."""
import re

import numpy as np
import pytest
from conftest import WALL_WORLD

import ubot
from ubot._quote import quote

HUGE = "x" * 5_000_000


def short(excinfo):
    message = str(excinfo.value)
    assert len(message) < 400, len(message)
    # The native module counts the UTF-8 bytes it holds, Python the characters: both give the length.
    assert re.search(r"\.\.\.' \(5000000 (bytes|characters)\)", message), message
    return message


def test_quote_matches_the_cli_rule():
    assert quote("robot_0") == "'robot_0'"
    assert quote("k" * 65) == "'" + "k" * 64 + "...' (65 characters)"
    assert quote(3.5) == "3.5"
    assert quote(list(range(1000))).endswith("characters of repr)")


def test_the_modules_messages_quote_long_names(tmp_path):
    world = tmp_path / "w.yaml"
    world.write_text(WALL_WORLD)
    sim = ubot.Simulation(world)
    with pytest.raises(ValueError) as e:
        sim.object(HUGE)
    assert short(e).startswith("no object named 'xxxx")
    with pytest.raises(ValueError) as e:
        sim.sensor(0, HUGE)
    short(e)
    with pytest.raises(ValueError) as e:
        ubot.VectorEnv(world, num_envs=1, observations=[HUGE])
    short(e)
    with pytest.raises(TypeError) as e:
        ubot.VectorEnv(world, num_envs=HUGE)
    short(e)


def test_the_learning_layers_quote_long_names(tmp_path):
    world = tmp_path / "w.yaml"
    world.write_text(WALL_WORLD)
    import ubot.gym
    import ubot.pettingzoo

    with pytest.raises(ValueError) as e:
        ubot.gym.UbotEnv(world, robot=HUGE)
    short(e)
    env = ubot.pettingzoo.UbotParallelEnv(world)
    env.reset(seed=0)
    with pytest.raises(ValueError) as e:
        env.step({HUGE: np.zeros(2)})
    short(e)
