#include "map_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "cli_checks.h"
#include "ubot/core/error.h"
#include "ubot/core/json_writer.h"
#include "ubot/mapping/map_io.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::app {
namespace {

using mapping::LoadedCloud;

std::string vec(const Eigen::Vector3d& v) {
  return fmt::format("[{:.3f}, {:.3f}, {:.3f}]", v.x(), v.y(), v.z());
}

void json_vec(JsonWriter& j, const Eigen::Vector3d& v) {
  const double a[] = {v.x(), v.y(), v.z()};
  j.array(a);
}

void json_point(JsonWriter& j, const mapping::MapPoint& p, bool color) {
  j.begin_object().key("position");
  json_vec(j, p.position);
  j.key("intensity").value(static_cast<std::int64_t>(p.intensity));
  if (color) {
    const double rgb[] = {double(p.rgb[0]), double(p.rgb[1]), double(p.rgb[2])};
    j.key("rgb").array(rgb);
  }
  j.end_object();
}

std::string describe_format(const LoadedCloud& c) {
  if (c.info.format == mapping::CloudFormat::kLas) {
    return fmt::format("LAS {}, point format {}", c.info.version, c.info.las_point_format);
  }
  return c.info.format == mapping::CloudFormat::kPly ? "PLY binary little-endian" : "PCD binary";
}

int stats(const MapOptions& o) {
  const LoadedCloud c = mapping::read_cloud(o.file);
  const mapping::Bounds b = mapping::cloud_bounds(c.cloud);
  // As a map (when the file says how it was made): voxels and the store's memory.
  std::optional<mapping::PointMap> map;
  if (c.info.map) map.emplace(mapping::load_map(o.file));
  if (o.json) {
    JsonWriter j;
    j.begin_object().key("file").value(o.file);
    j.key("format").value(mapping::format_name(c.info.format));
    j.key("version").value(c.info.version);
    if (c.info.format == mapping::CloudFormat::kLas) {
      j.key("point_format").value(c.info.las_point_format);
      j.key("scale");
      json_vec(j, c.info.las_scale);
      j.key("offset");
      json_vec(j, c.info.las_offset);
      j.key("header_bounds").begin_object().key("min");
      json_vec(j, c.info.header_bounds.min);
      j.key("max");
      json_vec(j, c.info.header_bounds.max);
      j.end_object();
    }
    j.key("bytes").value(static_cast<std::uint64_t>(c.info.file_bytes));
    j.key("points").value(static_cast<std::uint64_t>(c.cloud.points.size()));
    j.key("color").value(c.cloud.has_color);
    j.key("bounds");
    if (b.empty()) {
      j.null();
    } else {
      j.begin_object().key("min");
      json_vec(j, b.min);
      j.key("max");
      json_vec(j, b.max);
      j.end_object();
    }
    if (map) {
      j.key("map").begin_object().key("resolution").value(map->resolution());
      j.key("policy").value(mapping::policy_name(map->policy()));
      j.key("origin");
      json_vec(j, map->origin());
      j.key("voxels").value(static_cast<std::uint64_t>(map->size()));
      j.key("memory_bytes").value(static_cast<std::uint64_t>(map->memory_bytes()));
      j.end_object();
    }
    j.end_object();
    std::printf("%s\n", j.str().c_str());
    return 0;
  }
  std::printf("%s: %s, %zu points%s, %llu bytes\n", o.file.c_str(), describe_format(c).c_str(),
              c.cloud.points.size(), c.cloud.has_color ? " with colour" : "",
              static_cast<unsigned long long>(c.info.file_bytes));
  if (!b.empty()) std::printf("bounds: min %s  max %s\n", vec(b.min).c_str(), vec(b.max).c_str());
  if (c.info.format == mapping::CloudFormat::kLas) {
    std::printf("LAS offset %s, scale %s\n", vec(c.info.las_offset).c_str(),
                fmt::format("[{}, {}, {}]", c.info.las_scale.x(), c.info.las_scale.y(),
                            c.info.las_scale.z())
                    .c_str());
  }
  if (map) {
    std::printf("map: resolution %g m, policy %s, origin %s, %zu voxels, %.1f KiB in memory\n",
                map->resolution(), mapping::policy_name(map->policy()), vec(map->origin()).c_str(),
                map->size(), map->memory_bytes() / 1024.0);
  }
  return 0;
}

int probe(const MapOptions& o) {
  if (!(o.half >= 0.0)) throw ubot::Error(fmt::format("probe: HALF must be >= 0, got {}", o.half));
  const LoadedCloud c = mapping::read_cloud(o.file);
  const Eigen::Vector3d center(o.x, o.y, o.z);
  const mapping::ProbeResult r = mapping::probe_cloud(c.cloud, center, o.half, o.samples);
  if (o.json) {
    JsonWriter j;
    j.begin_object().key("file").value(o.file).key("center");
    json_vec(j, center);
    j.key("half_extent").value(o.half);
    j.key("count").value(r.count);
    j.key("samples").begin_array();
    for (const mapping::MapPoint& p : r.samples) json_point(j, p, c.cloud.has_color);
    j.end_array().end_object();
    std::printf("%s\n", j.str().c_str());
    return 0;
  }
  std::printf("probe %s centre %s half-extent %g: %llu points\n", o.file.c_str(),
              vec(center).c_str(), o.half, static_cast<unsigned long long>(r.count));
  for (std::size_t i = 0; i < r.samples.size(); ++i) {
    const mapping::MapPoint& p = r.samples[i];
    std::printf("  sample[%zu] %s intensity %u\n", i, vec(p.position).c_str(), p.intensity);
  }
  return 0;
}

int convert(const MapOptions& o) {
  mapping::format_from_path(o.output);  // an unknown output format fails before reading
  const LoadedCloud c = mapping::read_cloud(o.file);
  mapping::CloudWriteOptions w;
  w.las_point_format = o.las_point_format;
  w.map = c.info.map;
  mapping::write_cloud(o.output, c.cloud, w);
  std::printf("%s -> %s: %zu points\n", o.file.c_str(), o.output.c_str(), c.cloud.points.size());
  return 0;
}

}  // namespace

