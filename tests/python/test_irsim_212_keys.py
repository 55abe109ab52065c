"""IR-SIM 2.12.0's file-level keys, ubot.irsim beside the real IR-SIM on the same file: a world
shared with another simulator (IR-SIM's blocks under `irsim:`), the scenario's own `custom:`
values (`env.config["custom"]`), `color: cycle` and world `friction` / `restitution`. The real
IR-SIM runs in a child interpreter; states after 20 steps agree to 1e-9 (the parity bound)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from ubot import irsim as ubot_irsim

pytest.importorskip("irsim")

SHARED_WORLD = textwrap.dedent("""\
    other_simulator:
      physics_rate: 1000
      scene: not IR-SIM's
    irsim:
      world: {height: 10, width: 10, step_time: 0.1, friction: 0.7, restitution: 0.2}
      custom: {safe_margin: 0.15, waypoints: [[1, 2], [3, 4]]}
      robot:
        - number: 3
          distribution: {name: manual}
          state: [[1, 1, 0], [1, 3, 0], [1, 5, 0]]
          goal: [[9, 1, 0], [9, 3, 0], [9, 5, 0]]
          kinematics: {name: diff}
          shape: {name: circle, radius: 0.2}
          behavior: {name: dash}
          color: cycle
    """)

REAL_IRSIM = textwrap.dedent("""\
    import json, sys
    import irsim
    env = irsim.make(sys.argv[1], display=False, log_level="ERROR")
    for _ in range(20):
        env.step()
    print(json.dumps({
        "custom": env.config["custom"],
        "colors": [r.color for r in env.robot_list],
        "states": [r.state.flatten().tolist() for r in env.robot_list],
    }))
    """)


def test_a_shared_file_reads_as_irsim_reads_it(tmp_path):
    world = tmp_path / "shared.yaml"
    world.write_text(SHARED_WORLD)
    env = os.environ | {"MPLBACKEND": "Agg"}
    real = subprocess.run([sys.executable, "-c", REAL_IRSIM, str(world)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=env)
    assert real.returncode == 0, real.stderr
    theirs = json.loads(real.stdout.strip().splitlines()[-1])

    ours = ubot_irsim.make(str(world), display=False)
    for _ in range(20):
        ours.step()
    assert ours.config["custom"] == theirs["custom"] == {"safe_margin": 0.15,
                                                         "waypoints": [[1, 2], [3, 4]]}
    assert [r.color for r in ours.robot_list] == theirs["colors"]
    assert theirs["colors"] == ["#009E73", "#0072B2", "#E69F00"]  # IR-SIM's palette cycle
    for mine, real_state in zip(ours.robot_list, theirs["states"]):
        assert max(abs(a - b) for a, b in zip(mine.state.flatten().tolist(), real_state)) < 1e-9
    ours.end()
