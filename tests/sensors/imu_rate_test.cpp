// IMU sampling at its own rate, whatever the world step (SPEC §0 "Sampling", docs/sampling.md):
// the grid from t = 0 in integer nanoseconds, several samples per step, each from the world's
// motion at its instant, checked against the closed form of that motion for diff, acker and omni
// kinematics and scripted flights; and the rule for ray-casting sensors (once per step).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sensor_test_support.h"
#include "ubot/core/error.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

using testing_support::make_sim;

constexpr double kGRate = 9.81;
constexpr double kStep = 0.1;             // a 10 Hz world
constexpr Nanos kRatePeriod = 5'000'000;  // a 200 Hz IMU
constexpr double kT = 0.005;

const Imu& rate_imu(const Simulation& sim, int i = 0) {
  return testing_support::sensor_as<Imu>(sim, i);
}

void expect_near_rate(const Eigen::Vector3d& a, const Eigen::Vector3d& b, double tol,
                      const std::string& what) {
  EXPECT_LT((a - b).norm(), tol) << what << ": " << a.transpose() << " vs " << b.transpose();
}

// One robot with `kinematics` at `state`, an IMU with `imu_keys`, in a world of `step` seconds.
std::string robot_world(const std::string& kinematics, const std::string& state,
                        const std::string& imu_keys, double step = kStep) {
  return "world: {step_time: " + std::to_string(step) + "}\nrobot:\n  - kinematics: " + kinematics +
         "\n    state: " + state +
         "\n    vel_min: [-5, -5]\n    vel_max: [5, 5]\n    acce: [100, 100]\n    sensors: [{name: "
         "imu" +
         imu_keys + "}]\n";
}

// Runs `steps` steps under a constant command and returns every IMU sample, in order.
std::vector<ImuReading> run(Simulation& sim, int steps, const Eigen::Vector2d& command) {
  std::vector<ImuReading> all;
  const std::vector<Command> commands = {command};
  for (int k = 0; k < steps; ++k) {
    sim.step(commands);
    const auto samples = rate_imu(sim).step_samples();
    all.insert(all.end(), samples.begin(), samples.end());
  }
  return all;
}

double sinc(double x) { return x == 0.0 ? 1.0 : std::sin(x) / x; }

TEST(ImuRate, TwoHundredHertzInATenHertzWorld) {
  Simulation sim = make_sim(robot_world("{name: diff}", "[0, 0, 0]", ", update_rate_hz: 200"));
  std::vector<ImuReading> all;
  const std::vector<Command> turn = {Eigen::Vector2d(1.2, 0.5)};
  for (int k = 1; k <= 10; ++k) {
    sim.step(turn);
    ASSERT_EQ(sim.sampled(), std::vector<int>{0});
    // Grid times in (t_{k-1}, t_k], and t = 0 in the first step.
    ASSERT_EQ(rate_imu(sim).step_samples().size(), k == 1 ? 21u : 20u) << k;
    EXPECT_EQ(rate_imu(sim).step_samples().back().header.stamp, sim.world().time_ns());
    for (const ImuReading& r : rate_imu(sim).step_samples()) all.push_back(r);
  }
  // 1 s of simulation: 200 samples per second (201 counting both ends, 0 and 1 s).
  ASSERT_EQ(all.size(), 201u);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const FrameHeader& h = all[k].header;
    EXPECT_EQ(h.stamp, static_cast<Nanos>(k) * kRatePeriod);  // exact integer nanoseconds
    EXPECT_EQ(h.sequence, k);
    EXPECT_STREQ(sample_status_name(h.status), k < 2 ? "WarmingUp" : "Valid") << k;
  }
  EXPECT_EQ(all[2].header.stamp, 10'000'000);  // the first Valid: 2 / rate = 10 ms
  EXPECT_EQ(rate_imu(sim).header().sequence, 200u);
}

