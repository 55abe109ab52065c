#pragma once
// Reads the behaviour keys that are more than a name: `sfm`'s parameters inside `behavior:`, and
// a group's `group_behavior:` (docs/behaviors.md lists every key and default).
#include <optional>

#include "ubot/config/world_model.h"
#include "yaml_reader.h"

namespace ubot::config {

// The `sfm` keys of a `behavior:` mapping (IR-SIM's SFMVelocity parameters).
void read_sfm_keys(Mapping& m, BehaviorModel::Sfm& sfm);
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
