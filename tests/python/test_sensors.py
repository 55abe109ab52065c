"""Every sensor type's sample from Python, against analytic ground truth; FOV detections; views
that follow the sensor's output (docs/python.md, "Sensors")."""

import math

import numpy as np
import pytest

import ubot
from conftest import example

# A still robot at (2, 5) (no behaviour) with one sensor of each type, in front of a 10 m tall
# wall whose face is the plane x = 5.5, over the ground z = 0.
SENSOR_WORLD = """
world: {width: 10, height: 10, step_time: 0.1}
ground: {z: 0}
robot:
  - name: rover
    kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [2, 5, 0]
    fov: 1.5707963267948966
    fov_radius: 5
    sensors:
      - {type: lidar2d, range_max: 8, angle_range: 3.141592653589793, number: 3}
      - {type: lidar3d, vertical_angles_deg: [-30], number: 4, range_max: 100, offset: [0, 0, 1]}
      - {type: depth_camera, width: 8, height: 6, horizontal_fov_deg: 20, max_depth: 15,
         offset: [0, 0, 0.5]}
      - {type: rgb_camera, width: 8, height: 6, horizontal_fov_deg: 20, offset: [0, 0, 0.5]}
      - {type: imu, update_rate_hz: 100}
obstacle:
  - shape: {name: rectangle, length: 1, width: 8}
    height: 10
    state: [6, 5, 0]
"""


@pytest.fixture
def sim():
    with ubot.Simulation.from_yaml(SENSOR_WORLD, threads=1) as s:
        yield s


def test_each_type_has_its_sample_class(sim):
    sim.step()
    kinds = {n: type(sim.sensor("rover", n)).__name__ for n in sim.object("rover").sensor_names}
    assert kinds == {"lidar2d_0": "Lidar2dSample", "lidar3d_0": "Lidar3dSample",
                     "depth_camera_0": "CameraSample", "rgb_camera_0": "CameraSample",
                     "imu_0": "ImuSample"}


def test_lidar3d_points_on_the_ground(sim):
    sim.step()
    sweep = sim.sensor("rover", "lidar3d_0")
    assert sweep.status == "Valid"
    # One channel 30 degrees down from 1 m: every column meets the ground at 1 / sin 30 = 2 m
    # (1.73 m away horizontally, nearer than the wall).
    assert sweep.points.shape == (4, 3) and sweep.points.dtype == np.float32
    np.testing.assert_allclose(sweep.ranges, 2.0, rtol=1e-6)
    np.testing.assert_allclose(sweep.points[:, 2], -1.0, atol=1e-6)
    np.testing.assert_allclose(np.hypot(sweep.points[:, 0], sweep.points[:, 1]), math.sqrt(3),
                               rtol=1e-6)
    np.testing.assert_allclose(sweep.points_world[:, 2], 0.0, atol=1e-6)
    np.testing.assert_array_equal(sweep.ring, [0, 0, 0, 0])
    np.testing.assert_allclose(sweep.intensity, 1.0)
    np.testing.assert_allclose(sweep.position, [2, 5, 1])
    np.testing.assert_array_equal(sweep.hit_object, [-1] * 4)  # the ground is no object


def test_depth_camera_reads_the_wall_distance(sim):
    sim.step()
    cam = sim.sensor("rover", "depth_camera_0")
    assert cam.image is None and (cam.width, cam.height) == (8, 6)
    # A plane facing the camera reads its distance along the optical axis at every pixel.
    assert cam.depth.shape == (6, 8) and cam.depth.dtype == np.float32
    np.testing.assert_allclose(cam.depth, 3.5, rtol=1e-6)


def test_rgb_camera_shades_the_wall(sim):
    sim.step()
    cam = sim.sensor("rover", "rgb_camera_0")
    assert cam.depth is None
    assert cam.image.shape == (6, 8, 4) and cam.image.dtype == np.uint8
    np.testing.assert_array_equal(cam.image[..., 3], 255)  # every pixel sees the wall
    # Default grey 0.6 lit by c (0.45 + 0.55 n.L), n = -x, L = normalise(-0.5, 0.3, 0.8).
    light = np.array([-0.5, 0.3, 0.8]) / np.linalg.norm([-0.5, 0.3, 0.8])
    expected = 255 * 0.6 * (0.45 + 0.55 * max(0.0, float(np.dot([-1, 0, 0], light))))
    assert np.all(np.abs(cam.image[..., :3].astype(float) - expected) <= 1.0)


