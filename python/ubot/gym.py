"""ubot.gym: Gymnasium environments of a ubot world (docs/learning.md).

Importing it registers ``"ubot/World-v0"``:

- ``gymnasium.make("ubot/World-v0", world=..., robot=...)``: ``UbotEnv``, one robot of the
  world controlled by the agent (the others run their world behaviours, or stand), over a
  ``ubot.Simulation``;
- ``gymnasium.make_vec("ubot/World-v0", num_envs=N, vectorization_mode="vector_entry_point",
  world=...)``: ``UbotVectorEnv``, N copies stepped together in C++ threads by
  ``ubot.VectorEnv``'s core, with Gymnasium's NEXT_STEP (default) or SAME_STEP autoreset.

Both build observations and rewards with ubot._learning, so for the same world, seed and
actions they return the same numbers.
"""

import numpy as np

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # ubot without the extra: say what to install
    raise ImportError("ubot.gym needs Gymnasium, which is not installed: "
                      "pip install 'ubot[gym]' (or pip install gymnasium)") from error

from ubot import _learning as L
from ubot._quote import quote

ENV_ID = "ubot/World-v0"
OTHERS = ("behavior", "stand")


def _render_meta(layout):
    return {"render_modes": ["rgb_array", "human"],
            "render_fps": float(round(1.0 / layout.step_time, 6))}


