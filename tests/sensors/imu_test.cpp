// IMU (SPEC §7): differencing against closed forms of the motion the simulator produces,
// statuses and their transitions, low-pass and clamp, and the sensor operations.
#include "ubot/sensors/imu/imu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sensor_test_support.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

using testing_support::make_sim;

constexpr double kG = 9.81;

Imu& imu(Simulation& sim, int i = 0) { return static_cast<Imu&>(sim.sensor(i)); }

void expect_near(const Eigen::Vector3d& a, const Eigen::Vector3d& b, double tol,
                 const std::string& what = "") {
  EXPECT_LT((a - b).norm(), tol) << what << ": " << a.transpose() << " vs " << b.transpose();
}

// A diff robot driven by the command (v, w) every step, an IMU at `imu_keys` on it.
std::string turning_robot(const std::string& imu_keys, double step = 0.01) {
  return "world: {step_time: " + std::to_string(step) + R"(}
robot:
  - kinematics: {name: diff}
    state: [0, 0, 0]
    vel_min: [-5, -5]
    vel_max: [5, 5]
    sensors: [{name: imu)" +
         imu_keys + "}]\n";
}

// The grid starts at t = 0: the first step (10 ms) takes the samples at 0 and 10 ms, so the
// third sample, the first Valid, comes at 20 ms = 2 / rate.
TEST(Imu, WarmsUpForTwoSamplesThenIsValid) {
  Simulation sim = make_sim(turning_robot(""));
  const std::string expected[] = {"WarmingUp", "WarmingUp", "Valid", "Valid", "Valid"};
  const std::size_t per_step[] = {2, 1, 1, 1};
  int k = 0;
  for (int step = 0; step < 4; ++step) {
    sim.step();
    ASSERT_EQ(imu(sim).step_samples().size(), per_step[step]);
    for (const ImuReading& r : imu(sim).step_samples()) {
      const FrameHeader& h = r.header;
      EXPECT_EQ(sample_status_name(h.status), expected[k]) << k;
      EXPECT_EQ(h.valid, k >= 2);
      EXPECT_EQ(h.sequence, static_cast<std::uint64_t>(k));
      EXPECT_EQ(h.stamp, k * 10'000'000);
      EXPECT_EQ(h.sensor_id, "robot_0/imu_0");
      EXPECT_EQ(h.frame_id, "robot_0/imu_0");
      if (k < 2) {  // not valid: zero angular velocity and specific force
        EXPECT_EQ(r.data.angular_velocity, Eigen::Vector3d::Zero());
        EXPECT_EQ(r.data.linear_acceleration, Eigen::Vector3d::Zero());
      }
      ++k;
    }
    // The latest sample is the step's last.
    EXPECT_EQ(imu(sim).header().sequence, imu(sim).step_samples().back().header.sequence);
  }
}

TEST(Imu, AtRestAndLevelReadsGravityUp) {
  Simulation sim = make_sim(turning_robot(""));
  for (int k = 0; k < 5; ++k) sim.step();
  // Nothing moves: the differences are exactly zero, so the readings are exact.
  EXPECT_EQ(imu(sim).data().linear_acceleration, Eigen::Vector3d(0, 0, kG));
  EXPECT_EQ(imu(sim).data().angular_velocity, Eigen::Vector3d::Zero());
  EXPECT_EQ(imu(sim).data().orientation.coeffs(), Eigen::Quaterniond::Identity().coeffs());
}

TEST(Imu, AtRestAndTiltedReadsGravityInTheSensorFrame) {
  const double roll = 0.3, pitch = -0.2, yaw = 1.0;
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
obstacle:
  - state: [2, 3, 1.0]
    z: 0.5
    roll: 0.3
    pitch: -0.2
    sensors: [{name: imu}, {name: imu, rpy: [0, 0.5, 0]}]
)");
  for (int k = 0; k < 3; ++k) sim.step();
  // R^T (0, 0, g) = g (-sin p, sin r cos p, cos r cos p), whatever the yaw.
  const Eigen::Vector3d up(-std::sin(pitch), std::sin(roll) * std::cos(pitch),
                           std::cos(roll) * std::cos(pitch));
  expect_near(imu(sim, 0).data().linear_acceleration, kG * up, 1e-14);
  expect_near(imu(sim, 0).data().angular_velocity, Eigen::Vector3d::Zero(), 1e-14);
  EXPECT_LT(rotation_angle(imu(sim, 0).data().orientation.conjugate() *
                           rotation_from_rpy(roll, pitch, yaw)),
            1e-15);
  // A sensor mounted pitched by a further 0.5 rad sees gravity rotated by the mount too.
  const Eigen::Quaterniond mount = rotation_from_rpy(0, 0.5, 0);
  expect_near(imu(sim, 1).data().linear_acceleration, mount.conjugate() * (kG * up), 1e-14);
}

