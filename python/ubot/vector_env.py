"""ubot.VectorEnv: N copies of a world stepped together in C++ threads (docs/python.md).

Gymnasium's vector-env conventions: ``reset(seed=None) -> (obs, info)``, ``step(actions) ->
(obs, reward, terminated, truncated, info)``, per-env auto-reset in the same step (the final
observation of an env that ended is ``info["final_observation"]``, masked by
``info["_final_observation"]``). A subclass of ``gymnasium.vector.VectorEnv`` with its spaces when
Gymnasium is importable; a plain class otherwise.

The observation is a dict of arrays the environment owns and rewrites on every ``reset`` / ``step``
(no allocation per step): copy what you keep.
"""

import os

import numpy as np

from ubot import _core

try:  # Gymnasium is optional (not in Debian 12).
    import gymnasium as _gym
    from gymnasium import spaces as _spaces

    _Base = _gym.vector.VectorEnv
except ImportError:  # pragma: no cover - depends on the machine
    _gym = None
    _spaces = None
    _Base = object

DEFAULT_OBSERVATIONS = ("lidar", "state", "goal", "flags")


class VectorEnv(_Base):
    """``num_envs`` independent simulations of the world file ``world``.

    Actions: float array (num_envs, n_robots, 2), each robot's velocity command in its
    kinematics frame (diff [v, w], omni [vx, vy], acker [v, steer]), clipped to its limits.
    Observations (``observations=``, any of): ``lidar`` (num_envs, n_robots, beams) float32
    ranges of each robot's lidar2d (``lidar=`` names it; default its first), ``state``
    (…, 3) float32 x, y, yaw, ``goal`` (…, 3) float32 current goal (the state when it has none),
    ``flags`` (…, 3) bool arrive, collision, stop, ``velocity`` (…, 2) float32 last command.
    Reward per env: the sum over robots of the distance gained towards the goal each had at the
    step's start, + ``arrive_reward`` on the step a robot arrives, - ``collision_penalty`` on the
    step a robot starts colliding. ``terminated``: every robot arrived or stopped (IR-SIM's
    done), or any robot collides; ``truncated``: ``max_steps`` steps without termination.
    Env i's episode k runs with world seed ``stream_seed(seed, "vector_env/<i>/<k>")``.
    """

    metadata = {"autoreset_mode": "same-step"}

    def __init__(self, world, num_envs, seed=0, threads=0, max_steps=1000,
                 observations=DEFAULT_OBSERVATIONS, lidar="", auto_reset=True,
                 arrive_reward=1.0, collision_penalty=1.0):
        self._env = _core._VectorEnv(os.fspath(world), int(num_envs), seed=int(seed),
                                     threads=int(threads), max_steps=int(max_steps),
                                     observations=list(observations), lidar=lidar,
                                     auto_reset=bool(auto_reset),
                                     arrive_reward=float(arrive_reward),
                                     collision_penalty=float(collision_penalty))
        self.num_envs = self._env.num_envs
        self.robot_names = self._env.robot_names
        self.action_low = self._env.action_low
        self.action_high = self._env.action_high
        if _spaces is not None:
            self._make_spaces()

    def _make_spaces(self):
        r = self._env.num_robots
        inf = np.float32(np.inf)
        boxes = {}
        for name in self._env.observations:
            if name == "lidar":
                high = np.repeat(np.array(self._env.lidar_range_max, np.float32)[:, None],
                                 self._env.beams, axis=1)
                boxes[name] = _spaces.Box(0, high, dtype=np.float32)
            elif name == "flags":
                boxes[name] = _spaces.MultiBinary((r, 3))
            else:
                width = 2 if name == "velocity" else 3
                boxes[name] = _spaces.Box(-inf, inf, (r, width), np.float32)
        self.single_observation_space = _spaces.Dict(boxes)
        self.single_action_space = _spaces.Box(self.action_low, self.action_high,
                                               dtype=np.float64)
        batch = _gym.vector.utils.batch_space
        self.observation_space = batch(self.single_observation_space, self.num_envs)
        self.action_space = batch(self.single_action_space, self.num_envs)

    @property
    def seed(self):
        """The base seed every episode's world seed derives from."""
        return self._env.seed

    @property
    def max_steps(self):
        return self._env.max_steps

    def reset(self, *, seed=None, options=None):
        """Every env back to step 0 (with base seed ``seed`` when given): ``(obs, info)``."""
        del options  # Gymnasium's signature; nothing to configure
        return self._env.reset(None if seed is None else int(seed)), {}

    def step(self, actions):
        """``(obs, reward, terminated, truncated, info)``; the arrays are rewritten next call."""
        return self._env.step(actions)

    def episode_seed(self, env):
        """The world seed of env ``env``'s current episode."""
        return self._env.episode_seed(env)

    def episode(self, env):
        """How many times env ``env`` was auto-reset since the last reset()."""
        return self._env.episode(env)

    def close(self, **kwargs):
        del kwargs

    def __repr__(self):
        return f"<ubot.VectorEnv {self.num_envs} x {self.robot_names}>"