// The world tracks the motion within steps of the objects whose sensors sample inside steps, and
// keeps doing so after a reset (which makes a new world) with the same readings; a robot
// without such a sensor is not tracked.
TEST(ImuRate, ResetKeepsTheMotionWithinStepsTracked) {
  Simulation sim = make_sim(robot_world("{name: diff}", "[0, 0, 0]", ", update_rate_hz: 200") +
                            "  - kinematics: {name: omni}\n    state: [3, 3, 0]\n");
  const std::vector<Command> turn = {Eigen::Vector2d(1.2, 0.5), Eigen::Vector2d(0.3, 0.1)};
  auto run_steps = [&] {
    std::vector<ImuReading> all;
    for (int k = 0; k < 3; ++k) {
      sim.step(turn);
      for (const ImuReading& r : rate_imu(sim).step_samples()) all.push_back(r);
    }
    return all;
  };
  const std::vector<ImuReading> first = run_steps();
  const Nanos mid = sim.world().time_ns() - 50'000'000;
  EXPECT_THROW(sim.world().pose3d_at(1, mid), Error);  // no sensor of its own inside steps
  sim.reset(sim.world().seed());
  const std::vector<ImuReading> again = run_steps();
  EXPECT_THROW(sim.world().pose3d_at(1, mid), Error);  // the new world is narrowed as well
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t k = 0; k < first.size(); ++k) {
    EXPECT_EQ(again[k].data.linear_acceleration, first[k].data.linear_acceleration) << k;
    EXPECT_EQ(again[k].data.angular_velocity, first[k].data.angular_velocity) << k;
  }
}

TEST(ImuRate, HundredHertzInAStepTimePointOneWorldIsValidFromTwentyMilliseconds) {
  Simulation sim = make_sim(robot_world("{name: diff}", "[0, 0, 0]", ", update_rate_hz: 100"));
  const std::vector<ImuReading> all = run(sim, 2, {0.5, 0.2});
  ASSERT_EQ(all.size(), 21u);  // 0, 10, ..., 200 ms
  EXPECT_EQ(all[1].header.status, SampleStatus::kWarmingUp);
  EXPECT_EQ(all[2].header.status, SampleStatus::kValid);
  EXPECT_EQ(all[2].header.stamp, 20'000'000);  // 0.02 s, not 0.3 s (one sample per step)
}

// At a step's end the IMU sees exactly the world's post-step pose (not an interpolation of it).
TEST(ImuRate, SamplesAtStepEndsSeeThePostStepPose) {
  Simulation sim = make_sim(
      robot_world("{name: diff}", "[1, 2, 3]", ", update_rate_hz: 200, rpy: [0.1, 0.2, 0.3]"));
  const Eigen::Quaterniond mount = rotation_from_rpy(0.1, 0.2, 0.3);
  const std::vector<Command> turn = {Eigen::Vector2d(1.0, 1.3)};
  for (int k = 0; k < 40; ++k) {  // the heading wraps through ±π
    sim.step(turn);
    const Eigen::Quaterniond expected = sim.world().pose3d(0).orientation * mount;
    EXPECT_EQ(rate_imu(sim).data().orientation.coeffs(), expected.coeffs()) << k;
  }
}

