#include "ubot/outputs/run_sinks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/core/serial_worker.h"
#include "ubot/core/stop.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/mapping/point_cloud_io.h"
#include "ubot/mapping/sim_mapper.h"
#include "ubot/record/frames_writer.h"
#include "ubot/record/mcap_recorder.h"
#include "ubot/record/parquet_frames.h"
#include "ubot/render/drawing.h"
#include "ubot/render/plot.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/camera/camera_images.h"
#include "ubot/sensors/imu/imu.h"
#include "ubot/sensors/imu/imu_csv_writer.h"
#include "ubot/sensors/imu/imu_plot.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"

namespace ubot::outputs {
namespace {

constexpr int kPictureSide = 800;

class FramesSink final : public Sink {
 public:
  FramesSink(const Simulation& sim, const std::filesystem::path& out, std::int64_t every)
      : writer_((out / "frames.jsonl").string(), sim), every_(every) {}
  void on_step(const Simulation& sim, const StepInfo& step) override {
    if (step.step % every_ == 0 || step.last) writer_.write_step(sim);
  }
  void on_finish(const Simulation&) override { writer_.close(); }

 private:
  FramesWriter writer_;
  std::int64_t every_;
};

// The same steps as FramesSink, as Parquet: the step's values are copied here, encoded and
// written by the writer's thread; on_finish (also after SIGINT / SIGTERM) writes the footers.
class ParquetFramesSink final : public Sink {
 public:
  ParquetFramesSink(const Simulation& sim, const std::filesystem::path& out, std::int64_t every)
      : writer_(out, sim), every_(every) {}
  void on_step(const Simulation& sim, const StepInfo& step) override {
    if (step.step % every_ == 0 || step.last) writer_.write_step(sim);
  }
  void on_finish(const Simulation&) override { writer_.close(); }

 private:
  ParquetFramesWriter writer_;
  std::int64_t every_;
};

class ImuOutputsSink final : public Sink {
 public:
  ImuOutputsSink(const Simulation& sim, const std::filesystem::path& out) {
    std::map<std::string, std::string> claimed;
    for (std::size_t i = 0; i < sim.sensors().size(); ++i) {
      const Sensor& sensor = *sim.sensors()[i];
      const Imu* imu = sensor_if<Imu>(sensor);
      if (!imu) continue;
      const std::filesystem::path dir =
          out / file_safe_name(sim.world().object_model(sensor.object_id()).name);
      create_output_dir(dir);
      const std::string stem = (dir / file_safe_name(sensor.model().common.name)).string();
      claim_output_name(claimed, stem + ".csv",
                        fmt::format("'{}/{}'", sim.world().object_model(sensor.object_id()).name,
                                    sensor.model().common.name));
      imus_.push_back({i, imu, std::make_unique<ImuCsvWriter>(stem + ".csv"), viz::ImuPlot(*imu),
                       stem + ".png"});
    }
  }
  void on_step(const Simulation& sim, const StepInfo&) override {
    const auto& sampled = sim.sampled();
    for (Entry& e : imus_) {
      if (!std::binary_search(sampled.begin(), sampled.end(), static_cast<int>(e.sensor))) {
        continue;
      }
      e.csv->write_step(*e.imu);
      e.plot.record_step(*e.imu);
    }
  }
  void on_finish(const Simulation&) override {
    for (Entry& e : imus_) e.csv->close();
    // The plots after every CSV is closed: a stop's finishing budget may run out while drawing
    // them (a long run's plot of a million samples takes 0.3 s), and then the rest are skipped.
    for (Entry& e : imus_) {
      if (!skipped_.empty()) {
        skipped_.push_back(e.png);
        continue;
      }
      try {
        render::write_plot_png(e.plot.plot(), {1000, 640}, e.png);
      } catch (const Stopped&) {
        skipped_.push_back(e.png);
      }
    }
  }
  std::vector<std::string> skipped() const override {
    std::vector<std::string> names;
    for (const std::string& png : skipped_) {
      names.push_back(std::filesystem::path(png).parent_path().filename().string() + "/" +
                      std::filesystem::path(png).filename().string());
    }
    return names;
  }

 private:
  struct Entry {
    std::size_t sensor;
    const Imu* imu;
    std::unique_ptr<ImuCsvWriter> csv;
    viz::ImuPlot plot;
    std::string png;
  };
  std::vector<Entry> imus_;
  std::vector<std::string> skipped_;  // plots left out after a stop
};

class CameraImagesSink final : public Sink {
 public:
  CameraImagesSink(const Simulation& sim, const std::filesystem::path& out) : writer_(out, sim) {}
  void on_step(const Simulation& sim, const StepInfo&) override { writer_.write(sim); }

