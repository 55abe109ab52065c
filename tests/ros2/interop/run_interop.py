#!/usr/bin/env python3
"""ROS 2 interoperability of ubot's bridge with an independent DDS implementation (Fast DDS 3.1
on Debian 13, 2.9 on Debian 12, configured as rmw_fastrtps). Run inside run_isolated.sh
(loopback only).

1. Sensors: ubot's CycloneDDS transport publishes LaserScan, PointCloud2, Imu and Image; the
   Fast-DDS peer receives them and checks every field (exit 0 only if all four match).
2. Commands: `ubot run --ros2 --realtime` on a one-robot world while the Fast-DDS peer publishes
   geometry_msgs/Twist on rt/robot_0/cmd_vel; frames.jsonl must show the commanded motion
   (IR-SIM's diff step with the commanded v, w, exactly) and then, after the timeout, the robot's
   own dash behaviour again.

usage: run_interop.py --ubot U --fastdds-peer F --cyclone-publisher C   (stdlib only)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

WORLD = """
world: {width: 20, height: 20, step_time: 0.1}
robot:
  - name: robot_0
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [5, 5, 0]
    goal: [5, 15, 0]
    vel_min: [-1, -1]
    vel_max: [1, 1]
    behavior: {name: dash}
"""
V, W, DT = 0.5, -0.3, 0.1


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)
    print("ok:", message)


def sensors(args, domain):
    pub = subprocess.Popen([args.cyclone_publisher, "--seconds", "120", "--domain", str(domain)])
    try:
        listen = subprocess.run([args.fastdds_peer, "listen", "--seconds", "120", "--domain",
                                 str(domain)], capture_output=True, text=True, timeout=180)
    finally:
        pub.terminate()
        pub.wait(timeout=30)
    print(listen.stdout)
    check(listen.returncode == 0, "Fast-DDS received LaserScan, PointCloud2, Imu, Image from "
          "ubot's CycloneDDS transport with every field equal")
    for name in ("LaserScan", "PointCloud2", "Imu", "Image"):
        check(f"{name}: ok" in listen.stdout, f"{name} matched")


def commands(args, domain):
    with tempfile.TemporaryDirectory() as tmp:
        world = os.path.join(tmp, "cmd_world.yaml")
        with open(world, "w") as f:
            f.write(WORLD)
        out = os.path.join(tmp, "out")
        ubot = subprocess.Popen([args.ubot, "run", world, "--ros2", "--realtime", "--steps", "120",
                                 "--quiet", "--out", out, "--ros-domain-id", str(domain)])
        time.sleep(1.5)
        twist = subprocess.run([args.fastdds_peer, "twist", "--topic", "rt/robot_0/cmd_vel",
                                "--linear", str(V), "--angular", str(W), "--rate", "20",
                                "--seconds", "4", "--domain", str(domain)],
                               capture_output=True, text=True, timeout=120)
        print(twist.stdout.strip())
        check(ubot.wait(timeout=300) == 0, "ubot run --ros2 --realtime exited 0")
        with open(os.path.join(out, "frames.jsonl")) as f:
            frames = [json.loads(line) for line in f]
    steps = frames[1:]
    states = [frames[0]["objects"][0]["state"]] + [s["objects"][0]["state"] for s in steps]
    velocity = [s["objects"][0]["velocity"] for s in steps]
    commanded = [k for k, v in enumerate(velocity) if v == [V, W]]
    print("commanded steps:", commanded[0] + 1 if commanded else None, "..",
          commanded[-1] + 1 if commanded else None, f"({len(commanded)} of {len(steps)})")
    check(len(commanded) >= 10, "the Fast-DDS Twist drove the robot for at least 1 s")
    check(commanded[0] > 0, "the robot followed its behaviour before the first command")
    check(commanded == list(range(commanded[0], commanded[-1] + 1)),
          "commanded steps are contiguous (no timeout while the publisher ran at 20 Hz)")
    for k in commanded:
        x, y, th = states[k]
        expected = [x + math.cos(th) * V * DT, y + math.sin(th) * V * DT, th + W * DT]
        got = states[k + 1]
        if any(abs(a - b) > 1e-12 for a, b in zip(got[:2], expected[:2])) or \
                abs(math.remainder(got[2] - expected[2], 2 * math.pi)) > 1e-12:
            check(False, f"step {k + 1}: state {got} != diff step {expected}")
    check(True, "every commanded step is IR-SIM's diff step with (v, w) = (0.5, -0.3)")
    after = velocity[commanded[-1] + 1:]
    check(len(after) >= 10, "the run went on after the commands stopped")
    check(all(v != [V, W] for v in after),
          "after the timeout the robot is back on its dash behaviour")
    check(any(abs(v[0]) > 0 or abs(v[1]) > 0 for v in after), "and the behaviour moves it")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--fastdds-peer", required=True)
    parser.add_argument("--cyclone-publisher", required=True)
    args = parser.parse_args()
    domain = 150 + os.getpid() % 60  # distinct from other test processes outside a namespace
    sensors(args, domain)
    commands(args, domain)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