CLI::App* add_map_commands(CLI::App& app, MapOptions& o) {
  CLI::App* map = app.add_subcommand("map", "Inspect and convert point-cloud maps (LAS, PLY, PCD)");
  map->require_subcommand(1);
  o.stats = map->add_subcommand("stats", "Points, bounds, format and map metadata of a file");
  o.stats->add_option("file", o.file, "LAS, PLY or PCD file")->required();
  o.stats->add_flag("--json", o.json, "Print JSON");
  o.probe = map->add_subcommand("probe", "Count the points in a box and print the first ones");
  o.probe->add_option("file", o.file, "LAS, PLY or PCD file")->required();
  o.probe->add_option("x", o.x, "Box centre x (m)")->required()->check(kFinite);
  o.probe->add_option("y", o.y, "Box centre y (m)")->required()->check(kFinite);
  o.probe->add_option("z", o.z, "Box centre z (m)")->required()->check(kFinite);
  o.probe->add_option("half", o.half, "Half-extent of the box (m)")
      ->required()
      ->check(kFinitePositive);
  o.probe->add_option("--samples", o.samples, "Sample points to print (default 10)")
      ->check(kUnsigned64);
  o.probe->add_flag("--json", o.json, "Print JSON");
  o.convert = map->add_subcommand("convert", "Convert between LAS, PLY and PCD (by extension)");
  o.convert->add_option("input", o.file, "Input file")->required();
  o.convert->add_option("output", o.output, "Output file")->required();
  o.convert->add_option("--las-point-format", o.las_point_format, "6 or 7 (default: 7 with colour)")
      ->check(CLI::IsMember({6, 7}));
  return map;
}

int run_map_command(const MapOptions& o) {
  if (*o.stats) return stats(o);
  if (*o.probe) return probe(o);
  return convert(o);
}

}  // namespace ubot::app
