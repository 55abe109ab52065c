#pragma once
// The run's record as Apache Parquet (`ubot run --frames-format parquet`, docs/outputs.md "frames
// as Parquet"): the columns frames.jsonl's step lines hold, one row per object, lidar scan or IMU
// sample of each recorded step, in up to three files of the output folder:
//   objects.parquet  always            (step, time, id, x, y, yaw, steer, v0..v2, flags, fov)
//   scans.parquet    with a lidar2d or fmcw_lidar2d
//   imu.parquet      with an IMU       (one row per sample of the step)
// Each file's key-value metadata holds frames.jsonl's header line under "ubot.header".
// write_step() copies the step's values into column buffers on the caller's thread; a worker
// thread encodes, compresses and writes them (ubot/record/parquet_writer.h).
#include <filesystem>
#include <memory>

#include "ubot/record/parquet_writer.h"
#include "ubot/sim/simulation.h"

namespace ubot {

struct ParquetFramesOptions {
  // zstd level 1: 7x smaller pages than UNCOMPRESSED on the benchmark world (0.69 MB a step
  // against 4.6 MB; frames.jsonl 5.6 MB), at a cost paid on the worker thread, not the step's;
  // UNCOMPRESSED spends a third of the CPU but makes the kernel write 7x the bytes
  // (docs/large-runs.md, "frames as Parquet").
  parquet::Codec codec = parquet::Codec::kZstd;
  bool background = true;  // encode and write on a worker thread (false: inside write_step)
  parquet::TableLimits limits;
};

class ParquetFramesWriter {
 public:
  // Creates the files in `dir`; throws ubot::Error when one cannot be written.
  ParquetFramesWriter(const std::filesystem::path& dir, const Simulation& sim,
                      ParquetFramesOptions options = {});
  ~ParquetFramesWriter();
  ParquetFramesWriter(const ParquetFramesWriter&) = delete;
  ParquetFramesWriter& operator=(const ParquetFramesWriter&) = delete;

  // Appends the current step's rows.
  void write_step(const Simulation& sim);
  // Waits until the worker has written everything given so far (benchmarks); rethrows its error.
  void drain();
  // Writes the last row groups and the footers and gives the files their names; throws
  // ubot::Error on a write error.
  void close();

 private:
  void write_objects(const Simulation& sim);
  void write_samples(const Simulation& sim);
  std::unique_ptr<parquet::ParquetWorker> worker_;
  std::unique_ptr<parquet::ParquetTable> objects_;
  std::unique_ptr<parquet::ParquetTable> scans_;  // null without lidar2d sensors
  std::unique_ptr<parquet::ParquetTable> imu_;    // null without IMUs
};

}  // namespace ubot
