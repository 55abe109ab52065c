#include "ubot/sensors/imu/imu.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "ubot/core/state_io.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

void clamp_length(Eigen::Vector3d& v, double max_length) {
  const double length = v.norm();
  if (length > max_length) v *= max_length / length;
}

}  // namespace

ImuProcessor::ImuProcessor(const ImuModel& params, bool noise, Nanos period)
    : params_(params),
      noise_(noise),
      period_(period),
      max_dt_(seconds_to_nanos(params.max_sample_dt)),
      teleport_angle_(params.teleport_angle_deg * std::numbers::pi / 180.0) {}

double ImuProcessor::accelerometer_sigma(double dt) const {
  return params_.accelerometer_noise_density ? *params_.accelerometer_noise_density / std::sqrt(dt)
                                             : params_.accelerometer_noise_std;
}

double ImuProcessor::gyroscope_sigma(double dt) const {
  return params_.gyroscope_noise_density ? *params_.gyroscope_noise_density / std::sqrt(dt)
                                         : params_.gyroscope_noise_std;
}

void ImuProcessor::reset_bias() {
  walk_a_.setZero();
  walk_g_.setZero();
}

SampleStatus ImuProcessor::classify(Nanos stamp, const Pose3d& pose, Eigen::Vector3d& turn) const {
  // A configured period beyond max_sample_dt can never give a usable interval.
  if (period_ > max_dt_) return SampleStatus::kInvalidDeltaTime;
  if (history_ == 0) return SampleStatus::kWarmingUp;
  const Nanos dt = stamp - previous_.stamp;
  if (dt <= 0 || dt > max_dt_) return SampleStatus::kInvalidDeltaTime;
  turn = rotation_vector(previous_.orientation.conjugate() * pose.orientation);
  if ((pose.position - previous_.position).squaredNorm() >
          params_.teleport_distance * params_.teleport_distance ||
      turn.norm() > teleport_angle_) {
    return SampleStatus::kTeleportDetected;
  }
  return history_ < 2 ? SampleStatus::kWarmingUp : SampleStatus::kValid;
}

SampleStatus ImuProcessor::process(Nanos stamp, const Pose3d& pose, RandomStream& rng) {
  Eigen::Vector3d turn;  // rotation vector from the previous orientation to this one
  const SampleStatus status = classify(stamp, pose, turn);
  // Invalid intervals and teleports restart the history from this pose.
  if (status == SampleStatus::kInvalidDeltaTime || status == SampleStatus::kTeleportDetected) {
    history_ = 0;
  }
  const bool valid = status == SampleStatus::kValid;
  const double dt = nanos_to_seconds(valid ? stamp - previous_.stamp : period_);
  sample_.orientation = pose.orientation;
  const double sa = accelerometer_sigma(dt), sg = gyroscope_sigma(dt);
  // The bias drifts with time, so it walks on every sample, valid or not (the seed's rule).
  if (noise_) {
    const Nanos elapsed = started_ ? std::max<Nanos>(stamp - previous_.stamp, 0) : period_;
    advance_walk(nanos_to_seconds(elapsed), rng);
  }
  if (valid) {
    differentiate(pose, turn, dt);
    if (noise_) add_bias_and_noise(sa, sg, rng);
    filter_and_clamp(dt);
  } else {
    sample_.angular_velocity.setZero();
    sample_.linear_acceleration.setZero();
  }
  // Variances are reported whether noise is on or not (SPEC §7).
  sample_.linear_acceleration_variance.setConstant(sa * sa);
  sample_.angular_velocity_variance.setConstant(sg * sg);

  before_previous_ = previous_;
  previous_ = {stamp, pose.position, pose.orientation};
  history_ = std::min(history_ + 1, 2);
  started_ = true;
  return status;
}

void ImuProcessor::differentiate(const Pose3d& pose, const Eigen::Vector3d& turn, double dt) {
  const double dt0 = nanos_to_seconds(previous_.stamp - before_previous_.stamp);
  const Eigen::Vector3d v1 = (pose.position - previous_.position) / dt;
  const Eigen::Vector3d v0 = (previous_.position - before_previous_.position) / dt0;
  const Eigen::Vector3d a_W = (v1 - v0) * (2.0 / (dt0 + dt));
  sample_.linear_acceleration =
      previous_.orientation.conjugate() * (a_W + Eigen::Vector3d(0.0, 0.0, kGravity));
  sample_.angular_velocity = turn / dt;
}

