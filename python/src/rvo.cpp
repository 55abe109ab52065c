// ubot._core.rvo: the subset of pyrvo (hanruihua/pyrvo, RVO2's Python binding) that IR-SIM's
// scripts call, over ubot's own ORCA (ubot/world/orca.h). python/ubot/pyrvo.py re-exports it,
// and `python3 -m ubot.irsim` serves it as `pyrvo` when the real one is not installed
// (docs/irsim-python.md, "pyrvo"). Names, argument orders and defaults are pyrvo's; the
// arithmetic is ubot's double-precision ORCA (RVO2 computes in float), and there are no
// obstacles (ubot's ORCA builds agent half-planes only).
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ubot/world/orca.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// pyrvo.Vector2: read-only x, y.
struct Vector2 {
  double x = 0.0, y = 0.0;
};

Eigen::Vector2d to_eigen(const py::handle& seq, const char* what) {
  if (py::isinstance<Vector2>(seq)) {
    const Vector2& v = seq.cast<const Vector2&>();
    return {v.x, v.y};
  }
  if (!py::isinstance<py::sequence>(seq) || py::isinstance<py::str>(seq) || py::len(seq) != 2) {
    throw_value_error(fmt::format("pyrvo: {} must be a sequence of 2 numbers", what));
  }
  const py::sequence s = py::reinterpret_borrow<py::sequence>(seq);
  return {py::float_(s[0]).cast<double>(), py::float_(s[1]).cast<double>()};
}

Vector2 to_vector2(const Eigen::Vector2d& v) { return {v.x(), v.y()}; }

// An agent's parameters besides position and velocity, as RVO2's default agent holds them.
struct AgentParams {
  double neighbor_dist = 0.0;
  std::size_t max_neighbors = 0;
  double time_horizon = 0.0;
  double time_horizon_obst = 0.0;  // kept and returned; without obstacles it changes nothing
  double radius = 0.0;
  double max_speed = 0.0;
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
};

// RVO2's RVOSimulator without obstacles: agents, a time step, and the step itself.
class RvoSimulator {
 public:
  RvoSimulator() = default;
  RvoSimulator(double time_step, AgentParams defaults)
      : defaults_(std::move(defaults)), time_step_(time_step) {}

  void set_defaults(AgentParams p) { defaults_ = std::move(p); }

  // RVO2 returns RVO_ERROR (SIZE_MAX) without defaults; raising says why instead.
  std::size_t add(const Eigen::Vector2d& position) {
    if (!defaults_) {
      throw_value_error(
          "pyrvo: add_agent(position) needs agent defaults: call set_agent_defaults first, or "
          "give the parameters (RVO2 would return RVO_ERROR)");
    }
    return add(position, *defaults_);
  }

  std::size_t add(const Eigen::Vector2d& position, const AgentParams& p) {
    orca::Agent a;
    a.position = position;
    a.velocity = p.velocity;
    a.radius = p.radius;
    a.max_speed = p.max_speed;
    a.neighbor_dist = p.neighbor_dist;
    a.max_neighbors =
        static_cast<int>(std::min<std::size_t>(p.max_neighbors, std::numeric_limits<int>::max()));
    a.time_horizon = p.time_horizon;
    agents_.push_back(a);
    time_horizon_obst_.push_back(p.time_horizon_obst);
    max_neighbors_.push_back(p.max_neighbors);
    return agents_.size() - 1;
  }

  // RVO2's doStep: every agent's new velocity from the same state, then all move by it.
  void step() {
    const std::vector<Eigen::Vector2d> v = orca::new_velocities(agents_, time_step_);
    for (std::size_t i = 0; i < agents_.size(); ++i) {
      agents_[i].velocity = v[i];
      agents_[i].position += v[i] * time_step_;
    }
    global_time_ += time_step_;
  }

