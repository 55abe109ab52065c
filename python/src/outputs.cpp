// The CLI's outputs from Python (docs/python.md, "Outputs"): Simulation.record enables the same
// sinks `ubot run` does (ubot::outputs), in the same order, and Simulation.write_picture /
// picture draw the world as world.png does.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "bindings.h"
#include "errors.h"
#include "ubot/core/error.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/outputs/run_sinks.h"
#include "ubot/record/mcap_writer.h"
#include "ubot/sensors/camera/camera_images.h"
#include "ubot/viz/run_drawing.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

constexpr int kPictureSide = 800;  // world.png's longest side (src/outputs/run_sinks.cpp)
// The longest side picture() draws: an 8K picture is 256 MiB of RGBA, and a side the caller
// got wrong (2**31 - 1) would ask for exabytes before Cairo's own limit of 32,767 said no.
constexpr int kMaxPictureSide = 8192;

// frames: True = every step, False = none, a positive int = every n-th step.
std::int64_t frames_every(const py::handle& frames) {
  if (py::isinstance<py::bool_>(frames)) return frames.cast<bool>() ? 1 : 0;
  if (py::isinstance<py::int_>(frames)) {
    // Compared as Python ints: one beyond int64 made pybind11's cast raise a RuntimeError
    // (found by fuzz_python). A count past int64 means no step but the first, as INT64_MAX does.
    const auto n = py::reinterpret_borrow<py::int_>(frames);
    if (n < py::int_(1)) {
      throw_value_error("record: frames must be True, False or a positive step count");
    }
    const py::int_ most(std::numeric_limits<std::int64_t>::max());
    return (n > most ? most : n).cast<std::int64_t>();
  }
  throw py::type_error("record: frames must be True, False or a positive step count");
}

struct RecordOptions {
  std::filesystem::path out;
  py::object frames;
  std::optional<std::string> mcap;
  std::string mcap_compression;
  std::optional<std::string> map;
  bool picture = true;
  bool gif = false;
  bool sensor_files = true;
  std::string frames_format = "jsonl";
};

void record(SimHandle& h, const RecordOptions& o) {
  h.sim();  // closed?
  if (h.recording()) {
    // A second set of sinks would write a second recording beside the first (or over it, into
    // the same folder): one recording at a time, finished by close(), reset() or restore().
    throw_value_error(
        fmt::format("record: the simulation is already recording into {}; one recording at a time "
                    "(close(), reset(), restore() or load_state() finishes it)",
                    quote_value(*h.recording())));
  }
  const std::int64_t every = frames_every(o.frames);
  outputs::FramesFormats formats;
  try {
    formats = outputs::parse_frames_formats(o.frames_format, "record: frames_format");
  } catch (const Error& e) {
    throw_value_error(e.what());  // a bad argument, as a bad `frames` is
  }
  const Simulation& sim = h.sim();
  const McapCompression compression = parse_mcap_compression(o.mcap_compression);
  const std::vector<MappingModel> maps =
      o.map ? outputs::run_maps(sim.world().model(), *o.map) : std::vector<MappingModel>{};
  create_output_dir(o.out);
  // `ubot run`'s order (apps/ubot/run_command.cpp).
  if (!maps.empty()) h.add_recording_sink(outputs::mapper_sink(sim, maps, o.out, true));
  if (every > 0 && formats.jsonl) h.add_recording_sink(outputs::frames_sink(sim, o.out, every));
  if (every > 0 && formats.parquet)
    h.add_recording_sink(outputs::parquet_frames_sink(sim, o.out, every));
  if (o.sensor_files) {
    h.add_recording_sink(outputs::imu_outputs_sink(sim, o.out));
    h.add_recording_sink(outputs::camera_images_sink(sim, o.out));
  }
  if (o.picture || o.gif) {
    h.add_recording_sink(outputs::pictures_sink(sim, o.out, {.gif = o.gif, .png = o.picture}));
  }
  if (o.mcap)
    h.add_recording_sink(outputs::mcap_sink(sim, *o.mcap, compression, o.mcap_compression));
  h.recording() = o.out.string();
}

render::Drawing drawing_now(const Simulation& sim) { return viz::RunDrawing(sim).draw(sim); }

}  // namespace

void bind_outputs(py::class_<SimHandle, std::shared_ptr<SimHandle>>& c) {
  c.def(
       "record",
       [](SimHandle& h, const std::filesystem::path& out, const py::object& frames,
          std::optional<std::string> mcap, std::string mcap_compression,
          std::optional<std::string> map, bool picture, bool gif, bool sensor_files,
          std::string frames_format) {
         record(h, {out, frames, std::move(mcap), std::move(mcap_compression), std::move(map),
                    picture, gif, sensor_files, std::move(frames_format)});
       },
       py::arg("out_dir"), py::arg("frames") = true, py::arg("mcap") = py::none(),
       py::arg("mcap_compression") = "zstd", py::arg("map") = py::none(), py::arg("picture") = true,
       py::arg("gif") = false, py::arg("sensor_files") = true, py::arg("frames_format") = "jsonl",
       "Writes `ubot run`'s outputs into out_dir from the next step on; close() finishes them.")
      .def(
          "write_picture",
          [](const SimHandle& h, const std::filesystem::path& path) {
            const render::Drawing d = drawing_now(h.sim());
            render::write_png(d, render::fit_image(d, kPictureSide), path.string());
          },
          py::arg("path"), "Draws the world now into a PNG file, as world.png (no trajectories).")
      .def(
          "picture",
          [](const SimHandle& h, int max_side) {
            if (max_side < 1 || max_side > kMaxPictureSide)
              throw_value_error(fmt::format("picture: max_side must be from 1 to {} pixels, got {}",
                                            kMaxPictureSide, max_side));
            const render::Drawing d = drawing_now(h.sim());
            const render::ImageSize size = render::fit_image(d, max_side);
            std::vector<std::uint8_t> rgba = render::render_rgba(d, size);
            py::array_t<std::uint8_t> a({size.height_px, size.width_px, 4});
            std::copy(rgba.begin(), rgba.end(), a.mutable_data());
            return a;
          },
          py::arg("max_side") = kPictureSide,
          "The picture write_picture draws, as an (H, W, 4) uint8 RGBA array.");
}

}  // namespace ubot::python