// Constant-rate turn produced by diff kinematics (IR-SIM's Euler steps: the robot moves straight
// along its heading θ_k for one step, then turns by ωΔt). With one IMU sample per step, the
// differences of that discrete trajectory are, in the sensor frame of the middle sample,
//   ω = (0, 0, w)                      exactly;
//   f = (v (1 - cos wΔt) / Δt, v sin(wΔt) / Δt, g) − (2 − 2 cos wΔt) / Δt² (r_x, r_y, 0)
// for a mount at r (the second term: the lever arm, a centripetal pull). The continuous limit
// is the textbook (0, v w, g) − w² (r_x, r_y, 0); the discrete formula differs from it by
//   |f_x| <= v w² Δt / 2,  |f_y − v w| <= v w (wΔt)² / 6,  lever term relative error <= (wΔt)²/12.
// Tolerance 1e-9: positions stay within a few metres, so rounding in the second differences is
// about 4 · 2.2e-16 · 4 m / Δt² ≈ 4e-11 m/s².
TEST(Imu, ConstantRateTurnMatchesTheDiscreteClosedFormAndItsContinuousLimit) {
  const double dt = 0.01;
  struct Case {
    double v, w;
  };
  for (const Case c : {Case{1.5, 0.7}, Case{0.0, 2.0}, Case{-1.0, -0.4}, Case{2.0, 0.0}}) {
    const Eigen::Vector3d r(0.3, -0.2, 0.1);
    const Eigen::Vector3d rpy(0.1, -0.2, 0.3);
    Simulation sim = make_sim(turning_robot(", offset: [0.3, -0.2, 0.1], rpy: [0.1, -0.2, 0.3]"));
    const Eigen::Quaterniond mount = rotation_from_rpy(rpy);
    const std::vector<Command> command = {Eigen::Vector2d(c.v, c.w)};
    const double cw = std::cos(c.w * dt), sw = std::sin(c.w * dt);
    const double lever = (2.0 - 2.0 * cw) / (dt * dt);
    const Eigen::Vector3d f_body = Eigen::Vector3d(c.v * (1 - cw) / dt, c.v * sw / dt, kG) -
                                   lever * Eigen::Vector3d(r.x(), r.y(), 0.0);
    // 15 s: the heading wraps through ±π several times.
    for (int k = 1; k <= 1500; ++k) {
      sim.step(command);
      if (k < 3) continue;
      const ImuSample& s = imu(sim).data();
      ASSERT_EQ(imu(sim).header().status, SampleStatus::kValid);
      expect_near(s.angular_velocity, mount.conjugate() * Eigen::Vector3d(0, 0, c.w), 1e-12, "ω");
      expect_near(s.linear_acceleration, mount.conjugate() * f_body, 1e-9, "f");
    }
    // The continuous limit, within the stated bounds.
    const double w2 = c.w * c.w;
    EXPECT_LE(std::abs(c.v * (1 - cw) / dt), std::abs(c.v) * w2 * dt / 2 + 1e-12);
    EXPECT_LE(std::abs(c.v * sw / dt - c.v * c.w),
              std::abs(c.v * c.w) * (c.w * dt) * (c.w * dt) / 6 + 1e-12);
    EXPECT_LE(std::abs(lever - w2), w2 * (c.w * dt) * (c.w * dt) / 12 + 1e-12);
  }
}

