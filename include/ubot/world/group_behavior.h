#pragma once
// Group behaviours (IR-SIM's `group_behavior:`): one behaviour computes the commands of every
// member of an object group at once, each step before anything moves, from the world as it is
// (IR-SIM's env.step: _assign_group_action, then every object's step). A member's command
// replaces its own `behavior`; an external command (World::step's argument) replaces both.
//
// The registry maps (kinematics, name) to a behaviour, as IR-SIM's register_group_behavior and
// register_group_behavior_class do. `orca` (diff and omni) is built in; anything else, a Python
// group behaviour for instance, is registered before the world is built:
//
//   ubot::register_group_behavior(ubot::KinematicsKind::kOmni, "swarm",
//       [](const ubot::World& world, std::span<const int> members,
//          const ubot::GroupBehaviorModel& config) {
//         std::vector<ubot::Command> commands(members.size());
//         ...  // config.params holds the YAML keys besides `name`
//         return commands;
//       });
//
// A behaviour with state between steps derives from GroupBehavior and registers a factory
// (register_group_behavior_class); the world makes one instance per group when it is built.
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/config/world_model.h"

namespace ubot {

class StateIo;
class World;

// An external velocity command for one object for one step, in its kinematics frame
// (diff [v, w], omni [forward, lateral], acker [v, steer]). It replaces the behaviour and is
// clipped to the object's limits like a behaviour's output.
using Command = std::optional<Eigen::Vector2d>;

class GroupBehavior {
 public:
  virtual ~GroupBehavior() = default;
  // One command per member (same order as `members`, ids ascending); an empty command leaves
  // that member to its own behaviour. Called once per step, before any object moves.
  virtual std::vector<Command> step(const World& world, std::span<const int> members) = 0;
  // An independent copy, state included: a world's snapshot copies its group behaviours.
  virtual std::unique_ptr<GroupBehavior> clone() const = 0;
  // Writes or reads its state between steps (state files, core/state_io.h). The default says
  // it has state a file cannot hold (a behaviour written in Python): saving such a world is an
  // ubot::Error. A stateless behaviour does nothing.
  virtual void io_state(StateIo& s);
};

// Makes a group's behaviour when a world is built (IR-SIM's class-based group behaviours).
using GroupBehaviorFactory = std::function<std::unique_ptr<GroupBehavior>(
    const World& world, std::span<const int> members, const GroupBehaviorModel& config)>;
// A stateless group behaviour, called every step (IR-SIM's function-based ones).
using GroupBehaviorFunction = std::function<std::vector<Command>(
    const World& world, std::span<const int> members, const GroupBehaviorModel& config)>;

// Registering a (kinematics, name) pair twice is an ubot::Error, as in IR-SIM.
void register_group_behavior_class(KinematicsKind kinematics, const std::string& name,
                                   GroupBehaviorFactory factory);
void register_group_behavior(KinematicsKind kinematics, const std::string& name,
                             GroupBehaviorFunction function);
bool group_behavior_registered(KinematicsKind kinematics, const std::string& name);
// The names registered for that kinematics (built in and added), sorted.
std::vector<std::string> group_behavior_names(KinematicsKind kinematics);

// ---- Per-object behaviours registered at run time ------------------------------------------
// IR-SIM's register_behavior: `behavior: {name: NAME, ...}` with a NAME that is not built in
// (dash, rvo, sfm) runs the function registered for (kinematics, NAME). It gives the object's
// command for this step, in its kinematics frame, from the world as it is when the object moves
// (objects before it in id order have moved, as in IR-SIM's env.step); empty: no velocity.
// Its output is clipped to the object's limits like a built-in's; `config.params` holds the
// block's keys besides `name`. A world naming an unregistered one is an ubot::Error at the name,
// listing the known names, when it is built.
using BehaviorFunction =
    std::function<Command(const World& world, int id, const BehaviorModel& config)>;

// Registering a (kinematics, name) pair twice, or a built-in name, is an ubot::Error.
void register_behavior(KinematicsKind kinematics, const std::string& name,
                       BehaviorFunction function);
// The per-object behaviours available for that kinematics: built in and registered, sorted.
std::vector<std::string> behavior_names(KinematicsKind kinematics);

// A group's behaviour, held by value: copying copies the behaviour (GroupBehavior::clone), so
// WorldState stays a plain copyable value.
class GroupBehaviorSlot {
 public:
  GroupBehaviorSlot() = default;
  explicit GroupBehaviorSlot(std::unique_ptr<GroupBehavior> b) : behavior_(std::move(b)) {}
  GroupBehaviorSlot(const GroupBehaviorSlot& o)
      : behavior_(o.behavior_ ? o.behavior_->clone() : nullptr) {}
  GroupBehaviorSlot(GroupBehaviorSlot&&) noexcept = default;
  GroupBehaviorSlot& operator=(const GroupBehaviorSlot& o) {
    if (this != &o) behavior_ = o.behavior_ ? o.behavior_->clone() : nullptr;
    return *this;
  }
  GroupBehaviorSlot& operator=(GroupBehaviorSlot&&) noexcept = default;
  GroupBehavior* get() const { return behavior_.get(); }

 private:
  std::unique_ptr<GroupBehavior> behavior_;
};

// An object group (IR-SIM's ObjectGroup: same role and group id) with a group behaviour.
struct GroupRun {
  std::vector<int> members;  // ids, ascending
  GroupBehaviorSlot behavior;
};

namespace detail {
// The groups of a freshly built world whose first member names a registered group behaviour.
std::vector<GroupRun> make_group_runs(const World& world);
// Every object's group command this step (entry i for object i; empty when none).
std::vector<Command> group_commands(const World& world, std::vector<GroupRun>& groups);
struct BehaviorEntry;
// Per object of a freshly built world, the registry's entry for what its `behavior:` names (null
// where it names none); an ubot::Error when one is not registered, unless the world leaves those
// to its host (LoadOptions::host_behaviors: null).
std::vector<const BehaviorEntry*> object_behaviors(const World& world);
}  // namespace detail

}  // namespace ubot
