#!/usr/bin/env python3
"""Issue 16, item 7: an interrupted run keeps what it made. SIGINT / SIGTERM are sent to real
runs; every output is then read back with the independent readers the other tests use:
frames.jsonl line by line (json), the MCAP with Foxglove's readers (npm @mcap/core and the ROS 2
decoders, tests/record/check_mcap_with_foxglove.py, values compared with frames.jsonl), the LAS
map with npm @loaders.gl/las (tests/mapping), the PNGs with the zlib decoder of test_cli.py.

usage: test_interrupt.py --ubot PATH/ubot --npm-mcap DIR --npm-las DIR [unittest args]
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(ROOT, "tests", "record"), os.path.join(ROOT, "tests", "mapping")]
import check_las_with_loaders_gl as las_reader  # noqa: E402
import check_mcap_with_foxglove as mcap_reader  # noqa: E402
from test_cli import read_png  # noqa: E402

# Robots that loop among obstacles for ever, with two lidars and an IMU (the MCAP test's world).
WORLD = os.path.join(ROOT, "tests", "data", "mcap_world.yaml")
CAMERA_WORLD = """
world: {width: 20, height: 12, step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    state: [1.5, 6, 0]
    goal: [[[9, 6, 0], [2, 6, 0]]]
    behavior: {name: dash, loop: true}
    sensors:
      - {name: rgb_camera, width: 4000, height: 3000, horizontal_fov_deg: 80, update_rate_hz: 10}
obstacle:
  - shape: {name: circle, radius: 0.8}
    state: [5, 3, 0]
"""
UBOT = None
NPM = {}


def start(out, *extra, wrapper=(), new_session=False):
    """A run that would go on for hours (looping robots, 10^8 steps, paced at 5x real time),
    started through `wrapper` (a command such as GNU timeout) if one is given."""
    return subprocess.Popen(
        [*wrapper, UBOT, "run", WORLD, "--steps", "100000000", "--realtime", "5", "--out", out,
         "--mcap", os.path.join(out, "run.mcap"), "--map", os.path.join(out, "map.las"), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=new_session)


def wait_for_steps(out, lines, timeout=60):
    """Waits until frames.jsonl has `lines` lines (the run is well under way). Until the run
    ends the file is frames.jsonl.part (renamed when complete)."""
    path = os.path.join(out, "frames.jsonl.part")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path, "rb") as f:
                if f.read().count(b"\n") >= lines:
                    return
        time.sleep(0.05)
    raise AssertionError(f"{path}: fewer than {lines} lines after {timeout} s")


def read_frames(out):
    with open(os.path.join(out, "frames.jsonl"), "rb") as f:
        data = f.read()
    assert data.endswith(b"\n"), "the last frames.jsonl line is cut"
    return [json.loads(line) for line in data.decode().splitlines()]


class Interrupted(unittest.TestCase):
    def interrupt(self, out, sig, code, times=1):
        p = start(out)
        wait_for_steps(out, 30)
        for i in range(times):
            if i:
                time.sleep(0.02)  # the first has been handled: a duplicate, not a coalesced one
            p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=60)
        return self.stopped_and_closed(p, stdout, stderr, sig, code)

    def stopped_and_closed(self, p, stdout, stderr, sig, code):
        self.assertEqual(p.returncode, code, stderr)
        self.assertNotIn("interrupted again", stderr)
        name = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}[sig]
        m = re.search(rf"ubot: {name}: stopped after step (\d+), outputs closed", stderr)
        self.assertIsNotNone(m, stderr)
        return int(m.group(1)), stdout

    def check_outputs(self, out, last_step, stdout):
        # frames.jsonl: whole lines, every step from 1 to the one the run stopped after.
        frames = read_frames(out)
        self.assertEqual([f["step"] for f in frames[1:]], list(range(1, last_step + 1)))
        # The summary, as at a normal end.
        self.assertIn(f"{WORLD}: {last_step} steps", stdout)
        self.assertRegex(stdout, r"mcap: \d+ messages")
        # The MCAP: summary, footer, indexes and CRCs, and its messages equal frames.jsonl.
        node, script = mcap_reader.install(NPM["mcap"])
        mcap = os.path.join(out, "run.mcap")
        got = mcap_reader.read_with_foxglove(node, script, mcap)
        counts = mcap_reader.check_container(mcap, got, "zstd")
        self.assertEqual(counts["/clock"], last_step + 1)  # the state before step 1, then each
        self.assertGreater(mcap_reader.check_values(got, frames), 0)
        # The map: saved, and what @loaders.gl/las reads is what the summary says was saved.
        points = int(re.search(r"map '[^']+': (\d+) points", stdout).group(1))
        self.assertGreater(points, 100)
        node, script = las_reader.install(NPM["las"])
        cloud = las_reader.read_with_loaders_gl(node, script, os.path.join(out, "map.las"))
        self.assertEqual(cloud["count"], points)
        # world.png drawn; the IMU's CSV has one whole row per sample and its plot is drawn.
        width, height, _, _, rows = read_png(os.path.join(out, "world.png"))
        self.assertEqual((len(rows), len(rows[0]) > 0), (height, width > 0))
        samples = sum(len(s["samples"]) for f in frames[1:] for s in f["sensors"]
                      if s["type"] == "imu")
        with open(os.path.join(out, "scout", "imu_0.csv")) as f:
            csv = f.read()
        self.assertTrue(csv.endswith("\n"))
        self.assertEqual(len(csv.splitlines()), samples + 1)  # and the column names
        self.assertGreater(read_png(os.path.join(out, "scout", "imu_0.png"))[0], 0)

    def test_sigint_finishes_the_step_closes_every_output_and_exits_130(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-int-{os.getpid()}-") as out:
            last, stdout = self.interrupt(out, signal.SIGINT, 130)
            self.check_outputs(out, last, stdout)

    def test_sigterm_does_the_same_and_exits_143(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-term-{os.getpid()}-") as out:
            last, stdout = self.interrupt(out, signal.SIGTERM, 143)
            self.check_outputs(out, last, stdout)

    def test_a_signal_twice_within_a_moment_is_one_interrupt(self):
        # GNU timeout (and a terminal's Ctrl-C) signals ubot and then its process group: in 4
        # of 30 `timeout` runs the second SIGTERM was taken for "interrupt again" and the run
        # exited at once, leaving only .part files.
        with tempfile.TemporaryDirectory(prefix=f"ubot-term2-{os.getpid()}-") as out:
            last, stdout = self.interrupt(out, signal.SIGTERM, 143, times=2)
            self.check_outputs(out, last, stdout)

    def test_gnu_timeout_ends_the_run_with_every_output_closed(self):
        for attempt in range(3):
            with tempfile.TemporaryDirectory(prefix=f"ubot-timeout-{os.getpid()}-") as out:
                # Its own session, as from a shell: timeout's signal to "its group" reaches
                # ubot and timeout, not this test.
                p = start(out, wrapper=("timeout", "--preserve-status", "2"), new_session=True)
                stdout, stderr = p.communicate(timeout=60)
                last, _ = self.stopped_and_closed(p, stdout, stderr, signal.SIGTERM, 143)
                self.assertEqual(read_frames(out)[-1]["step"], last, f"attempt {attempt}")
                self.assertIn(f"{WORLD}: {last} steps", stdout)

    def test_a_signal_while_the_world_loads_ends_it_at_once_writing_nothing(self):
        # Was ignored: a 50 MB world went on loading (14.5 s, 3 GB), then wrote 157 MB of frames.
        with tempfile.TemporaryDirectory(prefix=f"ubot-load-{os.getpid()}-") as out:
            world = os.path.join(out, "big.yaml")
            with open(world, "w") as f:
                f.write("world: {width: 1000, height: 1000}\nobstacle:\n")
                for i in range(400_000):
                    f.write(f"  - {{shape: {{name: circle, radius: 0.1}}, state: "
                            f"[{i % 1000 + 0.5}, {i // 1000 + 0.5}, 0]}}\n")
            runs = os.path.join(out, "run")
            os.makedirs(runs)
            with open(os.path.join(runs, "kept.txt"), "w") as f:
                f.write("a previous file\n")
            for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
                p = subprocess.Popen([UBOT, "run", world, "--out", runs, "--progress"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                line = p.stderr.readline()  # the progress line: the load is under way
                self.assertIn("loading", line)
                sent = time.monotonic()
                p.send_signal(sig)
                stdout, stderr = p.communicate(timeout=60)
                self.assertLess(time.monotonic() - sent, 2.0, stderr)
                self.assertEqual(p.returncode, code, stderr)
                name = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}[sig]
                self.assertIn(f"ubot: {name}: stopped before the first step, nothing written",
                              stderr)
                self.assertEqual(stdout, "")
                self.assertEqual(sorted(os.listdir(runs)), ["kept.txt"])

    def test_a_second_ctrl_c_exits_at_once(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-int2-{os.getpid()}-") as out:
            # The first interrupt is acknowledged at once on stderr; the second, sent as soon as
            # that line is read, lands while the run is still finishing its step or closing its
            # outputs (a 4000 x 3000 camera image rendered and written every step, world.png
            # drawn at the end) and ends the process at once.
            world = os.path.join(out, "camera.yaml")
            with open(world, "w") as f:
                f.write(CAMERA_WORLD)
            p = subprocess.Popen([UBOT, "run", world, "--steps", "1000", "--out", out],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            images = os.path.join(out, "rover", "rgb_camera_0")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (
                    os.path.isdir(images) and len(os.listdir(images)) >= 2):
                time.sleep(0.02)
            p.send_signal(signal.SIGINT)
            stderr = ""
            while "interrupt again to exit at once" not in stderr:
                line = p.stderr.readline()
                self.assertNotEqual(line, "", f"no acknowledgement of the interrupt: {stderr}")
                stderr += line
            # Later than 0.1 s after the first: sooner, it would be the same interrupt twice.
            time.sleep(0.15)
            p.send_signal(signal.SIGINT)
            stdout, rest = p.communicate(timeout=20)
            stderr += rest
            self.assertEqual(p.returncode, 130, stderr)
            self.assertIn("ubot: stopping after the current step (interrupt again to exit at "
                          "once)\n", stderr)
            self.assertIn("ubot: interrupted again: exiting at once, outputs not closed", stderr)
            self.assertNotIn("outputs closed\n", stderr.replace("outputs not closed", ""))
            self.assertEqual(stdout, "")  # no summary: it did not wait for the end
            self.assertFalse(os.path.exists(os.path.join(out, "world.png")))

    def test_quiet_run_interrupted_keeps_its_outputs(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-intq-{os.getpid()}-") as out:
            p = start(out, "--quiet")
            wait_for_steps(out, 10)
            p.send_signal(signal.SIGINT)
            stdout, stderr = p.communicate(timeout=60)
            self.assertEqual(p.returncode, 130, stderr)
            self.assertEqual(stdout, "")
            self.assertGreater(len(read_frames(out)), 10)
            read_png(os.path.join(out, "world.png"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--npm-mcap", required=True)
    parser.add_argument("--npm-las", required=True)
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    NPM.update(mcap=args.npm_mcap, las=args.npm_las)
    unittest.main(argv=[sys.argv[0], *rest])
