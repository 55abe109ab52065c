#pragma once
// The compatibility rule for keys (docs/irsim-keys.md): a key that IR-SIM 2.12.0 (the release
// ubot follows) accepts in a place is accepted here too; when ubot does nothing with it, the
// loader says so in a warning, as IR-SIM says nothing about keys it lets pass. A key that neither
// knows stays an error (Mapping::finish, with its "did you mean"), which in IR-SIM's places also
// says that IR-SIM 2.12.0 has no such key, naming the later release that added it when ubot
// knows one, and the docs page.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "yaml_reader.h"

namespace ubot::config {

// The places of a world file whose keys IR-SIM reads.
enum class KeyPlace {
  kWorld,          // world:
  kObject,         // a robot / obstacle group
  kKinematics,     // kinematics: of diff, omni, omni_angular
  kAnyKinematics,  // kinematics: of every kind (acker included)
  kDashBehavior,   // behavior: {name: dash}
  kRvoBehavior,    // behavior: {name: rvo}
  kDistribution,   // distribution:
  kShape,          // shape: (circle, rectangle, polygon, linestring)
  kLidar2d,        // a lidar2d / fmcw_lidar2d entry of sensors:
};

// One IR-SIM key that ubot accepts and ignores, and why it has no effect.
struct IgnoredIrsimKey {
  KeyPlace place;
  std::string_view key;
  std::string_view reason;
};

// Every accepted-and-ignored key (the table of docs/irsim-keys.md).
const std::vector<IgnoredIrsimKey>& ignored_irsim_keys();

// The IR-SIM release ubot reads: its keys are ubot's (tests/python/test_irsim_keys_source.py).
inline constexpr std::string_view kIrsimRelease = "2.12.0";

// A key that an IR-SIM release after kIrsimRelease added, and that release.
struct LaterIrsimKey {
  std::string_view key;
  std::string_view release;
};
// Those ubot knows of (docs/irsim-keys.md, "Keys of later releases"): none while 2.12.0 is
// IR-SIM's newest release.
std::span<const LaterIrsimKey> later_irsim_keys();

// The clause an unknown key of an IR-SIM place gets: that kIrsimRelease has no such key, the
// release that added it if it is in `later`, and the docs page.
std::string unknown_irsim_key_note(std::string_view key, std::span<const LaterIrsimKey> later);

// Marks each accepted-and-ignored key of `place` that `m` holds as known, adding one warning per
// key and location ("file:line:col: path.key: IR-SIM's key is accepted and ignored: reason"), and
// has `m`'s unknown keys say that IR-SIM has no such key either (unknown_irsim_key_note).
void accept_ignored_irsim_keys(Mapping& m, KeyPlace place, std::vector<std::string>& warnings);

// Adds `warning` unless it is already there: a value shared by a group of objects is read once
// per object, but one warning about it is enough.
void warn_once(std::vector<std::string>& warnings, std::string warning);

}  // namespace ubot::config
