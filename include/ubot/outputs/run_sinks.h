#pragma once
// The outputs of a run (frames.jsonl, IMU CSVs and plots, camera images, pictures, MCAP, maps),
// each a ubot::Sink around one writer: what `ubot run` enables (apps/ubot/run_command.cpp lists
// them) and what the Python module's Simulation.record writes (docs/python.md).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ubot/config/world_model.h"
#include "ubot/record/mcap_writer.h"
#include "ubot/sim/sink.h"

namespace ubot::outputs {

// Which records the recorded steps go to (`ubot run --frames-format`, Simulation.record's
// frames_format): a comma list, each named once.
struct FramesFormats {
  bool jsonl = false;    // frames.jsonl (and points.bin)
  bool parquet = false;  // objects.parquet, scans.parquet, imu.parquet
};
// "jsonl", "parquet" or "jsonl,parquet" (either order); anything else is an ubot::Error whose
// message starts with `what` (the flag or argument that gave it).
FramesFormats parse_frames_formats(const std::string& list, const std::string& what);

// frames.jsonl (and points.bin): every `every`-th step and the last.
std::unique_ptr<Sink> frames_sink(const Simulation& sim, const std::filesystem::path& out,
                                  std::int64_t every);
// The same steps as Parquet (objects.parquet, scans.parquet, imu.parquet; ubot/record/
// parquet_frames.h): every `every`-th step and the last.
std::unique_ptr<Sink> parquet_frames_sink(const Simulation& sim, const std::filesystem::path& out,
                                          std::int64_t every);
// Per IMU: DIR/<object>/<sensor>.csv with every sample and DIR/<object>/<sensor>.png plotting
// its six channels.
std::unique_ptr<Sink> imu_outputs_sink(const Simulation& sim, const std::filesystem::path& out);
// Camera images: DIR/<object>/<camera>/<sequence>.png.
std::unique_ptr<Sink> camera_images_sink(const Simulation& sim, const std::filesystem::path& out);
// Which pictures a run draws: world.png at the end, run.gif at the world's sample_time.
struct Pictures {
  bool gif = false;
  bool png = true;
};
std::unique_ptr<Sink> pictures_sink(const Simulation& sim, const std::filesystem::path& out,
                                    Pictures pictures);
// The MCAP recording at `path` (its directory created); report(): its statistics.
std::unique_ptr<Sink> mcap_sink(const Simulation& sim, const std::string& path,
                                McapCompression compression, const std::string& compression_name);
// The lidar maps; report(): their summaries.
std::unique_ptr<Sink> mapper_sink(const Simulation& sim, std::vector<MappingModel> maps,
                                  const std::filesystem::path& out, bool quiet);

// The maps of a run: the world's `mapping:`, with `map_path` (non-empty) enabling a map of every
// lidar (no `mapping:`) or replacing the output of the world's only map (`ubot run --map`).
// Throws ubot::Error when the world defines several maps and `map_path` is given.
std::vector<MappingModel> run_maps(const WorldModel& model, const std::string& map_path);

}  // namespace ubot::outputs
