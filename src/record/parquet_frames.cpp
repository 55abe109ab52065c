// Which columns the Parquet record takes from the simulation (docs/outputs.md, "frames as
// Parquet"); the file format itself is parquet_writer.cpp's. Every value is the one frames.jsonl
// writes for the same step (src/record/frames_writer.cpp and the sensor types' *_record.cpp), so
// the two records can be compared value for value (tests/python/test_outputs.py).
#include "ubot/record/parquet_frames.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ubot/record/frames_writer.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/lidar2d/lidar2d.h"

// The helpers live in ubot::parquet (the writer's namespace, whose file-local names differ from
// these) so that a unity build batching this file with frames_writer.cpp keeps them apart.
namespace ubot::parquet {
namespace {

constexpr PhysicalType kBool = PhysicalType::kBoolean;
constexpr PhysicalType kI32 = PhysicalType::kInt32;
constexpr PhysicalType kI64 = PhysicalType::kInt64;
constexpr PhysicalType kF32 = PhysicalType::kFloat;
constexpr PhysicalType kF64 = PhysicalType::kDouble;
constexpr PhysicalType kText = PhysicalType::kByteArray;

// objects.parquet: one row per object per recorded step. `state` is [x, y, yaw] (acker: + steer),
// `velocity` two components (omni_angular: three): the absent ones are null.
enum ObjectColumn {
  kStep,
  kTime,
  kId,
  kX,
  kY,
  kYaw,
  kSteer,
  kV0,
  kV1,
  kV2,
  kCollision,
  kArrive,
  kStop,
  kFov
};
std::vector<Column> object_columns() {
  return {{"step", kI64},        {"time", kF64},
          {"id", kI32},          {"x", kF64},
          {"y", kF64},           {"yaw", kF64},
          {"steer", kF64, true}, {"v0", kF64},
          {"v1", kF64},          {"v2", kF64, true},
          {"collision", kBool},  {"arrive", kBool},
          {"stop", kBool},       {"fov_detected", kI32, true, true}};
}

// scans.parquet: one row per lidar2d / fmcw_lidar2d sample. A Disabled sample has no data (nulls,
// as frames.jsonl's entry has no keys); radial_velocity is fmcw_lidar2d's, velocity_x / _y those
// of a lidar2d with has_velocity.
enum ScanColumn {
  kScanStep,
  kObject,
  kIndex,
  kType,
  kSequence,
  kStamp,
  kStatus,
  kOriginX,
  kOriginY,
  kOriginYaw,
  kRanges,
  kValid,
  kIntensities,
  kRadial,
  kVelocityX,
  kVelocityY
};
std::vector<Column> scan_columns() {
  return {{"step", kI64},
          {"object_id", kI32},
          {"index", kI32},
          {"type", kText},
          {"sequence", kI64},
          {"stamp", kF64},
          {"status", kText},
          {"origin_x", kF64, true},
          {"origin_y", kF64, true},
          {"origin_yaw", kF64, true},
          {"ranges", kF64, true, true},
          {"valid", kBool, true, true},
          {"intensities", kF32, true, true},
          {"radial_velocity", kF64, true, true},
          {"velocity_x", kF64, true, true},
          {"velocity_y", kF64, true, true}};
}

// imu.parquet: one row per IMU sample (each element of the entry's `samples`); a Disabled entry
// (no samples) is one row with its header and null values.
enum ImuColumn {
  kImuStep,
  kImuObject,
  kImuIndex,
  kImuSequence,
  kImuStamp,
  kImuValid,
  kImuStatus,
  kImuValues
};
constexpr const char* kImuVectors[] = {"angular_velocity", "linear_acceleration",
                                       "angular_velocity_variance", "linear_acceleration_variance"};
constexpr int kImuValueCount = 4 + 3 * 4;
std::vector<Column> imu_columns() {
  std::vector<Column> c = {{"step", kI64},     {"object_id", kI32}, {"index", kI32},
                           {"sequence", kI64}, {"stamp", kF64},     {"valid", kBool},
                           {"status", kText}};
  for (const char* q : {"x", "y", "z", "w"})
    c.push_back({std::string("orientation_") + q, kF64, true});
  for (const char* v : kImuVectors) {
    for (const char* axis : {"x", "y", "z"}) c.push_back({std::string(v) + "_" + axis, kF64, true});
  }
  return c;
}

template <class T>
bool has_sensor(const Simulation& sim) {
  return std::ranges::any_of(sim.sensors(),
                             [](const auto& s) { return sensor_if<T>(*s) != nullptr; });
}

void write_velocity(ParquetTable& t, const ObjectModel& m, const ObjectState& s) {
  t[kV0].value(s.velocity[0]);
  t[kV1].value(s.velocity[1]);
  if (m.kinematics.kind == KinematicsKind::kOmniAngular) {
    t[kV2].value(s.yaw_rate);
  } else {
    t[kV2].null();
  }
}

// The columns every sample row starts with (the entry's common keys in frames.jsonl).
void write_sample_header(ParquetTable& t, std::int64_t step, const Sensor& sensor, int first) {
  t[first].value(step);
  t[first + 1].value(static_cast<std::int32_t>(sensor.object_id()));
  t[first + 2].value(static_cast<std::int32_t>(sensor.index()));
}

void write_scan(ParquetTable& t, std::int64_t step, const Lidar2d& lidar) {
  const FrameHeader& h = lidar.header();
  write_sample_header(t, step, lidar, kScanStep);
  t[kType].value(std::string_view(lidar.model().type_name()));
  t[kSequence].value(static_cast<std::int64_t>(h.sequence));
  t[kStamp].value(nanos_to_seconds(h.stamp));
  t[kStatus].value(std::string_view(sample_status_name(h.status)));
  if (h.disabled()) {  // no data, as frames.jsonl's entry
    for (int c = kOriginX; c <= kVelocityY; ++c) t[c].null();
    return;
  }
  const LaserScan& s = lidar.scan();
  t[kOriginX].value(s.origin.x());
  t[kOriginY].value(s.origin.y());
  t[kOriginYaw].value(s.origin.z());
  t[kRanges].list(std::span<const double>(s.ranges));
  t[kValid].list(std::span<const std::uint8_t>(s.valid));
  t[kIntensities].list(std::span<const float>(s.intensities));
  if (lidar.params().fmcw) {
    t[kRadial].list(std::span<const double>(s.radial_velocity));
  } else {
    t[kRadial].null();
  }
  if (lidar.params().has_velocity) {
    const double* first = s.velocity.empty() ? nullptr : s.velocity.front().data();
    t[kVelocityX].strided_list(first, s.velocity.size(), 2);
    t[kVelocityY].strided_list(first ? first + 1 : nullptr, s.velocity.size(), 2);
  } else {
    t[kVelocityX].null();
    t[kVelocityY].null();
  }
}

void write_imu_values(ParquetTable& t, const ImuSample* s) {
  int c = kImuValues;
  if (!s) {
    for (int i = 0; i < kImuValueCount; ++i) t[c++].null();
    return;
  }
  const Eigen::Quaterniond& q = s->orientation;
  for (const double v : {q.x(), q.y(), q.z(), q.w()}) t[c++].value(v);
  for (const Eigen::Vector3d* v :
       {&s->angular_velocity, &s->linear_acceleration, &s->angular_velocity_variance,
        &s->linear_acceleration_variance}) {
    for (int axis = 0; axis < 3; ++axis) t[c++].value((*v)[axis]);
  }
}

void write_imu_row(ParquetTable& t, std::int64_t step, const Imu& imu, const FrameHeader& h,
                   const ImuSample* s) {
  write_sample_header(t, step, imu, kImuStep);
  t[kImuSequence].value(static_cast<std::int64_t>(h.sequence));
  t[kImuStamp].value(nanos_to_seconds(h.stamp));
  t[kImuValid].value(h.valid);
  t[kImuStatus].value(std::string_view(sample_status_name(h.status)));
  write_imu_values(t, s);
}

void write_imu(ParquetTable& t, std::int64_t step, const Imu& imu) {
  if (imu.header().disabled()) {
    write_imu_row(t, step, imu, imu.header(), nullptr);
    return;
  }
  for (const ImuReading& r : imu.step_samples()) write_imu_row(t, step, imu, r.header, &r.data);
}

void write_objects(ParquetTable& t, const World& w) {
  const std::int64_t step = w.step_count();
  const double time = nanos_to_seconds(w.time_ns());
  const std::vector<std::vector<int>>& detections = w.fov_detections();
  for (int id = 0; id < static_cast<int>(w.size()); ++id) {
    const ObjectState& s = w.object(id);
    const ObjectModel& m = w.object_model(id);
    t[kStep].value(step);
    t[kTime].value(time);
    t[kId].value(static_cast<std::int32_t>(id));
    t[kX].value(s.state[0]);
    t[kY].value(s.state[1]);
    t[kYaw].value(s.state[2]);
    if (s.state.size() > 3) {
      t[kSteer].value(s.state[3]);
    } else {
      t[kSteer].null();
    }
    write_velocity(t, m, s);
    t[kCollision].value(s.collision);
    t[kArrive].value(s.arrive);
    t[kStop].value(s.stop);
    if (m.fov && m.fov_radius) {  // as frames.jsonl: only objects with a field of view
      t[kFov].list(std::span<const int>(detections[id]));
    } else {
      t[kFov].null();
    }
  }
  t.end_batch();
}

}  // namespace
}  // namespace ubot::parquet

