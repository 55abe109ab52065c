#pragma once
// IMU (`imu`, SPEC §7): orientation, angular velocity and specific force of its mounting frame,
// derived by differencing the sensor's successive sampled world poses, then noise, bias, bias
// random walk, low-pass and clamp.
//
// What "exact" means here: the IMU sees only the poses at its sample times t_{k-2}, t_{k-1}, t_k
// (on its own grid, several per world step when it is faster than the world: the world's motion
// at those instants, World::pose3d_at), and reports
//   ω_k = log(R_{k-1}ᵀ R_k) / Δt_k                       (sensor frame)
//   f_k = R_{k-1}ᵀ (a_k + g ẑ),  a_k = 2 (v_k - v_{k-1}) / (Δt_k + Δt_{k-1}),
//         v_k = (p_k - p_{k-1}) / Δt_k                   (central second difference)
// ω_k is the constant body rate that carries R_{k-1} to R_k: exact for any rotation at a
// constant rate over the interval (whatever its size, below π). a_k is the acceleration of the
// parabola through the three positions, centred on t_{k-1}, and so expressed in the sensor
// frame of t_{k-1}: exact for rest, constant velocity and free fall, and exact at t_{k-1} for
// any cubic motion sampled evenly. The accelerometer therefore describes the motion one sample
// period before the stamp, the gyroscope the last interval (half a period before it). Mounting
// offsets need no special terms: the sensor's own positions are differenced, so lever-arm
// (centripetal and tangential) accelerations appear by themselves.
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/core/pose3d.h"
#include "ubot/sensors/sensor.h"

namespace ubot {

struct ImuSample {
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();      // sensor in world, no noise
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();           // rad/s, sensor frame
  Eigen::Vector3d linear_acceleration = Eigen::Vector3d::Zero();        // specific force, m/s²
  Eigen::Vector3d angular_velocity_variance = Eigen::Vector3d::Zero();  // rad²/s²
  Eigen::Vector3d linear_acceleration_variance = Eigen::Vector3d::Zero();  // m²/s⁴
  // The orientation variance is always 0 (the orientation is exact).
};

// One sample with its header (stamp, sequence, status).
struct ImuReading {
  FrameHeader header;
  ImuSample data;
};

// The IMU's signal chain, independent of worlds: it is fed the sensor's world pose at each sample
// time. Status rules (SPEC §7): the first two samples after construction or reset_history() are
// WarmingUp; InvalidDeltaTime when Δt <= 0 or Δt > max_sample_dt (every sample when the
// configured period itself exceeds max_sample_dt); TeleportDetected when the sensor moved more
// than teleport_distance or turned more than teleport_angle since the last sample. Both restart
// the history from the current pose (next sample WarmingUp, then Valid). Non-valid samples report
// zero angular velocity and specific force. With noise on, the bias random walk advances on every
// sample, valid or not (by N(0, σ_rw √Δt), Δt the time since the previous sample, the configured
// period for the first one, as the seed does); biases, white noise, filter and clamp apply to
// valid samples only.
class ImuProcessor {
 public:
  // `noise`: the sensor's noise switch; `period`: its configured sample period.
  ImuProcessor(const ImuModel& params, bool noise, Nanos period);

  SampleStatus process(Nanos stamp, const Pose3d& pose_WS, RandomStream& rng);
  const ImuSample& sample() const { return sample_; }

  // Forgets the poses used for differencing: the next two samples are WarmingUp.
  void reset_history() { history_ = 0; }
  // Back to the configured biases, dropping what the random walk added.
  void reset_bias();
  // Current biases (configured + random walk), sensor frame.
  Eigen::Vector3d accelerometer_bias() const { return params_.accelerometer_bias + walk_a_; }
  Eigen::Vector3d gyroscope_bias() const { return params_.gyroscope_bias + walk_g_; }
  // Per-sample white-noise σ for a sample interval dt (the configured σ, or density / √dt).
  double accelerometer_sigma(double dt) const;
  double gyroscope_sigma(double dt) const;
  // Its running state (state files, core/state_io.h).
  void io_state(StateIo& s);

 private:
  struct Pose {
    Nanos stamp = 0;
    Eigen::Vector3d position = Eigen::Vector3d::Zero();
    Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  };
  SampleStatus classify(Nanos stamp, const Pose3d& pose, Eigen::Vector3d& turn) const;
  void differentiate(const Pose3d& pose, const Eigen::Vector3d& turn, double dt);
  // The bias random walk over `elapsed` seconds.
  void advance_walk(double elapsed, RandomStream& rng);
  // sa, sg: the white-noise σ at this dt (accelerometer_sigma, gyroscope_sigma).
  void add_bias_and_noise(double sa, double sg, RandomStream& rng);
  void filter_and_clamp(double dt);

  ImuModel params_;
  bool noise_;
  Nanos period_;
  Nanos max_dt_;
  double teleport_angle_;  // radians
  Pose previous_, before_previous_;
  int history_ = 0;       // poses kept for differencing (0, 1 or 2)
  bool started_ = false;  // some sample was processed (previous_.stamp is its time)
  Eigen::Vector3d walk_a_ = Eigen::Vector3d::Zero(), walk_g_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d filter_a_ = Eigen::Vector3d::Zero(), filter_g_ = Eigen::Vector3d::Zero();
  ImuSample sample_;
};

class Imu final : public Sensor {
 public:
  Imu(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);

  std::unique_ptr<Sensor> clone() const override { return std::make_unique<Imu>(*this); }
  void copy_state_from(const Sensor& other) override {
    *this = same_type_as<Imu>(other);  // Simulation::restore pairs sensors of one model
  }
  void io_own_state(StateIo& s) override;
  SensorRef ref() const override { return this; }
  const ImuModel& params() const { return params_; }
  // The latest sample (reading it never samples; also one taken by Simulation::sample_now);
  // header() has its status.
  const ImuSample& data() const { return processor_.sample(); }
  // Every sample the schedule took in the last world step, in time order, each with its own
  // header; empty when it took none. Sinks (frames.jsonl, CSV, MCAP, ROS 2) write these.
  std::span<const ImuReading> step_samples() const { return {step_.data(), step_size_}; }
  const ImuProcessor& processor() const { return processor_; }
  // Pose of the sensor frame in the body frame (offset and rpy).
  const Pose3d& mount() const { return mount_; }

  void reset_bias() { processor_.reset_bias(); }
  void reset_history() { processor_.reset_history(); }

 private:
  SampleStatus measure(const SensorContext& ctx) override;
  bool samples_inside_steps() const override { return true; }
  void begin_step() override { step_size_ = 0; }
  void after_step_sample() override;

  ImuModel params_;
  Pose3d mount_;
  ImuProcessor processor_;
  // The samples of the last step: storage (and the headers' strings) reused from step to step.
  std::vector<ImuReading> step_;
  std::size_t step_size_ = 0;
};

}  // namespace ubot
