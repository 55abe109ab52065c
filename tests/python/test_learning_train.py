"""examples/learning/train_nav.py (docs/learning.md): a tiny PPO budget on the navigation
world makes the policy's return better than the untrained policy's, on evaluation episodes
whose seeds training never used (fixed seeds throughout)."""

import os
import sys

import pytest

pytest.importorskip("stable_baselines3")  # torch is not available on every interpreter

from conftest import SOURCE_DIR  # noqa: E402

sys.path.insert(0, os.path.join(SOURCE_DIR, "examples", "learning"))
import train_nav  # noqa: E402


def test_a_short_training_improves_the_return():
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    untrained = PPO("MlpPolicy", make_vec_env("ubot/World-v0", n_envs=1, seed=0,
                                              env_kwargs=train_nav.ENV_KWARGS), seed=0,
                    device="cpu")
    base_success, base_return = train_nav.evaluate(untrained, 10)
    model = train_nav.train(16_000, envs=8, seed=0)
    success, mean_return = train_nav.evaluate(model, 10)
    assert mean_return > base_return + 3.0, (mean_return, base_return)
    assert success >= base_success
