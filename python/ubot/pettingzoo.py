"""ubot.pettingzoo: a ubot world as a PettingZoo environment, one agent per robot, keyed by the
robot's name (docs/learning.md).

- ``parallel_env(world=...)``: a ``pettingzoo.ParallelEnv`` over a ``ubot.Simulation``;
- ``env(world=...)``: the same as an AEC env, through PettingZoo's own ``parallel_to_aec``;
- ``VectorParallelEnv(world, num_envs)``: the same task in ``num_envs`` copies stepped together
  by ubot.VectorEnv's C++ core, as arrays (num_envs, n_agents, ...), for speed.

An agent whose robot arrives or collides is terminated and leaves ``agents``; its robot stays
in the world, standing. Observations and rewards come from ubot._learning, as in ubot.gym.
"""

import functools

import numpy as np

try:
    from gymnasium.utils import seeding
    from pettingzoo import ParallelEnv
    from pettingzoo.utils.conversions import parallel_to_aec
except ImportError as error:  # ubot without the extra: say what to install
    raise ImportError("ubot.pettingzoo needs PettingZoo and Gymnasium: pip install "
                      "'ubot[pettingzoo]' (or pip install pettingzoo gymnasium)") from error

from ubot import _learning as L
from ubot._quote import quote


class UbotParallelEnv(L.TaskAttributes, ParallelEnv):
    """Every robot of ``world`` an agent. The arguments are ``ubot.gym.UbotEnv``'s (without
    ``robot`` and ``others``): ``observations``, ``normalize``, ``flatten``, ``reward_fn`` /
    ``reward_weights`` (``ctx`` holds every robot; the agents get their rows), ``max_steps``
    (then every agent left is truncated), ``normalize_actions``, ``clip_actions``,
    ``randomize``, ``lidar``, ``render_mode``."""

    metadata = {"name": "ubot_world_v0", "render_modes": ["rgb_array", "human"],
                "is_parallelizable": True, "render_fps": 10.0}

    def __init__(self, world, observations=L.DEFAULT_OBSERVATIONS, normalize=False,
                 flatten=True, reward_fn=None, reward_weights=None, max_steps=500,
                 normalize_actions=True, clip_actions=False, randomize=None, lidar=None,
                 render_mode=None, live_address="127.0.0.1:0", clearance_margin=0.5,
                 observation_options=None, threads=1):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        self.sim = L.load_sim(world, threads=threads)
        self.task = L.Task(self.sim, observations, normalize, flatten, reward_fn, reward_weights,
                           max_steps, normalize_actions, clip_actions, randomize, lidar,
                           clearance_margin, observation_options)
        self._runner = L.Runner(self.task, L.SimBackend(self.sim, self.task))
        self.render_mode, self.live_address, self.live_url = render_mode, live_address, None
        self.metadata = dict(self.metadata, render_fps=float(round(1 / self.layout.step_time, 6)))
        self.possible_agents = list(self.layout.robot_names)
        self.agents = []
        self.observation_spaces = {a: self.observer.space(i)
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: self._actions.space(i) for i, a in enumerate(self.possible_agents)}
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._left = {}  # agent -> why and when it left the episode
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        options = options or {}
        self.agents = []  # a reset that raises leaves the env needing another
        spec = self.randomize
        if "randomize" in options:  # other keys are ignored (PettingZoo's API test passes one)
            spec = L.check_randomize(options["randomize"], self.layout)
        if seed is not None:
            self.np_random, _ = seeding.np_random(int(seed))
        self._runner.reset(seed, self.np_random, spec)
        self.agents = list(self.possible_agents)
        self._left = {}
        if self.render_mode == "human":
            self.render()
        return self._observe(self.agents), {a: {} for a in self.agents}

    def step(self, actions):
        if self._frame is None:
            raise ValueError("step: call reset() first (before the first step, and after a "
                             "step that raised)")
        full = self._commands(actions)
        live = list(self.agents)
        active = np.zeros((1, self.layout.n_robots), bool)
        active[0, [self._index[a] for a in live]] = True
        out = self._runner.step(full, active)
        frame, step = out.frame, int(self._runner.steps[0])
        obs = self._observe(live)
        rewards, terms, truncs, infos = {}, {}, {}, {}
        for a in live:
            i = self._index[a]
            rewards[a] = float(out.reward[0, i])
            terms[a] = bool(out.terminated[0, i])
            truncs[a] = bool(out.truncated[0, i])
            infos[a] = {"is_success": bool(frame.arrive[0, i])}
            if terms[a] or truncs[a]:
                why = "arrived" if frame.arrive[0, i] else "collided" if terms[a] else "truncated"
                self._left[a] = f"{why} at step {step}"
        self.agents = [a for a in live if not (terms[a] or truncs[a])]
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    def _commands(self, actions):
        """(1, R, 2) commands from the agents' action dict; the robots of agents that left
        stand. ValueError / TypeError for anything else than one valid action per live agent."""
        if not isinstance(actions, dict):
            raise TypeError(f"step: actions must be a dict {{agent: action}}, got "
                            f"{type(actions).__name__}")
        for a in actions:
            if a not in self._index:
                raise ValueError(f"step: {quote(a)} is not an agent (agents: {self.possible_agents})")
            if a not in self.agents:
                raise ValueError(f"step: agent {quote(a)} is no longer in the episode ("
                                 f"{self._left.get(a, 'it left')}): its action is refused")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"step: no action for the live agents {missing}")
        full = np.zeros((1, self.layout.n_robots, 2))
        for a, action in actions.items():
            i = self._index[a]
            full[0, i] = self._actions.check(action, (2,), [i], f"action of {a}").reshape(2)
        return full

    def render(self):
        if self.render_mode == "rgb_array":
            return np.ascontiguousarray(self.sim.picture()[..., :3])
        if self.render_mode == "human" and self.live_url is None:
            self.live_url = self.sim.serve(self.live_address)
        return None

    def close(self):
        if not self.sim.closed:
            self.sim.close()

    def state(self):
        """The global state: every robot's x, y, yaw, (n_robots * 3,) float32."""
        frame = self._frame if self._frame is not None else self._runner.backend.read()
        return frame.state[0].ravel().astype(np.float32)

    @functools.cached_property
    def state_space(self):
        from gymnasium.spaces import Box

        x0, x1, y0, y1 = self.layout.world_size
        low = np.tile([x0, y0, -np.pi], self.layout.n_robots).astype(np.float32)
        high = np.tile([x1, y1, np.pi], self.layout.n_robots).astype(np.float32)
        return Box(low, high, dtype=np.float32)

    def _observe(self, agents):
        obs = self.observer.observe(self._frame)
        return {a: L.pick(obs, 0, self._index[a]) for a in agents}