class UbotEnv(L.TaskAttributes, gymnasium.Env):
    """One robot of ``world`` as a Gymnasium ``Env`` (docs/learning.md).

    ``world``: a world file. ``robot``: the robot's name (default: the first robot). ``others``:
    what the other robots do, ``"behavior"`` (their world behaviours) or ``"stand"`` (zero
    commands, as in the vector env). ``observations``: names from the documented set;
    ``normalize`` scales them to the documented ranges; ``flatten`` concatenates them into one
    float32 vector (else a Dict). Actions: ``[v, w]`` (the robot's kinematics frame) scaled to
    [-1, 1] (``normalize_actions``), out-of-space actions raise unless ``clip_actions``.
    Reward: ``reward_fn(ctx)`` or ``reward_weights`` of the built-in terms. ``terminated``: the
    robot arrived or collides; ``truncated``: ``max_steps`` steps. ``randomize``: seeded random
    starts / goals / obstacles at every reset (also ``reset(options={"randomize": ...})``).
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 10.0}

    def __init__(self, world, robot=None, observations=L.DEFAULT_OBSERVATIONS, normalize=False,
                 flatten=True, reward_fn=None, reward_weights=None, max_steps=500,
                 others="behavior", normalize_actions=True, clip_actions=False, randomize=None,
                 lidar=None, render_mode=None, live_address="127.0.0.1:0", clearance_margin=0.5,
                 observation_options=None, threads=1):
        if others not in OTHERS:
            raise ValueError(f"others must be one of {OTHERS}, got {quote(others)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        self.sim = L.load_sim(world, threads=threads)
        self.task = L.Task(self.sim, observations, normalize, flatten, reward_fn, reward_weights,
                          max_steps, normalize_actions, clip_actions, randomize, lidar,
                          clearance_margin, observation_options)
        self.robot_index = self.task.robot_index(robot)
        self.robot = self.layout.robot_names[self.robot_index]
        self.metadata = _render_meta(self.layout)
        self.render_mode, self.live_address, self.live_url = render_mode, live_address, None
        self.others = others
        self.observation_space = self.observer.space(self.robot_index)
        self.action_space = self._actions.space(self.robot_index)
        self._runner = L.Runner(self.task, L.SimBackend(self.sim, self.task, others,
                                                        self.robot_index))

    # -- Gymnasium API ---------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        options = options or {}
        spec = self.randomize
        if "randomize" in options:  # other keys are ignored (PettingZoo's test passes some)
            spec = L.check_randomize(options["randomize"], self.layout)
        self._runner.reset(seed, self.np_random, spec)
        if self.render_mode == "human":
            self.render()
        return self._observe(), {}

    def step(self, action):
        if self._frame is None:
            raise ValueError("UbotEnv.step: call reset() first (before the first step, and "
                             "after a step that raised)")
        k = self.robot_index
        full = np.zeros((1, self.layout.n_robots, 2))
        full[0, k] = self._actions.check(action, self.action_space.shape, [k])[0]
        active = np.zeros((1, self.layout.n_robots), bool)
        active[0, k] = True
        out = self._runner.step(full, active)
        if self.render_mode == "human":
            self.render()
        return (self._observe(), float(out.reward[0, k]), bool(out.terminated[0, k]),
                bool(out.truncated[0, k]), {"is_success": bool(out.frame.arrive[0, k])})

    def render(self):
        if self.render_mode == "rgb_array":
            return np.ascontiguousarray(self.sim.picture()[..., :3])
        if self.render_mode == "human":
            if self.live_url is None:  # the live page (docs/live.md), started once
                self.live_url = self.sim.serve(self.live_address)
            return None
        return None

    def close(self):
        if not self.sim.closed:
            self.sim.close()

    # -- internals --------------------------------------------------------------------------

    def _observe(self):
        return L.pick(self.observer.observe(self._frame), 0, self.robot_index)


class UbotVectorEnv(L.TaskAttributes, gymnasium.vector.VectorEnv):
    """``num_envs`` copies of UbotEnv's task stepped together by ubot.VectorEnv's C++ core.

    The same observations, rewards, terminations and seeds as ``UbotEnv`` (env i's episode k
    runs with world seed ``stream_seed(seed, "vector_env/<i>/<k>")``; UbotEnv is env 0), with
    two differences the C++ core imposes: the other robots stand (``others="stand"``; the core
    commands every robot), and the Simulation-only observations (fov, clearance, imu, depth)
    and rendering are not available. ``randomize`` is the constructor's (placed by the C++ core
    at every episode's start, as UbotEnv places env 0's); ``reset(options={"randomize": ...})``
    cannot change it. ``autoreset_mode``: Gymnasium's
    ``AutoresetMode.NEXT_STEP`` (default) or ``SAME_STEP`` (or their names).
    """

    def __init__(self, num_envs, world, robot=None, observations=L.DEFAULT_OBSERVATIONS,
                 normalize=False, flatten=True, reward_fn=None, reward_weights=None,
                 max_steps=500, others="stand", normalize_actions=True, clip_actions=False,
                 randomize=None, lidar=None, render_mode=None, clearance_margin=0.5,
                 observation_options=None, autoreset_mode=AutoresetMode.NEXT_STEP, threads=0):
        mode = _autoreset_mode(autoreset_mode)
        if others != "stand":
            raise ValueError("UbotVectorEnv: others must be 'stand' (the C++ VectorEnv commands "
                             "every robot); UbotEnv runs the others' behaviours")
        if render_mode is not None:
            raise ValueError("UbotVectorEnv: no render modes (use vectorization_mode='sync' "
                             "for UbotEnv's pictures)")
        with L.load_sim(world) as sim:
            self.task = L.Task(sim, observations, normalize, flatten, reward_fn, reward_weights,
                              max_steps, normalize_actions, clip_actions, randomize, lidar,
                              clearance_margin, observation_options)
        self.robot_index = self.task.robot_index(robot)
        sim_only = [i.name for i in self.observer.sim_items]
        if sim_only:
            raise ValueError(f"UbotVectorEnv: observations {sim_only} need a Simulation; use "
                             "vectorization_mode='sync' (UbotEnv)")
        self._core = L.make_core(world, num_envs, self.layout, lidar, threads, self.randomize)
        self._runner = L.Runner(self.task, L.CoreBackend(self._core))
        self.num_envs = self._core.num_envs
        self.robot = self.layout.robot_names[self.robot_index]
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.render_mode, self.closed = None, False
        self.single_observation_space = self.observer.space(self.robot_index)
        self.single_action_space = self._actions.space(self.robot_index)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed=None, options=None):
        """Every env from step 0. ``seed``: the base seed (an int); None the first time draws
        one, later ones start every env's next episode."""
        options = options or {}
        if options.get("randomize"):
            raise ValueError("UbotVectorEnv.reset: randomize is the constructor's (the C++ core "
                             "places every env's episodes by it)")
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("UbotVectorEnv.reset: seed must be an int (the base seed every env's "
                            "episode seeds derive from) or None")
        mask = options.get("reset_mask")
        if mask is not None:
            return self._reset_mask(mask, seed)
        self._runner.reset(seed)
        self._autoreset = np.zeros(self.num_envs, bool)
        return self._observe(), {}

    def _reset_mask(self, mask, seed):
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"reset_mask must be a ({self.num_envs},) bool array")
        if seed is not None or self._frame is None:
            raise ValueError("reset_mask: reset() without it first, and give no seed with it")
        if mask.any():
            self._restart(mask)
        return self._observe(), {}

    def _restart(self, mask):
        self._runner.restart(mask)
        self._autoreset[mask] = False

    def step(self, actions):
        if self._frame is None:
            raise ValueError("UbotVectorEnv.step: call reset() first (before the first step, "
                             "and after a step that raised)")
        k, n = self.robot_index, self.num_envs
        command = self._actions.check(actions, self.action_space.shape, [k], "actions")
        full = np.zeros((n, self.layout.n_robots, 2))
        full[:, k] = command
        pending = self._autoreset.copy()  # NEXT_STEP: ended last step, reset now
        active = np.zeros((n, self.layout.n_robots), bool)
        active[:, k] = ~pending
        out = self._runner.step(full, active)
        frame = out.frame
        reward = out.reward[:, k].copy()
        terminated, truncated = out.terminated[:, k].copy(), out.truncated[:, k].copy()
        success = frame.arrive[:, k].copy()
        info = {"is_success": success, "_is_success": np.ones(n, bool)}
        if self.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP:
            if pending.any():  # they were stepped with the others; their reset undoes it
                self._restart(pending)
                reward[pending] = 0.0
                terminated[pending] = truncated[pending] = False
                success[pending] = info["_is_success"][pending] = False
            self._autoreset = terminated | truncated
            return self._observe(), reward, terminated, truncated, _drop_empty(info)
        ended = terminated | truncated
        if ended.any():
            final = self._observe()
            self._restart(ended)
            success[ended] = info["_is_success"][ended] = False  # the reset's info is {}
            for i in np.flatnonzero(ended):
                info = self._add_info(info, {"final_obs": _row(final, i), "final_info": {
                    "is_success": bool(frame.arrive[i, k])}}, i)
        return self._observe(), reward, terminated, truncated, _drop_empty(info)

    def _observe(self):
        return L.pick(self.observer.observe(self._frame), slice(None), self.robot_index)

    def close(self, **kwargs):
        del kwargs
        self.closed = True

    @property
    def unwrapped(self):
        return self

    def __repr__(self):
        return f"<ubot.gym.UbotVectorEnv {self.num_envs} x {self.robot}>"


def _drop_empty(info):
    # As Gymnasium's _add_info builds it: no key when no env gave it (every env just reset).
    if not info["_is_success"].any():
        del info["is_success"], info["_is_success"]
    return info


def _row(obs, i):
    if isinstance(obs, dict):
        return {k: v[i].copy() for k, v in obs.items()}
    return obs[i].copy()


def _autoreset_mode(mode):
    if isinstance(mode, str):  # "NextStep" (the enum's value), "next_step" or "NEXT_STEP"
        key = mode.replace("_", "").lower()
        mode = {m.value.lower(): m for m in AutoresetMode}.get(key)
    if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        raise ValueError("autoreset_mode must be AutoresetMode.NEXT_STEP or SAME_STEP "
                         "(or 'next_step' / 'same_step', 'NextStep' / 'SameStep')")
    return mode


def register():
    """Registers ENV_ID (done on import; again is harmless)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="ubot.gym:UbotEnv",
                           vector_entry_point="ubot.gym:UbotVectorEnv")


register()