// A free-falling body reads zero specific force at its origin, and at a mount r on a body
// spinning at a constant body rate ω only the lever-arm term: in the sensor frame of the middle
// sample, 2 (1 − cos |ω|Δt) / Δt² n × (n × r), n = ω / |ω| (→ ω × (ω × r) as Δt → 0).
// Positions are about 100 m: rounding in the second difference ≈ 4 · 2.2e-16 · 100 / Δt² ≈ 1e-9.
TEST(Imu, FreeFallReadsZeroSpecificForce) {
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
obstacle:
  - shape: {name: circle, radius: 0.1}
    trajectory:
      ballistic: {position: [0, 0, 100], velocity: [3, -2, 12], rpy: [0.2, 0.1, -0.4],
                  angular_velocity: [0.3, -0.5, 1.1]}
    sensors: [{name: imu}, {name: imu, offset: [0.2, 0.1, -0.05]}]
)");
  const Eigen::Vector3d w(0.3, -0.5, 1.1), r(0.2, 0.1, -0.05);
  const double dt = 0.01, angle = w.norm() * dt;
  const Eigen::Vector3d n = w.normalized();
  const Eigen::Vector3d lever = 2.0 * (1.0 - std::cos(angle)) / (dt * dt) * n.cross(n.cross(r));
  for (int k = 1; k <= 300; ++k) {
    sim.step();
    if (k < 3) continue;
    expect_near(imu(sim, 0).data().linear_acceleration, Eigen::Vector3d::Zero(), 1e-8, "centre");
    expect_near(imu(sim, 0).data().angular_velocity, w, 1e-11, "ω");
    expect_near(imu(sim, 1).data().linear_acceleration, lever, 1e-8, "lever arm");
  }
  expect_near(lever, w.cross(w.cross(r)), 1e-4 * w.squaredNorm() * r.norm());
}

// On a cubic trajectory, evenly sampled, the central second difference is exact for the cubic
// piece around the middle sample: f = R_{k-1}ᵀ (a(t_{k-1}) + g ẑ) whenever no waypoint lies
// strictly between t_{k-2} and t_k. The gyroscope's mean rate over [t_{k-1}, t_k],
// log(R_{k-1}ᵀ R_k) / Δt, equals the body rate ω at the interval's midpoint up to the Magnus
// expansion's leading terms Δt² (ω̈ / 24 − ω × ω̇ / 12): the test bounds the difference by
// Δt² (|ω̈| / 24 + |ω| |ω̇| / 12), with the derivatives of the trajectory's body rate taken
// numerically, plus 20% for the O(Δt³) rest.
TEST(Imu, CubicTrajectoryIsDifferencedExactly) {
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
obstacle:
  - shape: {name: circle, radius: 0.1}
    trajectory:
      waypoints:
        - {t: 0, position: [0, 0, 1], rpy: [0, 0, 0]}
        - {t: 1, position: [1, 0.5, 1.5], rpy: [0.2, -0.1, 0.5]}
        - {t: 2.5, position: [2, 2, 1], rpy: [0, 0.3, 1.5]}
        - {t: 3, position: [1, 3, 2], rpy: [-0.2, 0, 2]}
    sensors: [{name: imu}]
)");
  const Trajectory& trajectory = *sim.world().trajectory(0);
  Eigen::Quaterniond previous = Eigen::Quaterniond::Identity();
  int checked = 0;
  for (int k = 1; k <= 320; ++k) {
    sim.step();
    const double t = 0.01 * k, t_mid = t - 0.01;
    const ImuSample& s = imu(sim).data();
    const bool knot_inside = [&] {
      for (double knot : {1.0, 2.5, 3.0}) {
        if (knot > t - 0.02 + 1e-9 && knot < t - 1e-9) return true;
      }
      return false;
    }();
    if (k >= 3 && !knot_inside) {
      const Eigen::Vector3d f =
          previous.conjugate() * (trajectory.acceleration(t_mid) + Eigen::Vector3d(0, 0, kG));
      expect_near(s.linear_acceleration, f, 1e-8, "f at t=" + std::to_string(t));
      auto body_rate = [&](double tau) -> Eigen::Vector3d {
        return trajectory.pose(tau).orientation.conjugate() * trajectory.angular_velocity(tau);
      };
      const double h = 1e-3, half = t - 0.005;
      const Eigen::Vector3d w = body_rate(half);
      const Eigen::Vector3d w_dot = (body_rate(half + h) - body_rate(half - h)) / (2 * h);
      const Eigen::Vector3d w_ddot = (body_rate(half + h) - 2 * w + body_rate(half - h)) / (h * h);
      const double bound = 1.2 * 1e-4 * (w_ddot.norm() / 24 + w.norm() * w_dot.norm() / 12) + 1e-8;
      expect_near(s.angular_velocity, w, bound, "ω at t=" + std::to_string(t));
      ++checked;
    }
    previous = s.orientation;
  }
  EXPECT_GT(checked, 280);
}

