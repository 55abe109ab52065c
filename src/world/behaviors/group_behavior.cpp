// The group-behaviour registry and the per-step evaluation (ubot/world/group_behavior.h).
#include "ubot/world/group_behavior.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

#include "../behavior.h"
#include "orca_group.h"
#include "sfm_group.h"
#include "ubot/core/error.h"
#include "ubot/core/state_io.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

using Key = std::pair<KinematicsKind, std::string>;

// A stateless function as a GroupBehavior.
class FunctionBehavior final : public GroupBehavior {
 public:
  FunctionBehavior(GroupBehaviorFunction f, GroupBehaviorModel config)
      : function_(std::move(f)), config_(std::move(config)) {}
  std::vector<Command> step(const World& world, std::span<const int> members) override {
    return function_(world, members, config_);
  }
  std::unique_ptr<GroupBehavior> clone() const override {
    return std::make_unique<FunctionBehavior>(*this);
  }
  void io_state(StateIo& /*s*/) override {}  // a function: no state between steps

 private:
  GroupBehaviorFunction function_;
  GroupBehaviorModel config_;
};

struct Registry {
  std::mutex mutex;
  std::map<Key, GroupBehaviorFactory> factories;
  std::map<Key, detail::BehaviorEntry> behaviors;  // per object: nodes never move or go
  Registry() {
    // Built in here, not by static registration objects (a static library drops those). A new
    // built-in is its file in this folder plus one line here (docs/architecture.md).
    for (KinematicsKind k : {KinematicsKind::kDiff, KinematicsKind::kOmni}) {
      factories.emplace(Key{k, "orca"}, detail::make_orca_group);
      factories.emplace(Key{k, "sfm"}, detail::make_sfm_group);
    }
    using detail::BehaviorReach;
    add_builtin("dash", {detail::dash_velocity, detail::dash_yaw_rate, BehaviorReach::kSelf});
    add_builtin("rvo", {[](const World& world, int id, const detail::VelocityRange&) {
                          return detail::rvo_velocity(world, id);
                        },
                        nullptr, BehaviorReach::kNeighbors});
    add_builtin("sfm", {detail::sfm_velocity, nullptr, BehaviorReach::kAnything});
  }
  // For each kinematics the loader accepts the name for (its key readers: config's table).
  void add_builtin(const std::string& name, const detail::BehaviorEntry& entry) {
    for (KinematicsKind k : kKinematicsKinds) {
      if (builtin_behavior_available(name, k)) behaviors.emplace(Key{k, name}, entry);
    }
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

void add(KinematicsKind kinematics, const std::string& name, GroupBehaviorFactory factory) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!r.factories.emplace(Key{kinematics, name}, std::move(factory)).second) {
    throw Error(fmt::format("group behaviour '{}' for {} kinematics is already registered", name,
                            kinematics_name(kinematics)));
  }
}

GroupBehaviorFactory find(KinematicsKind kinematics, const std::string& name) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = r.factories.find(Key{kinematics, name});
  return it == r.factories.end() ? GroupBehaviorFactory{} : it->second;
}

}  // namespace

namespace detail {

const BehaviorEntry* find_behavior(KinematicsKind kinematics, const std::string& name) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = r.behaviors.find(Key{kinematics, name});
  return it == r.behaviors.end() ? nullptr : &it->second;
}

}  // namespace detail

void register_group_behavior_class(KinematicsKind kinematics, const std::string& name,
                                   GroupBehaviorFactory factory) {
  add(kinematics, name, std::move(factory));
}

void register_group_behavior(KinematicsKind kinematics, const std::string& name,
                             GroupBehaviorFunction function) {
  add(kinematics, name,
      [function = std::move(function)](const World&, std::span<const int>,
                                       const GroupBehaviorModel& config) {
        return std::make_unique<FunctionBehavior>(function, config);
      });
}

bool group_behavior_registered(KinematicsKind kinematics, const std::string& name) {
  return static_cast<bool>(find(kinematics, name));
}

std::vector<std::string> group_behavior_names(KinematicsKind kinematics) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [key, factory] : r.factories) {
    if (key.first == kinematics) names.push_back(key.second);  // the map keeps them sorted
  }
  return names;
}

