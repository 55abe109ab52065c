// State files (docs/determinism.md "State files"): a SimulationSnapshot as bytes.
//
//   "UBOTSTAT"  8 bytes, magic
//   u32         format version (kVersion)
//   strings     the world's description: one line for the world, one per object (name,
//               kinematics, shape, sensor types): what a state needs to fit
//   ...         the state (core/state_io.h): the world (WorldState), the last step's media
//               snapshots, every sensor's state, the sensors sampled in the last step
//   u32         CRC-32 (zlib) of every byte before it
//
// Reading checks, in order: the magic, the version, the CRC, the description (naming the first
// line that differs), then every count and id as it reads the state.
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "snapshot_data.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/core/state_io.h"
#include "ubot/core/time.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

constexpr char kMagic[8] = {'U', 'B', 'O', 'T', 'S', 'T', 'A', 'T'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kTrailer = 4;  // the CRC

std::vector<std::string> describe(const WorldModel& m) {
  std::vector<std::string> lines;
  lines.reserve(m.objects.size() + 1);
  // Not the world's name: it comes from the file's name unless set, and a state fits a copy of
  // the world under another name (a sweep's world text, a pickled simulation).
  lines.push_back(
      fmt::format("world: {} objects, step_time {}", m.objects.size(), m.world.step_time));
  for (const ObjectModel& o : m.objects) {
    std::string sensors;
    for (const SensorModel& s : o.sensors) {
      sensors += sensors.empty() ? "" : ", ";
      sensors += s.type_name();
    }
    lines.push_back(fmt::format("object {} '{}': {} {}, sensors [{}]", o.id, o.name,
                                kinematics_name(o.kinematics.kind), shape_name(o.shape.kind),
                                sensors));
  }
  return lines;
}

std::uint32_t crc32_of(std::span<const std::uint8_t> bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed large states in pieces.
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 1u << 30);
    crc = crc32(crc, bytes.data() + at, static_cast<uInt>(n));
    at += n;
  }
  return static_cast<std::uint32_t>(crc);
}

void io(StateIo& s, media::MediumSnapshot& m) {
  s.value(m.active);
  s.value(m.medium_type);
  s.value(m.tint.r);
  s.value(m.tint.g);
  s.value(m.tint.b);
  s.sequence(
      m.cells,
      [&](media::MediumCell& c) {
        s.value(c.position);
        s.value(c.radius);
        s.value(c.density);
        s.value(c.edge_factor);
        s.value(c.velocity);
      },
      80);
  s.value(m.source_object);
  if (s.reading() && (m.source_object < -1 || m.source_object >= s.object_count)) {
    s.fail(fmt::format("a medium of object {} of {}", m.source_object, s.object_count));
  }
  s.value(m.name);
  s.value(m.legacy_tag);
}

// The snapshot's state after the header (both directions).
void io(StateIo& s, SimulationSnapshot::Data& d) {
  s.object_count = static_cast<std::int64_t>(d.model->objects.size());
  io(s, d.world);
  const Nanos step_ns = seconds_to_nanos(d.model->world.step_time);
  if (s.reading() && step_ns > 0 &&
      d.world.step_count > std::numeric_limits<Nanos>::max() / step_ns - 1) {
    s.fail(fmt::format("step count {}: the clock would overflow", d.world.step_count));
  }
  s.earliest_due_ns = (d.world.step_count - 1) * step_ns;
  {
    StateIo::Section at(s, "media");
    s.sequence(d.media, [&](media::MediumSnapshot& m) { io(s, m); });
    s.media_count = static_cast<std::int64_t>(d.media.size());
  }
  {
    StateIo::Section at(s, "sensors");
    std::uint64_t n = d.sensors.size();
    s.count(n);
    if (s.reading() && n != d.sensors.size()) s.mismatch(n, d.sensors.size(), "sensors");
    for (const auto& sensor : d.sensors) sensor->io_state(s);
    s.ids(d.sampled, static_cast<std::int64_t>(d.sensors.size()), "sampled sensor");
  }
}

}  // namespace

