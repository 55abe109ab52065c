#include "behavior_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "irsim_keys.h"
#include "ubot/core/error.h"

namespace ubot::config {
namespace {

OrcaModel read_orca_keys(Mapping& m) {
  OrcaModel o;
  o.neighbor_dist = m.non_negative("neighborDist", o.neighbor_dist);
  if (auto f = m.get("maxNeighbors")) {
    const std::int64_t n = f->as_integer();
    if (n < 0) f->fail("must not be negative");
    o.max_neighbors = static_cast<int>(std::min<std::int64_t>(n, 1 << 30));  // more is all
  }
  o.time_horizon = m.positive("timeHorizon", o.time_horizon);
  o.time_horizon_obst = m.positive("timeHorizonObst", o.time_horizon_obst);
  o.safe_radius = m.non_negative("safe_radius", o.safe_radius);
  if (auto f = m.get("maxSpeed")) o.max_speed = f->as_non_negative();
  return o;
}

// A value for a behaviour ubot does not know, kept as typed as YAML lets us guess.
GroupParam read_param(const Field& f) {
  if (f.is_sequence()) return f.as_numbers(0, f.size());
  if (!f.is_scalar()) f.fail("expected a number, a boolean, a string or a list of numbers");
  const std::string text = f.as_string();
  if (text == "true" || text == "True" || text == "false" || text == "False") return f.as_bool();
  try {
    return f.as_number();
  } catch (const std::exception&) {
    return text;
  }
}

void read_sfm_params(Mapping& m, BehaviorModel::Sfm& s) {
  s.vmax = m.non_negative("vmax", s.vmax);
  s.neighbor_threshold = m.non_negative("neighbor_threshold", s.neighbor_threshold);
  // SFM divides by these three (IR-SIM refuses non-positive ones too).
  s.relaxation_time = m.positive("relaxation_time", s.relaxation_time);
  s.gamma = m.positive("gamma", s.gamma);
  s.sigma_obstacle = m.positive("sigma_obstacle", s.sigma_obstacle);
  s.force_factor_desired = m.number("force_factor_desired", s.force_factor_desired);
  s.force_factor_social = m.number("force_factor_social", s.force_factor_social);
  s.force_factor_obstacle = m.number("force_factor_obstacle", s.force_factor_obstacle);
  s.lambda_importance = m.number("lambda_importance", s.lambda_importance);
  s.n_angular = m.number("n_angular", s.n_angular);
  s.n_velocity = m.number("n_velocity", s.n_velocity);
  s.safety_radius = m.non_negative("safety_radius", s.safety_radius);
}

void read_target_roles(Mapping& m, BehaviorModel& b) {
  if (auto f = m.get("target_roles")) {
    const std::string roles = f->as_choice({"all", "robot", "obstacle"});
    b.target_roles = roles == "all"     ? TargetRoles::kAll
                     : roles == "robot" ? TargetRoles::kRobot
                                        : TargetRoles::kObstacle;
  }
}

// `dash` (irsim/lib/behavior/behavior_methods.py; velocity in src/world/dash.cpp).
void read_dash_keys(Mapping& m, BehaviorModel& b, std::vector<std::string>& warnings) {
  read_target_roles(m, b);
  b.angle_tolerance = m.non_negative("angle_tolerance", 0.1);
  accept_ignored_irsim_keys(m, KeyPlace::kDashBehavior, warnings);
}

// `rvo` (irsim/lib/algorithm/rvo.py; velocity in src/world/rvo.cpp).
void read_rvo_keys(Mapping& m, BehaviorModel& b, std::vector<std::string>& warnings) {
  read_target_roles(m, b);
  accept_ignored_irsim_keys(m, KeyPlace::kRvoBehavior, warnings);
  b.vxmax = m.positive("vxmax", 1.5);
  b.vymax = m.positive("vymax", 1.5);
  b.acce = m.positive("acce", m.positive("acceler", 1.0));  // 'acceler': IR-SIM < 2.5 spelling
  b.factor = m.non_negative("factor", 1.0);
  b.neighbor_threshold = m.non_negative("neighbor_threshold", 3.0);
  b.polygon_edges = m.boolean("polygon_edges", false);
  if (auto f = m.get("mode")) {
    const std::string mode = f->as_choice({"rvo", "vo", "hrvo"});
    b.mode = mode == "rvo" ? RvoMode::kRvo : mode == "vo" ? RvoMode::kVo : RvoMode::kHrvo;
  }
}

// `sfm` (IR-SIM's SFMVelocity; velocity in src/world/behaviors/sfm_behavior.cpp).
void read_sfm_keys(Mapping& m, BehaviorModel& b, std::vector<std::string>& /*warnings*/) {
  read_target_roles(m, b);
  read_sfm_params(m, b.sfm);
}

constexpr BuiltinBehavior kBuiltinBehaviors[] = {
    {"dash", read_dash_keys, true},
    {"rvo", read_rvo_keys, false},
    {"sfm", read_sfm_keys, false},
};

}  // namespace

}  // namespace ubot::config

