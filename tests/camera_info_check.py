"""What a camera's sensor_msgs/Image and CameraInfo must hold (docs/ros2.md), as Foxglove's
@foxglove/rosmsg2-serialization decodes them, against the world file's camera keys. Shared by
tests/record/check_camera_info_with_foxglove.py (MCAP) and tests/live (scenario `camera`).

The intrinsics are computed here from the world file by docs/sensors.md's rule, not read back from
ubot: explicit fx (fy defaults to fx), or fx = fy = width / (2 tan(fov / 2)) with the horizontal
fov in rad (`horizontal_fov`) or degrees (`horizontal_fov_deg`), 90° by default; cx and cy default
to (width - 1) / 2 and (height - 1) / 2.
"""
import math

import yaml

CAMERAS = {"depth_camera": ("16UC1", 2), "rgb_camera": ("rgb8", 3)}  # encoding, bytes per pixel
IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1]


def world_cameras(world_path):
    """{topic prefix "<ns>/<camera>": what its messages must hold} for every camera of every
    robot. Sensors are named <type>_<count of that type so far on the robot> (frames.jsonl's
    header has the same names)."""
    world = yaml.safe_load(open(world_path))
    cameras = {}
    for robot in world.get("robot", []):
        ns = robot.get("ros2", {}).get("namespace_override", "/" + robot["name"])
        counts = {}
        for s in robot.get("sensors", []):
            kind = s.get("name", s.get("type"))
            index = counts.get(kind, 0)
            counts[kind] = index + 1
            if kind not in CAMERAS:
                continue
            name = f"{kind}_{index}"
            w, h = s["width"], s["height"]
            if "fx" in s:
                fx, fy = s["fx"], s.get("fy", s["fx"])
            else:
                fov = (math.radians(s["horizontal_fov_deg"]) if "horizontal_fov_deg" in s
                       else s.get("horizontal_fov", math.pi / 2))
                fx = fy = w / (2 * math.tan(fov / 2))
            encoding, pixel_bytes = CAMERAS[kind]
            cameras[f"{ns}/{name}"] = {
                "width": w, "height": h, "fx": fx, "fy": fy,
                "cx": s.get("cx", (w - 1) / 2), "cy": s.get("cy", (h - 1) / 2),
                "frame_id": f"{robot['name']}/{name}_optical", "encoding": encoding,
                "step": w * pixel_bytes}
    return cameras


def check_image(image, want, where, data_length):
    """An Image: size, encoding, little-endian, step and data length, optical frame."""
    got = (image["width"], image["height"], image["encoding"], image["is_bigendian"],
           image["step"], data_length, image["header"]["frame_id"])
    expected = (want["width"], want["height"], want["encoding"], 0, want["step"],
                want["step"] * want["height"], want["frame_id"])
    return [] if got == expected else [
        f"{where}: image (width, height, encoding, is_bigendian, step, data bytes, frame_id) "
        f"{got}, expected {expected}"]


def check_info(info, image, want, where):
    """A CameraInfo against its image (same header, same size) and the world's intrinsics;
    returns the differences found (empty: all good)."""
    fx, fy, cx, cy = want["fx"], want["fy"], want["cx"], want["cy"]
    expected = {
        "header": image["header"], "width": image["width"], "height": image["height"],
        "distortion_model": "plumb_bob", "d": [0, 0, 0, 0, 0],
        "k": [fx, 0, cx, 0, fy, cy, 0, 0, 1], "r": IDENTITY,
        "p": [fx, 0, cx, 0, 0, fy, cy, 0, 0, 0, 1, 0], "binning_x": 0, "binning_y": 0,
        "roi": {"x_offset": 0, "y_offset": 0, "height": 0, "width": 0, "do_rectify": False}}
    errors = [f"{where}: camera_info {key} = {info.get(key)!r}, expected {value!r}"
              for key, value in expected.items() if info.get(key) != value]
    if set(info) != set(expected):
        errors.append(f"{where}: camera_info fields {sorted(info)}")
    return errors