TEST(Imu, TeleportByDistance) {
  // 6 m in one 10 ms step (> teleport_distance 5 m) at t = 0.51; 4.9 m at t = 1.01 is not one.
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
obstacle:
  - trajectory:
      interpolation: linear
      waypoints:
        - {t: 0, position: [0, 0, 0]}
        - {t: 0.5, position: [0, 0, 0]}
        - {t: 0.51, position: [6, 0, 0]}
        - {t: 1.0, position: [6, 0, 0]}
        - {t: 1.01, position: [10.9, 0, 0]}
    sensors: [{name: imu}]
)");
  for (int k = 1; k <= 110; ++k) {
    sim.step();
    const std::string status = sample_status_name(imu(sim).header().status);
    if (k == 51) {
      EXPECT_EQ(status, "TeleportDetected");
      EXPECT_FALSE(imu(sim).header().valid);
      EXPECT_EQ(imu(sim).data().linear_acceleration, Eigen::Vector3d::Zero());
    } else if (k == 52) {
      EXPECT_EQ(status, "WarmingUp");  // history restarted at the teleport's pose
    } else if (k >= 3) {
      EXPECT_EQ(status, "Valid") << k;
    }
  }
}

TEST(Imu, TeleportByAngle) {
  // 130° in one step (> 120°) at t = 0.51; 110° at t = 1.01 is not one.
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
obstacle:
  - trajectory:
      interpolation: linear
      waypoints:
        - {t: 0, position: [0, 0, 0]}
        - {t: 0.5, position: [0, 0, 0]}
        - {t: 0.51, position: [0, 0, 0], rpy: [2.2689280275926285, 0, 0]}
        - {t: 1.0, position: [0, 0, 0], rpy: [2.2689280275926285, 0, 0]}
        - {t: 1.01, position: [0, 0, 0], rpy: [2.2689280275926285, 0, 1.9198621771937625]}
    sensors: [{name: imu, teleport_angle_deg: 120}]
)");
  for (int k = 1; k <= 110; ++k) {
    sim.step();
    const std::string status = sample_status_name(imu(sim).header().status);
    if (k == 51) {
      EXPECT_EQ(status, "TeleportDetected");
    } else if (k == 52) {
      EXPECT_EQ(status, "WarmingUp");
    } else if (k >= 3) {
      EXPECT_EQ(status, "Valid") << k;
    }
  }
}

TEST(Imu, SampleNowAtTheSameTimeAsAnAutomaticSampleIsInvalidAndClearsHistory) {
  Simulation sim = make_sim(turning_robot(""));
  const std::vector<Command> turn = {Eigen::Vector2d(1, 0.5)};
  for (int k = 0; k < 5; ++k) sim.step(turn);
  ASSERT_EQ(imu(sim).header().status, SampleStatus::kValid);
  const std::uint64_t sequence = imu(sim).header().sequence;
  // The IMU already sampled at this time: Δt = 0.
  EXPECT_FALSE(sim.sample_now(0));
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kInvalidDeltaTime);
  EXPECT_EQ(imu(sim).header().sequence, sequence + 1);
  EXPECT_EQ(imu(sim).data().angular_velocity, Eigen::Vector3d::Zero());
  sim.step(turn);
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kWarmingUp);
  sim.step(turn);
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kValid);
  EXPECT_NEAR(imu(sim).data().angular_velocity.z(), 0.5, 1e-12);
}

