"""What ubot.gym and ubot.pettingzoo share (docs/learning.md): the world's layout, the step's
arrays for every env and robot (a ``Frame``), observation assembly, reward terms, the
``reward_fn`` call, action checks and seeded random placement.

Everything here works on batched arrays of shape (num_envs, n_robots, ...): the single-robot
``Env`` and the PettingZoo env are the case num_envs = 1, so the three environments run the
same code and cannot drift apart.
"""

# One module per responsibility; everything is re-exported here, so callers write L.Observer.
from .frames import *  # noqa: F401,F403
from .observations import *  # noqa: F401,F403
from .rewards import *  # noqa: F401,F403
from .actions import *  # noqa: F401,F403
from .resets import *  # noqa: F401,F403
from .runner import *  # noqa: F401,F403