// Diff drive at a constant command (v, w). IR-SIM's Euler steps put the robot, at the step ends,
// on a regular polygon (sides vΔt, turns φ = wΔt) inscribed in a circle; inside a step it moves
// with the constant body twist that carries one vertex to the next (World::pose3d_at): body
// velocity u = v κ (cos φ/2, −sin φ/2), κ = (φ/2) / sin(φ/2), and yaw rate w. Every point of the
// body then moves uniformly on a circle, so the IMU's central difference over its period T reads,
// in the sensor frame of the middle sample, exactly
//   ω = M⁻¹ (0, 0, w),   f = M⁻¹ (sinc²(wT/2) ω × (u + ω × r) + (0, 0, g))
// for a mount at r turned by M, across step boundaries as inside steps. At the body origin that
// is (v w² Δt / 2, v w (φ/2) cot(φ/2), g) · sinc²(wT/2): the centripetal v·w lateral, within
// v w (φ² / 12 + (wT)² / 3), plus a longitudinal v w φ / 2 (the Euler step's heading runs φ/2
// ahead of its direction of travel). Tolerance 1e-9: the second difference amplifies position
// rounding (≈ 2e-16 × 10 m) by 4 / T² = 1.6e5.
TEST(ImuRate, DiffTurnMatchesTheClosedFormOfTheStepMotion) {
  struct Case {
    double v, w;
  };
  for (const Case c : {Case{1.2, 0.5}, Case{-0.8, -1.5}, Case{0.0, 2.0}, Case{2.0, 0.0}}) {
    const Eigen::Vector3d r(0.3, -0.2, 0.1);
    const Eigen::Quaterniond mount = rotation_from_rpy(0.1, -0.2, 0.3);
    Simulation sim = make_sim(
        robot_world("{name: diff}", "[1, -2, 0.4]",
                    ", update_rate_hz: 200, offset: [0.3, -0.2, 0.1], rpy: [0.1, -0.2, 0.3]"));
    const std::vector<ImuReading> all = run(sim, 50, {c.v, c.w});  // 5 s: the heading wraps
    const double phi = c.w * kStep;
    const Eigen::Vector3d u =
        c.v / sinc(phi / 2) * Eigen::Vector3d(std::cos(phi / 2), -std::sin(phi / 2), 0.0);
    const Eigen::Vector3d w(0, 0, c.w);
    const double k = sinc(c.w * kT / 2) * sinc(c.w * kT / 2);
    const Eigen::Vector3d f =
        mount.conjugate() * (k * w.cross(u + w.cross(r)) + Eigen::Vector3d(0, 0, kGRate));
    ASSERT_EQ(all.size(), 1001u);
    for (std::size_t i = 2; i < all.size(); ++i) {
      ASSERT_EQ(all[i].header.status, SampleStatus::kValid);
      expect_near_rate(all[i].data.angular_velocity, mount.conjugate() * w, 1e-12, "ω");
      expect_near_rate(all[i].data.linear_acceleration, f, 1e-9, "f at " + std::to_string(i));
    }
    // At the origin: the textbook centripetal v·w, within the bound above.
    const Eigen::Vector3d f0 = k * w.cross(u);
    EXPECT_NEAR(f0.x(), k * c.v * c.w * phi / 2, 1e-12);
    EXPECT_LE(std::abs(f0.y() - c.v * c.w),
              std::abs(c.v * c.w) * (phi * phi / 12 + c.w * c.w * kT * kT / 3) + 1e-12);
  }
}

// The issue's figures: v = 1.2 m/s, w = 0.5 rad/s, 10 Hz world, 200 Hz IMU at the body origin.
TEST(ImuRate, DiffTurnAtTheOriginReadsTheCentripetalForce) {
  Simulation sim = make_sim(robot_world("{name: diff}", "[0, 0, 0]", ", update_rate_hz: 200"));
  const std::vector<ImuReading> all = run(sim, 20, {1.2, 0.5});
  for (std::size_t i = 2; i < all.size(); ++i) {
    const Eigen::Vector3d& f = all[i].data.linear_acceleration;
    EXPECT_NEAR(f.y(), 0.6, 0.6 * 2.2e-4);  // v w (1 − φ²/12): 0.59988 m/s²
    EXPECT_NEAR(f.x(), 0.015, 1e-5);        // v w² Δt / 2
    EXPECT_NEAR(f.z(), kGRate, 1e-9);
    EXPECT_NEAR(all[i].data.angular_velocity.z(), 0.5, 1e-12);
  }
}

// Acker at a constant speed and steer angle: the yaw rate is v tan(steer) / L from the first step
// (the steer is in the state from the start), otherwise as the diff drive above.
TEST(ImuRate, AckerTurnMatchesTheClosedForm) {
  const double v = 1.5, steer = 0.3, wheelbase = 2.0;
  Simulation sim = make_sim(
      robot_world("{name: acker, wheelbase: 2}", "[0, 0, 0.2, 0.3]", ", update_rate_hz: 200"));
  const std::vector<ImuReading> all = run(sim, 30, {v, steer});
  const double w = v * std::tan(steer) / wheelbase, phi = w * kStep;
  const Eigen::Vector3d u =
      v / sinc(phi / 2) * Eigen::Vector3d(std::cos(phi / 2), -std::sin(phi / 2), 0.0);
  const double k = sinc(w * kT / 2) * sinc(w * kT / 2);
  const Eigen::Vector3d f = k * Eigen::Vector3d(0, 0, w).cross(u) + Eigen::Vector3d(0, 0, kGRate);
  ASSERT_EQ(all.size(), 601u);
  for (std::size_t i = 2; i < all.size(); ++i) {
    expect_near_rate(all[i].data.angular_velocity, Eigen::Vector3d(0, 0, w), 1e-12, "ω");
    expect_near_rate(all[i].data.linear_acceleration, f, 1e-9, "f at " + std::to_string(i));
  }
}