TEST(Imu, SampleNowBetweenScheduledSamples) {
  // A 50 Hz IMU in a 100 Hz world is due at 0 ms (taken in its first step), then at 20, 40, 60 ms.
  // Sampling by hand at 30 and 50 ms gives regular samples with Δt = 10 ms and keeps the grid.
  Simulation sim = make_sim(turning_robot(", update_rate_hz: 50"));
  std::vector<int> scheduled;
  std::vector<std::string> statuses;
  for (int k = 1; k <= 6; ++k) {
    sim.step();
    if (sim.sampled().empty()) {
      sim.sample_now(0);
    } else {
      scheduled.push_back(k);
    }
    statuses.push_back(sample_status_name(imu(sim).header().status));
  }
  EXPECT_EQ(scheduled, (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(statuses, (std::vector<std::string>{"WarmingUp", "WarmingUp", "Valid", "Valid", "Valid",
                                                "Valid"}));
  EXPECT_EQ(imu(sim).header().sequence, 5u);
}

TEST(Imu, AutoStartOffSamplesOnlyWhenAsked) {
  Simulation sim = make_sim(turning_robot(", auto_start: false"));
  sim.step();
  EXPECT_TRUE(sim.sampled().empty());
  EXPECT_FALSE(sim.sample_now(0));
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kWarmingUp);
  EXPECT_EQ(imu(sim).header().sequence, 0u);
}

TEST(Imu, RatesBelowTwoHertzAreAlwaysInvalidDeltaTime) {
  Simulation slow = make_sim(turning_robot(", update_rate_hz: 1.9", 0.1));
  Simulation two = make_sim(turning_robot(", update_rate_hz: 2", 0.1));
  std::vector<std::string> slow_statuses, two_statuses;
  for (int k = 0; k < 40; ++k) {
    slow.step();
    two.step();
    if (!slow.sampled().empty())
      slow_statuses.push_back(sample_status_name(imu(slow).header().status));
    if (!two.sampled().empty())
      two_statuses.push_back(sample_status_name(imu(two).header().status));
  }
  ASSERT_GE(slow_statuses.size(), 7u);
  for (const std::string& s : slow_statuses) EXPECT_EQ(s, "InvalidDeltaTime");
  // 2 Hz: samples at 0, 0.5, 1, ..., 4 s (Δt exactly 0.5 s, which is allowed).
  ASSERT_EQ(two_statuses.size(), 9u);
  EXPECT_EQ(two_statuses[0], "WarmingUp");
  EXPECT_EQ(two_statuses[1], "WarmingUp");
  for (std::size_t i = 2; i < two_statuses.size(); ++i) EXPECT_EQ(two_statuses[i], "Valid");
}

TEST(Imu, DisabledSensorReportsDisabled) {
  Simulation sim = make_sim(turning_robot(", enabled: false"));
  std::uint64_t k = 0;  // samples at 0, 10, 20, 30 ms
  for (int step = 0; step < 3; ++step) {
    sim.step();
    for (const ImuReading& r : imu(sim).step_samples()) {
      EXPECT_EQ(r.header.status, SampleStatus::kDisabled);
      EXPECT_FALSE(r.header.valid);
      EXPECT_EQ(r.header.sequence, k++);
    }
    EXPECT_EQ(imu(sim).header().status, SampleStatus::kDisabled);
  }
  EXPECT_EQ(k, 4u);
}

TEST(Imu, LowPassStepResponseIsTheFirstOrderFormula) {
  // At rest the true specific force steps from the filter's initial 0 to g at the first valid
  // sample: after n valid samples the output is g (1 − exp(−2π f_c n Δt)).
  Simulation sim = make_sim(turning_robot(", low_pass: true, low_pass_cutoff_hz: 3"));
  for (int k = 1; k <= 60; ++k) {
    sim.step();  // the step ending at k * 10 ms takes sample k (the first, sample 0, at 0)
    if (k < 2) continue;
    const int n = k - 1;
    const double expected = kG * (1.0 - std::exp(-2.0 * std::numbers::pi * 3.0 * n * 0.01));
    EXPECT_NEAR(imu(sim).data().linear_acceleration.z(), expected, 1e-13) << n;
  }
}

TEST(Imu, ClampKeepsTheDirection) {
  Simulation sim = make_sim(R"(
world: {step_time: 0.01}
robot:
  - kinematics: {name: diff}
    roll: 0.4
    pitch: 0.3
    vel_max: [5, 5]
    sensors:
      - {name: imu, clamp: true, max_linear_acceleration: 4, max_angular_velocity: 2}
      - {name: imu}
)");
  const std::vector<Command> spin = {Eigen::Vector2d(0, 3)};
  for (int k = 0; k < 5; ++k) sim.step(spin);
  const ImuSample &clamped = imu(sim, 0).data(), &raw = imu(sim, 1).data();
  EXPECT_NEAR(raw.linear_acceleration.norm(), kG, 1e-9);
  EXPECT_NEAR(clamped.linear_acceleration.norm(), 4.0, 1e-12);
  expect_near(clamped.linear_acceleration, raw.linear_acceleration * (4.0 / kG), 1e-9);
  EXPECT_NEAR(raw.angular_velocity.norm(), 3.0, 1e-12);
  EXPECT_NEAR(clamped.angular_velocity.norm(), 2.0, 1e-12);
  expect_near(clamped.angular_velocity, raw.angular_velocity * (2.0 / 3.0), 1e-12);
}

TEST(Imu, ResetHistoryWarmsUpAgain) {
  Simulation sim = make_sim(turning_robot(""));
  for (int k = 0; k < 4; ++k) sim.step();
  imu(sim).reset_history();
  sim.step();
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kWarmingUp);
  sim.step();
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kWarmingUp);
  sim.step();
  EXPECT_EQ(imu(sim).header().status, SampleStatus::kValid);
}