void register_behavior(KinematicsKind kinematics, const std::string& name,
                       BehaviorFunction function) {
  const auto& builtins = builtin_behavior_names();
  if (std::find(builtins.begin(), builtins.end(), name) != builtins.end()) {
    throw Error(
        fmt::format("behaviour '{}' is built in; a registered one needs another name", name));
  }
  // Registered ones may read anything, through Python too: they step sequentially.
  detail::BehaviorEntry entry{
      [function = std::move(function)](const World& world, int id, const detail::VelocityRange&) {
        const Command c = function(world, id, world.object_model(id).behavior);
        return c ? *c : Eigen::Vector2d::Zero();
      },
      nullptr, detail::BehaviorReach::kAnything};
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!r.behaviors.emplace(Key{kinematics, name}, std::move(entry)).second) {
    throw Error(fmt::format("behaviour '{}' for {} kinematics is already registered", name,
                            kinematics_name(kinematics)));
  }
}

std::vector<std::string> behavior_names(KinematicsKind kinematics) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [key, entry] : r.behaviors) {
    if (key.first == kinematics) names.push_back(key.second);  // the map keeps them sorted
  }
  return names;
}

void GroupBehavior::io_state(StateIo& /*s*/) {
  throw Error(
      "its group behaviour keeps state outside ubot (a class written in Python, or another "
      "plug-in without io_state), which a state file cannot hold");
}

namespace detail {
namespace {

// "a, b, c", or "none".
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

// An error at the name, listing the names registered for the group's kinematics.
Error unknown_group_behavior(const ObjectModel& first) {
  const GroupBehaviorModel& g = first.group_behavior;
  const std::string known = listed(group_behavior_names(first.kinematics.kind));
  return Error(g.where,
               fmt::format("no group behaviour {} for {} kinematics (known: {}); one written in "
                           "Python is registered with ubot.register_group_behavior before the "
                           "world is loaded, or runs through ubot.irsim with its script "
                           "(docs/behaviors.md)",
                           quote_value(g.name), kinematics_name(first.kinematics.kind), known));
}

}  // namespace

std::vector<GroupRun> make_group_runs(const World& world) {
  // Members by (role, group), groups in order of their first member (IR-SIM's ObjectGroup).
  // Found through an index: every obstacle entry of a world is its own group, and a linear
  // search made 100 000 obstacles take 5 s here alone.
  std::vector<std::pair<std::pair<Role, int>, std::vector<int>>> groups;
  std::map<std::pair<Role, int>, std::size_t> index;
  for (int id = 0; id < static_cast<int>(world.size()); ++id) {
    const ObjectModel& m = world.object_model(id);
    const std::pair<Role, int> key{m.role, m.group};
    const auto [it, inserted] = index.emplace(key, groups.size());
    if (inserted) groups.push_back({key, {}});
    groups[it->second].second.push_back(id);
  }
  std::vector<GroupRun> runs;
  for (auto& [key, members] : groups) {
    // The group's configuration and kinematics are its first member's, as in IR-SIM.
    const ObjectModel& first = world.object_model(members.front());
    if (first.group_behavior.name.empty()) continue;
    const GroupBehaviorFactory factory = find(first.kinematics.kind, first.group_behavior.name);
    if (!factory && world.model().world.host_behaviors) continue;  // the host commands them
    if (!factory) throw unknown_group_behavior(first);
    GroupRun run;
    run.behavior = GroupBehaviorSlot(factory(world, members, first.group_behavior));
    run.members = std::move(members);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<const BehaviorEntry*> object_behaviors(const World& world) {
  std::vector<const BehaviorEntry*> out(world.size(), nullptr);
  for (std::size_t id = 0; id < world.size(); ++id) {
    const ObjectModel& m = world.object_model(static_cast<int>(id));
    if (m.behavior.name.empty()) continue;
    out[id] = find_behavior(m.kinematics.kind, m.behavior.name);
    if (out[id] || world.model().world.host_behaviors) continue;  // null: the host commands it
    throw Error(m.behavior.where,
                fmt::format("no behaviour {} for {} kinematics (known: {}); one written in Python "
                            "is registered with ubot.register_behavior before the world is "
                            "loaded, or runs through ubot.irsim with its script "
                            "(docs/behaviors.md)",
                            quote_value(m.behavior.name), kinematics_name(m.kinematics.kind),
                            listed(behavior_names(m.kinematics.kind))));
  }
  return out;
}

std::vector<Command> group_commands(const World& world, std::vector<GroupRun>& groups) {
  std::vector<Command> commands(world.size());
  for (GroupRun& g : groups) {
    const std::vector<Command> out = g.behavior.get()->step(world, g.members);
    if (out.size() != g.members.size()) {
      throw Error(fmt::format("group behaviour '{}' returned {} commands for {} members",
                              world.object_model(g.members.front()).group_behavior.name, out.size(),
                              g.members.size()));
    }
    for (std::size_t k = 0; k < out.size(); ++k) commands[g.members[k]] = out[k];
  }
  return commands;
}

}  // namespace detail
}  // namespace ubot
