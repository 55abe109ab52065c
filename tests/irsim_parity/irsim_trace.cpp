#include "irsim_trace.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ubot::irsim_parity {
namespace {

using nlohmann::json;

// Python's json writes IEEE specials as the bare words Infinity, -Infinity and NaN (IR-SIM's
// default acceleration limits are infinite), which standard JSON lacks: they are quoted here
// and read back by number().
std::string quote_python_specials(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool quoted = false;
    for (const char* word : {"-Infinity", "Infinity", "NaN"}) {
      const std::string_view w(word);
      if (text.compare(i, w.size(), w) == 0) {
        out += '"';
        out += w;
        out += '"';
        i += w.size() - 1;
        quoted = true;
        break;
      }
    }
    if (!quoted) out += c;
  }
  return out;
}

double number(const json& j) {
  if (!j.is_string()) return j.get<double>();
  const std::string& s = j.get_ref<const std::string&>();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (s == "Infinity") return kInf;
  if (s == "-Infinity") return -kInf;
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  throw std::runtime_error("expected a number, got \"" + s + "\"");
}

std::vector<double> doubles(const json& j) {
  std::vector<double> v;
  for (const json& x : j) v.push_back(number(x));
  return v;
}

std::vector<Eigen::Vector2d> outline(const json& geometry) {
  std::vector<Eigen::Vector2d> points;
  if (geometry.is_null()) return points;
  if (geometry.contains("parts")) {  // a MultiPolygon (a compound of disjoint parts): every ring
    for (const json& part : geometry["parts"]) {
      const std::vector<Eigen::Vector2d> ring = outline(part);
      points.insert(points.end(), ring.begin(), ring.end());
    }
    return points;
  }
  const json& coords = geometry.contains("rings") ? geometry["rings"][0] : geometry["coords"];
  for (const json& p : coords) points.emplace_back(p[0].get<double>(), p[1].get<double>());
  return points;
}

TraceObject read_object(const json& j) {
  TraceObject o;
  o.id = j["id"].get<int>();
  o.name = j["name"].get<std::string>();
  o.kinematics = j["kinematics"].is_null() ? "" : j["kinematics"].get<std::string>();
  o.is_static = j["static"].get<bool>();
  o.state = doubles(j["state"]);
  if (!j["goal"].is_null()) o.goal = doubles(j["goal"]);
  if (!j["wheelbase"].is_null()) o.wheelbase = number(j["wheelbase"]);
  o.radius = number(j["radius"]);
  o.outline = outline(j["original_geometry"]);
  return o;
}

TraceSensor read_sensor(const json& j) {
  TraceSensor s;
  s.object_id = j["obj_id"].get<int>();
  s.index = j["index"].get<int>();
  s.type = j["type"].get<std::string>();
  s.range_min = number(j["range_min"]);
  s.range_max = number(j["range_max"]);
  s.angles = doubles(j["angles"]);
  return s;
}

TraceScan read_scan(const json& j) {
  TraceScan s;
  s.object_id = j["obj_id"].get<int>();
  s.index = j["index"].get<int>();
  s.origin = doubles(j["origin"]);
  s.ranges = doubles(j["ranges"]);
  s.valid = j["valid"].get<std::vector<bool>>();
  if (j.contains("radial_velocity")) s.radial_velocity = doubles(j["radial_velocity"]);
  if (j.contains("velocity")) {  // IR-SIM's (2, N) array: row 0 the x components, row 1 the y
    const std::vector<double> vx = doubles(j["velocity"][0]), vy = doubles(j["velocity"][1]);
    for (std::size_t i = 0; i < vx.size() && i < vy.size(); ++i)
      s.velocity.emplace_back(vx[i], vy[i]);
  }
  return s;
}

TraceFrame read_frame(const json& j) {
  TraceFrame f;
  f.step = j["step"].get<int>();
  f.time = number(j["time"]);
  f.done = j.value("done", false);
  for (const json& o : j["objects"]) {
    f.objects.push_back({.id = o["id"].get<int>(),
                         .state = doubles(o["state"]),
                         .velocity = doubles(o["velocity"]),
                         .velocity_xy = doubles(o["velocity_xy"]),
                         .collision = o["collision"].get<bool>(),
                         .arrive = o["arrive"].get<bool>(),
                         .stop = o["stop"].get<bool>()});
  }
  if (!j["sensors"].is_null()) {
    for (const json& s : j["sensors"]) f.scans.push_back(read_scan(s));
  }
  return f;
}

// live_traces.py's manifest.json in `folder`, or null when there is none (or it is unreadable:
// the line printed then says so, and the committed trace is used).
json read_manifest(const std::filesystem::path& folder) {
  std::ifstream in(folder / "manifest.json");
  if (!in) return nullptr;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return nullptr;
  }
}

}  // namespace

std::string find_trace(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path committed =
      fs::path(UBOT_SOURCE_DIR) / "tests" / "data" / "irsim_traces" / (name + ".json");
  const char* live_dir = std::getenv("UBOT_IRSIM_TRACES");
  if (live_dir == nullptr || *live_dir == '\0') {
    std::cout << "[trace] " << name << " <- committed\n";
    return committed.string();
  }
  const fs::path live = fs::path(live_dir) / (name + ".json");
  const json manifest = read_manifest(live_dir);
  const json* entry = nullptr;
  if (manifest.is_object() && manifest.contains("traces") && manifest["traces"].contains(name)) {
    entry = &manifest["traces"][name];
  }
  if (fs::exists(live)) {
    std::string version = "(version unknown: no manifest.json)";
    if (manifest.is_object() && manifest.contains("irsim_version") &&
        manifest["irsim_version"].is_string()) {
      version = manifest["irsim_version"].get<std::string>();
    }
    std::cout << "[trace] " << name << " <- live IR-SIM " << version << " (" << live.string()
              << ")\n";
    return live.string();
  }
  std::string why = "no " + live.string();
  if (entry != nullptr && entry->contains("reason")) {
    why = "not made live: " + (*entry)["reason"].get<std::string>();
  }
  std::cout << "[trace] " << name << " <- committed (" << why << ")\n";
  return committed.string();
}

Trace read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the IR-SIM trace " + path);
  std::stringstream text;
  text << in.rdbuf();
  const json j = json::parse(quote_python_specials(text.str()));
  Trace t;
  const json& meta = j["meta"];
  t.irsim_version = meta["irsim_version"].get<std::string>();
  // null for an installed IR-SIM (a live trace): only a checkout has a commit
  if (!meta["irsim_commit"].is_null()) t.irsim_commit = meta["irsim_commit"].get<std::string>();
  t.world_file = meta["world_file"].get<std::string>();
  t.step_time = number(meta["step_time"]);
  for (const json& o : j["objects"]) {
    // IR-SIM's grid map is an object of its own (shape "map", last); ubot's is the world's grid.
    if (o.value("shape", "") == "map") continue;
    t.objects.push_back(read_object(o));
  }
  for (const json& s : j["sensors"]) t.sensors.push_back(read_sensor(s));
  for (const json& f : j["frames"]) t.frames.push_back(read_frame(f));
  return t;
}

}  // namespace ubot::irsim_parity
