#include "ubot/sensors/imu/imu_csv_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "output_file.h"
#include "ubot/core/error.h"

namespace ubot {

ImuCsvWriter::ImuCsvWriter(const std::string& path) : path_(path) {
  file_ = open_output(path);
  put("stamp,sequence,status,valid,qx,qy,qz,qw,wx,wy,wz,ax,ay,az\n");
}

ImuCsvWriter::~ImuCsvWriter() {
  if (file_) std::fclose(file_);
}

void ImuCsvWriter::write_step(const Imu& imu) {
  for (const ImuReading& sample : imu.step_samples()) write(sample);
}

void ImuCsvWriter::write(const ImuReading& sample) {
  const FrameHeader& h = sample.header;
  const ImuSample& s = sample.data;
  const Eigen::Quaterniond& q = s.orientation;
  const Eigen::Vector3d &w = s.angular_velocity, &a = s.linear_acceleration;
  // fmt's "{}" for a double is the shortest round-trip form.
  put(fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", nanos_to_seconds(h.stamp),
                  h.sequence, sample_status_name(h.status), h.valid ? 1 : 0, q.x(), q.y(), q.z(),
                  q.w(), w.x(), w.y(), w.z(), a.x(), a.y(), a.z()));
}

void ImuCsvWriter::put(const std::string& line) {
  write_output(file_, line.data(), line.size(), path_);
}

void ImuCsvWriter::close() { close_output(file_, path_); }

}  // namespace ubot
