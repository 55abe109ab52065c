// `mapping:` -> MappingModel. Scanner selectors: `all` (every lidar of the world), or a list of
// `OBJECT/SENSOR` (one lidar) and `OBJECT` (the object's first lidar; the others are recorded
// so that the run can say which one it took).
#include "mapping_reader.h"

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/mapping/mapping_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace ubot::config {
namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext.empty() ? ext : ext.substr(1);
}

std::vector<int> lidars_of(const ObjectModel& o) {
  std::vector<int> out;
  for (std::size_t i = 0; i < o.sensors.size(); ++i) {
    if (std::holds_alternative<Lidar2dModel>(o.sensors[i].params) ||
        std::holds_alternative<Lidar3dModel>(o.sensors[i].params)) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

void add_scanner(std::vector<MapScannerModel>& scanners, MapScannerModel s, const Field& where,
                 std::vector<std::string>& warnings) {
  for (const MapScannerModel& other : scanners) {
    if (other.object_id == s.object_id && other.sensor_index == s.sensor_index) {
      warnings.push_back(fmt::format("{}: {}: {} selects a scanner already selected by {}",
                                     where.location(), where.path(), quote_value(s.selector),
                                     quote_value(other.selector)));
      return;
    }
  }
  scanners.push_back(std::move(s));
}

MapScannerModel resolve(const Field& f, const WorldModel& world) {
  const std::string selector = f.as_string();
  const std::size_t slash = selector.find('/');
  const std::string object = selector.substr(0, slash);
  const ObjectModel* o = nullptr;
  std::vector<std::string> names;
  for (const ObjectModel& candidate : world.objects) {
    names.push_back(candidate.name);
    if (candidate.name == object) o = &candidate;
  }
  if (!o) {
    const std::string hint = nearest_word(object, names);
    f.fail(fmt::format("no object named {}{}", quote_value(object),
                       hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint)));
  }
  const std::vector<int> lidars = lidars_of(*o);
  MapScannerModel s{
      .object_id = o->id, .sensor_index = -1, .selector = selector, .also_matched = {}};
  if (slash == std::string::npos) {
    if (lidars.empty()) f.fail(fmt::format("object {} has no lidar", quote_value(object)));
    s.sensor_index = lidars.front();
    for (std::size_t k = 1; k < lidars.size(); ++k) {
      s.also_matched.push_back(o->sensors[lidars[k]].common.name);
    }
    return s;
  }
  const std::string sensor = selector.substr(slash + 1);
  std::vector<std::string> sensor_names;
  for (int i : lidars) {
    sensor_names.push_back(o->sensors[i].common.name);
    if (o->sensors[i].common.name == sensor) s.sensor_index = i;
  }
  if (s.sensor_index < 0) {
    const std::string hint = nearest_word(sensor, sensor_names);
    f.fail(
        fmt::format("object {} has no lidar named {}{}", quote_value(object), quote_value(sensor),
                    hint.empty() ? fmt::format(" (its lidars: {})", fmt::join(sensor_names, ", "))
                                 : fmt::format(" (did you mean '{}'?)", hint)));
  }
  return s;
}

}  // namespace

std::vector<MapScannerModel> read_scanners(const std::optional<Field>& field,
                                           const WorldModel& world,
                                           std::vector<std::string>& warnings) {
  std::vector<MapScannerModel> scanners;
  if (!field || (field->is_scalar() && field->as_string() == "all")) {
    for (const ObjectModel& o : world.objects) {
      for (int i : lidars_of(o)) scanners.push_back({o.id, i, "all", {}});
    }
    return scanners;
  }
  if (field->is_scalar()) {
    scanners.push_back(resolve(*field, world));
    return scanners;
  }
  if (!field->is_sequence()) field->fail("expected 'all' or a list of scanners (OBJECT/SENSOR)");
  for (std::size_t i = 0; i < field->size(); ++i) {
    const Field item = field->item(i);
    add_scanner(scanners, resolve(item, world), item, warnings);
  }
  return scanners;
}

