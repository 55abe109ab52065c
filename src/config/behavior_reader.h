#pragma once
// Reads the behaviour keys that are more than a name: `sfm`'s parameters inside `behavior:`, and
// a group's `group_behavior:` (docs/behaviors.md lists every key and default).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

// A per-object behaviour built in (`behavior: {name: ...}`): its name and the reader of its
// keys besides `name` and the goal keys. Its velocity is registered under the same name in the
// world's behaviour registry (src/world/behaviors/group_behavior.cpp); docs/architecture.md
// says where a new one goes.
struct BuiltinBehavior {
  std::string_view name;
  void (*read_keys)(Mapping& m, BehaviorModel& b, std::vector<std::string>& warnings);
  // False: not for acker and omni_angular. rvo and sfm plan a holonomic velocity those robots
  // do not follow (IR-SIM registers them for diff and omni; static objects never run one).
  bool any_kinematics;
};
// The built-in named so, or null.
const BuiltinBehavior* find_builtin_behavior(std::string_view name);
// The goal keys IR-SIM reads from any behaviour configuration: wander, loop, range_low/high
// (each kept at b's value when absent).
void read_goal_keys(Mapping& m, BehaviorModel& b);

// The keys of a behaviour ubot does not build in (all but `name` and the goal keys), as typed
// as YAML lets them be guessed, for the behaviour registered under its name.
void read_custom_params(Mapping& m, const Field& block, std::map<std::string, GroupParam>& out);

// A group's `group_behavior:` for a group of `members` objects. IR-SIM reads `wander`, `loop`,
// `range_low` and `range_high` from it when the object has no `behavior:` of its own: then
// `goals` receives them.
GroupBehaviorModel read_group_behavior(const std::optional<Field>& field, KinematicsKind kinematics,
                                       int members, BehaviorModel* goals);

}  // namespace ubot::config