  orca::Agent& agent(std::size_t i) {
    check(i);
    return agents_[i];
  }
  double& time_horizon_obst(std::size_t i) {
    check(i);
    return time_horizon_obst_[i];
  }
  std::size_t& max_neighbors(std::size_t i) {
    check(i);
    return max_neighbors_[i];
  }
  std::size_t size() const { return agents_.size(); }
  void clear() {
    agents_.clear();
    time_horizon_obst_.clear();
    max_neighbors_.clear();
  }
  double time_step() const { return time_step_; }
  void set_time_step(double t) { time_step_ = t; }
  double global_time() const { return global_time_; }

 private:
  // RVO2 indexes its vector unchecked; an unknown agent number is a Python IndexError here.
  void check(std::size_t i) const {
    if (i >= agents_.size()) {
      throw py::index_error(
          fmt::format("pyrvo: agent {} does not exist ({} agents)", i, agents_.size()));
    }
  }

  std::optional<AgentParams> defaults_;
  std::vector<orca::Agent> agents_;
  std::vector<double> time_horizon_obst_;
  std::vector<std::size_t> max_neighbors_;  // as given (the Agent holds it clamped to int)
  double time_step_ = 0.0;
  double global_time_ = 0.0;
};

AgentParams params(double neighbor_dist, std::size_t max_neighbors, double time_horizon,
                   double time_horizon_obst, double radius, double max_speed,
                   const py::handle& velocity = py::none()) {
  AgentParams p{neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed};
  if (!velocity.is_none()) p.velocity = to_eigen(velocity, "velocity");
  return p;
}

void bind_vector2(py::module_& m) {
  py::class_<Vector2>(m, "Vector2", "pyrvo.Vector2: a 2D vector (read-only x, y).")
      .def(py::init<>())
      .def(py::init([](double x, double y) {
             return Vector2{x, y};
           }),
           py::arg("x"), py::arg("y"))
      .def_readonly("x", &Vector2::x)
      .def_readonly("y", &Vector2::y)
      .def("to_tuple", [](const Vector2& v) { return py::make_tuple(v.x, v.y); })
      .def_static("from_tuple",
                  [](const py::tuple& t) { return to_vector2(to_eigen(t, "the tuple")); })
      .def_static("from_list",
                  [](const py::object& s) { return to_vector2(to_eigen(s, "the sequence")); })
      .def("__repr__", [](const Vector2& v) { return fmt::format("Vector2({}, {})", v.x, v.y); });
}

// get_agent_X / set_agent_X for one agent field.
template <typename Get, typename Set>
void agent_property(py::class_<RvoSimulator>& c, const char* name, Get get, Set set) {
  c.def(
      fmt::format("get_agent_{}", name).c_str(),
      [get](RvoSimulator& s, std::size_t i) { return get(s, i); }, py::arg("agent_no"));
  c.def(fmt::format("set_agent_{}", name).c_str(), set, py::arg("agent_no"), py::arg("value"));
}

void bind_agent_fields(py::class_<RvoSimulator>& c) {
  auto vec = [&](const char* name, Eigen::Vector2d orca::Agent::*field) {
    agent_property(
        c, name, [field](RvoSimulator& s, std::size_t i) { return to_vector2(s.agent(i).*field); },
        [field, name](RvoSimulator& s, std::size_t i, const py::object& v) {
          s.agent(i).*field = to_eigen(v, name);
        });
  };
  vec("position", &orca::Agent::position);
  vec("velocity", &orca::Agent::velocity);
  vec("pref_velocity", &orca::Agent::pref_velocity);
  auto num = [&](const char* name, double orca::Agent::*field) {
    agent_property(
        c, name, [field](RvoSimulator& s, std::size_t i) { return s.agent(i).*field; },
        [field](RvoSimulator& s, std::size_t i, double v) { s.agent(i).*field = v; });
  };
  num("radius", &orca::Agent::radius);
  num("max_speed", &orca::Agent::max_speed);
  num("neighbor_dist", &orca::Agent::neighbor_dist);
  num("time_horizon", &orca::Agent::time_horizon);
  agent_property(
      c, "time_horizon_obst", [](RvoSimulator& s, std::size_t i) { return s.time_horizon_obst(i); },
      [](RvoSimulator& s, std::size_t i, double v) { s.time_horizon_obst(i) = v; });
  agent_property(
      c, "max_neighbors", [](RvoSimulator& s, std::size_t i) { return s.max_neighbors(i); },
      [](RvoSimulator& s, std::size_t i, std::size_t v) {
        s.max_neighbors(i) = v;
        s.agent(i).max_neighbors =
            static_cast<int>(std::min<std::size_t>(v, std::numeric_limits<int>::max()));
      });
}

