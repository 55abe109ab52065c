"""ubot.VectorEnv: N copies of a world stepped together in C++ threads (docs/python.md).

Gymnasium 1.x's vector-env conventions: ``num_envs``, ``single_observation_space`` /
``observation_space``, ``single_action_space`` / ``action_space``, ``metadata["autoreset_mode"]``,
``reset(seed=None, options=None) -> (obs, info)``, ``step(actions) -> (obs, reward, terminated,
truncated, info)``. Auto-reset is Gymnasium's same-step mode: an env that ended is reset in the
same step, its last observation in ``info["final_obs"]`` (masked by ``info["_final_obs"]``).
With ``auto_reset=False`` the mode is DISABLED: ``reset(options={"reset_mask": mask})`` resets
the chosen envs. A subclass of ``gymnasium.vector.VectorEnv`` with Gymnasium's spaces: Gymnasium
is the optional dependency ``ubot[gym]``, imported when ``ubot.VectorEnv`` is first used.

The observation is a dict of arrays the environment owns and rewrites on every ``reset`` / ``step``
(no allocation per step): copy what you keep.
"""

import os

import numpy as np

from ubot import _core
from ubot._quote import quote

try:
    import gymnasium
    from gymnasium.spaces import Box, Dict
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # ubot without the extra: say what to install
    raise ImportError("ubot.VectorEnv needs Gymnasium, which is not installed: "
                      "pip install 'ubot[gym]' (or pip install gymnasium)") from error

DEFAULT_OBSERVATIONS = ("lidar", "state", "goal", "flags")


def _state_bytes(start_state):
    """`start_state` (None, a state file's path, its bytes, or anything with ``to_bytes()``
    such as a ``ubot.Snapshot``) as bytes; b"" for None."""
    if start_state is None:
        return b""
    if isinstance(start_state, (bytes, bytearray, memoryview)):
        return bytes(start_state)
    if hasattr(start_state, "to_bytes"):
        return bytes(start_state.to_bytes())
    if isinstance(start_state, (str, os.PathLike)):
        with open(start_state, "rb") as f:
            return f.read()
    raise TypeError("VectorEnv: start_state must be None, a state file's path, its bytes or a "
                    f"ubot.Snapshot, got {type(start_state).__name__}")


