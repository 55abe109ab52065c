#!/usr/bin/env python3
"""Records IR-SIM's ``orca_world.py`` loop (IR-SIM + the real pyrvo) for test_pyrvo.py.

Run against IR-SIM itself (see /work/shared/irsim/README.md) with pyrvo 0.4.3 built from its
source on PYTHONPATH (tests/data/irsim_traces/README.md), from the world's folder:
    cd tests/data/irsim_usage/19orca_world
    MPLBACKEND=Agg PYTHONPATH=/tmp/shapely2:/work/shared/irsim/tools/shim:PYRVO_DIR:/tmp/irsim-src \\
        /usr/bin/python3 ../../../python/record_pyrvo_orca.py STEPS EVERY OUT.json

The loop is the script's own (its parameters, preferred velocities, positions set each step);
every EVERY steps it stores every robot's (x, y). Under ``python3 -m ubot.irsim`` the same file
runs on ubot.pyrvo, which is how test_pyrvo.py replays it.
"""

import json
import sys

import irsim
import pyrvo


def run(steps: int, every: int) -> dict:
    orca = pyrvo.RVOSimulator()
    env = irsim.make("orca_world.yaml", save_ani=False, display=False)
    orca.set_time_step(env.step_time)
    orca.set_agent_defaults(15.0, 10, 20.0, 10.0, 1.5, 2.0)
    for robot in env.robot_list:
        orca.add_agent(robot.state[:2, 0].tolist())
    positions = {}
    for step in range(1, steps + 1):
        for i, robot in enumerate(env.robot_list):
            orca.set_agent_pref_velocity(
                i, robot.get_desired_omni_vel(normalized=True).flatten().tolist())
            orca.set_agent_position(i, robot.state[:2, 0].tolist())
        orca.do_step()
        env.step([orca.get_agent_velocity(i).to_tuple() for i in range(orca.get_num_agents())])
        if step % every == 0:
            positions[str(step)] = [[float(r.state[0, 0]), float(r.state[1, 0])]
                                    for r in env.robot_list]
    return {"pyrvo": which_pyrvo(), "steps": steps, "positions": positions}


def which_pyrvo() -> str:
    """By the module's name, not its path (a checkout's path may well contain "ubot")."""
    if pyrvo.__name__.startswith("ubot"):
        return "ubot.pyrvo"
    from importlib.metadata import version

    return f"pyrvo {version('pyrvo')} (RVO2, float)"


if __name__ == "__main__":
    steps, every, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    trace = run(steps, every)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(trace, f, separators=(",", ":"))
