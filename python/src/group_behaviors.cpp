// ubot.register_group_behavior and ubot.register_behavior: behaviours written in Python, in the
// registry the world's built-in ones (orca and sfm groups; dash, rvo and sfm per object) are in
// (ubot/world/group_behavior.h), so `group_behavior: {name: N}` and `behavior: {name: N}` find
// them whichever way the world is loaded (docs/behaviors.md, "Registering a behaviour").
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ubot/world/group_behavior.h"
#include "ubot/world/world.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// The Python function, shared by every copy of the behaviour (a snapshot copies it, maybe with
// the GIL released); the last copy drops it holding the GIL, or leaks it once Python is gone.
using SharedFunction = std::shared_ptr<py::object>;

SharedFunction share(py::function f) {
  return SharedFunction(new py::object(std::move(f)), [](py::object* p) {
    if (!Py_IsInitialized()) return;  // at exit, after the interpreter: nothing to free into
    py::gil_scoped_acquire gil;
    delete p;
  });
}

// What the function sees of one member: plain values, copied (the world does not change under
// it, and it may keep them).
py::dict member_view(const World& world, int id) {
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  py::dict d;
  d["id"] = id;
  d["name"] = m.name;
  d["kinematics"] = kinematics_name(m.kinematics.kind);
  d["state"] = to_array(s.state);
  d["velocity"] = pair(s.velocity);
  d["goal"] = s.goals.empty() ? py::object(py::none()) : py::object(to_array(s.goals.front()));
  d["radius"] = m.shape.bounding_radius();
  d["vel_min"] = to_array(m.vel_min);
  d["vel_max"] = to_array(m.vel_max);
  d["arrive"] = s.arrive;
  d["collision"] = s.collision;
  return d;
}

py::object param_value(const GroupParam& p) {
  return std::visit([](const auto& v) { return py::object(py::cast(v)); }, p);
}

// One member's command from what the function returned for it: None (its own behaviour), or two
// finite numbers in its kinematics frame.
Command command_of(const py::handle& item, const World& world, int id) {
  if (item.is_none()) return std::nullopt;
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(item);
  if (!a || a.size() < 2) {
    throw Error(fmt::format("group behaviour: the command for {} must be None or two numbers",
                            world.object_model(id).name));
  }
  return finite_pair(a.data()[0], a.data()[1], world.object_model(id).name);
}

// Called during the step, whose GIL is released: takes it for the call. A Python exception
// propagates (as pybind11's error_already_set) out of Simulation.step, before anything moved.
std::vector<Command> call(const SharedFunction& f, const World& world, std::span<const int> members,
                          const GroupBehaviorModel& config) {
  py::gil_scoped_acquire gil;
  py::list views;
  for (const int id : members) views.append(member_view(world, id));
  py::dict kwargs;
  for (const auto& [key, value] : config.params) kwargs[py::str(key)] = param_value(value);
  kwargs["step_time"] = world.step_time();
  const py::object result = (*f)(views, **kwargs);
  if (!py::isinstance<py::sequence>(result) || py::isinstance<py::str>(result)) {
    throw Error(fmt::format("group behaviour '{}' returned {}, not a list of commands", config.name,
                            py::type::of(result).attr("__name__").cast<std::string>()));
  }
  const auto items = py::reinterpret_borrow<py::sequence>(result);
  if (items.size() != members.size()) {
    throw Error(fmt::format("group behaviour '{}' returned {} commands for {} members", config.name,
                            items.size(), members.size()));
  }
  std::vector<Command> out;
  for (std::size_t k = 0; k < members.size(); ++k) {
    out.push_back(command_of(items[k], world, members[k]));
  }
  return out;
}

void register_python_group_behavior(const std::string& kinematics, const std::string& name,
                                    py::function function) {
  const KinematicsKind kind = kinematics_of(kinematics);
  if (name.empty()) throw_value_error("register_group_behavior: the name must not be empty");
  const SharedFunction f = share(std::move(function));
  register_group_behavior(
      kind, name,
      [f](const World& world, std::span<const int> members, const GroupBehaviorModel& config) {
        return call(f, world, members, config);
      });
}

// One object's command from a per-object behaviour: taken with the GIL like a group's; None is
// no velocity (the object has no other behaviour to fall back on).
Command call_one(const SharedFunction& f, const World& world, int id, const BehaviorModel& config) {
  py::gil_scoped_acquire gil;
  py::dict kwargs;
  for (const auto& [key, value] : config.params) kwargs[py::str(key)] = param_value(value);
  kwargs["step_time"] = world.step_time();
  const py::object result = (*f)(member_view(world, id), **kwargs);
  if (result.is_none()) return std::nullopt;
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
  if (!a || a.size() < 2) {
    throw Error(fmt::format("behaviour '{}' returned {} for {}, not None or two numbers",
                            config.name, py::type::of(result).attr("__name__").cast<std::string>(),
                            world.object_model(id).name));
  }
  return finite_pair(a.data()[0], a.data()[1], world.object_model(id).name);
}

void register_python_behavior(const std::string& kinematics, const std::string& name,
                              py::function function) {
  const KinematicsKind kind = kinematics_of(kinematics);
  if (name.empty()) throw_value_error("register_behavior: the name must not be empty");
  const SharedFunction f = share(std::move(function));
  register_behavior(kind, name, [f](const World& world, int id, const BehaviorModel& config) {
    return call_one(f, world, id, config);
  });
}

}  // namespace

void bind_group_behaviors(py::module_& m) {
  m.def("register_behavior", &register_python_behavior, py::arg("kinematics"), py::arg("name"),
        py::arg("function"),
        "Registers `function(obj, **params)` as the per-object behaviour `name` for robots of "
        "`kinematics` (IR-SIM's register_behavior). When the object moves, after the objects "
        "before it, it gets the object (a dict: id, name, kinematics, state, velocity, goal, "
        "radius, vel_min, vel_max, arrive, collision), the behavior block's other keys and "
        "step_time, and returns its command (two numbers in its kinematics frame; None: no "
        "velocity), clipped to its limits. Register before the world is loaded; a name "
        "registered twice, or a built-in one, is an ubot.Error.");
  m.def("register_group_behavior", &register_python_group_behavior, py::arg("kinematics"),
        py::arg("name"), py::arg("function"),
        "Registers `function(members, **params)` as the group behaviour `name` for robots of "
        "`kinematics` (IR-SIM's register_group_behavior). Each step, before anything moves, it "
        "gets the members (dicts: id, name, kinematics, state, velocity, goal, radius, vel_min, "
        "vel_max, arrive, collision), the group_behavior block's other keys and step_time, and "
        "returns one command per member (two numbers in its kinematics frame, or None for its "
        "own behaviour). Register before the world is loaded; a name registered twice is an "
        "ubot.Error.");
}

}  // namespace ubot::python
