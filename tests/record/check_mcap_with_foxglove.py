#!/usr/bin/env python3
"""Reads ubot's MCAP recordings with the readers Foxglove itself uses and compares them with the
run's frames.jsonl.

Readers: npm @mcap/core (streaming and indexed readers: magic, footer, summary CRC, chunk CRCs,
chunk and message indexes), the zstd / lz4 decompressors @mcap/support uses
(@foxglove/wasm-zstd, @foxglove/wasm-lz4), @foxglove/rosmsg (parses each channel's ros2msg
schema) and @foxglove/rosmsg2-serialization (decodes the CDR; a message with bytes left over
fails). This script checks what they read: topics, types, QoS metadata, per-channel counts
against the statistics and the indexes, the data-section CRC (zlib), chunk indexes pointing at
chunks, times = simulation time, and the values against frames.jsonl (ranges, intensities,
poses, IMU samples, transforms).

usage: check_mcap_with_foxglove.py --ubot PATH/ubot --npm-dir DIR
The npm packages are installed into DIR (npm registry) when missing. Without node or npm the
test fails: CI has them (scripts/install-deps.sh test).
"""
import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zlib

PACKAGES = ["@mcap/core@2.2.2", "@foxglove/wasm-zstd@1.0.1", "@foxglove/wasm-lz4@1.0.2",
            "@foxglove/rosmsg@5.0.5", "@foxglove/rosmsg2-serialization@3.1.0"]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import npm_readers  # noqa: E402  (tests/npm_readers.py)
from npm_readers import fail  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
WORLD = os.path.join(ROOT, "tests", "data", "mcap_world.yaml")
STEPS = 600
NS = 1_000_000_000


def check(condition, message):
    if not condition:
        fail(message)


def install(npm_dir):
    return npm_readers.install(npm_dir, PACKAGES, os.path.join(HERE, "mcap_check.mjs"),
                               "check MCAP files with @mcap/core")


def read_with_foxglove(node, script, path):
    return npm_readers.run_reader(node, script, [path], "Foxglove's readers")


