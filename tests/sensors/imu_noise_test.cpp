// IMU noise (SPEC §0, §7): white-noise σ and bias random-walk growth (on every sample, valid or
// not) checked statistically (10^5 samples, 2%), Kalibr densities, biases, reset bias, and the
// random streams (same seed => same samples, another sensor id => an independent stream).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sensor_test_support.h"
#include "ubot/sensors/imu/imu.h"

namespace ubot {
namespace {

using testing_support::make_sim;

constexpr double kGNoise = 9.81;
constexpr Nanos kNoisePeriod = 10'000'000;  // 100 Hz
constexpr double kDt = 0.01;

struct NoiseStats {
  double mean = 0.0, std = 0.0;
};

NoiseStats noise_stats(const std::vector<double>& v) {
  double sum = 0.0, sq = 0.0;
  for (double x : v) sum += x;
  const double mean = sum / v.size();
  for (double x : v) sq += (x - mean) * (x - mean);
  return {mean, std::sqrt(sq / (v.size() - 1))};
}

// Feeds a processor at rest (level) for n valid samples after the two warm-up samples and
// returns the six channels (ax, ay, az, wx, wy, wz) of every valid sample.
std::vector<std::vector<double>> run_at_rest(ImuProcessor& p, RandomStream& rng, int n) {
  std::vector<std::vector<double>> channels(6);
  const Pose3d rest;
  for (int k = 0; k < n + 2; ++k) {
    if (p.process(k * kNoisePeriod, rest, rng) != SampleStatus::kValid) continue;
    for (int i = 0; i < 3; ++i) {
      channels[i].push_back(p.sample().linear_acceleration[i]);
      channels[3 + i].push_back(p.sample().angular_velocity[i]);
    }
  }
  return channels;
}

TEST(ImuNoise, WhiteNoiseHasTheConfiguredSigma) {
  ImuModel m;
  m.accelerometer_noise_std = 0.2;
  m.gyroscope_noise_std = 0.01;
  ImuProcessor p(m, true, kNoisePeriod);
  RandomStream rng(42);
  const auto channels = run_at_rest(p, rng, 100000);
  for (int i = 0; i < 6; ++i) {
    const double sigma = i < 3 ? 0.2 : 0.01;
    const double truth = i == 2 ? kGNoise : 0.0;
    const NoiseStats s = noise_stats(channels[i]);
    EXPECT_NEAR(s.std, sigma, 0.02 * sigma) << i;  // not the seed's 0.7 σ
    EXPECT_NEAR(s.mean, truth, 5 * sigma / std::sqrt(1e5)) << i;
  }
  EXPECT_EQ(p.sample().linear_acceleration_variance, Eigen::Vector3d::Constant(0.2 * 0.2));
  EXPECT_EQ(p.sample().angular_velocity_variance, Eigen::Vector3d::Constant(0.01 * 0.01));
}

TEST(ImuNoise, KalibrDensitiesBecomePerSampleSigma) {
  // σ_d = density / √Δt: an ADIS16448 (Kalibr's example numbers) sampled at 200 Hz.
  ImuModel m;
  m.accelerometer_noise_density = 0.0028;
  m.gyroscope_noise_density = 0.00016;
  const Nanos period = 5'000'000;
  ImuProcessor p(m, true, period);
  RandomStream rng(7);
  std::vector<double> ax, wz;
  for (int k = 0; k < 100002; ++k) {
    if (p.process(k * period, Pose3d{}, rng) != SampleStatus::kValid) continue;
    ax.push_back(p.sample().linear_acceleration.x());
    wz.push_back(p.sample().angular_velocity.z());
  }
  const double sa = 0.0028 * std::sqrt(200.0), sg = 0.00016 * std::sqrt(200.0);
  EXPECT_NEAR(noise_stats(ax).std, sa, 0.02 * sa);
  EXPECT_NEAR(noise_stats(wz).std, sg, 0.02 * sg);
  EXPECT_NEAR(p.sample().linear_acceleration_variance.x(), sa * sa, 1e-15);
  EXPECT_NEAR(p.sample().angular_velocity_variance.z(), sg * sg, 1e-18);
  EXPECT_NEAR(p.accelerometer_sigma(0.005), sa, 1e-15);
}

TEST(ImuNoise, RandomWalkIncrementsAreSigmaRootDt) {
  // With no white noise, consecutive outputs at rest differ by the walk's increments only.
  ImuModel m;
  m.accelerometer_bias_random_walk_std = 0.05;
  m.gyroscope_bias_random_walk_std = 0.002;
  ImuProcessor p(m, true, kNoisePeriod);
  RandomStream rng(3);
  const auto channels = run_at_rest(p, rng, 100001);
  for (int i = 0; i < 6; ++i) {
    std::vector<double> steps;
    for (std::size_t k = 1; k < channels[i].size(); ++k) {
      steps.push_back(channels[i][k] - channels[i][k - 1]);
    }
    const double sigma = (i < 3 ? 0.05 : 0.002) * std::sqrt(kDt);
    EXPECT_NEAR(noise_stats(steps).std, sigma, 0.02 * sigma) << i;
  }
}

// The walk advances on every sample, valid or not (the seed's rule): after samples at stamps
// t_0 < ... < t_n the bias is N(0, σ_rw² (T + t_n − t_0)), T the configured period (the first
// sample walks over one period). 10^5 independent walks, checked after the first sample
// (WarmingUp), the second (WarmingUp), the fourth (Valid), a 0.7 s gap (InvalidDeltaTime: Δt >
// max_sample_dt; the walk still advances by 0.7 s), the WarmingUp sample after it, and the 16th
// sample; the invalid samples still read zero.
TEST(ImuNoise, RandomWalkAdvancesOnEverySampleValidOrNot) {
  ImuModel m;
  m.accelerometer_bias_random_walk_std = 0.05;
  m.gyroscope_bias_random_walk_std = 0.002;
  std::vector<Nanos> stamps = {0, kNoisePeriod, 2 * kNoisePeriod, 3 * kNoisePeriod,
                               3 * kNoisePeriod + 700'000'000};
  while (stamps.size() < 16) stamps.push_back(stamps.back() + kNoisePeriod);
  const SampleStatus W = SampleStatus::kWarmingUp, V = SampleStatus::kValid;
  const SampleStatus expected_status[6] = {W, W, V, V, SampleStatus::kInvalidDeltaTime, W};
  const int checkpoints[] = {1, 2, 4, 5, 6, 16};  // after this many samples
  const int kWalks = 100000;
  double accel_squares[6] = {}, gyro_squares[6] = {};
  int statuses_wrong = 0, invalid_nonzero = 0;
  for (int w = 0; w < kWalks; ++w) {
    ImuProcessor p(m, true, kNoisePeriod);
    RandomStream rng(derive_seed(5, "walk/" + std::to_string(w)));
    for (std::size_t k = 0, c = 0; k < stamps.size(); ++k) {
      const SampleStatus status = p.process(stamps[k], Pose3d{}, rng);
      if (status != (k < 6 ? expected_status[k] : V)) ++statuses_wrong;
      if (status != V && (p.sample().linear_acceleration != Eigen::Vector3d::Zero() ||
                          p.sample().angular_velocity != Eigen::Vector3d::Zero())) {
        ++invalid_nonzero;
      }
      if (static_cast<int>(k) + 1 != checkpoints[c]) continue;
      accel_squares[c] += p.accelerometer_bias().x() * p.accelerometer_bias().x();
      gyro_squares[c] += p.gyroscope_bias().z() * p.gyroscope_bias().z();
      ++c;
    }
  }
  EXPECT_EQ(statuses_wrong, 0);
  EXPECT_EQ(invalid_nonzero, 0);
  for (int c = 0; c < 6; ++c) {
    const double elapsed = kDt + nanos_to_seconds(stamps[checkpoints[c] - 1]);
    const double accel = 0.05 * std::sqrt(elapsed), gyro = 0.002 * std::sqrt(elapsed);
    EXPECT_NEAR(std::sqrt(accel_squares[c] / kWalks), accel, 0.02 * accel) << checkpoints[c];
    EXPECT_NEAR(std::sqrt(gyro_squares[c] / kWalks), gyro, 0.02 * gyro) << checkpoints[c];
  }
}

TEST(ImuNoise, BiasesApplyOnlyWithNoiseOnAndResetDropsTheWalk) {
  ImuModel m;
  m.accelerometer_bias = {0.1, -0.2, 0.3};
  m.gyroscope_bias = {0.01, 0.02, -0.03};
  m.accelerometer_noise_std = 0.5;
  m.accelerometer_bias_random_walk_std = 0.1;
  RandomStream rng(9);
  // Noise off: exact readings, but the configured variances are still reported.
  ImuProcessor quiet(m, false, kNoisePeriod);
  for (int k = 0; k < 3; ++k) quiet.process(k * kNoisePeriod, Pose3d{}, rng);
  EXPECT_EQ(quiet.sample().linear_acceleration, Eigen::Vector3d(0, 0, kGNoise));
  EXPECT_EQ(quiet.sample().angular_velocity, Eigen::Vector3d::Zero());
  EXPECT_EQ(quiet.sample().linear_acceleration_variance, Eigen::Vector3d::Constant(0.25));
  // Noise on, no white noise or walk: exactly the fixed biases.
  ImuModel fixed = m;
  fixed.accelerometer_noise_std = 0.0;
  fixed.accelerometer_bias_random_walk_std = 0.0;
  ImuProcessor biased(fixed, true, kNoisePeriod);
  for (int k = 0; k < 3; ++k) biased.process(k * kNoisePeriod, Pose3d{}, rng);
  EXPECT_LT(
      (biased.sample().linear_acceleration - Eigen::Vector3d(0.1, -0.2, kGNoise + 0.3)).norm(),
      1e-15);
  EXPECT_LT((biased.sample().angular_velocity - m.gyroscope_bias).norm(), 1e-15);
  // With a walk, reset_bias returns to the configured bias.
  ImuProcessor walking(m, true, kNoisePeriod);
  for (int k = 0; k < 1000; ++k) walking.process(k * kNoisePeriod, Pose3d{}, rng);
  EXPECT_GT((walking.accelerometer_bias() - m.accelerometer_bias).norm(), 0.05);
  walking.reset_bias();
  EXPECT_EQ(walking.accelerometer_bias(), m.accelerometer_bias);
  EXPECT_EQ(walking.gyroscope_bias(), m.gyroscope_bias);
}

const char* kNoisyWorld = R"(
world: {step_time: 0.01}
robot:
  - kinematics: {name: diff}
    vel_max: [2, 2]
    sensors:
      - {name: imu, noise: true, accelerometer_noise_std: 0.1, gyroscope_noise_std: 0.01,
         accelerometer_bias_random_walk_std: 0.01}
      - {name: imu, noise: true, accelerometer_noise_std: 0.1, gyroscope_noise_std: 0.01,
         accelerometer_bias_random_walk_std: 0.01}
)";

std::vector<double> record(Simulation& sim, int sensor, int steps) {
  std::vector<double> out;
  const std::vector<Command> turn = {Eigen::Vector2d(1, 0.3)};
  for (int k = 0; k < steps; ++k) {
    sim.step(turn);
    const auto& imu = static_cast<const Imu&>(*sim.sensors()[sensor]);
    for (int i = 0; i < 3; ++i) {
      out.push_back(imu.data().linear_acceleration[i]);
      out.push_back(imu.data().angular_velocity[i]);
    }
  }
  return out;
}

TEST(ImuNoise, SameWorldAndSeedGiveTheSameSamples) {
  Simulation a = make_sim(kNoisyWorld, 3), b = make_sim(kNoisyWorld, 3);
  EXPECT_EQ(record(a, 0, 500), record(b, 0, 500));  // bit for bit
  Simulation c = make_sim(kNoisyWorld, 4);
  EXPECT_NE(record(c, 0, 500), record(a, 0, 500));  // another world seed
  std::string other_seed = kNoisyWorld;
  other_seed.insert(other_seed.find("noise: true"), "seed: 99, ");
  Simulation d = make_sim(other_seed, 3), e = make_sim(kNoisyWorld, 3);
  EXPECT_NE(record(d, 0, 500), record(e, 0, 500));  // another sensor seed
}

TEST(ImuNoise, SensorsWithDifferentIdsHaveIndependentStreams) {
  // Two identical IMUs on one robot (ids robot_0/imu_0 and robot_0/imu_1, both with the default
  // seed 1337): their noise is uncorrelated. For N independent pairs the sample correlation has
  // σ ≈ 1/√N ≈ 0.003; the bound 0.02 is ~6σ.
  Simulation sim = make_sim(kNoisyWorld, 0);
  std::vector<double> a, b;
  const std::vector<Command> turn = {Eigen::Vector2d(1, 0.3)};
  for (int k = 0; k < 100002; ++k) {
    sim.step(turn);
    if (k < 2) continue;
    const auto& i0 = static_cast<const Imu&>(*sim.sensors()[0]);
    const auto& i1 = static_cast<const Imu&>(*sim.sensors()[1]);
    // The gyroscope has no walk: its samples minus the true rate are the white noise.
    a.push_back(i0.data().angular_velocity.z() - 0.3);
    b.push_back(i1.data().angular_velocity.z() - 0.3);
  }
  const NoiseStats sa = noise_stats(a), sb = noise_stats(b);
  double cov = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) cov += (a[k] - sa.mean) * (b[k] - sb.mean);
  const double correlation = cov / (a.size() - 1) / (sa.std * sb.std);
  EXPECT_LT(std::abs(correlation), 0.02);
  EXPECT_NEAR(sa.std, 0.01, 0.0002);
  EXPECT_NEAR(sb.std, 0.01, 0.0002);
}

TEST(ImuNoise, ThreadCountDoesNotChangeTheSamples) {
  auto sim = [](int threads) {
    return Simulation(load_world_from_string(kNoisyWorld, "t.yaml"), {.threads = threads});
  };
  Simulation one = sim(1), two = sim(2);
  EXPECT_EQ(record(one, 1, 300), record(two, 1, 300));
}

}  // namespace
}  // namespace ubot
