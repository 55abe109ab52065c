"""Trains Stable-Baselines3 PPO to drive a robot to random goals among obstacles
(examples/learning/nav.yaml, docs/learning.md), then measures its success rate over
evaluation episodes whose seeds training never used, and records one of them as a GIF.

    build/venv/bin/python examples/learning/train_nav.py --timesteps 300000 --out out/nav

The environment is ubot.gym's UbotEnv ("ubot/World-v0") with random starts and goals at every
reset; SB3 steps --envs copies of it in its DummyVecEnv.
"""

import argparse
import os
import time

import gymnasium
import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env

import ubot.gym  # noqa: F401  registers "ubot/World-v0"

HERE = os.path.dirname(os.path.abspath(__file__))
WORLD = os.path.join(HERE, "nav.yaml")
ENV_KWARGS = dict(
    world=WORLD, observations=("lidar", "goal_polar", "velocity"), normalize=True,
    reward_weights={"progress": 1.0, "arrival": 10.0, "collision": -10.0, "time": -0.01},
    max_steps=300, randomize={"robots": True, "goals": True, "margin": 0.3,
                              "min_goal_distance": 3.0, "region": [0.5, 9.5, 0.5, 9.5]})
EVAL_SEED = 1_000_000  # evaluation episodes use seeds from here; training uses 0 .. --envs


def train(timesteps, envs, seed, **kwargs):
    venv = make_vec_env("ubot/World-v0", n_envs=envs, seed=seed,
                        env_kwargs=dict(ENV_KWARGS, **kwargs))
    model = PPO("MlpPolicy", venv, n_steps=256, batch_size=256, learning_rate=3e-4,
                gamma=0.99, seed=seed, verbose=0, device="cpu")
    model.learn(total_timesteps=timesteps)
    return model


def evaluate(model, episodes, first_seed=EVAL_SEED, **kwargs):
    """(success rate, mean return) over ``episodes`` episodes, seeds first_seed + i;
    ``model=None`` is a baseline that stands still (the action of a zero command)."""
    env = gymnasium.make("ubot/World-v0", **dict(ENV_KWARGS, **kwargs))
    low, high = env.unwrapped.layout.vel_min[0], env.unwrapped.layout.vel_max[0]
    stand = (-(low + high) / (high - low)).astype(np.float32)  # [-1, 1] -> [low, high]
    successes, returns = 0, []
    for i in range(episodes):
        obs, _ = env.reset(seed=first_seed + i)
        total, done = 0.0, False
        while not done:
            action = stand if model is None else \
                model.predict(obs, deterministic=True)[0]
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        successes += bool(info["is_success"])
        returns.append(total)
    env.close()
    return successes / episodes, float(np.mean(returns))


def record_gif(model, out, seed=EVAL_SEED):
    env = ubot.gym.UbotEnv(**ENV_KWARGS)
    obs, _ = env.reset(seed=seed)
    env.sim.record(out, frames=False, picture=False, gif=True, sensor_files=False)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(model.predict(obs, deterministic=True)[0])
        done = terminated or truncated
    env.close()  # finishes run.gif
    return os.path.join(out, "run.gif")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--episodes", type=int, default=100, help="evaluation episodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="out/learning/nav")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    start = time.perf_counter()
    model = train(args.timesteps, args.envs, args.seed)
    wall = time.perf_counter() - start
    model.save(os.path.join(args.out, "ppo_nav"))
    success, mean_return = evaluate(model, args.episodes)
    base_success, base_return = evaluate(None, args.episodes)
    gif = record_gif(model, args.out)
    print(f"trained {args.timesteps} env-steps in {wall:.0f} s "
          f"({args.timesteps / wall:.0f} env-steps/s)")
    print(f"success over {args.episodes} unseen episodes: {success:.0%} (mean return "
          f"{mean_return:.2f}; standing still: {base_success:.0%}, {base_return:.2f})")
    print(f"model {args.out}/ppo_nav.zip, one episode {gif}")


if __name__ == "__main__":
    main()