namespace ubot {

std::span<const std::string_view> builtin_behavior_names() {
  static const auto kNames = [] {
    std::array<std::string_view, std::size(config::kBuiltinBehaviors)> names;
    for (std::size_t i = 0; i < names.size(); ++i) names[i] = config::kBuiltinBehaviors[i].name;
    return names;
  }();
  return kNames;
}

bool builtin_behavior_available(std::string_view name, KinematicsKind kinematics) {
  const config::BuiltinBehavior* b = config::find_builtin_behavior(name);
  // A static object's behaviour loads and never runs, so static takes every one.
  return b && (b->any_kinematics || (kinematics != KinematicsKind::kAcker &&
                                     kinematics != KinematicsKind::kOmniAngular));
}

}  // namespace ubot

namespace ubot::config {

const BuiltinBehavior* find_builtin_behavior(std::string_view name) {
  for (const BuiltinBehavior& b : kBuiltinBehaviors) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

void read_goal_keys(Mapping& m, BehaviorModel& b) {
  b.wander = m.boolean("wander", b.wander);
  b.loop = m.boolean("loop", b.loop);
  auto vec3 = [&](std::string_view key, Eigen::Vector3d v) {
    if (auto f = m.get(key)) {
      const auto n = f->as_numbers(2, 3);
      v = {n[0], n[1], n.size() > 2 ? n[2] : v[2]};
    }
    return v;
  };
  b.range_low = vec3("range_low", b.range_low);
  b.range_high = vec3("range_high", b.range_high);
}

namespace {

// IR-SIM 2.12.0's social_groups: lists of member indices (the YAML group's order), each member
// in one group at most; a group of one walks alone, so it is dropped.
std::vector<std::vector<int>> read_social_groups(const Field& f, int members) {
  std::vector<std::vector<int>> groups;
  std::vector<bool> taken(static_cast<std::size_t>(std::max(members, 0)), false);
  for (std::size_t g = 0; g < f.size(); ++g) {
    const Field list = f.item(g);
    std::vector<int> group;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const Field item = list.item(k);
      const std::int64_t i = item.as_integer();
      if (i < 0 || i >= members) {
        item.fail(fmt::format("social_groups index {} is out of range for the group's {} members",
                              i, members));
      }
      if (taken[static_cast<std::size_t>(i)]) {
        item.fail(fmt::format("member {} appears in more than one social group", i));
      }
      taken[static_cast<std::size_t>(i)] = true;
      group.push_back(static_cast<int>(i));
    }
    if (group.size() >= 2) groups.push_back(std::move(group));
  }
  return groups;
}

SfmGroupModel read_sfm_group_keys(Mapping& m, int members) {
  SfmGroupModel s;
  read_sfm_params(m, s.sfm);
  if (auto f = m.get("social_groups"); f && !f->is_null()) {
    if (!f->is_sequence()) f->fail("social_groups must be a list of lists of member indices");
    s.social_groups = read_social_groups(*f, members);
  }
  s.force_factor_coherence = m.number("force_factor_coherence", s.force_factor_coherence);
  s.force_factor_group_repulsion =
      m.number("force_factor_group_repulsion", s.force_factor_group_repulsion);
  if (auto f = m.get("group_repulsion_threshold"); f && !f->is_null()) {
    s.group_repulsion_threshold = f->as_non_negative();
  }
  s.force_factor_gaze = m.number("force_factor_gaze", s.force_factor_gaze);
  s.gaze_vision_angle = m.number("gaze_vision_angle", s.gaze_vision_angle);
  if (auto f = m.get("target_roles")) {
    const std::string roles = f->as_choice({"all", "robot", "obstacle"});
    s.target_roles = roles == "all"     ? TargetRoles::kAll
                     : roles == "robot" ? TargetRoles::kRobot
                                        : TargetRoles::kObstacle;
  }
  return s;
}

}  // namespace

void read_custom_params(Mapping& m, const Field& block, std::map<std::string, GroupParam>& out) {
  for (const std::string& key : block.keys()) {
    if (key == "name" || key == "wander" || key == "loop" || key == "range_low" ||
        key == "range_high") {
      continue;
    }
    if (auto f = m.get(key)) out.emplace(key, read_param(*f));
  }
}

GroupBehaviorModel read_group_behavior(const std::optional<Field>& field, KinematicsKind kinematics,
                                       int members, BehaviorModel* goals) {
  GroupBehaviorModel g;
  if (!field) return g;
  Mapping m(*field);
  if (!m.has("name")) {
    m.finish();
    return g;
  }
  const Field name = m.require("name");
  g.name = name.as_string();
  g.where = name.where();
  BehaviorModel ignored;
  read_goal_keys(m, goals ? *goals : ignored);
  if (g.name == "orca") {
    if (kinematics != KinematicsKind::kDiff && kinematics != KinematicsKind::kOmni) {
      name.fail("group behaviour 'orca' is available for diff and omni kinematics");
    }
    g.orca = read_orca_keys(m);
    m.finish();
    return g;
  }
  if (g.name == "sfm") {
    if (kinematics != KinematicsKind::kDiff && kinematics != KinematicsKind::kOmni) {
      name.fail("group behaviour 'sfm' is available for diff and omni kinematics");
    }
    g.sfm = read_sfm_group_keys(m, members);
    m.finish();
    return g;
  }
  // Not built in: a behaviour registered at run time (the Python module's). Its keys are its own.
  read_custom_params(m, *field, g.params);
  // Whether a group behaviour of that name is registered is asked when the world is built
  // (make_group_runs): a plug-in, the Python module's for instance, registers before that.
  return g;
}

}  // namespace ubot::config