namespace {

// A world file decides names inside the output folder, never where outside it a file goes:
// `--map PATH` on the command line is the way to write a map elsewhere (issue 16).
void check_inside_out(const Field& f, const std::string& output) {
  const std::filesystem::path p(output);
  if (p.has_root_path()) {
    f.fail(
        fmt::format("{} is an absolute path; a world's outputs stay inside --out (give a "
                    "path relative to it, or use --map PATH)",
                    quote_value(output)));
  }
  for (const std::filesystem::path& part : p) {
    if (part == "..") {
      f.fail(
          fmt::format("{} leaves the output folder ('..'); a world's outputs stay inside "
                      "--out (or use --map PATH)",
                      quote_value(output)));
    }
  }
}

MappingModel read_map(const Field& field, const WorldModel& world, const std::string& name,
                      std::vector<std::string>& warnings) {
  if (!field.is_map()) field.fail("expected a mapping describing a map");
  Mapping m(field);
  MappingModel map;
  map.name = m.string("name", name);
  if (map.name.empty() || map.name.find_first_of("/\\") != std::string::npos || map.name == "." ||
      map.name == "..") {
    m.get("name")->fail(
        "a map name must be non-empty, contain no '/' or '\\' and not be '.' or '..'");
  }
  if (auto f = m.get("resolution")) {
    map.resolution = f->as_positive();
    if (map.resolution < 1e-4 || map.resolution > 1000.0) {
      f->fail(fmt::format("must be in [0.0001, 1000] m, got {}", map.resolution));
    }
  }
  if (auto f = m.get("policy"))
    map.keep_brighter = f->as_choice({"first", "brighter"}) == "brighter";
  map.scanners = read_scanners(m.get("scanners"), world, warnings);
  map.output = m.string("output", map.name);
  if (map.output.empty()) m.get("output")->fail("must not be empty");
  if (auto f = m.get("output")) check_inside_out(*f, map.output);
  if (auto f = m.get("formats")) {
    if (f->is_scalar()) {
      map.formats.push_back(f->as_choice({"las", "ply", "pcd"}));
    } else {
      if (!f->is_sequence() || f->size() == 0)
        f->fail("expected a list of formats (las, ply, pcd)");
      for (std::size_t i = 0; i < f->size(); ++i) {
        const std::string format = f->item(i).as_choice({"las", "ply", "pcd"});
        if (std::find(map.formats.begin(), map.formats.end(), format) == map.formats.end()) {
          map.formats.push_back(format);
        }
      }
    }
  }
  const std::string ext = lower_extension(map.output);
  if (ext == "las" || ext == "ply" || ext == "pcd") {
    if (map.formats.empty()) map.formats.push_back(ext);
  } else if (!ext.empty() && m.has("output")) {
    m.get("output")->fail(fmt::format("unknown map file extension '.{}' (las, ply or pcd)", ext));
  }
  if (map.formats.empty()) map.formats.push_back("las");
  if (auto f = m.get("origin")) {
    const auto o = f->as_numbers(2, 3);
    for (std::size_t k = 0; k < o.size(); ++k) f->item(k).as_finite();
    map.origin = Eigen::Vector3d(o[0], o[1], o.size() > 2 ? o[2] : 0.0);
  }
  if (auto f = m.get("las_point_format")) {
    const std::int64_t v = f->as_integer();
    if (v != 6 && v != 7) f->fail(fmt::format("must be 6 or 7, got {}", v));
    map.las_point_format = static_cast<int>(v);
  }
  m.finish();
  return map;
}

}  // namespace

std::vector<MappingModel> read_mapping(const Field& field, const WorldModel& world,
                                       std::vector<std::string>& warnings) {
  std::vector<MappingModel> maps;
  if (field.is_sequence()) {
    for (std::size_t i = 0; i < field.size(); ++i) {
      maps.push_back(read_map(field.item(i), world, fmt::format("map_{}", i), warnings));
    }
  } else {
    maps.push_back(read_map(field, world, "map", warnings));
  }
  for (std::size_t i = 0; i < maps.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (maps[i].name == maps[j].name) {
        field.fail(
            fmt::format("two maps are named {}; names must be unique", quote_value(maps[i].name)));
      }
    }
  }
  return maps;
}

}  // namespace ubot::config

namespace ubot {

MappingModel default_mapping(const WorldModel& world) {
  MappingModel map;
  std::vector<std::string> unused;
  map.scanners = config::read_scanners(std::nullopt, world, unused);
  map.formats = {"las"};
  map.output = map.name;
  return map;
}

}  // namespace ubot
