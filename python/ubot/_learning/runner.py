"""One task and one runner (docs/learning.md, "How the environments are built").

A ``Task`` is the learning problem, defined once (as VMAS's scenario is): the world's layout,
the observations, the reward, the actions, when an episode ends and how it starts. A
``Runner`` runs a task's episodes on E envs of one backend, batched (E, R, ...): the previous
frame, the last commands and the step counts, the reward context, the ends and the seed rule.
The backends are one ``ubot.Simulation`` (``SimBackend``, E = 1) and ubot.VectorEnv's C++ core
(``CoreBackend``). ubot.gym's and ubot.pettingzoo's four classes are adapters: they check the
API's actions, pick the rows their agents see and apply their API's autoreset.
"""

from dataclasses import dataclass

import numpy as np

from ubot._quote import quote

from .actions import Actions
from .frames import frame_from_sims, frame_from_vector, read_layout
from .observations import Observer
from .resets import check_randomize, randomize, randomize_seed, world_seed
from .rewards import Rewarder, reward_context

__all__ = ['Task', 'TaskAttributes', 'Runner', 'StepResult', 'SimBackend', 'CoreBackend']


class Task:
    """The learning problem of a world, as every environment class takes its arguments
    (ubot.gym.UbotEnv's documents them)."""

    def __init__(self, sim, observations, normalize=False, flatten=True, reward_fn=None,
                 reward_weights=None, max_steps=500, normalize_actions=True, clip_actions=False,
                 randomize=None, lidar=None, clearance_margin=0.5, observation_options=None):
        self.layout = read_layout(sim, lidar)
        self.observer = Observer(self.layout, observations, normalize, flatten,
                                 observation_options, sim)
        self.rewarder = Rewarder(reward_fn, reward_weights,
                                 has_lidar=self.layout.lidar_max is not None)
        self.actions = Actions(self.layout, normalize_actions, clip_actions)
        self.randomize = check_randomize(randomize, self.layout)
        self.max_steps, self.clearance_margin = int(max_steps), float(clearance_margin)

    def robot_index(self, robot):
        """The index of robot ``robot`` (None: the first), or ValueError."""
        if robot is None:
            return 0
        if robot in self.layout.robot_names:
            return self.layout.robot_names.index(robot)
        raise ValueError(f"robot {quote(robot)} is not a robot of the world (robots: "
                         f"{self.layout.robot_names})")

    def ends(self, frame, steps):
        """(terminated, truncated), (E, R) bool: a robot is done when it arrived or collides;
        every robot is truncated once its env ran ``max_steps`` steps (0: never)."""
        terminated = frame.arrive | frame.collision
        if self.max_steps > 0:
            truncated = ~terminated & (steps >= self.max_steps)[:, None]
        else:
            truncated = np.zeros_like(terminated)
        return terminated, truncated

    def reward(self, prev, frame, action, prev_action, steps, active):
        """(E, R) float64: ``reward_fn(ctx)`` or the weighted built-in terms."""
        ctx = reward_context(prev, frame, action, prev_action, steps, active, self.layout,
                             self.clearance_margin)
        return self.rewarder(ctx)


class TaskAttributes:
    """An adapter's task and runner as the attributes its users read (env.layout, env.observer,
    ...): a mixin for classes that hold ``self.task`` and ``self._runner``."""

    layout = property(lambda self: self.task.layout)
    observer = property(lambda self: self.task.observer)
    rewarder = property(lambda self: self.task.rewarder)
    randomize = property(lambda self: self.task.randomize)
    max_steps = property(lambda self: self.task.max_steps)
    clearance_margin = property(lambda self: self.task.clearance_margin)
    _actions = property(lambda self: self.task.actions)
    _frame = property(lambda self: self._runner.frame)


@dataclass
class StepResult:
    frame: object  # the Frame after the step
    reward: np.ndarray  # (E, R)
    terminated: np.ndarray  # (E, R) bool
    truncated: np.ndarray  # (E, R) bool