// Draws in a fixed order for reproducibility: accelerometer walk x y z, gyroscope walk, then
// (valid samples) accelerometer noise, gyroscope noise.
void ImuProcessor::advance_walk(double elapsed, RandomStream& rng) {
  const double sqrt_dt = std::sqrt(elapsed);
  const double walk_a = params_.accelerometer_bias_random_walk_std * sqrt_dt;
  const double walk_g = params_.gyroscope_bias_random_walk_std * sqrt_dt;
  if (walk_a > 0.0) {
    for (int k = 0; k < 3; ++k) walk_a_[k] += rng.gaussian(walk_a);
  }
  if (walk_g > 0.0) {
    for (int k = 0; k < 3; ++k) walk_g_[k] += rng.gaussian(walk_g);
  }
}

void ImuProcessor::add_bias_and_noise(double sa, double sg, RandomStream& rng) {
  sample_.linear_acceleration += accelerometer_bias();
  sample_.angular_velocity += gyroscope_bias();
  if (sa > 0.0) {
    for (int k = 0; k < 3; ++k) sample_.linear_acceleration[k] += rng.gaussian(sa);
  }
  if (sg > 0.0) {
    for (int k = 0; k < 3; ++k) sample_.angular_velocity[k] += rng.gaussian(sg);
  }
}

void ImuProcessor::filter_and_clamp(double dt) {
  if (params_.low_pass) {
    // First-order low-pass, discretised exactly for an input held over the interval (its step
    // response at the samples is 1 - exp(-2π f_c t)); the state starts at 0.
    const double alpha = 1.0 - std::exp(-2.0 * std::numbers::pi * params_.low_pass_cutoff_hz * dt);
    filter_a_ += alpha * (sample_.linear_acceleration - filter_a_);
    filter_g_ += alpha * (sample_.angular_velocity - filter_g_);
    sample_.linear_acceleration = filter_a_;
    sample_.angular_velocity = filter_g_;
  }
  if (params_.clamp) {
    clamp_length(sample_.linear_acceleration, params_.max_linear_acceleration);
    clamp_length(sample_.angular_velocity, params_.max_angular_velocity);
  }
}

Imu::Imu(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed)
    : Sensor(model, owner, index, world_seed),
      params_(std::get<ImuModel>(model.params)),
      mount_{params_.offset, rotation_from_rpy(params_.rpy)},
      processor_(params_, model.common.noise,
                 period_from_rate(model.common.update_rate_hz.value_or(kImuDefaultRateHz))) {}

SampleStatus Imu::measure(const SensorContext& ctx) {
  const Pose3d sensor = compose(ctx.world.pose3d_at(object_id(), ctx.stamp), mount_);
  return processor_.process(ctx.stamp, sensor, rng());
}

void Imu::after_step_sample() {
  if (step_size_ == step_.size()) step_.emplace_back();
  ImuReading& r = step_[step_size_++];
  r.header = header();  // assignment keeps the strings' storage
  r.data = processor_.sample();
}

namespace {

void io(StateIo& s, ImuSample& m) {
  s.value(m.orientation);
  s.value(m.angular_velocity);
  s.value(m.linear_acceleration);
  s.value(m.angular_velocity_variance);
  s.value(m.linear_acceleration_variance);
}

}  // namespace

void ImuProcessor::io_state(StateIo& s) {
  for (Pose* p : {&previous_, &before_previous_}) {
    s.value(p->stamp);
    s.value(p->position);
    s.value(p->orientation);
  }
  s.value(history_);
  if (s.reading() && (history_ < 0 || history_ > 2)) s.fail("an IMU history of other than 0-2");
  s.value(started_);
  s.value(walk_a_);
  s.value(walk_g_);
  s.value(filter_a_);
  s.value(filter_g_);
  io(s, sample_);
}

void Imu::io_own_state(StateIo& s) {
  processor_.io_state(s);
  std::uint64_t size = step_size_;
  s.value(size);
  if (s.reading()) {
    if (size > s.left() / 8) s.fail("more IMU samples in a step than the file holds");
    step_.resize(static_cast<std::size_t>(size));
    step_size_ = static_cast<std::size_t>(size);
  }
  for (std::size_t i = 0; i < step_size_; ++i) {
    io(s, step_[i].header);
    io(s, step_[i].data);
  }
}
}  // namespace ubot