def _whole(name, value):
    """`value` as an int if it is one (a Python or numpy integer, not a bool), else TypeError:
    int() would take 1.5 as 1 and "2" as 2, which Simulation refuses too."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"VectorEnv: {name} must be an int, got {quote(value)}")
    return int(value)


class VectorEnv(gymnasium.vector.VectorEnv):
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

    ``randomize`` (as ``ubot.gym.UbotEnv``'s: ``{"robots": ..., "goals": ..., "obstacles": ...,
    "region": ..., "margin": ..., ...}`` or True for robots and goals): every episode's start
    places those objects anew, seeded by ``stream_seed(episode seed, "randomize")``,
    non-overlapping (``margin`` m apart, exact shapes); an env whose objects find no place
    raises a ValueError naming the env, the episode and the object (docs/learning.md, "Resets").

    ``start_state`` (a state file's path, its bytes or a ``ubot.Snapshot`` of this world, e.g.
    from ``Simulation.save_state``): every episode starts from that state instead of step 0,
    its random streams those of the episode's seed (``Simulation.reseed``), so copies fanned
    out from one warmed-up world draw their own noise; ``max_steps`` and ``episode_steps``
    count from it.
    """

    render_mode = None
    spec = None
    closed = False

    def __getattr__(self, name):
        # Only reached when normal lookup fails: an object made by VectorEnv.__new__ without
        # __init__ has no core to run (issue 51), which is a TypeError, as the native classes say.
        if not name.startswith("__") and "_env" not in self.__dict__:
            raise TypeError("VectorEnv object was made without __init__ (e.g. by "
                            "VectorEnv.__new__): it has nothing to read or run; make one with "
                            "VectorEnv(...)")
        raise AttributeError(f"'VectorEnv' object has no attribute {name!r}")

    def __init__(self, world, num_envs, seed=0, threads=0, max_steps=1000,
                 observations=DEFAULT_OBSERVATIONS, lidar="", auto_reset=True,
                 arrive_reward=1.0, collision_penalty=1.0, start_state=None, randomize=None):
        self._env = _core._VectorEnv(os.fspath(world), _whole("num_envs", num_envs),
                                     seed=_whole("seed", seed), threads=_whole("threads", threads),
                                     max_steps=_whole("max_steps", max_steps),
                                     observations=list(observations), lidar=lidar,
                                     auto_reset=bool(auto_reset),
                                     arrive_reward=float(arrive_reward),
                                     collision_penalty=float(collision_penalty),
                                     start_state=_state_bytes(start_state))
        if randomize:
            from ubot._learning.resets import check_randomize, core_layout

            self._env.set_randomize(check_randomize(randomize, core_layout(self._env)))
        self.num_envs = self._env.num_envs
        self.robot_names = self._env.robot_names
        self.action_low = self._env.action_low
        self.action_high = self._env.action_high
        self._auto_reset = bool(auto_reset)
        mode = AutoresetMode.SAME_STEP if auto_reset else AutoresetMode.DISABLED
        self.metadata = {"autoreset_mode": mode}
        self.closed = False
        self._ended = np.zeros(self.num_envs, dtype=bool)  # DISABLED: ended, not reset yet
        self._make_spaces()

    def _make_spaces(self):
        """Per robot and env: lidar in [0, range_max], velocity within the robot's limits (the
        last command, clipped to them), flags bool, state and goal unbounded."""
        r = self._env.num_robots
        inf = np.float32(np.inf)
        boxes = {}
        for name in self._env.observations:
            if name == "lidar":
                high = np.repeat(np.array(self._env.lidar_range_max, np.float32)[:, None],
                                 self._env.beams, axis=1)
                boxes[name] = Box(np.zeros_like(high), high, dtype=np.float32)
            elif name == "flags":
                boxes[name] = Box(0, 1, (r, 3), np.bool_)  # Gymnasium: bool bounds as 0 / 1
            elif name == "velocity":
                boxes[name] = Box(self.action_low.astype(np.float32),
                                         self.action_high.astype(np.float32), dtype=np.float32)
            else:
                boxes[name] = Box(-inf, inf, (r, 3), np.float32)
        self.single_observation_space = Dict(boxes)
        self.single_action_space = Box(self.action_low, self.action_high,
                                              dtype=np.float64)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    @property
    def seed(self):
        """The base seed every episode's world seed derives from."""
        return self._env.seed

    @property
    def max_steps(self):
        return self._env.max_steps

    def reset(self, *, seed=None, options=None):
        """Every env back to step 0 (with base seed ``seed`` when given): ``(obs, info)``.

        ``options={"reset_mask": mask}`` (a (num_envs,) bool array, Gymnasium's): only those
        envs start their next episode, as at an auto-reset; the others go on.
        """
        self._check_open("reset")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"VectorEnv.reset: unknown options {sorted(options)} "
                             "(known: reset_mask)")
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("VectorEnv.reset: seed must be an int (the base seed every env's "
                            "episode seeds derive from) or None")
        if mask is None:
            self._ended[:] = False
            return self._env.reset(None if seed is None else int(seed)), {}
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,) or not mask.any():
            raise ValueError(f"VectorEnv.reset: reset_mask must be a ({self.num_envs},) bool "
                             "array with at least one True")
        if seed is not None:
            raise ValueError("VectorEnv.reset: give seed or reset_mask, not both (a masked "
                             "reset takes each env's next episode seed)")
        self._ended[mask] = False
        return self._env.reset_envs(mask), {}

    def step(self, actions):
        """``(obs, reward, terminated, truncated, info)``; the arrays are rewritten next call.

        Same-step auto-reset: ``info["final_obs"]`` (an object array, each ended env's last
        observation as a dict of copies, None elsewhere) and ``info["_final_obs"]``; also
        ``info["final_info"]`` / ``info["_final_info"]`` and, batched,
        ``info["final_observation"]`` / ``info["_final_observation"]``.
        """
        self._check_open("step")
        if not self._auto_reset and self._ended.any():  # DISABLED: an ended env is reset first
            raise ValueError(f"VectorEnv.step: envs {np.flatnonzero(self._ended).tolist()} ended "
                             "and auto_reset is off: reset(options={'reset_mask': ...}) first")
        obs, reward, terminated, truncated, info = self._env.step(actions)
        if not self._auto_reset:
            np.logical_or(terminated, truncated, out=self._ended)
        elif "final_observation" in info:
            self._add_final_obs(info)
        return obs, reward, terminated, truncated, info

    def _check_open(self, who):
        if self.closed:
            raise _core.Error(f"VectorEnv.{who}: the VectorEnv is closed")

    def _add_final_obs(self, info):
        mask = info["_final_observation"]
        final = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(mask):
            final[i] = {k: v[i].copy() for k, v in info["final_observation"].items()}
        info["final_obs"], info["_final_obs"] = final, mask.copy()
        info["final_info"], info["_final_info"] = {}, mask.copy()

    def episode_seed(self, env):
        """The world seed of env ``env``'s current episode."""
        return self._env.episode_seed(env)

    def episode(self, env):
        """How many times env ``env`` was auto-reset since the last reset()."""
        return self._env.episode(env)

    def episode_steps(self, env):
        """Steps env ``env`` has taken in its current episode."""
        return self._env.episode_steps(env)

    def serve(self, address="127.0.0.1:8765", token=None, env=0):
        """Serves the live view of env ``env`` (docs/live.md) on ``[HOST:]PORT``; returns its URL.

        Non-blocking: the page and Foxglove follow that env through its steps and resets. A
        client that pauses holds ``step()`` for every env; its teleop drives that env's robots
        over the actions. The token (required off loopback) defaults to ``UBOT_LIVE_TOKEN``.
        """
        self._check_open("serve")
        return self._env.serve(address, token, int(env))

    @property
    def live_url(self):
        """The live view's URL while serving, else None."""
        return self._env.live_url

    def close(self, **kwargs):
        """Gymnasium's close: ``closed`` becomes True and a live view stops serving (the envs
        free with the object)."""
        del kwargs
        self._env.close()
        self.closed = True

    @property
    def unwrapped(self):
        return self

    def __repr__(self):
        return f"<ubot.VectorEnv {self.num_envs} x {self.robot_names}>"
