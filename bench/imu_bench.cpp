// IMU samples per second on one core (target: > 10 M/s):
//   BM_ImuProcessor/noise:N  the signal chain alone, fed precomputed poses of a smooth closed 3D
//                            loop (differencing, statuses, noise, low-pass, clamp)
//   BM_ImuSensor/noise:N     Sensor::sample of an IMU on a robot: the body's 3D pose from the
//                            world, the mount, the chain and the frame header
//   BM_ImuWorldStep/noise:N  Simulation::step of a 10 Hz world whose turning robot carries a
//                            200 Hz IMU: the world step and 20 samples inside it (the motion at
//                            each instant, World::pose3d_at), kept for the sinks; one thread
// noise: 0 off; 1 white noise on both instruments (6 Gaussians a sample); 2 everything (white
// noise, bias random walks: 12 Gaussians, low-pass and clamp).
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "ubot/config/load_world.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

constexpr Nanos kPeriod = 10'000'000;  // 100 Hz

// A closed loop (so cycling through the poses never jumps): a 5 m circle with a vertical wave,
// heading along the path, rolling into the turn.
std::vector<Pose3d> loop_poses(int n) {
  std::vector<Pose3d> poses(n);
  for (int i = 0; i < n; ++i) {
    const double a = 2.0 * std::numbers::pi * i / n;
    poses[i].position = {5.0 * std::cos(a), 5.0 * std::sin(a), 1.0 + 0.3 * std::sin(4.0 * a)};
    poses[i].orientation = rotation_from_rpy(0.2 * std::sin(a), 0.05, a + std::numbers::pi / 2);
  }
  return poses;
}

// The YAML keys of the noise levels.
std::string noise_keys(int noise) {
  std::string keys;
  if (noise >= 1) keys += ", noise: true, accelerometer_noise_std: 0.02, gyroscope_noise_std: 1e-3";
  if (noise >= 2) {
    keys +=
        ", accelerometer_bias_random_walk_std: 1e-3, gyroscope_bias_random_walk_std: 1e-4, "
        "low_pass: true, clamp: true";
  }
  return keys;
}

ImuModel model(int noise) {
  ImuModel m;
  if (noise >= 1) {
    m.accelerometer_noise_std = 0.02;
    m.gyroscope_noise_std = 0.001;
  }
  if (noise >= 2) {
    m.accelerometer_bias_random_walk_std = 0.001;
    m.gyroscope_bias_random_walk_std = 0.0001;
    m.low_pass = true;
    m.clamp = true;
  }
  return m;
}

void BM_ImuProcessor(benchmark::State& state) {
  const int noise = static_cast<int>(state.range(0));
  const std::vector<Pose3d> poses = loop_poses(4096);
  ImuProcessor imu(model(noise), noise > 0, kPeriod);
  RandomStream rng(1);
  Nanos t = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(imu.process(t, poses[i], rng));
    benchmark::DoNotOptimize(imu.sample().linear_acceleration.data());
    t += kPeriod;
    i = (i + 1) & 4095;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ImuProcessor)->ArgName("noise")->Arg(0)->Arg(1)->Arg(2);

void BM_ImuSensor(benchmark::State& state) {
  const std::string keys = noise_keys(static_cast<int>(state.range(0)));
  Simulation sim(load_world_from_string(R"(
world: {step_time: 0.01}
robot:
  - kinematics: {name: diff}
    state: [1, 2, 0.3]
    roll: 0.05
    sensors: [{name: imu, offset: [0.1, 0, 0.2])" +
                                            keys + "}]\n",
                                        "bench.yaml"));
  Sensor& imu = sim.sensor(0);
  Nanos t = 0;
  for (auto _ : state) {
    t += kPeriod;
    imu.sample({sim.world(), sim.scene(), t});
    // A copy: Google Benchmark 1.9 (Debian 13) deprecates DoNotOptimize on a const reference.
    bool valid = imu.header().valid;
    benchmark::DoNotOptimize(valid);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ImuSensor)->ArgName("noise")->Arg(0)->Arg(1)->Arg(2);

void BM_ImuWorldStep(benchmark::State& state) {
  Simulation sim(load_world_from_string(R"(
world: {step_time: 0.1, width: 100, height: 100}
robot:
  - kinematics: {name: diff}
    state: [50, 50, 0.3]
    roll: 0.05
    sensors: [{name: imu, update_rate_hz: 200, offset: [0.1, 0, 0.2])" +
                                            noise_keys(static_cast<int>(state.range(0))) + "}]\n",
                                        "bench.yaml"),
                 {.threads = 1});
  const std::vector<Command> turn = {Eigen::Vector2d(1.0, 0.5)};
  const auto& imu = static_cast<const Imu&>(*sim.sensors()[0]);
  std::int64_t samples = 0;
  for (auto _ : state) {
    sim.step(turn);
    samples += static_cast<std::int64_t>(imu.step_samples().size());
    benchmark::DoNotOptimize(imu.step_samples().back().data.linear_acceleration.data());
  }
  state.SetItemsProcessed(samples);  // IMU samples per second
}
BENCHMARK(BM_ImuWorldStep)->ArgName("noise")->Arg(0)->Arg(2);

}  // namespace
}  // namespace ubot

BENCHMARK_MAIN();