// Omni: the heading never changes, so a constant body-frame command is a constant world velocity:
// the IMU reads gravity only, at every sample.
TEST(ImuRate, OmniAtConstantVelocityReadsGravityOnly) {
  Simulation sim = make_sim(
      robot_world("{name: omni}", "[0, 0, 0.7]", ", update_rate_hz: 200, rpy: [0.2, 0, 0]"));
  const std::vector<ImuReading> all = run(sim, 20, {0.8, -0.5});
  const Eigen::Vector3d up =
      rotation_from_rpy(0.2, 0, 0).conjugate() * Eigen::Vector3d(0, 0, kGRate);
  for (std::size_t i = 2; i < all.size(); ++i) {
    expect_near_rate(all[i].data.linear_acceleration, up, 1e-9, "f");
    expect_near_rate(all[i].data.angular_velocity, Eigen::Vector3d::Zero(), 1e-12, "ω");
  }
}

// A scripted free flight sampled inside steps: zero specific force at the centre, the constant
// body rate, and the lever arm 2 (1 − cos |ω|T) / T² n × (n × r) at a mount r.
TEST(ImuRate, FreeFlightInsideStepsFollowsTheTrajectory) {
  Simulation sim = make_sim(R"(
world: {step_time: 0.1}
obstacle:
  - shape: {name: circle, radius: 0.1}
    trajectory:
      ballistic: {position: [0, 0, 100], velocity: [3, -2, 12], rpy: [0.2, 0.1, -0.4],
                  angular_velocity: [0.3, -0.5, 1.1]}
    sensors: [{name: imu, update_rate_hz: 200}, {name: imu, update_rate_hz: 200, offset: [0.2, 0.1, -0.05]}]
)");
  const Eigen::Vector3d w(0.3, -0.5, 1.1), r(0.2, 0.1, -0.05), n = w.normalized();
  const Eigen::Vector3d lever =
      2.0 * (1.0 - std::cos(w.norm() * kT)) / (kT * kT) * n.cross(n.cross(r));
  int checked = 0;
  for (int k = 0; k < 10; ++k) {
    sim.step();
    ASSERT_EQ(rate_imu(sim, 0).step_samples().size(), rate_imu(sim, 1).step_samples().size());
    for (std::size_t i = 0; i < rate_imu(sim, 0).step_samples().size(); ++i) {
      const ImuReading &centre = rate_imu(sim, 0).step_samples()[i],
                       &arm = rate_imu(sim, 1).step_samples()[i];
      if (!centre.header.valid) continue;
      expect_near_rate(centre.data.linear_acceleration, Eigen::Vector3d::Zero(), 1e-6, "centre");
      expect_near_rate(centre.data.angular_velocity, w, 1e-10, "ω");
      expect_near_rate(arm.data.linear_acceleration, lever, 1e-6, "lever arm");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 199);
}

// Ray-casting sensors take at most one sample per step, at the step's end, stamped with it: a
// lidar at the world's rate samples every step, a faster one too (once), a slower one on the
// steps where its grid time has fallen due.
TEST(ImuRate, LidarsSampleOncePerStepAtTheStepEnd) {
  for (const double rate : {10.0, 20.0, 5.0}) {
    Simulation sim = make_sim(R"(
world: {step_time: 0.1}
robot:
  - kinematics: {name: diff}
    sensors: [{name: lidar2d, number: 3, update_rate_hz: )" +
                              std::to_string(rate) + "}]\n");
    std::vector<Nanos> stamps;
    for (int k = 1; k <= 6; ++k) {
      sim.step();
      if (sim.sampled().empty()) continue;
      EXPECT_EQ(sim.sensors()[0]->header().stamp, sim.world().time_ns());
      stamps.push_back(sim.sensors()[0]->header().stamp);
    }
    const std::vector<Nanos> every = {100'000'000, 200'000'000, 300'000'000,
                                      400'000'000, 500'000'000, 600'000'000};
    const std::vector<Nanos> every_other = {100'000'000, 200'000'000, 400'000'000, 600'000'000};
    EXPECT_EQ(stamps, rate == 5.0 ? every_other : every) << rate;
  }
}

}  // namespace
}  // namespace ubot
