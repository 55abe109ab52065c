// Writes LAS files for the independent-reader test (check_las_with_loaders_gl.py) and, next to
// each, what the file must contain: the positions as inserted, the positions as our reader
// decodes them, intensities and colours. usage: las_fixture OUTDIR
#include <cstdio>
#include <fstream>
#include <random>

#include "ubot/core/json_writer.h"
#include "ubot/mapping/map_io.h"

namespace {

using ubot::JsonWriter;
using namespace ubot::mapping;

void points_json(JsonWriter& j, const char* key, const std::vector<MapPoint>& points) {
  j.key(key).begin_array();
  for (const MapPoint& p : points) {
    const double xyz[] = {p.position.x(), p.position.y(), p.position.z()};
    j.array(xyz);
  }
  j.end_array();
}

void describe(JsonWriter& j, const std::string& las, const std::vector<MapPoint>& expected,
              bool color) {
  const LoadedCloud ours = read_las(las);
  j.begin_object().key("las").value(las);
  j.key("point_format").value(ours.info.las_point_format);
  points_json(j, "expected", expected);
  points_json(j, "ours", ours.cloud.points);
  j.key("intensities").begin_array();
  for (const MapPoint& p : expected) j.value(static_cast<std::int64_t>(p.intensity));
  j.end_array();
  j.key("rgb");
  if (!color) {
    j.null();
  } else {
    j.begin_array();
    for (const MapPoint& p : expected) {
      const double rgb[] = {double(p.rgb[0]), double(p.rgb[1]), double(p.rgb[2])};
      j.array(rgb);
    }
    j.end_array();
  }
  j.end_object();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: las_fixture OUTDIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  JsonWriter j;
  j.begin_object().key("files").begin_array();

  // A map driven 10 km from the origin (format 6, voxel-snapped by save_map).
  PointMap map(Eigen::Vector3d::Zero(), {.resolution = 0.05});
  for (int step = 0; step < 400; ++step) {
    for (int i = 0; i < 100; ++i) {
      const double x = 10000.0 + 0.25 * step + 20.0 * (u(rng) - 0.5);
      map.insert({{x, 10000.0 + (i % 2 ? 3.0 : -3.0), 0.1 + 0.2 * (i % 16) + 0.01 * u(rng)},
                  static_cast<std::uint16_t>(u(rng) * 65535),
                  {}});
    }
  }
  save_map(map, dir + "/drive10km.las");
  describe(j, dir + "/drive10km.las", map.points(), false);

  // A coloured cloud (format 7), far out on the other side of the origin.
  PointCloud cloud;
  cloud.has_color = true;
  for (int i = 0; i < 2000; ++i) {
    cloud.points.push_back(
        {{-10000.0 - 50.0 * u(rng), 10000.0 + 50.0 * u(rng), 5.0 * u(rng)},
         static_cast<std::uint16_t>(i * 31),
         {static_cast<std::uint16_t>(u(rng) * 65535), static_cast<std::uint16_t>(u(rng) * 65535),
          static_cast<std::uint16_t>(u(rng) * 65535)}});
  }
  write_las(dir + "/color10km.las", cloud, {});
  describe(j, dir + "/color10km.las", cloud.points, true);

  j.end_array().end_object();
  std::ofstream(dir + "/expected.json") << j.str();
  return 0;
}
