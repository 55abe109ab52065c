#!/usr/bin/env python3
"""The live view's end-to-end tests (docs/live.md), with real clients: Foxglove's own protocol
client and ROS 2 message readers (npm @foxglove/ws-protocol, @foxglove/rosmsg,
@foxglove/rosmsg2-serialization), Debian's Chromium driven by playwright-core, and hostile
clients (npm ws, raw sockets).

usage: run_live_tests.py --ubot PATH --npm-dir DIR --out DIR SCENARIO
  channels  every channel decodes, and the channels are the MCAP recording's (both subprotocols)
  teleop    a Twist published as Foxglove's Teleop panel does drives the robot; released after
            the timeout; a wrong schema is refused with a status message
  control   pause, single steps and speed as the server's parameters
  camera    each camera's camera_info (alone, then with image_raw) decodes and matches its image
            and the world's intrinsics (tests/camera_info_check.py)
  page      the page in Chromium: draws the world, selects a robot by a click, drives it with
            IR-SIM's keys, pauses and steps; screenshots in --out
  hostile   malformed and oversized frames, a publish flood, 200 connections, a client that never
            reads, a slow-loris request: the run goes on, memory stays bounded
  replay    `ubot play RECORDING`: the recording's channels byte for byte at their times, pause,
            seek and speed as parameters, commands refused; a bad file: exit 2 naming it
  replay_page  the page over `ubot play` in Chromium: draws the recorded world, selects a robot,
            shows its sensors, pauses and seeks; screenshots in --out
  access    loopback by default; another address needs a token (exit 2 before listening without
            one; 401 without it on the page and the WebSocket); a port in use: exit 2 naming it;
            Ctrl-C: exit 130 with the MCAP closed

The npm packages are installed into DIR (npm registry) first; then the scenario runs inside a
private network namespace with only loopback up (tests/ros2/interop/run_isolated.sh), when the
machine allows one.
"""
import argparse
import atexit
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import camera_info_check  # noqa: E402  (tests/camera_info_check.py)
import npm_readers  # noqa: E402  (tests/npm_readers.py)
from npm_readers import fail  # noqa: E402

PACKAGES = ["@foxglove/ws-protocol@0.8.0", "@foxglove/rosmsg@5.0.5",
            "@foxglove/rosmsg2-serialization@3.1.0", "@mcap/core@2.2.2", "ws@8.23.0",
            "playwright-core@1.65.1"]
WORLD = os.path.join(ROOT, "tests", "data", "live_world.yaml")
CAMERA_WORLD = os.path.join(ROOT, "tests", "data", "camera_info_world.yaml")
ISOLATE = os.path.join(ROOT, "tests", "ros2", "interop", "run_isolated.sh")


def check(condition, message):
    if not condition:
        fail(message)


RUNNING = []  # ubot processes a failing check leaves behind are killed at exit


@atexit.register
def kill_leftovers():
    for proc in RUNNING:
        if proc.poll() is None:
            proc.kill()


class LiveRun:
    """`ubot run --live 127.0.0.1:0` in the background; the URL from its first line."""

    def __init__(self, ubot, out, *extra, address="127.0.0.1:0", env=None, world=WORLD):
        self._start([ubot, "run", world, "--live", address, "--out", out, "--quiet", *extra], env)

    def _start(self, command, env=None):
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)
        RUNNING.append(self.proc)
        line = self.proc.stdout.readline()
        m = re.match(r"live view at (http://([^/]+):(\d+)/\S*)", line)
        if not m:
            self.proc.kill()
            fail(f"{' '.join(command[:2])} printed {line!r}, not 'live view at URL'; stderr:\n"
                 f"{self.proc.stderr.read()}")
        self.url, self.host, self.port = m.group(1), m.group(2), int(m.group(3))
        self.ws = f"ws://{self.host}:{self.port}/"

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("ubot did not end within 20 s of SIGINT")
        return code, self.proc.stderr.read()


