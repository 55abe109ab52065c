"""``ubot.pyrvo``: pyrvo's API (hanruihua/pyrvo, RVO2's Python binding) over ubot's ORCA.

IR-SIM's ``usage/19orca_world/orca_world.py`` drives ``pyrvo.RVOSimulator`` itself;
``python3 -m ubot.irsim`` serves this module as ``pyrvo`` when the real one (``pip install
pyrvo``; not a Debian package) is not installed, or with ``--ubot-pyrvo``. The subset (docs/irsim-python.md, "pyrvo"): ``RVOSimulator()`` and its
parameter constructor, ``set_time_step``, ``set_agent_defaults``, ``add_agent``,
``do_step``, ``get_num_agents``, ``get_global_time``, ``get_time_step``, ``clear_agents``, and
``get_agent_X`` / ``set_agent_X`` for position, velocity, pref_velocity, radius, max_speed,
neighbor_dist, max_neighbors, time_horizon and time_horizon_obst; ``Vector2`` (``x``, ``y``,
``to_tuple``, ``from_tuple``, ``from_list``). What differs from RVO2: double precision (RVO2
computes in float), no obstacles, and misuse raises (an unknown agent: IndexError; adding an
agent without defaults: ValueError, where RVO2 returns RVO_ERROR).
"""

from ubot._core import rvo as _rvo

RVOSimulator = _rvo.RVOSimulator
Vector2 = _rvo.Vector2

__all__ = ["RVOSimulator", "Vector2"]