 private:
  CameraImagesWriter writer_;
};

// The run's pictures: its drawing, recorded every step, drawn into run.gif every sample_time
// (and at the last step; large worlds' frames reduced: viz::gif_frames) and into world.png at
// the end. After a stop signal a picture that would overrun the finishing budget is given up
// (ubot/core/stop.h): run.gif keeps the frames it has, world.png is not written, and the
// report says so.
class PicturesSink final : public Sink {
 public:
  PicturesSink(const Simulation& sim, const std::filesystem::path& out, Pictures pictures)
      : drawing_(sim), out_(out), png_(pictures.png) {
    const render::Drawing first = drawing_.draw(sim);
    size_ = render::fit_image(first, kPictureSide);
    const double sample_time = sim.world().model().world.sample_time;
    gif_every_ = std::max<std::int64_t>(1, std::llround(sample_time / sim.world().step_time()));
    if (pictures.gif) {
      frames_ = viz::gif_frames(first, size_);
      gif_every_ *= frames_.sample_stride;
      gif_ = std::make_unique<render::GifWriter>((out / "run.gif").string(), frames_.size,
                                                 gif_every_ * sim.world().step_time());
      encoder_ = std::make_unique<SerialWorker>();
      add_gif_frame(sim);
    }
  }
  void on_step(const Simulation& sim, const StepInfo& step) override {
    drawing_.record(sim);
    if (gif_ && (step.step % gif_every_ == 0 || step.last)) add_gif_frame(sim);
  }
  void on_finish(const Simulation& sim) override {
    if (gif_) {
      try {
        encoder_->wait();
      } catch (const Stopped&) {
        gif_stopped_ = true;
      }
      gif_->close();
    }
    if (!png_) return;
    try {
      render::write_png(drawing_.draw(sim), size_, (out_ / "world.png").string());
    } catch (const Stopped&) {
      png_skipped_ = true;
    }
  }
  // The frame is drawn here (it reads the simulation) and painted and encoded by encoder_,
  // beside the next steps: the frames reach run.gif in order, the same bytes as in place.
  void add_gif_frame(const Simulation& sim) {
    if (gif_stopped_) return;
    try {
      encoder_->submit(
          [this, frame = drawing_.draw(sim, {}, frames_.budget)] { gif_->add_frame(frame); });
    } catch (const Stopped&) {
      gif_stopped_ = true;
    }
  }
  std::vector<std::string> skipped() const override {
    std::vector<std::string> left_out;
    if (gif_stopped_) left_out.push_back("run.gif's later frames");
    if (png_skipped_) left_out.push_back("world.png");
    return left_out;
  }

 private:
  viz::RunDrawing drawing_;
  std::filesystem::path out_;
  bool png_;
  render::ImageSize size_;
  std::int64_t gif_every_ = 1;
  viz::GifFrames frames_;
  std::unique_ptr<render::GifWriter> gif_;
  std::unique_ptr<SerialWorker> encoder_;  // destroyed first: its jobs use gif_
  bool gif_stopped_ = false;
  bool png_skipped_ = false;
};

class McapSink final : public Sink {
 public:
  McapSink(const Simulation& sim, const std::string& path, McapCompression compression,
           std::string compression_name)
      : recorder_(make(sim, path, compression)),
        path_(path),
        compression_name_(std::move(compression_name)) {}
  void on_start(const Simulation& sim) override { recorder_->record(sim); }
  void on_step(const Simulation& sim, const StepInfo&) override { recorder_->record(sim); }
  void on_finish(const Simulation&) override { recorder_->close(); }
  void report(std::FILE* out) const override {
    const McapStatistics& s = recorder_->statistics();
    std::fprintf(out, "mcap: %llu messages, %.1f MiB (%s) in %s\n",
                 static_cast<unsigned long long>(s.messages), s.file_bytes / 1048576.0,
                 compression_name_.c_str(), path_.c_str());
  }

 private:
  static std::unique_ptr<McapRecorder> make(const Simulation& sim, const std::string& path,
                                            McapCompression compression) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) create_output_dir(parent);
    return std::make_unique<McapRecorder>(path, sim, McapRecorderOptions{compression});
  }
  std::unique_ptr<McapRecorder> recorder_;
  std::string path_;
  std::string compression_name_;
};