void bind_simulator(py::module_& m) {
  py::class_<RvoSimulator> c(
      m, "RVOSimulator",
      "pyrvo.RVOSimulator over ubot's ORCA: agents only (no obstacles), double precision.");
  c.def(py::init<>())
      .def(py::init([](double time_step, double neighbor_dist, std::size_t max_neighbors,
                       double time_horizon, double time_horizon_obst, double radius,
                       double max_speed, const py::object& velocity) {
             return RvoSimulator(time_step, params(neighbor_dist, max_neighbors, time_horizon,
                                                   time_horizon_obst, radius, max_speed, velocity));
           }),
           py::arg("time_step"), py::arg("neighbor_dist"), py::arg("max_neighbors"),
           py::arg("time_horizon"), py::arg("time_horizon_obst"), py::arg("radius"),
           py::arg("max_speed"), py::arg("velocity") = py::none())
      .def(
          "add_agent",
          [](RvoSimulator& s, const py::object& position) {
            return s.add(to_eigen(position, "position"));
          },
          py::arg("position"))
      .def(
          "add_agent",
          [](RvoSimulator& s, const py::object& position, double neighbor_dist,
             std::size_t max_neighbors, double time_horizon, double time_horizon_obst,
             double radius, double max_speed, const py::object& velocity) {
            return s.add(to_eigen(position, "position"),
                         params(neighbor_dist, max_neighbors, time_horizon, time_horizon_obst,
                                radius, max_speed, velocity));
          },
          py::arg("position"), py::arg("neighbor_dist"), py::arg("max_neighbors"),
          py::arg("time_horizon"), py::arg("time_horizon_obst"), py::arg("radius"),
          py::arg("max_speed"), py::arg("velocity") = py::none())
      .def(
          "set_agent_defaults",
          [](RvoSimulator& s, double neighbor_dist, std::size_t max_neighbors, double time_horizon,
             double time_horizon_obst, double radius, double max_speed,
             const py::object& velocity) {
            s.set_defaults(params(neighbor_dist, max_neighbors, time_horizon, time_horizon_obst,
                                  radius, max_speed, velocity));
          },
          py::arg("neighbor_dist"), py::arg("max_neighbors"), py::arg("time_horizon"),
          py::arg("time_horizon_obst"), py::arg("radius"), py::arg("max_speed"),
          py::arg("velocity") = py::none())
      .def("do_step", &RvoSimulator::step, "RVO2's doStep: new velocities, then every agent moves.")
      .def("get_num_agents", &RvoSimulator::size)
      .def("get_global_time", &RvoSimulator::global_time)
      .def("get_time_step", &RvoSimulator::time_step)
      .def("set_time_step", &RvoSimulator::set_time_step, py::arg("time_step"))
      .def("clear_agents", &RvoSimulator::clear);
  bind_agent_fields(c);
}

}  // namespace

void bind_rvo(py::module_& m) {
  py::module_ rvo = m.def_submodule(
      "rvo", "pyrvo's RVOSimulator and Vector2 over ubot's ORCA (docs/irsim-python.md).");
  bind_vector2(rvo);
  bind_simulator(rvo);
}

}  // namespace ubot::python