class Runner:
    """The episodes of a task on a backend. Seeds: ``reset(seed=S)`` starts every env over with
    base seed S (env i's episode k has world seed ``stream_seed(S, "vector_env/<i>/<k>")``);
    ``reset()`` without a seed draws S from ``rng`` the first time and later starts every env's
    next episode."""

    def __init__(self, task, backend):
        self.task, self.backend = task, backend
        self.frame, self.base = None, None  # frame None: reset() has not run, or a step failed

    def reset(self, seed=None, rng=None, spec=None):
        self.frame = None  # a reset that raises leaves the runner needing another
        if seed is None and self.base is None:
            seed = int((rng if rng is not None else np.random.default_rng()).integers(2**63))
        if seed is not None:
            self.base = int(seed)
            frame = self.backend.start_over(self.base, spec)
        else:
            frame = self.backend.next_episodes(None, spec)
        n, r = self.backend.num_envs, self.task.layout.n_robots
        self.action, self.steps = np.zeros((n, r, 2)), np.zeros(n, dtype=np.int64)
        self.frame = frame
        return frame

    def restart(self, mask):
        """The next episode of every env with mask[i]; the others go on."""
        self.frame = self.backend.next_episodes(mask, None)
        self.action[mask], self.steps[mask] = 0.0, 0

    def step(self, action, active):
        """One step of every env with commands ``action`` (E, R, 2) in the kinematics frames;
        ``active`` (E, R): the robots an agent controls (the reward context's)."""
        if self.frame is None:
            raise ValueError("step: call reset() first (before the first step, and after a step "
                             "that raised)")
        prev, self.frame = self.frame, None  # until the reward is known: a failing reward_fn
        frame, action = self.backend.step(action)
        steps = self.steps + 1
        reward = self.task.reward(prev, frame, action, self.action, steps, active)
        self.frame, self.action, self.steps = frame, action, steps
        return StepResult(frame, reward, *self.task.ends(frame, steps))


class SimBackend:
    """One ``ubot.Simulation`` (E = 1). ``others``: what the robots nobody commands do,
    ``"stand"`` or ``"behavior"`` (their world behaviours: only ``robot``'s command is sent,
    and the step's commands are read back from the world)."""

    num_envs = 1

    def __init__(self, sim, task, others="stand", robot=0):
        self.sim, self.task, self.others, self.robot = sim, task, others, robot
        self.episode = 0

    def start_over(self, base, spec):
        self.base, self.episode = base, 0
        return self._start(spec)

    def next_episodes(self, mask, spec):
        self.episode += 1
        return self._start(spec)

    def _start(self, spec):
        seed = world_seed(self.base, self.episode)
        self.sim.reset(seed)
        if spec:
            randomize(self.sim, spec, randomize_seed(seed))
        return self.read()

    def read(self):
        return frame_from_sims([self.sim], self.task.layout, self.task.observer.sim_items)

    def step(self, action):
        if self.others == "stand":
            self.sim.step(action[0])
            return self.read(), action
        k = self.robot
        self.sim.step({self.task.layout.robot_names[k]: action[0, k]})
        frame = self.read()
        full = frame.velocity.copy()  # what the others did, as their behaviours chose it
        full[0, k] = action[0, k]
        return frame, full


class CoreBackend:
    """ubot.VectorEnv's C++ core in its DISABLED mode: every array a Frame needs, no reward,
    ends or auto-reset of its own; it places each env's episodes (``randomize``) itself."""

    def __init__(self, core):
        self.core, self.num_envs = core, core.num_envs

    def start_over(self, base, spec):
        del spec  # the core's own (set_randomize, at construction)
        return frame_from_vector(self.core.reset(base))

    def next_episodes(self, mask, spec):
        del spec
        if mask is None:
            mask = np.ones(self.num_envs, bool)
        return frame_from_vector(self.core.reset_envs(mask))

    def step(self, action):
        return frame_from_vector(self.core.step(action)[0]), action
