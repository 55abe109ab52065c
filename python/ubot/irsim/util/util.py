"""The helpers of ``irsim.util.util`` that scripts and custom behaviours import.

Written for ubot from IR-SIM's documented behaviour (column vectors of shape (n, 1)).
"""

import math
import os
import sys
from typing import Any

import numpy as np


def WrapToPi(rad: float, positive: bool = False) -> float:
    """``rad`` wrapped into [-pi, pi); its absolute value when ``positive``."""
    if not np.isfinite(rad):
        return 0.0
    rad = (rad + math.pi) % (2 * math.pi) - math.pi
    return abs(rad) if positive else rad


def WrapTo2Pi(rad: float) -> float:
    """``rad`` wrapped into [0, 2 pi)."""
    if not np.isfinite(rad):
        return 0.0
    return rad % (2 * math.pi)


def ClipTo2Pi(rad: float) -> float:
    """An angular span (a sensor sweep, a field of view) clipped to [0, 2 pi], as IR-SIM 2.12.0
    does: a full circle stays 2 pi, where WrapTo2Pi would make it 0."""
    if not np.isfinite(rad):
        return 0.0
    return float(np.clip(rad, 0.0, 2 * math.pi))


def relative_position(position1, position2, topi: bool = True) -> tuple[float, float]:
    """Distance and bearing from ``position1`` to ``position2`` (both column vectors)."""
    dx = float(position2[0, 0] - position1[0, 0])
    dy = float(position2[1, 0] - position1[1, 0])
    radian = math.atan2(dy, dx)
    return math.hypot(dx, dy), WrapToPi(radian) if topi else radian


def get_transform(state) -> tuple[np.ndarray, np.ndarray]:
    """Translation (2, 1) and rotation (2, 2) of a pose ``[x, y, theta]``."""
    c, s = math.cos(state[2, 0]), math.sin(state[2, 0])
    return np.array(state[:2]).reshape(2, 1), np.array([[c, -s], [s, c]])


def transform_point_with_state(point, state) -> np.ndarray:
    """A point (2, 1) given in the frame of ``state`` expressed in the world frame."""
    trans, rot = get_transform(state)
    return trans + rot @ np.asarray(point, dtype=float).reshape(2, 1)


def omni_to_diff(state_ori: float, vel_omni, w_max: float = 1.5, guarantee_time: float = 0.2,
                 tolerance: float = 0.1, mini_speed: float = 0.02) -> np.ndarray:
    """A world-frame velocity (2, 1) turned into [linear, angular] for a heading ``state_ori``."""
    vel_omni = np.asarray(vel_omni, dtype=float).reshape(2)
    speed = float(np.hypot(*vel_omni))
    if speed <= mini_speed:
        return np.zeros((2, 1))
    diff = WrapToPi(math.atan2(vel_omni[1], vel_omni[0]) - state_ori)
    w = diff / guarantee_time if abs(diff) > tolerance else 0.0
    w = float(np.clip(w, -w_max, w_max))
    return np.array([[speed * math.cos(diff)], [w]])


def diff_to_omni(state_ori: float, vel_diff) -> np.ndarray:
    """[linear, angular] turned into the world-frame velocity (2, 1) for heading ``state_ori``."""
    v = float(np.asarray(vel_diff).reshape(-1)[0])
    return np.array([[v * math.cos(state_ori)], [v * math.sin(state_ori)]])


def distance(point1, point2) -> float:
    return float(np.hypot(point2[0, 0] - point1[0, 0], point2[1, 0] - point1[1, 0]))


def dist_hypot(x1: float, y1: float, x2: float, y2: float) -> float:
    return math.hypot(x2 - x1, y2 - y1)


def to_numpy(data: Any, default=None, expected_shape=None):
    """Lists and 1-D arrays become column vectors; ``expected_shape`` reshapes."""
    if data is None:
        if default is None:
            return None
        return default if expected_shape is None else default.reshape(expected_shape)
    arr = np.array(data) if isinstance(data, (list, tuple)) else data
    if isinstance(arr, np.ndarray) and arr.ndim == 1:
        arr = arr[:, np.newaxis]
    if expected_shape is not None:
        arr = np.asarray(arr).reshape(expected_shape)
    return arr


def file_check(file_name, root_path=None):
    """Absolute path of ``file_name``, searched as IR-SIM does (as given, sys.path[0], cwd,
    the script's folder); None when absent."""
    if file_name is None:
        return None
    candidates = [
        file_name,
        os.path.join(sys.path[0], file_name),
        os.path.join(os.getcwd(), file_name),
        os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), file_name),
    ]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    return None
