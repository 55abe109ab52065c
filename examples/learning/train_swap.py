"""Trains one Stable-Baselines3 PPO policy shared by the four robots of the swap task
(tests/data/learning/swap4.yaml: four robots swap corners past a pillar; docs/learning.md),
on ubot.pettingzoo.VectorParallelEnv, then measures the share of robots that arrive over 100
evaluation episodes whose seeds training never used. Every episode, training and evaluation,
starts the four robots and their goals at random places (``randomize``, placed by the C++
vector core: seeded, non-overlapping); ``--fixed`` keeps the world's corners instead.

    build/venv/bin/python examples/learning/train_swap.py --timesteps 2000000

Parameter sharing: SwapVecEnv below shows SB3 every (env, agent) pair as one of its envs, so
one policy acts for all agents from each agent's own observation (its lidar, its goal, its
neighbours). An agent that arrived or collided is done for SB3; its slot then waits, standing
and with reward 0, until its env restarts (when no agent is left in it).
"""

import argparse
import os
import time

import numpy as np
from gymnasium.spaces import Box
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import VecEnv

from ubot.pettingzoo import UbotParallelEnv, VectorParallelEnv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORLD = os.path.join(ROOT, "tests", "data", "learning", "swap4.yaml")
KWARGS = dict(observations=("lidar", "goal_polar", "velocity", "neighbors"), normalize=True,
              reward_weights={"progress": 1.0, "arrival": 10.0, "collision": -10.0,
                              "time": -0.01}, max_steps=200)
# Starts and goals anywhere in the room, 0.3 m clear of everything, each goal 3 m from its start.
RANDOMIZE = {"robots": True, "goals": True, "margin": 0.3, "min_goal_distance": 3.0}
EVAL_SEED = 1_000_000


class SwapVecEnv(VecEnv):
    """SB3's VecEnv over VectorParallelEnv: num_envs * n_agents slots, one per agent."""

    def __init__(self, num_envs, seed=0, randomize=None):
        self.venv = VectorParallelEnv(WORLD, num_envs, randomize=randomize, **KWARGS)
        self.agents = len(self.venv.possible_agents)
        space = self.venv.single_observation_spaces[self.venv.possible_agents[0]]
        action = self.venv.single_action_spaces[self.venv.possible_agents[0]]
        super().__init__(num_envs * self.agents, Box(space.low, space.high, dtype=np.float32),
                         action)
        self._seed, self._actions = seed, None

    def reset(self):
        obs, info = self.venv.reset(seed=self._seed)
        self._active = info["active"]
        return obs.reshape(self.num_envs, -1)

    def step_async(self, actions):
        self._actions = np.clip(actions, -1, 1).reshape(-1, self.agents, 2)

    def step_wait(self):
        was_active = self._active
        obs, rewards, terms, truncs, info = self.venv.step(self._actions)
        ended = info.get("_final_obs", np.zeros(len(obs), bool))
        last = np.where(ended[:, None, None], info.get("final_obs", obs), obs)
        done = (terms | truncs) & was_active
        infos = []
        for e in range(len(obs)):
            for a in range(self.agents):
                entry = {}
                if done[e, a]:
                    entry = {"terminal_observation": last[e, a],
                             "TimeLimit.truncated": bool(truncs[e, a]),
                             "is_success": bool(info["is_success"][e, a])}
                infos.append(entry)
        self._active = info["active"]
        return (obs.reshape(self.num_envs, -1), rewards.reshape(-1).astype(np.float32),
                done.reshape(-1), infos)

    def close(self):
        pass

    def get_attr(self, name, indices=None):
        return [getattr(self, name, None)] * len(self._indices(indices))

    def set_attr(self, name, value, indices=None):
        setattr(self, name, value)

    def env_method(self, name, *args, indices=None, **kwargs):
        return [None] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def seed(self, seed=None):
        self._seed = seed
        return [seed] * self.num_envs

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else indices


def evaluate(model, episodes=100, first_seed=EVAL_SEED, gif_dir=None, randomize=None):
    """(share of robots that arrive, share of episodes where all four do) over ``episodes``
    episodes of the parallel env; with ``gif_dir``, the first is recorded there as run.gif."""
    env = UbotParallelEnv(WORLD, randomize=randomize, **KWARGS)
    arrived, all_arrived = 0, 0
    for i in range(episodes):
        obs, _ = env.reset(seed=first_seed + i)
        if gif_dir and i == 0:
            env.sim.record(gif_dir, frames=False, picture=False, gif=True, sensor_files=False)
        here = 0
        while env.agents:
            actions = {a: model.predict(obs[a], deterministic=True)[0] for a in env.agents}
            obs, _, terms, _, infos = env.step(actions)
            here += sum(infos[a]["is_success"] for a in terms if terms[a])
        arrived += here
        all_arrived += here == len(env.possible_agents)
    env.close()  # finishes run.gif
    return arrived / (episodes * len(env.possible_agents)), all_arrived / episodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=400_000, help="agent-steps")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="out/learning/swap")
    parser.add_argument("--episodes", type=int, default=100, help="evaluation episodes")
    parser.add_argument("--fixed", action="store_true", help="the world's own starts and goals")
    args = parser.parse_args()
    randomize = None if args.fixed else RANDOMIZE
    os.makedirs(args.out, exist_ok=True)
    start = time.perf_counter()
    model = PPO("MlpPolicy", SwapVecEnv(args.envs, args.seed, randomize), n_steps=128,
                batch_size=512,
                seed=args.seed, verbose=0, device="cpu")
    model.learn(total_timesteps=args.timesteps)
    wall = time.perf_counter() - start
    model.save(os.path.join(args.out, "ppo_swap"))
    print(f"trained {args.timesteps} agent-steps in {wall:.0f} s")
    count = 1 if args.fixed else args.episodes  # fixed starts, no noise: every episode alike
    robots, episodes = evaluate(model, count, gif_dir=args.out, randomize=randomize)
    print(f"over {count} unseen episodes: {robots:.1%} of the robots arrive, all four in "
          f"{episodes:.0%} of the episodes (the first: {args.out}/run.gif)")


if __name__ == "__main__":
    main()