namespace ubot {

ParquetFramesWriter::ParquetFramesWriter(const std::filesystem::path& dir, const Simulation& sim,
                                         ParquetFramesOptions options)
    : worker_(std::make_unique<parquet::ParquetWorker>(options.background)) {
  const parquet::FileOptions file{.codec = options.codec,
                                  .created_by = std::string("ubot ") + UBOT_VERSION,
                                  .metadata = {{"ubot.header", frames_header_json(sim)}},
                                  .limits = options.limits};
  auto table = [&](const char* name, std::vector<parquet::Column> columns) {
    return std::make_unique<parquet::ParquetTable>((dir / name).string(), std::move(columns), file,
                                                   *worker_);
  };
  objects_ = table("objects.parquet", parquet::object_columns());
  if (parquet::has_sensor<Lidar2d>(sim)) scans_ = table("scans.parquet", parquet::scan_columns());
  if (parquet::has_sensor<Imu>(sim)) imu_ = table("imu.parquet", parquet::imu_columns());
}

ParquetFramesWriter::~ParquetFramesWriter() {
  worker_.reset();  // stopped first: no job runs while the tables go
}

void ParquetFramesWriter::write_step(const Simulation& sim) {
  write_objects(sim);
  write_samples(sim);
}

void ParquetFramesWriter::write_objects(const Simulation& sim) {
  parquet::write_objects(*objects_, sim.world());
}

void ParquetFramesWriter::write_samples(const Simulation& sim) {
  const std::int64_t step = sim.world().step_count();
  for (const int i : sim.sampled()) {
    const SensorRef ref = sim.sensors()[i]->ref();  // once: a virtual call per sensor
    if (const Lidar2d* const* lidar = std::get_if<const Lidar2d*>(&ref)) {
      parquet::write_scan(*scans_, step, **lidar);
    } else if (const Imu* const* imu = std::get_if<const Imu*>(&ref)) {
      parquet::write_imu(*imu_, step, **imu);
    }
    // lidar3d and cameras: frames.jsonl only (their data are points.bin and PNG files).
  }
  if (scans_) scans_->end_batch();
  if (imu_) imu_->end_batch();
}

void ParquetFramesWriter::drain() { worker_->drain(); }

void ParquetFramesWriter::close() {
  for (parquet::ParquetTable* t : {objects_.get(), scans_.get(), imu_.get()}) {
    if (t) t->close();
  }
  worker_->drain();
}

}  // namespace ubot
