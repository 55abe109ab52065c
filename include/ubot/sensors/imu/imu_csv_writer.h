#pragma once
// A plot-ready CSV of one IMU's samples (an interface, documented in the README): a header row
//   stamp,sequence,status,valid,qx,qy,qz,qw,wx,wy,wz,ax,ay,az
// then one row per sample: sim time (s), sequence, status name, 1/0, orientation quaternion
// (world), angular velocity (rad/s) and specific force (m/s²) in the sensor frame. Numbers in
// the shortest form that reads back to the same double.
#include <cstdio>
#include <string>

#include "ubot/sensors/imu/imu.h"

namespace ubot {

class ImuCsvWriter {
 public:
  // Opens `path` and writes the header row; throws ubot::Error when it cannot be written.
  explicit ImuCsvWriter(const std::string& path);
  ~ImuCsvWriter();
  ImuCsvWriter(const ImuCsvWriter&) = delete;
  ImuCsvWriter& operator=(const ImuCsvWriter&) = delete;

  // Appends one sample.
  void write(const ImuReading& sample);
  // Appends every sample the IMU took in the last step (Imu::step_samples()), in time order.
  void write_step(const Imu& imu);
  // Flushes and closes; throws ubot::Error on a write error.
  void close();

 private:
  void put(const std::string& line);
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace ubot
