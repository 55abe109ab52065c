#!/usr/bin/env python3
"""Issue 16, items 4 and 6: where and how `ubot run` writes. Files appear under their names only
when complete (written as NAME.part, then renamed); an output path that cannot be written fails
before the first step; a reused output folder loses the previous run's files (listed in its
.ubot-outputs manifest) and nothing else; a world file cannot make ubot write outside --out.

usage: test_hostile_outputs.py --ubot PATH/ubot [unittest args]   (Python standard library only)
"""
import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
UBOT = None
MANIFEST = ".ubot-outputs"

CAMERA_WORLD = """
world: {width: 10, height: 10, step_time: 0.1}
robot:
  - name: rover
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 5, 0]
    goal: [[[9, 5, 0], [1, 5, 0]]]
    behavior: {name: dash, loop: true}
    sensors:
      - {name: rgb_camera, width: 32, height: 24, update_rate_hz: 10}
      - {name: imu, update_rate_hz: 10}
"""


def ubot(*args, **kwargs):
    return subprocess.run([UBOT, *args], capture_output=True, text=True, timeout=120, **kwargs)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def files_under(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder).replace(os.sep, "/")
                  for d, _, names in os.walk(folder) for n in names)


class ReusedFolder(unittest.TestCase):
    def test_the_previous_runs_files_go_and_nothing_else(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-reuse-{os.getpid()}-") as tmp:
            world = write(os.path.join(tmp, "cam.yaml"), CAMERA_WORLD)
            out = os.path.join(tmp, "out")
            r = ubot("run", world, "--steps", "12", "--out", out, "--quiet", "--render",
                     "--map", os.path.join(out, "maps", "m.ply"))
            self.assertEqual(r.returncode, 0, r.stderr)
            first = files_under(out)
            self.assertIn("rover/rgb_camera_0/000011.png", first)
            self.assertIn("maps/m.ply", first)
            with open(os.path.join(out, MANIFEST)) as f:
                listed = [line for line in f.read().splitlines() if not line.startswith("#")]
            self.assertEqual(listed, [p for p in first if p != MANIFEST])
            write(os.path.join(out, "notes.txt"), "mine\n")  # not ubot's: must stay
            write(os.path.join(out, "rover", "mine.txt"), "mine\n")
            r = ubot("run", world, "--steps", "3", "--out", out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            second = files_under(out)
            images = [p for p in second if p.startswith("rover/rgb_camera_0/")]
            self.assertEqual(images, [f"rover/rgb_camera_0/00000{i}.png" for i in range(3)])
            self.assertNotIn("run.gif", second)  # the first run's, not written by this one
            self.assertFalse(os.path.exists(os.path.join(out, "maps")))  # emptied, removed
            self.assertIn("notes.txt", second)
            self.assertIn("rover/mine.txt", second)
            with open(os.path.join(out, MANIFEST)) as f:
                listed = [line for line in f.read().splitlines() if not line.startswith("#")]
            self.assertEqual(listed, [p for p in second if p not in (MANIFEST, "notes.txt",
                                                                     "rover/mine.txt")])

    def test_a_hostile_manifest_cannot_remove_anything_outside_the_folder(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-manifest-{os.getpid()}-") as tmp:
            victim = write(os.path.join(tmp, "victim.txt"), "keep\n")
            inner = os.path.join(tmp, "out", "sub")
            os.makedirs(inner)
            os.symlink(tmp, os.path.join(tmp, "out", "link"))
            write(os.path.join(tmp, "out", MANIFEST),
                  f"../victim.txt\n{victim}\nsub/../../victim.txt\nlink/victim.txt\nsub\n")
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "2", "--out",
                     os.path.join(tmp, "out"), "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(victim))
            self.assertTrue(os.path.isdir(inner))  # a folder named in it is not removed


class SafeWrites(unittest.TestCase):
    def test_no_part_file_is_left_after_a_run(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-part-{os.getpid()}-") as out:
            r = ubot("run", os.path.join(EXAMPLES, "warehouse.yaml"), "--steps", "20", "--out",
                     out, "--quiet", "--render", "--map", os.path.join(out, "m.pcd"), "--mcap",
                     os.path.join(out, "r.mcap"))
            self.assertEqual(r.returncode, 0, r.stderr)
            names = files_under(out)
            self.assertEqual([n for n in names if n.endswith(".part")], [])
            for n in ("frames.jsonl", "world.png", "run.gif", "m.pcd", "r.mcap", MANIFEST):
                self.assertIn(n, names)

    @staticmethod
    def start_long_run(out):
        """A run of mcap_world.yaml slowed to 5x real time, recording into `out`: long enough to
        be looked at, signalled or killed while it writes."""
        return subprocess.Popen([UBOT, "run", os.path.join(ROOT, "tests", "data", "mcap_world.yaml"),
                                 "--steps", "100000", "--realtime", "5", "--out", out, "--quiet",
                                 "--mcap", os.path.join(out, "r.mcap")])

    def wait_for(self, path, seconds=60):
        deadline = time.monotonic() + seconds
        while not os.path.exists(path):
            self.assertLess(time.monotonic(), deadline, f"{path} never appeared")
            time.sleep(0.05)

    def test_during_a_run_outputs_exist_only_as_part_files(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-during-{os.getpid()}-") as out:
            p = self.start_long_run(out)
            try:
                self.wait_for(os.path.join(out, "r.mcap.part"))
                time.sleep(0.5)
                self.assertTrue(os.path.exists(os.path.join(out, "frames.jsonl.part")))
                self.assertFalse(os.path.exists(os.path.join(out, "frames.jsonl")))
                self.assertFalse(os.path.exists(os.path.join(out, "r.mcap")))
            finally:
                p.send_signal(signal.SIGINT)
                self.assertEqual(p.wait(timeout=60), 130)
            self.assertTrue(os.path.exists(os.path.join(out, "frames.jsonl")))
            self.assertFalse(os.path.exists(os.path.join(out, "frames.jsonl.part")))

    def test_a_killed_runs_part_files_are_removed_by_the_next_run(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-killed-{os.getpid()}-") as out:
            p = self.start_long_run(out)
            try:
                self.wait_for(os.path.join(out, "frames.jsonl.part"))
            finally:
                p.kill()  # SIGKILL: no handler runs, no manifest is written
                p.wait(timeout=60)
            left = [n for n in files_under(out) if n.endswith(".part")]
            self.assertIn("frames.jsonl.part", left)
            self.assertNotIn(MANIFEST, files_under(out))
            os.makedirs(os.path.join(out, "sub"))
            write(os.path.join(out, "sub", "old.bin.part"), "a .part file in a subfolder")
            write(os.path.join(out, "notes.txt"), "the user's own file")
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out",
                     out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            # Said once, even with --quiet: these were not this run's files.
            # Naming the killed run: its pid and when it started (UTC).
            self.assertRegex(r.stderr, rf"ubot: {out}: an earlier run into this folder did not "
                             rf"finish \(killed: pid {p.pid}, started \d{{4}}-\d\d-\d\d "
                             r"\d\d:\d\d:\d\d UTC\); removed the \d+ files it had written and "
                             r"[1-9]\d* unfinished \.part files\n")
            names = files_under(out)
            self.assertEqual([n for n in names if n.endswith(".part")], [])
            self.assertIn("notes.txt", names)
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out",
                     out, "--quiet")
            self.assertEqual(r.stderr, "")  # a finished run's files are replaced silently
            self.assertIn("frames.jsonl", names)

    def test_a_second_run_into_a_folder_in_use_is_refused_and_touches_nothing(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-busy-{os.getpid()}-") as out:
            p = self.start_long_run(out)
            try:
                self.wait_for(os.path.join(out, "frames.jsonl.part"))
                before = files_under(out)
                r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3",
                         "--out", out, "--quiet")
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("another ubot run is writing its outputs into this folder", r.stderr)
                self.assertIn(out, r.stderr)
                self.assertEqual(files_under(out), before)  # the first run's files are all there
                self.assertIsNone(p.poll())  # and it runs on
            finally:
                p.send_signal(signal.SIGINT)
                self.assertEqual(p.wait(timeout=60), 130)
            self.assertIn("frames.jsonl", files_under(out))
            # Once the first run has ended, the folder is free again (and after a SIGKILL too:
            # the lock is the process's own).
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out",
                     out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            p = self.start_long_run(out)
            self.wait_for(os.path.join(out, "frames.jsonl.part"))
            p.kill()
            p.wait(timeout=60)
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out",
                     out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_link_planted_as_a_part_file_is_not_followed(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-link-{os.getpid()}-") as top:
            out = os.path.join(top, "out")
            os.makedirs(out)
            victim = write(os.path.join(top, "victim.txt"), "not ubot's to write")
            for name in ("frames.jsonl.part", "world.png.part", "run.gif.part", "r.mcap.part",
                         ".ubot-outputs.part"):
                os.symlink(victim, os.path.join(out, name))
            os.symlink(os.path.join(top, "nowhere"), os.path.join(out, "objects.parquet.part"))
            r = ubot("run", os.path.join(EXAMPLES, "lidar_world.yaml"), "--steps", "3", "--out",
                     out, "--quiet", "--render", "--mcap", os.path.join(out, "r.mcap"),
                     "--frames-format", "jsonl,parquet")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(victim) as f:
                self.assertEqual(f.read(), "not ubot's to write")
            self.assertFalse(os.path.exists(os.path.join(top, "nowhere")))
            names = files_under(out)
            for name in ("frames.jsonl", "world.png", "run.gif", "r.mcap", "objects.parquet"):
                self.assertIn(name, names)
                self.assertFalse(os.path.islink(os.path.join(out, name)))
            self.assertEqual([n for n in names if n.endswith(".part")], [])

    def test_a_killed_runs_camera_images_are_removed_by_the_next_run(self):
        # Issue 27, item 4: a killed run's images are whole files under their names (each is
        # renamed once written) but no manifest lists them; the journal .ubot-outputs.part does.
        with tempfile.TemporaryDirectory(prefix=f"ubot-killed-cam-{os.getpid()}-") as tmp:
            world = write(os.path.join(tmp, "cam.yaml"), CAMERA_WORLD)
            out = os.path.join(tmp, "out")
            p = subprocess.Popen([UBOT, "run", world, "--steps", "100000", "--realtime", "5",
                                  "--out", out, "--quiet"])
            try:
                self.wait_for(os.path.join(out, "rover", "rgb_camera_0", "000012.png"))
            finally:
                p.kill()
                p.wait(timeout=60)
            killed = [n for n in files_under(out) if n.endswith(".png")]
            self.assertGreaterEqual(len(killed), 13)
            with open(os.path.join(out, MANIFEST + ".part")) as f:
                journal = [line.strip() for line in f if not line.startswith("#")]
            self.assertEqual(sorted(set(killed) - set(journal)), [])
            r = ubot("run", world, "--steps", "3", "--out", out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, MANIFEST)) as f:
                listed = {line.strip() for line in f if not line.startswith("#")}
            pngs = [n for n in files_under(out) if n.endswith(".png")]
            images = [n for n in pngs if n.startswith("rover/rgb_camera_0/")]
            self.assertEqual(images, [f"rover/rgb_camera_0/00000{i}.png" for i in range(3)])
            self.assertEqual(sorted(set(pngs) - listed), [])  # the plots too: this run's
            self.assertEqual([n for n in files_under(out) if n.endswith(".part")], [])

    def test_a_full_disk_leaves_no_truncated_file_under_its_name(self):
        # RLIMIT_FSIZE stands in for a full disk: a write past 64 KiB fails (EFBIG; SIGXFSZ,
        # which would kill the process instead, is ignored, as a full disk sends none).
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        with tempfile.TemporaryDirectory(prefix=f"ubot-full-{os.getpid()}-") as out:
            r = subprocess.run([UBOT, "run", os.path.join(EXAMPLES, "lidar_world.yaml"),
                                "--steps", "300", "--out", out, "--quiet"],
                               capture_output=True, text=True, timeout=120, preexec_fn=limit)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(os.path.join(out, "frames.jsonl") + ": write failed: File too large",
                          r.stderr)
            self.assertFalse(os.path.exists(os.path.join(out, "frames.jsonl")))


class WritableBeforeTheFirstStep(unittest.TestCase):
    def refused_at_once(self, *args, needle):
        start = time.monotonic()
        r = ubot("run", os.path.join(ROOT, "tests", "data", "mcap_world.yaml"), "--steps",
                 "100000000", *args)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(needle, r.stderr)
        self.assertLess(time.monotonic() - start, 20)  # not after 10^8 steps
        return r

    def test_an_unwritable_map_path_fails_before_the_run(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-map-{os.getpid()}-") as out:
            self.refused_at_once("--out", out, "--map", "/proc/ubot-map.las",
                                 needle="/proc/ubot-map.las: cannot be written")
            self.assertFalse(os.path.exists(os.path.join(out, "frames.jsonl")))
            os.makedirs(os.path.join(out, "taken.las"))
            self.refused_at_once("--out", out, "--map", os.path.join(out, "taken.las"),
                                 needle="taken.las: cannot be written: it is a directory")

    def test_an_unwritable_output_folder_fails_before_the_run(self):
        self.refused_at_once("--out", "/proc/ubot-out", needle="/proc/ubot-out")

    def test_a_system_folder_is_refused_as_the_output_folder(self):
        # As root, `--out /dev` wrote frames.jsonl, world.png and .ubot-outputs into /dev.
        for folder, system in (("/dev", "dev"), ("/dev/ubot-out", "dev"), ("/sys/kernel", "sys"),
                               ("/proc/self", "proc")):
            self.refused_at_once("--out", folder, needle=f"{folder}: is under /{system}, a "
                                 "folder of the kernel's, not one for outputs; choose another --out")
        with tempfile.TemporaryDirectory(prefix=f"ubot-devlink-{os.getpid()}-") as tmp:
            link = os.path.join(tmp, "out")
            os.symlink("/dev", link)  # a link is followed to where it leads
            self.refused_at_once("--out", link, needle=f"{link}: is under /dev")
        for name in ("frames.jsonl", "frames.jsonl.part", "world.png", ".ubot-outputs"):
            self.assertFalse(os.path.lexists(os.path.join("/dev", name)), name)
        # /dev/shm, the memory file system, is a place users write runs to.
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            with tempfile.TemporaryDirectory(prefix=f"ubot-shm-{os.getpid()}-",
                                             dir="/dev/shm") as out:
                r = ubot("run", os.path.join(ROOT, "tests", "data", "mcap_world.yaml"), "--steps",
                         "3", "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(os.path.exists(os.path.join(out, "frames.jsonl")))


class InsideTheOutputFolder(unittest.TestCase):
    NAMES_WORLD = """
world: {width: 10, height: 10}
robot:
  - name: ../../escape
    kinematics: {name: diff}
    state: [1, 5, 0]
    goal: [9, 5, 0]
    sensors:
      - {name: imu, update_rate_hz: 10}
  - name: /etc/passwd
    kinematics: {name: diff}
    state: [1, 2, 0]
    goal: [9, 2, 0]
    sensors:
      - {name: rgb_camera, width: 8, height: 6}
"""

    def test_object_and_sensor_names_become_file_safe_names_inside_out(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-names-{os.getpid()}-") as tmp:
            world = write(os.path.join(tmp, "w.yaml"), self.NAMES_WORLD)
            out = os.path.join(tmp, "a", "b", "out")
            r = ubot("run", world, "--steps", "2", "--out", out, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["a", "w.yaml"])
            self.assertEqual(os.listdir(os.path.join(tmp, "a")), ["b"])
            self.assertEqual(os.listdir(os.path.join(tmp, "a", "b")), ["out"])
            files = files_under(out)
            self.assertIn("___.__escape/imu_0.csv", files)  # no "..", no separator
            self.assertIn("_etc_passwd/rgb_camera_0/000000.png", files)
            for f in files:
                self.assertNotIn("..", f)

    def test_two_names_equal_once_file_safe_are_refused_not_overwritten(self):
        # "a/b" and "a_b" both become a_b: the second IMU's CSV would replace the first's.
        with tempfile.TemporaryDirectory(prefix=f"ubot-clash-{os.getpid()}-") as tmp:
            world = write(os.path.join(tmp, "w.yaml"),
                          "robot:\n  - name: a/b\n    sensors: [{name: imu}]\n"
                          "  - name: a_b\n    state: [2, 2, 0]\n    sensors: [{name: imu}]\n")
            r = ubot("run", world, "--steps", "1", "--out", os.path.join(tmp, "o"), "--quiet")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"'a/b/imu_0' and 'a_b/imu_0' would both write "
                          f"{os.path.join(tmp, 'o', 'a_b', 'imu_0.csv')}", r.stderr)
            world = write(os.path.join(tmp, "w.yaml"),
                          "robot:\n  - name: cam.1\n    sensors: [{name: rgb_camera}]\n"
                          "  - name: cam_1\n    state: [2, 2, 0]\n    sensors: [{name: rgb_camera}]\n")
            r = ubot("run", world, "--steps", "1", "--out", os.path.join(tmp, "o"), "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)  # '.' is kept: no clash
            world = write(os.path.join(tmp, "w.yaml"),
                          "robot:\n  - name: cam 1\n    sensors: [{name: rgb_camera}]\n"
                          "  - name: cam_1\n    state: [2, 2, 0]\n    sensors: [{name: rgb_camera}]\n")
            r = ubot("run", world, "--steps", "1", "--out", os.path.join(tmp, "o"), "--quiet")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("'cam 1/rgb_camera_0' and 'cam_1/rgb_camera_0' would both write", r.stderr)

    def test_a_world_cannot_send_a_map_outside_out(self):
        with tempfile.TemporaryDirectory(prefix=f"ubot-escape-{os.getpid()}-") as tmp:
            for output, message in (
                    ("/tmp/evil.las", "'/tmp/evil.las' is an absolute path; a world's outputs "
                                      "stay inside --out"),
                    ("../../evil.las", "'../../evil.las' leaves the output folder ('..')"),
                    ("maps/../../evil", "'maps/../../evil' leaves the output folder")):
                with self.subTest(output=output):
                    world = write(os.path.join(tmp, "w.yaml"),
                                  "robot:\n  - sensors: [{name: lidar2d}]\n"
                                  f"mapping:\n  output: {output}\n")
                    for command in (["validate", world], ["run", world, "--out", tmp]):
                        r = ubot(*command)
                        self.assertEqual(r.returncode, 2, r.stderr)
                        self.assertIn(f"{world}:4:11: mapping.output: {message}", r.stderr)
            # A map name cannot do it either; --map PATH on the command line may go anywhere.
            world = write(os.path.join(tmp, "w.yaml"),
                          "robot:\n  - sensors: [{name: lidar2d}]\nmapping: {name: ..}\n")
            r = ubot("validate", world)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"{world}:3:17: mapping.name: a map name must be non-empty", r.stderr)
            world = write(os.path.join(tmp, "w.yaml"),
                          "robot:\n  - sensors: [{name: lidar2d}]\nmapping: {output: m}\n")
            elsewhere = os.path.join(tmp, "elsewhere", "m.las")
            r = ubot("run", world, "--steps", "3", "--out", os.path.join(tmp, "out"), "--quiet",
                     "--map", elsewhere)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(elsewhere))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    unittest.main(argv=[sys.argv[0], *rest])