def parallel_env(world, **kwargs):
    """A PettingZoo ParallelEnv of ``world`` (UbotParallelEnv's arguments)."""
    return UbotParallelEnv(world, **kwargs)


def env(world, **kwargs):
    """The AEC form of ``parallel_env(world, ...)``, by PettingZoo's parallel_to_aec."""
    return parallel_to_aec(parallel_env(world, **kwargs))


class VectorParallelEnv(L.TaskAttributes):
    """``num_envs`` copies of UbotParallelEnv's task in ubot.VectorEnv's C++ core, as arrays.

    ``reset(seed=None) -> (obs, infos)``; ``step(actions) -> (obs, rewards, terminations,
    truncations, infos)``: actions (num_envs, n_agents, 2), obs (num_envs, n_agents, k) float32
    (or a dict of such arrays, ``flatten=False``), the rest (num_envs, n_agents). An agent that
    terminated or was truncated stays out (``infos["active"]``, (num_envs, n_agents) bool, is
    who acts in the next step; the actions of the others are ignored and their robots stand)
    until its env restarts: an env with no active agent left is reset in the same step, its
    last observation in ``infos["final_obs"]`` masked by ``infos["_final_obs"]`` (num_envs,).
    Env i's episode k has world seed ``stream_seed(seed, "vector_env/<i>/<k>")``; ``reset()``
    without a seed draws one the first time and later starts every env's next episode. As for
    ubot.gym.UbotVectorEnv: no Simulation-only observations, no rendering; ``randomize`` (the
    constructor's) places objects at every episode's start in the C++ core, as UbotParallelEnv
    does for env 0.
    """

    def __init__(self, world, num_envs, observations=L.DEFAULT_OBSERVATIONS, normalize=False,
                 flatten=True, reward_fn=None, reward_weights=None, max_steps=500,
                 normalize_actions=True, clip_actions=False, lidar=None, clearance_margin=0.5,
                 observation_options=None, threads=0, randomize=None):
        with L.load_sim(world) as sim:
            self.task = L.Task(sim, observations, normalize, flatten, reward_fn, reward_weights,
                               max_steps, normalize_actions, clip_actions, randomize, lidar,
                               clearance_margin, observation_options)
        if self.observer.sim_items:
            raise ValueError(f"VectorParallelEnv: observations "
                             f"{[i.name for i in self.observer.sim_items]} need a Simulation")
        self._core = L.make_core(world, num_envs, self.layout, lidar, threads, self.randomize)
        self._runner = L.Runner(self.task, L.CoreBackend(self._core))
        self.num_envs, self.possible_agents = self._core.num_envs, list(self.layout.robot_names)
        self.single_observation_spaces = {a: self.observer.space(i)
                                          for i, a in enumerate(self.possible_agents)}
        self.single_action_spaces = {a: self._actions.space(i)
                                     for i, a in enumerate(self.possible_agents)}

    def reset(self, seed=None):
        self._runner.reset(seed)
        self._active = np.ones((self.num_envs, self.layout.n_robots), bool)
        return self.observer.observe(self._frame), {"active": self._active.copy()}

    def step(self, actions):
        if self._frame is None:
            raise ValueError("step: call reset() first (before the first step, and after a "
                             "step that raised)")
        n, r = self.num_envs, self.layout.n_robots
        full = self._actions.check(actions, (n, r, 2), list(range(r)), "actions")
        full[~self._active] = 0.0  # agents that left: their robots stand
        out = self._runner.step(full, self._active)
        frame = out.frame
        rewards = np.where(self._active, out.reward, 0.0)
        terms = self._active & out.terminated
        truncs = self._active & out.truncated
        self._active = self._active & ~terms & ~truncs
        obs = self.observer.observe(frame)
        infos = {"is_success": frame.arrive.copy()}
        ended = ~self._active.any(axis=1)
        if ended.any():
            infos["final_obs"], infos["_final_obs"] = obs, ended
            self._runner.restart(ended)
            self._active[ended] = True
            obs = self.observer.observe(self._frame)
        infos["active"] = self._active.copy()
        return obs, rewards, terms, truncs, infos
