// ubot.Object: one object of a simulation, its attributes read from the running state at access
// time (numpy copies: they stay what they were when read).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "ubot/core/color.h"
#include "ubot/world/world.h"

namespace py = pybind11;

namespace ubot::python {

KinematicsKind kinematics_of(const std::string& name) {
  if (const auto kind = kinematics_from_name(name)) return *kind;
  std::string known;
  for (KinematicsKind kind : kKinematicsKinds) {
    known += (known.empty() ? "" : ", ") + std::string(kinematics_name(kind));
  }
  throw_value_error("unknown kinematics '" + name + "' (known: " + known + ")");
}

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

namespace {

const World& world_of(const ObjectRef& o) { return o.sim->sim().world(); }
const ObjectModel& model_of(const ObjectRef& o) { return world_of(o).object_model(o.id); }
const ObjectState& state_of(const ObjectRef& o) { return world_of(o).object(o.id); }

py::array_t<double> outline(const ObjectRef& o) {
  const WorldShape& shape = world_of(o).shape(o.id);
  const py::ssize_t n = shape.circle ? 0 : static_cast<py::ssize_t>(shape.vertices.size());
  py::array_t<double> a({n, py::ssize_t{2}});
  auto w = a.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i) {
    w(i, 0) = shape.vertices[static_cast<std::size_t>(i)].x();
    w(i, 1) = shape.vertices[static_cast<std::size_t>(i)].y();
  }
  return a;
}

py::object current_goal(const ObjectRef& o) {
  const auto& goals = state_of(o).goals;
  if (goals.empty()) return py::none();
  return to_array(goals.front());
}

py::list all_goals(const ObjectRef& o) {
  py::list out;
  for (const auto& g : state_of(o).goals) out.append(to_array(g));
  return out;
}

py::list sensor_names(const ObjectRef& o) {
  py::list out;
  for (const SensorModel& s : model_of(o).sensors) out.append(s.common.name);
  return out;
}

}  // namespace

void bind_objects(py::module_& m) {
  py::class_<ObjectRef>(m, "Object",
                        "One object of a Simulation; attributes read the running state now.")
      .def_property_readonly("id", [](const ObjectRef& o) { return o.id; })
      .def_property_readonly("name", [](const ObjectRef& o) { return model_of(o).name; })
      .def_property_readonly("role", [](const ObjectRef& o) { return role_name(model_of(o).role); })
      .def_property_readonly("kinematics",
                             [](const ObjectRef& o) {
                               const KinematicsKind k = model_of(o).kinematics.kind;
                               return k == KinematicsKind::kNone ? "none" : kinematics_name(k);
                             })
      .def_property_readonly("static", [](const ObjectRef& o) { return model_of(o).is_static; })
      .def_property_readonly("state",
                             [](const ObjectRef& o) { return to_array(state_of(o).state); })
      .def_property_readonly("velocity",
                             [](const ObjectRef& o) { return pair(state_of(o).velocity); })
      .def_property_readonly("velocity_xy",
                             [](const ObjectRef& o) { return pair(world_of(o).velocity_xy(o.id)); })
      .def_property_readonly("goal", current_goal)
      .def_property_readonly("goals", all_goals)
      .def_property_readonly("arrive", [](const ObjectRef& o) { return state_of(o).arrive; })
      .def_property_readonly("collision", [](const ObjectRef& o) { return state_of(o).collision; })
      .def_property_readonly("stop", [](const ObjectRef& o) { return state_of(o).stop; })
      .def_property_readonly("collision_ids",
                             [](const ObjectRef& o) { return state_of(o).collision_ids; })
      .def_property_readonly("vel_min",
                             [](const ObjectRef& o) { return to_array(model_of(o).vel_min); })
      .def_property_readonly("vel_max",
                             [](const ObjectRef& o) { return to_array(model_of(o).vel_max); })
      .def_property_readonly("acce", [](const ObjectRef& o) { return to_array(model_of(o).acce); })
      .def_property_readonly(
          "radius", [](const ObjectRef& o) { return model_of(o).shape.bounding_radius(); },
          "The bounding circle's radius, m (a circle's own).")
      .def_property_readonly("shape_kind",
                             [](const ObjectRef& o) { return shape_name(model_of(o).shape.kind); })
      .def_property_readonly("vertices", outline)
      .def_property_readonly("unobstructed",
                             [](const ObjectRef& o) { return model_of(o).unobstructed; })
      .def_property_readonly("color", [](const ObjectRef& o) { return model_of(o).color; })
      .def_property_readonly("sensor_names", sensor_names)
      .def_property_readonly(
          "contact", [](const ObjectRef& o) { return world_of(o).contact(o.id); },
          "The object's contact sensor after the last step (a copy; empty outside "
          "collision_mode: contact).")
      .def_property_readonly(
          "fov_detected", [](const ObjectRef& o) { return world_of(o).fov_detected_objects(o.id); })
      .def(
          "fov_detect_object",
          [](const ObjectRef& o, const py::handle& other) {
            return world_of(o).fov_detect_object(o.id, id_of(o.sim, other));
          },
          py::arg("other"), "Whether `other` (name, id or Object) lies in this object's FOV.")
      .def_property_readonly("arrive_mode",
                             [](const ObjectRef& o) {
                               return model_of(o).arrive_mode == ArriveMode::kState ? "state"
                                                                                    : "position";
                             })
      .def_property_readonly("goal_threshold",
                             [](const ObjectRef& o) { return model_of(o).goal_threshold; })
      .def("__repr__", [](const ObjectRef& o) {
        return "<ubot.Object " + std::to_string(o.id) + " '" + model_of(o).name + "'>";
      });
}

}  // namespace ubot::python