std::vector<std::uint8_t> SimulationSnapshot::to_bytes() const {
  if (!data_) throw Error("to_bytes: the snapshot is empty (default-constructed)");
  Data& d = const_cast<Data&>(*data_);  // writing reads it only (core/state_io.h)
  if (!d.providers.empty()) {
    throw Error(fmt::format(
        "{}: cannot save the state: {} medium provider(s) were added with add_medium_provider, "
        "and their state lives in code a state file cannot hold",
        d.model->file, d.providers.size()));
  }
  StateIo s = StateIo::writer();
  for (char c : kMagic) {
    auto b = static_cast<std::uint8_t>(c);
    s.value(b);
  }
  std::uint32_t version = kVersion;
  s.value(version);
  std::vector<std::string> lines = describe(*d.model);
  s.values(lines);
  io(s, d);
  std::vector<std::uint8_t> bytes = s.take_bytes();
  const std::uint32_t crc = crc32_of(bytes);
  for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(crc >> (8 * k)));
  return bytes;
}

SimulationSnapshot Simulation::snapshot_from_bytes(std::span<const std::uint8_t> bytes,
                                                   const std::string& what) const {
  if (bytes.size() < sizeof kMagic + 4 + kTrailer ||
      std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    throw Error(
        fmt::format("{}: not a ubot state file (it does not start with \"UBOTSTAT\")", what));
  }
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
  if (version != kVersion) {
    throw Error(fmt::format("{}: state file format version {}; this ubot reads version {}", what,
                            version, kVersion));
  }
  const std::span<const std::uint8_t> body = bytes.first(bytes.size() - kTrailer);
  std::uint32_t stored = 0;
  for (std::size_t k = 0; k < kTrailer; ++k) {
    stored |= static_cast<std::uint32_t>(bytes[body.size() + k]) << (8 * k);
  }
  if (const std::uint32_t crc = crc32_of(body); crc != stored) {
    throw Error(
        fmt::format("{}: the state file is damaged (its CRC-32 is {:08x}, its bytes give {:08x})",
                    what, stored, crc));
  }
  StateIo s = StateIo::reader(body.subspan(sizeof kMagic + sizeof version), what);
  std::vector<std::string> lines;
  s.values(lines);
  const std::vector<std::string> here = describe(world_.model());
  for (std::size_t i = 0; i < std::max(lines.size(), here.size()); ++i) {
    const std::string file_line = i < lines.size() ? lines[i] : "(nothing)";
    const std::string here_line = i < here.size() ? here[i] : "(nothing)";
    if (file_line != here_line) {
      throw Error(fmt::format(
          "{}: the state is of another world: the file has {}, this simulation ({}) has {}", what,
          quote_value(file_line), world_.model().file, quote_value(here_line)));
    }
  }
  const std::size_t added = providers_.size() - declared_providers_;
  if (added != 0) {
    throw Error(
        fmt::format("{}: this simulation has {} medium provider(s) added from code; a "
                    "state file holds none",
                    what, added));
  }
  // Read into a copy of this simulation's state: the model fixes the sizes, the group
  // behaviours and the sensors' types; the file fills in the values.
  auto data = std::make_shared<SimulationSnapshot::Data>();
  data->model = world_.shared_model();
  data->world = world_.state();
  data->sensors.reserve(sensors_.size());
  for (const auto& sensor : sensors_) data->sensors.push_back(sensor->clone());
  io(s, *data);
  s.finish();
  SimulationSnapshot snapshot;
  snapshot.data_ = std::move(data);
  return snapshot;
}

void Simulation::save_state(const std::string& path) const {
  const std::vector<std::uint8_t> bytes = snapshot().to_bytes();
  const std::string part = partial_path_for_writing(path);
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      discard_output(path);
      throw Error(fmt::format("{}: cannot write the state file", path));
    }
  }
  publish_output(path);
}

SimulationSnapshot Simulation::read_state(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open the state file", path));
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(fmt::format("{}: cannot read the state file", path));
  return snapshot_from_bytes(bytes, "state file " + path);
}

void Simulation::load_state(const std::string& path) { restore(read_state(path)); }

}  // namespace ubot
