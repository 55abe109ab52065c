// The imu type's frames.jsonl piece (compiled into the record library): its parameters and the
// step's samples.
#include "frames_fields.h"
#include "ubot/record/frames_writer.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/imu/imu_sinks.h"

namespace ubot {
namespace {

// The IMU's parameters under their YAML names; the noise σ are per sample at the configured
// rate (converted from the densities when those were given).
void write_imu_parameters(JsonWriter& j, const Imu& imu) {
  const ImuModel& p = imu.params();
  const SensorCommon& c = imu.model().common;
  const double dt = 1.0 / c.update_rate_hz.value_or(kImuDefaultRateHz);
  j.key("frame_id").value(imu.header().frame_id);
  j.key("update_rate_hz").value(c.update_rate_hz.value_or(kImuDefaultRateHz));
  j.key("enabled").value(c.enabled).key("noise").value(c.noise);
  j.key("seed").value(c.seed.value_or(kImuDefaultSeed));
  write_vector(j, "offset", p.offset);
  write_vector(j, "rpy", p.rpy);
  j.key("accelerometer_noise_std").value(imu.processor().accelerometer_sigma(dt));
  j.key("gyroscope_noise_std").value(imu.processor().gyroscope_sigma(dt));
  if (p.accelerometer_noise_density) {
    j.key("accelerometer_noise_density").value(*p.accelerometer_noise_density);
  }
  if (p.gyroscope_noise_density) {
    j.key("gyroscope_noise_density").value(*p.gyroscope_noise_density);
  }
  write_vector(j, "accelerometer_bias", p.accelerometer_bias);
  write_vector(j, "gyroscope_bias", p.gyroscope_bias);
  j.key("accelerometer_bias_random_walk_std").value(p.accelerometer_bias_random_walk_std);
  j.key("gyroscope_bias_random_walk_std").value(p.gyroscope_bias_random_walk_std);
  j.key("low_pass").value(p.low_pass).key("low_pass_cutoff_hz").value(p.low_pass_cutoff_hz);
  j.key("clamp").value(p.clamp);
  j.key("max_linear_acceleration").value(p.max_linear_acceleration);
  j.key("max_angular_velocity").value(p.max_angular_velocity);
  j.key("teleport_distance").value(p.teleport_distance);
  j.key("teleport_angle_deg").value(p.teleport_angle_deg);
  j.key("max_sample_dt").value(p.max_sample_dt);
}

void write_imu_data(JsonWriter& j, const ImuSample& s) {
  const Eigen::Quaterniond& q = s.orientation;
  const double xyzw[4] = {q.x(), q.y(), q.z(), q.w()};
  j.key("orientation").array(xyzw);
  write_vector(j, "angular_velocity", s.angular_velocity);
  write_vector(j, "linear_acceleration", s.linear_acceleration);
  write_vector(j, "angular_velocity_variance", s.angular_velocity_variance);
  write_vector(j, "linear_acceleration_variance", s.linear_acceleration_variance);
}

// The entry's own fields are the step's last sample; `samples` lists every sample of the step
// (several when the IMU is faster than the world), in time order.
void write_imu(JsonWriter& j, const Imu& imu) {
  write_imu_data(j, imu.data());
  j.key("samples").begin_array();
  for (const ImuReading& r : imu.step_samples()) {
    const FrameHeader& h = r.header;
    j.begin_object().key("sequence").value(h.sequence);
    j.key("stamp").value(nanos_to_seconds(h.stamp));
    j.key("valid").value(h.valid).key("status").value(sample_status_name(h.status));
    write_imu_data(j, r.data);
    j.end_object();
  }
  j.end_array();
}

}  // namespace

void write_frames_parameters(const FramesContext& f, const Imu& s) {
  write_imu_parameters(f.json, s);
}

void write_frames_sample(const FramesContext& f, const Imu& s) {
  f.json.key("valid").value(s.header().valid);  // the IMU's statuses vary
  if (write_status(f.json, s.header())) write_imu(f.json, s);
}

}  // namespace ubot