def f32(x):
    """The float32 a double becomes in a ROS message (JSON spells infinities as strings)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def number(v):
    return float(v) if isinstance(v, str) else v


def stamp_ns(stamp):
    return stamp["sec"] * NS + stamp["nanosec"]


def check_container(path, got, compression):
    """Bytes of the file against what the readers report: CRCs and where the indexes point."""
    data = open(path, "rb").read()
    name = os.path.basename(path)
    check(got["header"]["profile"] == "ros2", f"{name}: profile {got['header']['profile']}")
    check(got["header"]["library"].startswith("ubot "), f"{name}: library field")
    end = got["data_end_offset"]
    check(data[end] == 0x0F, f"{name}: no Data End at {end}")
    check(got["data_section_crc"] != 0 and got["data_section_crc"] == zlib.crc32(data[:end]),
          f"{name}: data section CRC {got['data_section_crc']} != zlib {zlib.crc32(data[:end])}")
    footer = got["footer"]
    check(footer["summaryCrc"] == zlib.crc32(data[footer["summaryStart"]:len(data) - 12]),
          f"{name}: summary CRC")
    check(got["summary_offset_opcodes"] == [0x03, 0x04, 0x08, 0x0B],
          f"{name}: summary groups {got['summary_offset_opcodes']}")
    check(got["chunk_compressions"] == [compression], f"{name}: chunk compression "
          f"{got['chunk_compressions']}, expected {compression!r}")
    channels = {c["id"]: c for c in got["channels"]}
    for c in got["chunk_indexes"]:
        at = c["chunk_start_offset"]
        length = struct.unpack_from("<Q", data, at + 1)[0]
        check(data[at] == 0x06 and 9 + length == c["chunk_length"],
              f"{name}: chunk index does not point at a chunk of its length ({at})")
        total = 0
        for channel, offset in c["message_index_offsets"].items():
            op, n, ch = struct.unpack_from("<BQH", data, offset)
            check(op == 0x07 and ch == int(channel), f"{name}: message index at {offset}")
            total += 9 + n
        check(total == c["message_index_length"], f"{name}: message index length")
    stats = got["statistics"]
    counts = {c["topic"]: 0 for c in got["channels"]}
    for topic, messages in got["messages"].items():
        counts[topic] = len(messages)
    check(stats["messageCount"] == sum(counts.values()), f"{name}: statistics message count")
    check(stats["chunkCount"] == len(got["chunk_indexes"]), f"{name}: statistics chunk count")
    check(stats["channelCount"] == len(channels) and stats["schemaCount"] == len(got["schemas"]),
          f"{name}: statistics channel / schema counts")
    for cid, n in stats["channelMessageCounts"].items():
        topic = channels[int(cid)]["topic"]
        check(n == counts[topic] == got["per_topic_indexed"][topic],
              f"{name}: {topic}: statistics {n}, streamed {counts[topic]}, indexed "
              f"{got['per_topic_indexed'][topic]}")
    return counts


TYPES = {"/clock": "rosgraph_msgs/msg/Clock", "/tf": "tf2_msgs/msg/TFMessage",
         "/tf_static": "tf2_msgs/msg/TFMessage", "/scout/odom": "nav_msgs/msg/Odometry",
         "/fleet/hauler/odom": "nav_msgs/msg/Odometry", "/car/odom": "nav_msgs/msg/Odometry",
         "/scout/scan": "sensor_msgs/msg/LaserScan",
         "/scout/lidar2d_1/scan": "sensor_msgs/msg/LaserScan",
         "/fleet/hauler/scan": "sensor_msgs/msg/LaserScan", "/scout/imu": "sensor_msgs/msg/Imu",
         "/ubot/markers": "visualization_msgs/msg/MarkerArray",
         "/ubot/markers/static": "visualization_msgs/msg/MarkerArray",
         "/ubot/trajectories": "visualization_msgs/msg/MarkerArray"}
LATCHED = {"/tf_static", "/ubot/markers/static", "/ubot/grid_map"}
# topic -> (object id, sensor index) in frames.jsonl
SENSORS = {"/scout/scan": (0, 0), "/scout/lidar2d_1/scan": (0, 1), "/scout/imu": (0, 2),
           "/fleet/hauler/scan": (1, 0)}
ROBOTS = {0: "scout", 1: "hauler", 2: "car"}
ODOM = {0: "/scout/odom", 1: "/fleet/hauler/odom", 2: "/car/odom"}


def check_topics(got):
    schemas = {s["id"]: s for s in got["schemas"]}
    topics = {c["topic"]: c for c in got["channels"]}
    check(set(topics) == set(TYPES), f"topics {sorted(topics)}, expected {sorted(TYPES)}")
    for topic, c in topics.items():
        s = schemas[c["schema_id"]]
        check(s["name"] == TYPES[topic] and s["encoding"] == "ros2msg",
              f"{topic}: schema {s['name']} ({s['encoding']})")
        check(c["message_encoding"] == "cdr", f"{topic}: message encoding")
        qos = c["metadata"].get("offered_qos_profiles", "")
        durability = 1 if topic in LATCHED else 2
        check(f"durability: {durability}\n" in qos, f"{topic}: offered_qos_profiles {qos!r}")
        check(c["metadata"].get("topic_type_hash", "").startswith("RIHS01_"),
              f"{topic}: topic_type_hash")


def check_values(got, frames):
    header, steps = frames[0], frames[1:]
    messages = got["messages"]
    for topic, ms in messages.items():
        for m in ms:
            check(m["publish_time"] == m["log_time"], f"{topic}: publish_time != log_time")
            stamp = m["msg"].get("header", {}).get("stamp")
            # IMU samples carry their own stamps (checked below), logged with their step.
            if stamp is not None and not topic.endswith("/imu"):
                check(stamp_ns(stamp) == m["log_time"], f"{topic}: stamp != log_time")
        check([m["sequence"] for m in ms] == list(range(len(ms))), f"{topic}: sequences")
    # The state before the first step, then one message per step on /clock, /tf and odometry.
    times = [0] + [round(s["time"] * NS) for s in steps]
    check([stamp_ns(m["msg"]["clock"]) for m in messages["/clock"]] == times, "/clock times")
    check([m["log_time"] for m in messages["/clock"]] == times, "/clock log times")
    check(len(messages["/tf"]) == len(times), "/tf count")
    for k, step in enumerate(steps, start=1):
        tf = messages["/tf"][k]["msg"]["transforms"]
        check([t["child_frame_id"] for t in tf] ==
              [f"{ROBOTS[i]}/base_link" for i in sorted(ROBOTS)], "/tf frames")
        for obj in step["objects"]:
            if obj["id"] not in ODOM:
                continue
            x, y, yaw = obj["state"][:3]
            odom = messages[ODOM[obj["id"]]][k]["msg"]
            p, q = odom["pose"]["pose"]["position"], odom["pose"]["pose"]["orientation"]
            check(p["x"] == x and p["y"] == y, f"odometry of object {obj['id']} at step {k}")
            check(abs(q["z"] - math.sin(yaw / 2)) < 1e-15 and abs(q["w"] - math.cos(yaw / 2)) < 1e-15,
                  f"odometry yaw of object {obj['id']} at step {k}")
            t = tf[obj["id"]]["transform"]
            check(t["translation"]["x"] == x and t["translation"]["y"] == y and
                  t["rotation"] == q, f"/tf of object {obj['id']} at step {k}")
            check(odom["twist"]["twist"]["linear"]["x"] == obj["velocity"][0],
                  f"odometry twist of object {obj['id']} at step {k}")
    # Sensors: one message per sample, equal to frames.jsonl's entry.
    checked = 0
    for topic, (oid, index) in SENSORS.items():
        # (log time, sample): an IMU entry lists every sample of its step under "samples".
        entries = [(round(step["time"] * NS), e) for step in steps for s in step["sensors"]
                   if s["object_id"] == oid and s["index"] == index and s["status"] != "Disabled"
                   for e in s.get("samples", [s])]
        sensor = next(s for s in header["sensors"] if s["object_id"] == oid and s["index"] == index)
        ms = messages[topic]
        check(len(ms) == len(entries), f"{topic}: {len(ms)} messages, {len(entries)} samples")
        for m, (log_time, e) in zip(ms, entries):
            msg = m["msg"]
            check(m["log_time"] == log_time, f"{topic}: log time")
            check(stamp_ns(msg["header"]["stamp"]) == round(e["stamp"] * NS), f"{topic}: stamp")
            if "ranges" in e:
                use_inf = topic.startswith("/fleet/hauler")  # ros2.use_inf: true
                expected = [f32(r) if v or not use_inf else
                            (math.inf if r >= sensor["range_max"] else -math.inf)
                            for r, v in zip(e["ranges"], e["valid"])]
                got_ranges = [number(r) for r in msg["ranges"]]
                check(got_ranges == expected, f"{topic}: ranges differ at {e['stamp']} s")
                check([number(i) for i in msg["intensities"]] ==
                      [f32(i) for i in e["intensities"]], f"{topic}: intensities")
                check(msg["range_max"] == f32(sensor["range_max"]), f"{topic}: range_max")
                check(len(msg["ranges"]) == sensor["number"], f"{topic}: beams")
                checked += len(expected)
            else:
                o, w, a = msg["orientation"], msg["angular_velocity"], msg["linear_acceleration"]
                check([o["x"], o["y"], o["z"], o["w"]] == e["orientation"], f"{topic}: orientation")
                check([w["x"], w["y"], w["z"]] == e["angular_velocity"], f"{topic}: gyro")
                check([a["x"], a["y"], a["z"]] == e["linear_acceleration"], f"{topic}: accel")
                cov = msg["angular_velocity_covariance"]
                check([cov[0], cov[4], cov[8]] == e["angular_velocity_variance"], f"{topic}: cov")
                checked += 9
            check(msg["header"]["frame_id"] == f"{ROBOTS[oid]}/{sensor['name']}",
                  f"{topic}: frame_id {msg['header']['frame_id']}")
    # /tf_static: once, at 0, a transform per sensor of every robot, where it is mounted.
    statics = messages["/tf_static"]
    check(len(statics) == 1 and statics[0]["log_time"] == 0, "/tf_static once at time 0")
    mounts = {(t["header"]["frame_id"], t["child_frame_id"]): t["transform"]
              for t in statics[0]["msg"]["transforms"]}
    for s in header["sensors"]:
        key = (f"{ROBOTS[s['object_id']]}/base_link", f"{ROBOTS[s['object_id']]}/{s['name']}")
        check(key in mounts, f"/tf_static has no {key}")
        if "angles" in s:  # lidars: offset [x, y, yaw]
            t = mounts[key]
            check(t["translation"]["x"] == s["offset"][0] and t["translation"]["y"] == s["offset"][1]
                  and abs(t["rotation"]["z"] - math.sin(s["offset"][2] / 2)) < 1e-15,
                  f"/tf_static mount of {key}")
    return checked


def check_contacts(node, script, ubot, out):
    """The push-box example's contacts (visualization_msgs/MarkerArray on /robot_0/contacts,
    issue 14): one message per step whose sphere list holds the robot's contact points and whose
    line list runs along each normal for force x force_scale, as frames.jsonl reports them."""
    path = os.path.join(out, "push_box.mcap")
    subprocess.run([ubot, "run", os.path.join(ROOT, "examples", "push_box.yaml"), "--steps", "60",
                    "--out", out, "--quiet", "--mcap", path], check=True)
    steps = [json.loads(line) for line in open(os.path.join(out, "frames.jsonl"))][1:]
    got = read_with_foxglove(node, script, path)
    check_container(path, got, "zstd")
    contacts = got["messages"]["/robot_0/contacts"]
    check(len(contacts) == len(steps) == 60, "one contacts message per step")
    touching = 0
    for m, step in zip(contacts, steps):
        check(m["log_time"] == round(step["time"] * NS), "contacts log time")
        points, lines = m["msg"]["markers"]
        check(points["type"] == 7 and lines["type"] == 5, "sphere list and line list")
        check(points["header"]["frame_id"] == "map", "contacts frame")
        reports = step["objects"][0]["contact"]["reports"]
        check(len(points["points"]) == len(reports) and len(lines["points"]) == 2 * len(reports),
              "one marker and one line per report")
        for k, r in enumerate(reports):
            p, end = lines["points"][2 * k], lines["points"][2 * k + 1]
            check([points["points"][k]["x"], points["points"][k]["y"]] == r["point"],
                  "marker at the contact point")
            check([p["x"], p["y"]] == r["point"], "force line starts at the point")
            want = [r["point"][i] + r["normal"][i] * (r["force"] * 0.05) for i in range(2)]
            check(abs(end["x"] - want[0]) < 1e-12 and abs(end["y"] - want[1]) < 1e-12,
                  "force line ends at point + normal force x force_scale")
        touching += bool(reports)
    check(touching > 30, "the robot pushes the box for most of the run")
    print(f"push_box.mcap: {len(contacts)} MarkerArray messages, {touching} with contacts, equal "
          "frames.jsonl")


def check_world_markers(got, frames):
    """The world's markers (docs/ros2.md): the static ones once at time 0; /ubot/markers every
    0.1 s of simulation time (the world steps 0.02 s), each starting with DELETEALL, with one
    body per moving object where frames.jsonl has it; /ubot/trajectories every second, a
    trajectory per robot ending where it is."""
    msgs = got["messages"]
    statics = msgs["/ubot/markers/static"]
    check(len(statics) == 1 and statics[0]["log_time"] == 0, "/ubot/markers/static once at 0")
    check(len(statics[0]["msg"]["markers"]) > 0, "the static obstacles have markers")
    by_time = {round(f["time"] * NS): f for f in frames[1:]}  # frames[0]: the header
    moving = msgs["/ubot/markers"]
    check(len(moving) == STEPS * 2 // 10 + 1, f"/ubot/markers at 10 Hz: {len(moving)} messages")
    for m in moving:
        check(m["log_time"] % (NS // 10) == 0, "/ubot/markers on the 0.1 s grid")
        markers = m["msg"]["markers"]
        check(markers[0]["action"] == 3, "each /ubot/markers message starts with DELETEALL")
        frame = by_time.get(m["log_time"])
        if frame is None:
            check(m["log_time"] == 0, f"no frames.jsonl line at {m['log_time']}")
            continue  # the state before the first step: frames.jsonl starts after it
        bodies = [k for k in markers if k["ns"] == "objects" and k["type"] == 3]
        centres = {(round(b["pose"]["position"]["x"], 9), round(b["pose"]["position"]["y"], 9))
                   for b in bodies}
        scout = frame["objects"][0]["state"]
        check((round(scout[0], 9), round(scout[1], 9)) in centres,
              f"the scout's body marker is where frames.jsonl has it at {m['log_time']}")
    paths = msgs["/ubot/trajectories"]
    check(len(paths) == STEPS * 2 // 100 + 1 and all(p["log_time"] % NS == 0 for p in paths),
          f"/ubot/trajectories once a simulated second: {len(paths)}")
    last = paths[-1]["msg"]["markers"]
    check(last[0]["action"] == 3, "each /ubot/trajectories message starts with DELETEALL")
    trails = [k for k in last if k["ns"] == "trajectories"]
    check(len(trails) == 3 and all(len(t["points"]) <= 101 for t in trails),
          f"a trajectory of at most 101 points per robot: {[len(t['points']) for t in trails]}")
    end = by_time[paths[-1]["log_time"]]
    check([trails[0]["points"][-1]["x"], trails[0]["points"][-1]["y"]] ==
          end["objects"][0]["state"][:2], "the scout's trajectory ends where it is")
    return len(moving)


def check_grid_map(node, script, ubot, out):
    """A grid world's nav_msgs/OccupancyGrid on /ubot/grid_map: once, at 0, latched, with the
    grid's size, cell and origin, occupied cells (> 50) where the world's grid has them."""
    world = os.path.join(ROOT, "tests", "data", "grid_cave_world.yaml")
    path = os.path.join(out, "grid.mcap")
    subprocess.run([ubot, "run", world, "--steps", "5", "--out", out, "--quiet", "--mcap", path],
                   check=True)
    got = read_with_foxglove(node, script, path)
    check_container(path, got, "zstd")
    grids = got["messages"]["/ubot/grid_map"]
    check(len(grids) == 1 and grids[0]["log_time"] == 0, "/ubot/grid_map once at 0")
    g = grids[0]["msg"]
    info = g["info"]
    check(g["header"]["frame_id"] == "map", "grid frame")
    check(len(g["data"]) == info["width"] * info["height"] > 0, "grid data size")
    occupied = sum(1 for v in g["data"] if v > 50)
    check(0 < occupied < len(g["data"]), f"some cells occupied, some free: {occupied}")
    check(all(0 <= v <= 100 for v in g["data"]), "occupancy within 0..100")
    print(f"grid.mcap: an OccupancyGrid of {info['width']} x {info['height']} cells of "
          f"{info['resolution']:.3f} m, {occupied} occupied, decoded by Foxglove's readers")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--npm-dir", required=True)
    args = parser.parse_args()
    node, script = install(args.npm_dir)
    with tempfile.TemporaryDirectory() as out:
        for compression, name in (("zstd", "zstd"), ("lz4", "lz4"), ("none", "")):
            path = os.path.join(out, f"run_{compression}.mcap")
            subprocess.run([args.ubot, "run", WORLD, "--steps", str(STEPS), "--out", out,
                            "--quiet", "--mcap", path, "--mcap-compression", compression],
                           check=True)
            frames = [json.loads(line) for line in open(os.path.join(out, "frames.jsonl"))]
            got = read_with_foxglove(node, script, path)
            counts = check_container(path, got, name)
            check_topics(got)
            values = check_values(got, frames)
            markers = check_world_markers(got, frames)
            print(f"{os.path.basename(path)}: {sum(counts.values())} messages on "
                  f"{len(counts)} topics in {len(got['chunk_indexes'])} chunks, read and decoded "
                  f"by Foxglove's readers; {values} sensor values equal frames.jsonl; "
                  f"{markers} world marker messages follow it")
        # An example world recorded with the defaults.
        path = os.path.join(out, "warehouse.mcap")
        subprocess.run([args.ubot, "run", os.path.join(ROOT, "examples", "warehouse.yaml"),
                        "--steps", "100", "--out", out, "--quiet", "--mcap", path], check=True)
        got = read_with_foxglove(node, script, path)
        counts = check_container(path, got, "zstd")
        check(counts["/robot_0/scan"] == 100 and counts["/clock"] == 101, "warehouse counts")
        print(f"warehouse.mcap: {sum(counts.values())} messages read and decoded")
        check_contacts(node, script, args.ubot, out)
        check_grid_map(node, script, args.ubot, out)
    print("mcap_foxglove: passed")


if __name__ == "__main__":
    main()