// The signal chain alone, fed poses at chosen stamps.
TEST(ImuProcessor, InvalidDeltaTimeBeyondMaxSampleDtAndAtZero) {
  ImuModel m;
  ImuProcessor p(m, false, 10'000'000);
  RandomStream rng(1);
  const Pose3d rest;
  auto status = [&](Nanos t) { return sample_status_name(p.process(t, rest, rng)); };
  EXPECT_STREQ(status(0), "WarmingUp");
  EXPECT_STREQ(status(10'000'000), "WarmingUp");
  EXPECT_STREQ(status(20'000'000), "Valid");
  EXPECT_STREQ(status(520'000'000), "Valid");               // Δt = 0.5 s exactly is allowed
  EXPECT_STREQ(status(1'020'000'001), "InvalidDeltaTime");  // 0.5 s + 1 ns
  EXPECT_STREQ(status(1'030'000'001), "WarmingUp");
  EXPECT_STREQ(status(1'040'000'001), "Valid");
  EXPECT_STREQ(status(1'040'000'001), "InvalidDeltaTime");  // Δt = 0
  EXPECT_STREQ(status(1'030'000'000), "InvalidDeltaTime");  // time went back
  EXPECT_STREQ(status(1'040'000'000), "WarmingUp");
  EXPECT_STREQ(status(1'050'000'000), "Valid");
  EXPECT_EQ(p.sample().linear_acceleration, Eigen::Vector3d(0, 0, kG));
  EXPECT_STREQ(sample_status_name(SampleStatus::kDisabled), "Disabled");
}

TEST(ImuProcessor, UnevenIntervalsUseTheDividedDifference) {
  // Constant acceleration a along x: x = a t² / 2 at uneven stamps still reads exactly a.
  ImuModel m;
  ImuProcessor p(m, false, 10'000'000);
  RandomStream rng(1);
  const double a = 2.5;
  for (Nanos t : {Nanos{0}, Nanos{7'000'000}, Nanos{20'000'000}, Nanos{23'000'000}}) {
    const double s = nanos_to_seconds(t);
    p.process(t, {{0.5 * a * s * s, 0, 0}, Eigen::Quaterniond::Identity()}, rng);
  }
  expect_near(p.sample().linear_acceleration, Eigen::Vector3d(a, 0, kG), 1e-9);
}

}  // namespace
}  // namespace ubot