void print_map_summary(std::FILE* out, const mapping::SavedMap& m) {
  const mapping::AccumulatorStats& s = m.stats;
  std::fprintf(out, "map '%s': %zu points", s.name.c_str(), s.points);
  if (!s.bounds.empty()) {
    std::fprintf(out, ", bounds [%.3f, %.3f, %.3f] .. [%.3f, %.3f, %.3f]", s.bounds.min.x(),
                 s.bounds.min.y(), s.bounds.min.z(), s.bounds.max.x(), s.bounds.max.y(),
                 s.bounds.max.z());
  }
  std::fprintf(
      out,
      "; %llu received, %llu merged, %llu dropped (beyond 1.5 x range_max), %llu rejected; "
      "%.1f KiB; %llu re-bounds\n",
      static_cast<unsigned long long>(s.received),
      static_cast<unsigned long long>(s.counters.merged + s.counters.replaced),
      static_cast<unsigned long long>(s.dropped_far),
      static_cast<unsigned long long>(s.counters.rejected), s.memory_bytes / 1024.0,
      static_cast<unsigned long long>(s.counters.rebounds));
  for (const mapping::ScannerStats& sc : s.scanners) {
    std::fprintf(out, "  %s: %llu scans, %llu points, %llu dropped\n", sc.name.c_str(),
                 static_cast<unsigned long long>(sc.batches),
                 static_cast<unsigned long long>(sc.points),
                 static_cast<unsigned long long>(sc.dropped_far));
  }
  for (const std::string& f : m.files) std::fprintf(out, "  saved %s\n", f.c_str());
}

class MapperSink final : public Sink {
 public:
  MapperSink(const Simulation& sim, std::vector<MappingModel> maps,
             const std::filesystem::path& out, bool quiet)
      : mapper_(sim, std::move(maps),
                mapping::MapperOptions{.out_dir = out,
                                       .threaded = true,
                                       .info = log(quiet, ""),
                                       .warn = log(quiet, "warning: ")}) {
    // The maps are saved at the end: a path that cannot be written fails now, not after the run.
    for (std::size_t i = 0; i < mapper_.size(); ++i) {
      for (const std::string& file : mapper_.output_files(i)) check_writable(file);
    }
  }
  void on_step(const Simulation& sim, const StepInfo&) override { mapper_.after_step(sim); }
  void on_finish(const Simulation&) override { saved_ = mapper_.finish(); }
  void report(std::FILE* out) const override {
    for (const mapping::SavedMap& m : saved_) print_map_summary(out, m);
  }

 private:
  static std::function<void(const std::string&)> log(bool quiet, const char* prefix) {
    return [quiet, prefix](const std::string& line) {
      if (!quiet) std::fprintf(stderr, "%s%s\n", prefix, line.c_str());
    };
  }
  mapping::SimulationMapper mapper_;
  std::vector<mapping::SavedMap> saved_;
};

}  // namespace

FramesFormats parse_frames_formats(const std::string& list, const std::string& what) {
  FramesFormats f;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    bool* chosen = name == "jsonl" ? &f.jsonl : name == "parquet" ? &f.parquet : nullptr;
    if (!chosen || *chosen) {
      throw Error(
          fmt::format("{}: expected 'jsonl', 'parquet' or both as 'jsonl,parquet', got '{}'{}",
                      what, list, chosen ? fmt::format(" ('{}' twice)", name) : ""));
    }
    *chosen = true;
    if (comma == std::string::npos) return f;
    start = comma + 1;
  }
}

std::vector<MappingModel> run_maps(const WorldModel& model, const std::string& map_path) {
  std::vector<MappingModel> maps = *model.maps;
  if (map_path.empty()) return maps;
  const mapping::CloudFormat format = mapping::format_from_path(map_path);
  if (maps.size() > 1) {
    throw Error(fmt::format("--map: {} defines {} maps; set each map's output in the world file",
                            model.file, maps.size()));
  }
  if (maps.empty()) maps.push_back(default_mapping(model));
  maps[0].output = std::filesystem::absolute(map_path).string();
  maps[0].formats = {mapping::format_name(format)};
  return maps;
}

std::unique_ptr<Sink> frames_sink(const Simulation& sim, const std::filesystem::path& out,
                                  std::int64_t every) {
  return std::make_unique<FramesSink>(sim, out, every);
}
std::unique_ptr<Sink> parquet_frames_sink(const Simulation& sim, const std::filesystem::path& out,
                                          std::int64_t every) {
  return std::make_unique<ParquetFramesSink>(sim, out, every);
}
std::unique_ptr<Sink> imu_outputs_sink(const Simulation& sim, const std::filesystem::path& out) {
  return std::make_unique<ImuOutputsSink>(sim, out);
}
std::unique_ptr<Sink> camera_images_sink(const Simulation& sim, const std::filesystem::path& out) {
  return std::make_unique<CameraImagesSink>(sim, out);
}
std::unique_ptr<Sink> pictures_sink(const Simulation& sim, const std::filesystem::path& out,
                                    Pictures pictures) {
  return std::make_unique<PicturesSink>(sim, out, pictures);
}
std::unique_ptr<Sink> mcap_sink(const Simulation& sim, const std::string& path,
                                McapCompression compression, const std::string& compression_name) {
  return std::make_unique<McapSink>(sim, path, compression, compression_name);
}
std::unique_ptr<Sink> mapper_sink(const Simulation& sim, std::vector<MappingModel> maps,
                                  const std::filesystem::path& out, bool quiet) {
  return std::make_unique<MapperSink>(sim, std::move(maps), out, quiet);
}

}  // namespace ubot::outputs