def test_imu_at_rest_measures_gravity(sim):
    for _ in range(3):
        sim.step()
    imu = sim.sensor("rover", "imu_0")
    # 100 Hz in 0.1 s steps: ten samples a step, 10 ms apart, ending at the step's end.
    samples = imu.samples
    assert len(samples) == 10
    np.testing.assert_allclose([s["stamp"] for s in samples], np.arange(21, 31) / 100)
    assert all(s["status"] == "Valid" for s in samples)
    for s in samples:
        np.testing.assert_allclose(s["linear_acceleration"], [0, 0, 9.81], atol=1e-9)
        np.testing.assert_allclose(s["angular_velocity"], [0, 0, 0], atol=1e-12)
        np.testing.assert_allclose(s["orientation"], [0, 0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(imu.linear_acceleration, [0, 0, 9.81], atol=1e-9)
    assert imu.stamp == pytest.approx(0.3) and imu.sequence == 30  # the first sample is at t = 0


def test_views_follow_the_sensor_output(sim):
    sim.step()
    ranges = sim.sensor("rover", "lidar2d_0").ranges
    assert ranges[1] == pytest.approx(3.5)
    sim.set_state("rover", [3, 5, 0])
    sim.step()
    # No copy: the same memory now holds the new scan.
    assert ranges[1] == pytest.approx(2.5)
    assert np.shares_memory(ranges, sim.sensor("rover", "lidar2d_0").ranges)
    # reset and restore keep the sensors and their storage: the view stays live.
    snap = sim.snapshot()
    sim.reset()
    sim.step()
    assert ranges[1] == pytest.approx(3.5)
    sim.restore(snap)
    assert ranges[1] == pytest.approx(2.5)
    image = sim.sensor("rover", "rgb_camera_0").image
    sim.reset()
    sim.step()
    assert np.shares_memory(image, sim.sensor("rover", "rgb_camera_0").image)


def test_fov_detections(sim):
    assert sim.fov_detections() == [[1], []]
    rover = sim.object("rover")
    assert rover.fov_detected == [1] and rover.fov_detect_object(1)
    assert rover.fov_detect_object(sim.object(1))
    sim.set_state("rover", [2, 5, math.pi])  # facing away from the wall
    assert sim.fov_detections() == [[], []] and not rover.fov_detect_object("obstacle_1")


def test_fov_detections_follow_restore_and_reset(sim):
    # The detections are kept from one call to the next until the state changes: a restore or
    # a reset must not hand back those of the state before it.
    start = sim.snapshot()
    sim.set_state("rover", [2, 5, math.pi])
    assert sim.fov_detections() == [[], []]
    sim.restore(start)
    assert sim.fov_detections() == [[1], []]
    sim.set_state("rover", [2, 5, math.pi])
    assert sim.fov_detections() == [[], []]
    sim.reset()
    assert sim.fov_detections() == [[1], []]
    sim.step()  # the rover has no behaviour: it stays facing the wall
    assert sim.fov_detections() == [[1], []]


def test_fmcw_lidar_has_radial_velocities():
    s = ubot.Simulation(example("fmcw_lidar_world.yaml"))
    s.step()
    scan = s.sensor("robot_0", "fmcw_lidar2d_0")
    assert scan.type == "fmcw_lidar2d"
    assert scan.velocities.shape == scan.ranges.shape == (121,)
    assert np.all(np.isfinite(scan.velocities))
    plain = ubot.Simulation(example("lidar_world.yaml"))
    plain.step()
    assert plain.sensor(0, "lidar2d_0").velocities.shape == (0,)


def test_samples_before_the_first_step(sim):
    cam = sim.sensor("rover", "rgb_camera_0")
    assert cam.image is None and cam.status == "Disabled"
    assert sim.sensor("rover", "imu_0").samples == []



def test_a_contact2d_sensor_gives_its_sample():
    # contact2d is a Python sample type (docs/python.md); before the first step it has no contact.
    sim = ubot.Simulation(example("push_box.yaml"))
    sample = sim.sensor("robot_0", "contact2d_0")
    assert type(sample).__name__ == "Contact2dSample"
    assert sample.force_scale == pytest.approx(0.05)  # the default, m/N (issue 14)
    assert not sample.contact.in_contact