class PlayRun(LiveRun):
    """`ubot play RECORDING --live 127.0.0.1:0` in the background."""

    def __init__(self, ubot, recording, *extra):
        self._start([ubot, "play", recording, "--live", "127.0.0.1:0", *extra])
        self.summary = self.proc.stdout.readline()


def record(a, name, steps, compression="zstd"):
    """A recording of the live world, for the replay scenarios."""
    mcap = os.path.join(a.out, f"{name}.mcap")
    subprocess.run([a.ubot, "run", WORLD, "--steps", str(steps), "--mcap", mcap,
                    "--mcap-compression", compression, "--out", os.path.join(a.out, name),
                    "--quiet", "--frames", "none"], check=True)
    return mcap


def node(npm_dir, script, *args, timeout=120):
    path = os.path.join(npm_dir, os.path.basename(script))
    r = subprocess.run(["node", path, *map(str, args)], capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        fail(f"{os.path.basename(script)} {' '.join(map(str, args))} failed:\n{r.stdout}\n{r.stderr}")
    return json.loads(r.stdout)


def scenario_channels(a):
    mcap = os.path.join(a.out, "reference.mcap")
    subprocess.run([a.ubot, "run", WORLD, "--steps", "20", "--mcap", mcap, "--mcap-compression",
                    "none", "--out", os.path.join(a.out, "reference"), "--quiet"], check=True)
    for subprotocol in ("foxglove.websocket.v1", "foxglove.sdk.v1"):
        run = LiveRun(a.ubot, os.path.join(a.out, "run"))
        r = node(a.npm_dir, "foxglove_client.mjs", run.ws, subprotocol, "channels", mcap)
        run.stop()
        info = r["serverInfo"]
        check(set(info["capabilities"]) >= {"clientPublish", "parameters", "time"},
              f"serverInfo capabilities: {info['capabilities']}")
        check(set(info["supportedEncodings"]) == {"cdr", "json"}, f"encodings {info}")
        check(not r["statuses"], f"status messages on a clean run: {r['statuses']}")
        live = {c["topic"]: c for c in r["channels"]}
        recorded = {c["topic"]: c for c in r["mcap"]}
        for topic, c in recorded.items():
            check(topic in live, f"{subprotocol}: the MCAP channel {topic} is not served live")
            for key in ("encoding", "schemaName", "schemaEncoding", "schema"):
                check(live[topic][key] == c[key],
                      f"{topic}: live {key} {live[topic][key]!r} != MCAP's {c[key]!r}")
        extra = set(live) - set(recorded)
        check(extra == {"/ubot/world", "/ubot/frame"}, f"channels beyond the MCAP's: {extra}")
        for topic in live:
            check(r["seen"].get(topic, {}).get("count", 0) > 0,
                  f"{subprotocol}: no message decoded on {topic}: {r['seen'].get(topic)}")
        scan = r["seen"]["/rover/scan"]["first"]
        check(scan["range_max"] == 5 and scan["header"]["frame_id"] == "rover/lidar2d_0",
              f"the scan decoded wrong: {scan}")
        check(r["lastTime"] and r["lastTime"] > 0, "no Time frames")
    print("ok: every MCAP channel is served live with its schema; every channel decodes with "
          "Foxglove's readers, on both subprotocols")


def twist_of(odom):
    return odom["twist"]["twist"]


def scenario_teleop(a):
    run = LiveRun(a.ubot, os.path.join(a.out, "run"))
    r = node(a.npm_dir, "foxglove_client.mjs", run.ws, "foxglove.websocket.v1", "teleop")
    code, _ = run.stop()
    check(code == 130, f"exit code {code} after SIGINT, expected 130")
    before, driven, released = (twist_of(r[k]) for k in ("before", "driven", "released"))
    check(abs(before["linear"]["x"] - 0.4) > 0.1 or before["angular"]["z"] != -0.7,
          f"the robot already moved as commanded before any command: {before}")
    check(abs(driven["linear"]["x"] - 0.4) < 1e-9 and abs(driven["angular"]["z"] + 0.7) < 1e-9,
          f"odometry while driven: {driven}, expected linear.x 0.4, angular.z -0.7")
    check(not (abs(released["linear"]["x"] - 0.4) < 1e-9 and abs(released["angular"]["z"] + 0.7) < 1e-9),
          f"still driven 1.5 s after the last command (timeout 0.5 s): {released}")
    check(any("carries geometry_msgs/msg/Twist" in s["message"] for s in r["statuses"]),
          f"a wrong schema got no status message: {r['statuses']}")
    print("ok: Foxglove-style CDR Twist drives /rover; released after the timeout; a wrong "
          "schema is refused")


def scenario_control(a):
    run = LiveRun(a.ubot, os.path.join(a.out, "run"))
    r = node(a.npm_dir, "foxglove_client.mjs", run.ws, "foxglove.websocket.v1", "control")
    run.stop()
    check(r["pausedSteps"][0] == r["pausedSteps"][1], f"the run stepped while paused: {r}")
    check(r["clockMessagesForSteps"] == 3, f"/ubot/step 3 gave {r['clockMessagesForSteps']} steps")
    check(r["afterStep"] == r["pausedSteps"][1] + 3, f"the frame after 3 steps: {r}")
    # At 0.05 s a step, real time is 20 steps/s: "as fast as possible" must beat it by far.
    check(r["fastSteps"] > 100, f"speed 0 ran {r['fastSteps']} steps in 1 s")
    check(any("/ubot/speed: must be a number" in s["message"] for s in r["statuses"]),
          f"a bad speed got no status: {r['statuses']}")
    check(r["parameters"] == {"/ubot/paused": False, "/ubot/speed": 0}, f"{r['parameters']}")
    print("ok: pause, single steps and speed through Foxglove parameters")


def scenario_camera(a):
    run = LiveRun(a.ubot, os.path.join(a.out, "run"), world=CAMERA_WORLD)
    r = node(a.npm_dir, "foxglove_client.mjs", run.ws, "foxglove.websocket.v1", "camera")
    run.stop()
    check(not r["statuses"], f"status messages: {r['statuses']}")
    types = {"camera_info": "sensor_msgs/msg/CameraInfo", "image_raw": "sensor_msgs/msg/Image"}

    def stamp(m):
        return m["msg"]["header"]["stamp"]["sec"] * 10**9 + m["msg"]["header"]["stamp"]["nanosec"]

    errors, counts = [], []
    for prefix, want in camera_info_check.world_cameras(CAMERA_WORLD).items():
        got = {kind: [m for m in r["camera"] if m["topic"] == f"{prefix}/{kind}"] for kind in types}
        for kind, ms in got.items():
            check(ms and all(m["schemaName"] == types[kind] for m in ms),
                  f"{prefix}/{kind}: {len(ms)} messages, schemas {({m['schemaName'] for m in ms})}")
        images = {stamp(m): m for m in got["image_raw"]}
        infos = {stamp(m): m for m in got["camera_info"]}
        # camera_info alone is served (a 3D panel can draw the frustum from it) ...
        alone = [t for t in infos if t < min(images)]
        check(alone, f"{prefix}: no camera_info before image_raw was subscribed")
        # ... then each image comes with its camera_info (the last image's may be cut off).
        check(set(images) - {max(images)} <= set(infos),
              f"{prefix}: images at {sorted(set(images) - set(infos))} have no camera_info")
        for t, info in infos.items():
            where = f"{prefix} at {t} ns"
            if t in alone:  # no image to compare with: the header's frame and the world's size
                check(info["msg"]["header"]["frame_id"] == want["frame_id"], f"{where}: frame")
                image = {"header": info["msg"]["header"], "width": want["width"],
                         "height": want["height"]}
            else:
                check(t in images, f"{where}: a camera_info without its image")
                check(info["timestamp"] == images[t]["timestamp"], f"{where}: log times differ")
                image = images[t]["msg"]
                errors += camera_info_check.check_image(image, want, where, image["dataLength"])
            errors += camera_info_check.check_info(info["msg"], image, want, where)
        pairs = len(infos) - len(alone)
        check(pairs >= 3, f"{prefix}: only {pairs} image + camera_info pairs")
        counts.append(f"{prefix}: {len(alone)} alone, {pairs} with images")
    if errors:
        fail("\n".join(errors))
    print(f"ok: camera_info decoded with Foxglove's readers matches the images and the world's "
          f"intrinsics (plumb_bob, zero distortion); {'; '.join(counts)}")


def scenario_page(a):
    run = LiveRun(a.ubot, os.path.join(a.out, "run"))
    r = node(a.npm_dir, "page_test.mjs", run.url, a.out, timeout=180)
    run.stop()
    check(not r["errors"], f"the page reported errors: {r['errors']}")
    # Nothing selected: the keys drive the first robot (the rover), and the page says so.
    check(r["drivesUnselected"] == "keys drive: rover",
          f"the page says the keys drive {r['drivesUnselected']!r}, not the rover")
    check(r["commandsUnselected"] > 0 and r["selectedAfterKeys"] is None and
          r["lastCommandUnselected"]["topic"].endswith("rover/cmd_vel"),
          f"a drive key with nothing selected: {r['commandsUnselected']} commands, last "
          f"{r['lastCommandUnselected']}, selected {r['selectedAfterKeys']}")
    outside = [u for u in r["requests"] if not u.startswith(f"http://{run.host}:{run.port}/")
               and not u.startswith("ws://")]
    check(not outside, f"the page asked for something its server does not serve: {outside}")
    check(r["canvas"]["painted"] > 2000, f"the canvas shows almost nothing: {r['canvas']}")
    # Drawn from the markers (the beams in /ubot/markers): no robot's scan, odometry or /tf is
    # read at every step, only the selected robot's sensor views later.
    drawn = r["drawn"]
    check({"/ubot/markers/static", "/ubot/markers"} <= set(drawn["markerTopics"]) and
          drawn["drawnBeams"] >= 16 and drawn["scans"] == 0 and drawn["robots"] == 0,
          f"what the page drew: {drawn}")
    check(set(r["subscribed"]) == {"/ubot/world", "/ubot/frame", "/ubot/markers/static",
                                   "/ubot/markers", "/ubot/trajectories"},
          f"the page subscribed to {r['subscribed']}")
    d = r["detail"]
    check(d["name"] == "rover" and any(s.get("scan") for s in d["sensors"]),
          f"the selected robot's detail: {d}")
    # The views by sensor type (sensor names are <type>_<index among the robot's sensors>).
    views = {re.sub(r"^view-|_\d+$", "", v["id"]): v for v in r["sensorViews"]}
    topics = {k: v["topic"] for k, v in views.items()}
    cameras = {k: re.fullmatch(rf"/rover/{k}_\d+/image_raw", topics.get(k, "")) is not None
               for k in ("rgb_camera", "depth_camera")}
    check(topics.get("imu") == "/rover/imu" and topics.get("lidar3d") == "/rover/points" and
          all(cameras.values()), f"the rover's sensor views: {views}")
    check(views["lidar3d"]["drawn"] > 1000, f"the 3D view drew few points: {views}")
    px = {re.sub(r"^view-|_\d+$", "", k): p for k, p in r["sensorPixels"].items()}
    check(px["rgb_camera"]["width"] == 32 and px["rgb_camera"]["height"] == 24,
          f"the camera view is not the 32 x 24 image: {px}")
    # A canvas nothing was drawn on reads one colour (transparent black). A 32 x 24 image of this
    # small world may hold only the sky and an obstacle; traces and point clouds hold more.
    for name, p in px.items():
        least = 2 if name.endswith("_camera") else 4
        check(p["colours"] >= least, f"{name} shows almost nothing: {p}")
    turn, fwd, stop = r["turning"]["velocity"], r["forward"]["velocity"], r["stopped"]["velocity"]
    # rover: diff, vel_max [1.0, 1.5], vel_min the default [-1, -1]. 'd' = full right turn on
    # the spot (vel_min's turn rate), 'w' = full ahead (vel_max's speed).
    check(turn == [0, -1], f"holding 'd': velocity {turn}, expected [0, -1]")
    check(fwd == [1.0, 0], f"holding 'w': velocity {fwd}, expected [1, 0]")
    check(stop == [0, 0], f"after space: velocity {stop}, expected [0, 0]")
    p = r["pause"]
    check(p["afterStep"] == p["restStep"] + 1 and p["settled"] == p["afterStep"],
          f"one step while paused: {p}")
    for name in ("live_page.png", "live_page_sensors.png", "live_page_driving.png"):
        check(os.path.getsize(os.path.join(a.out, name)) > 10000, f"screenshot {name} is empty")
    print(f"ok: the page draws the world, selects the rover and shows its IMU, 3D lidar and "
          f"camera channels, drives it, pauses and steps (screenshots in {a.out})")


def scenario_hostile(a):
    run = LiveRun(a.ubot, os.path.join(a.out, "run"))
    r = node(a.npm_dir, "hostile.mjs", run.host, run.port, run.proc.pid, timeout=240)
    code, stderr = run.stop()
    check(code == 130, f"exit {code} after the hostile clients and SIGINT; stderr:\n{stderr}")
    m = r["malformed"]
    check(m["open"] and m["statuses"] >= m["sent"],
          f"malformed frames: {m['statuses']} status messages for {m['sent']} frames: {m}")
    check(r["oversized"]["closed"], "a 2 MiB frame did not close its connection")
    check(r["flood"]["open"] and r["flood"]["rssGrowthKiB"] < 64 * 1024, f"flood: {r['flood']}")
    check(r["many"]["connected"] == 200 and r["many"]["served"] == 200, f"200 clients: {r['many']}")
    check(r["neverReads"]["othersServed"] and r["neverReads"]["rssGrowthKiB"] < 64 * 1024,
          f"a client that never reads: {r['neverReads']}")
    s = r["slowLoris"]
    check(s["othersServed"] and s["closedAfterS"] is not None and s["closedAfterS"] < 13,
          f"slow loris: {s}")
    check(r["noSubprotocol"] == 400, f"no subprotocol: {r['noSubprotocol']}")
    for k in ("healthyAfterMalformed", "healthyAfterOversized", "healthyAfterFlood",
              "healthyAfterMany"):
        check(r[k], f"{k}: a well-behaved client was not served")
    print("ok: hostile clients get status messages or are dropped; the run and others go on")


def scenario_replay(a):
    # Uncompressed, so that the client can compare bytes with @mcap/core alone (it has no zstd);
    # reading zstd chunks is McapReaderCompression's, and replay_page replays a zstd recording.
    mcap = record(a, "recorded", 80, compression="none")  # 4 s of simulation time
    run = PlayRun(a.ubot, mcap)
    check(re.match(r"playing .*recorded\.mcap: \d+ messages on \d+ channels, 0\.000 … 4\.000 s",
                   run.summary), f"the summary line: {run.summary!r}")
    r = node(a.npm_dir, "foxglove_client.mjs", run.ws, "foxglove.websocket.v1", "replay", mcap)
    code, stderr = run.stop()
    check(code == 130 and "replay stopped" in stderr, f"SIGINT: exit {code}: {stderr}")
    live = {c["topic"]: c for c in r["channels"]}
    for c in r["mcap"]:
        check(c["topic"] in live, f"the recording's {c['topic']} is not served")
        for key in ("encoding", "schemaName", "schemaEncoding", "schema"):
            check(live[c["topic"]][key] == c[key], f"{c['topic']}: {key} differs from the file's")
    check(set(live) - {c["topic"] for c in r["mcap"]} == {"/ubot/playback"},
          f"channels beyond the recording's: {set(live)}")
    seen = r["seen"]
    for topic in live:
        check(seen.get(topic, {}).get("count", 0) > 0, f"nothing received on {topic}")
    for topic, e in seen.items():
        check(e["unrecorded"] == 0 and e["different"] == 0,
              f"{topic}: {e['unrecorded']} messages at times the file has none, "
              f"{e['different']} with other bytes than the file's")
    before, after = r["paused"]["before"], r["paused"]["after"]
    check(before == after and r["paused"]["t"] < 4.0, f"the clock moved while paused: {r['paused']}")
    seek = r["seek"]
    check(abs(seek["clock"] - 1.5) < 1e-9 and seek["t"] == 1.5,
          f"after seeking to 1.5 s: /clock {seek['clock']}, playback t {seek['t']}")
    check({"/clock", "/tf", "/rover/odom", "/rover/scan", "/ubot/markers"} <= set(seek["backfilled"]),
          f"the channels' state at 1.5 s was not sent on the seek: {seek['backfilled']}")
    end = r["end"]
    check(end["playback"]["t"] == 4.0 and abs(end["clock"] - 4.0) < 1e-9,
          f"at max speed it did not pause at the end: {end}")
    statuses = " | ".join(s["message"] for s in r["statuses"])
    for expected in ("must be a time in the recording", "/ubot/speed: must be a number",
                     "a recording takes no commands"):
        check(expected in statuses, f"no status saying {expected!r}: {statuses}")
    # A damaged file: exit 2 naming it, before anything listens.
    bad = os.path.join(a.out, "bad.mcap")
    with open(bad, "wb") as f:
        f.write(b"\x89MCAP0\r\n" + b"\x01" + (1 << 40).to_bytes(8, "little"))
    p = subprocess.run([a.ubot, "play", bad, "--live", "127.0.0.1:0"], capture_output=True,
                       text=True, timeout=30)
    check(p.returncode == 2 and "bad.mcap" in p.stderr and "live view at" not in p.stdout,
          f"a damaged recording: exit {p.returncode}: {p.stderr}")
    print("ok: ubot play serves the recording's channels byte for byte at their times; pause, "
          "seek (with the state at the new time) and speed; commands and bad values refused")


def scenario_replay_page(a):
    mcap = record(a, "recorded", 80)
    run = PlayRun(a.ubot, mcap, "--loop")
    r = node(a.npm_dir, "replay_page_test.mjs", run.url, a.out, timeout=180)
    run.stop()
    check(not r["errors"], f"the page reported errors: {r['errors']}")
    outside = [u for u in r["requests"] if not u.startswith(f"http://{run.host}:{run.port}/")
               and not u.startswith("ws://")]
    check(not outside, f"the page asked for something its server does not serve: {outside}")
    d = r["drawn"]
    check({"/ubot/markers/static", "/ubot/markers", "/ubot/trajectories"} <= set(d["markerTopics"])
          and d["robots"] == 2 and d["scans"] >= 1, f"what the page drew: {d}")
    check(r["canvas"]["painted"] > 2000 and r["seekVisible"], f"the canvas: {r['canvas']}")
    check(r["selected"] == "/rover" and {"pose", "velocity"} <= set(r["panel"]["rows"]) and
          r["panel"]["scanPlots"], f"the selected rover's panel: {r['panel']}")
    topics = sorted(v["topic"] for v in r["sensorViews"])
    check(topics == ["/rover/depth_camera_0/image_raw", "/rover/imu", "/rover/points",
                     "/rover/rgb_camera_0/image_raw"], f"the rover's sensor views: {topics}")
    check(r["seek"]["t"] == 1 and r["seek"]["paused"] and "t = 1.00 s" in r["seek"]["clock"],
          f"the seek bar: {r['seek']}")
    for name in ("replay_page.png", "replay_page_selected.png"):
        check(os.path.getsize(os.path.join(a.out, name)) > 10000, f"screenshot {name} is empty")
    print(f"ok: the page draws a recording's world, selects the rover, shows its sensors and "
          f"seeks (screenshots in {a.out})")


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


def scenario_access(a):
    # Another address without a token: exit 2 before listening, saying why.
    r = subprocess.run([a.ubot, "run", WORLD, "--live", "0.0.0.0:0", "--out",
                        os.path.join(a.out, "open")], capture_output=True, text=True, timeout=30,
                       env={k: v for k, v in os.environ.items() if k != "UBOT_LIVE_TOKEN"})
    check(r.returncode == 2 and "--live-token" in r.stderr and "live view at" not in r.stdout,
          f"--live 0.0.0.0 without a token: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    # With a token (from the environment), everything needs it.
    env = dict(os.environ, UBOT_LIVE_TOKEN="s3cret-token")
    run = LiveRun(a.ubot, os.path.join(a.out, "token"), address="0.0.0.0:0", env=env)
    base = f"http://127.0.0.1:{run.port}/"
    check(run.url.endswith("?token=s3cret-token"), f"the printed URL lacks its token: {run.url}")
    check(http_status(base) == 401, "the page without the token was served")
    check(http_status(base + "live.js") == 401, "the page's script without the token was served")
    check(http_status(base + "?token=wrong") == 401, "a wrong token was accepted")
    check(http_status(base + "?token=s3cret-token") == 200, "the right token was refused")
    upgrade = (f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Protocol: foxglove.websocket.v1\r\n\r\n")
    with socket.create_connection(("127.0.0.1", run.port), timeout=5) as s:
        s.sendall(upgrade.encode())
        reply = s.recv(200).decode(errors="replace")
    check(reply.startswith("HTTP/1.1 401"), f"a WebSocket without the token: {reply!r}")
    run.stop()
    # A port in use: exit 2 naming it.
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = subprocess.run([a.ubot, "run", WORLD, "--live", f"127.0.0.1:{port}", "--out",
                            os.path.join(a.out, "busy")], capture_output=True, text=True,
                           timeout=30)
    check(r.returncode == 2 and f"port {port} is in use" in r.stderr,
          f"a port in use: exit {r.returncode}: {r.stderr}")
    # Ctrl-C: exit 130, every output closed (the MCAP ends with its magic).
    mcap = os.path.join(a.out, "live.mcap")
    run = LiveRun(a.ubot, os.path.join(a.out, "sigint"), "--mcap", mcap)
    time.sleep(1.0)
    code, stderr = run.stop()
    check(code == 130 and "outputs closed" in stderr, f"SIGINT: exit {code}: {stderr}")
    with open(mcap, "rb") as f:
        data = f.read()
    check(data.endswith(b"\x89MCAP0\r\n"), "the MCAP of an interrupted live run is not closed")
    print("ok: loopback by default, tokens off loopback, a busy port and Ctrl-C handled")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ubot", required=True)
    p.add_argument("--npm-dir", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--isolated", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("scenario", choices=["channels", "teleop", "control", "camera", "page",
                                        "hostile", "access", "replay", "replay_page"])
    a = p.parse_args()
    if not a.isolated:
        # Network first (npm), then the scenario with loopback only.
        for script in ("foxglove_client.mjs", "page_test.mjs", "hostile.mjs", "browser.mjs",
                       "replay_page_test.mjs"):
            npm_readers.install(a.npm_dir, PACKAGES, os.path.join(HERE, script),
                                "run the live view's clients")
        if a.scenario in ("page", "replay_page") and not os.path.exists("/usr/bin/chromium"):
            fail("the page test needs Debian's Chromium at /usr/bin/chromium "
                 "(scripts/install-deps.sh test installs it)")
        os.makedirs(a.out, exist_ok=True)
        os.execv(ISOLATE, [ISOLATE, sys.executable, os.path.abspath(__file__), *sys.argv[1:],
                           "--isolated"])
    globals()[f"scenario_{a.scenario}"](a)


if __name__ == "__main__":
    main()
