// ROS map_server maps: a YAML file naming an image, its resolution, origin and thresholds, read
// with map_server's trinary / scale rules (grid_map_reader.h, docs/grid-maps.md).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "grid_image.h"
#include "grid_map_reader.h"
#include "ubot/core/error.h"

namespace ubot::config {
namespace {

struct MapServerSettings {
  std::string image;  // resolved path
  double resolution = 0.05;
  Eigen::Vector2d origin = Eigen::Vector2d::Zero();
  bool negate = false;
  double occupied_thresh = 0.65, free_thresh = 0.196;
  bool scale = false;  // mode: trinary (false) or scale
};

// map_server writes negate as 0 / 1; YAML booleans are accepted too.
bool read_negate(const Field& f) {
  if (f.is_scalar()) {
    const std::string s = f.as_string();
    if (s == "0") return false;
    if (s == "1") return true;
  }
  return f.as_bool();
}

MapServerSettings read_settings(const std::string& path) {
  const Field root = load_yaml_file(path);
  if (!root.is_map()) root.fail("a map_server map file must be a mapping");
  Mapping m(root);
  MapServerSettings s;
  const Field image = m.require("image");
  const std::filesystem::path written(image.as_string());
  const std::filesystem::path resolved =
      written.is_absolute() ? written : std::filesystem::path(path).parent_path() / written;
  if (!std::filesystem::is_regular_file(resolved)) {
    image.fail(fmt::format("image {} not found (relative to the map file's directory)",
                           quote_value(written.string())));
  }
  s.image = resolved.string();
  s.resolution = m.require("resolution").as_positive();
  const Field origin = m.require("origin");
  const auto o = origin.as_numbers(3, 3);
  if (!std::isfinite(o[0]) || !std::isfinite(o[1]) || !std::isfinite(o[2])) {
    origin.fail("expected three finite numbers [x, y, yaw]");
  }
  if (o[2] != 0.0) origin.fail("a rotated map (yaw != 0) is not supported");
  s.origin = {o[0], o[1]};
  s.negate = read_negate(m.require("negate"));
  const Field occupied = m.require("occupied_thresh");
  s.occupied_thresh = occupied.as_unit_interval();
  const Field free = m.require("free_thresh");
  s.free_thresh = free.as_unit_interval();
  if (!(s.free_thresh < s.occupied_thresh)) {
    free.fail(fmt::format("free_thresh ({}) must be below occupied_thresh ({})", s.free_thresh,
                          s.occupied_thresh));
  }
  if (auto f = m.get("mode")) {
    const std::string mode = f->as_choice({"trinary", "scale", "raw"});
    if (mode == "raw") f->fail("mode 'raw' (pixel values as costs) is not supported");
    s.scale = mode == "scale";
  }
  m.finish();
  return s;
}

// map_server's rule: occ = 1 - shade (or shade when negated); occupied above occupied_thresh
// (100), free below free_thresh (0), else unknown (trinary: 50, drawn grey, not an obstacle)
// or scaled into 1..99 (scale).
float cell_value(double shade, const MapServerSettings& s) {
  const double occ = s.negate ? shade : 1.0 - shade;
  if (occ > s.occupied_thresh) return 100.0f;
  if (occ < s.free_thresh) return 0.0f;
  if (!s.scale) return 50.0f;
  return static_cast<float>(1.0 +
                            98.0 * (occ - s.free_thresh) / (s.occupied_thresh - s.free_thresh));
}

}  // namespace

GridMap read_map_server_yaml(const std::string& path) {
  const MapServerSettings s = read_settings(path);
  const GreyImage image = read_grey_image(s.image, ColorToGrey::kChannelMean);
  GridMap g;
  g.nx = image.width;
  g.ny = image.height;
  g.origin = s.origin;
  g.cell = {s.resolution, s.resolution};
  g.source = path;
  g.occupancy.resize(static_cast<std::size_t>(g.nx) * g.ny);
  for (int i = 0; i < g.nx; ++i) {
    for (int j = 0; j < g.ny; ++j) {
      g.occupancy[static_cast<std::size_t>(i) * g.ny + j] =
          cell_value(image.at(i, g.ny - 1 - j), s);
    }
  }
  return g;
}

}  // namespace ubot::config
