// ubot.Simulation (docs/python.md): loading, stepping, objects, sensors, reset / snapshot /
// restore.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <cstdlib>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "bindings.h"
#include "errors.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/core/numbers.h"
#include "ubot/world/geometry.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

using Handle = std::shared_ptr<SimHandle>;

// Loads with every loader error raised as ubot.WorldError.
template <class F>
WorldModel load_or_raise(F&& load) {
  try {
    return load();
  } catch (const Error& e) {
    throw WorldLoadError{e.what()};
  }
}

Handle from_path(const std::filesystem::path& path, std::optional<std::uint64_t> seed,
                 int threads) {
  checked_threads(threads, "Simulation");
  WorldModel model = load_or_raise([&] { return load_world(path.string(), {.seed = seed}); });
  return std::make_shared<SimHandle>(std::move(model), threads);
}

// A world given as text: relative paths in it (meshes) resolve against base_dir, as they would
// for a file <base_dir>/<string>.
Handle from_yaml(const std::string& text, std::optional<std::uint64_t> seed, int threads,
                 std::optional<std::filesystem::path> base_dir) {
  checked_threads(threads, "Simulation.from_yaml");
  const std::filesystem::path dir = base_dir.value_or(std::filesystem::current_path());
  const std::string name = (dir / "<string>").string();
  WorldModel model =
      load_or_raise([&] { return load_world_from_string(text, name, {.seed = seed}); });
  return std::make_shared<SimHandle>(std::move(model), threads);
}

// Finite float values of a 1-D sequence, for set_state / set_goals.
std::vector<double> finite_values(const py::handle& values, const char* what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(values);
  if (!a || a.ndim() != 1)
    throw_value_error(fmt::format("{}: expected a 1-D sequence of numbers", what));
  std::vector<double> out(a.data(), a.data() + a.size());
  for (double v : out) {
    if (!std::isfinite(v)) throw_value_error(fmt::format("{}: values must be finite", what));
    if (std::abs(v) > kMaxMagnitude) {
      throw_value_error(
          fmt::format("{}: {} is beyond the limit of ±1e9 for any number in a world", what, v));
    }
  }
  return out;
}

py::list names(const SimHandle& h, std::optional<Role> role) {
  py::list out;
  for (const ObjectModel& o : h.sim().world().model().objects) {
    if (!role || o.role == *role) out.append(o.name);
  }
  return out;
}

void bind_snapshot(py::module_& m) {
  py::class_<SimulationSnapshot>(m, "Snapshot",
                                 "A simulation's whole running state (Simulation.snapshot()).")
      .def_property_readonly("step_count", &SimulationSnapshot::step_count)
      .def_property_readonly("seed", &SimulationSnapshot::seed);
}

}  // namespace

int id_of(const Handle& sim, const py::handle& object) {
  if (py::isinstance<ObjectRef>(object)) {
    const ObjectRef& o = object.cast<const ObjectRef&>();
    if (o.sim != sim) throw_value_error("the Object belongs to another simulation");
    return o.id;
  }
  return sim->object_id(object);
}

void bind_simulation(py::module_& m) {
  bind_snapshot(m);
  py::class_<SimHandle, Handle> c(m, "Simulation", "A running ubot world (docs/python.md).");
  c.def(py::init(&from_path), py::arg("path"), py::arg("seed") = py::none(), py::arg("threads") = 0)
      .def_static("from_yaml", &from_yaml, py::arg("text"), py::arg("seed") = py::none(),
                  py::arg("threads") = 0, py::arg("base_dir") = py::none())
      .def("step", &SimHandle::step, py::arg("commands") = py::none(),
           "One step. commands: None (built-in behaviours), {name: [a, b] or None} or an "
           "(n_robots, 2) array.")
      .def(
          "set_timing", [](SimHandle& h, bool on) { h.sim().set_timing(on); }, py::arg("on"),
          "Start (True: from zero) or stop measuring where steps spend their wall time.")
      .def(
          "timings",
          [](const SimHandle& h) {
            const StepTimings t = h.sim().timings();
            py::dict d;
            d["steps"] = t.steps;
            d["world"] = nanos_to_seconds(t.world_ns);
            d["behaviours"] = nanos_to_seconds(t.behaviors_ns);
            d["scene"] = nanos_to_seconds(t.scene_ns);
            d["sensors"] = nanos_to_seconds(t.sensors_ns);
            d["fog"] = nanos_to_seconds(t.fog_ns);
            return d;
          },
          "Wall seconds spent in each phase of the steps since set_timing(True) (docs/cli.md "
          "--timings): {'steps', 'world', 'behaviours', 'scene', 'sensors', 'fog'}.")
      .def("_bench_step", &SimHandle::bench_step, py::arg("n"),
           "n steps (built-in behaviours) timed in C++; returns their wall seconds.")
      .def("done", [](const SimHandle& h) { return h.sim().world().done(); })
      .def(
          "serve",
          [](SimHandle& h, const std::string& address, std::optional<std::string> token) {
            const char* env = std::getenv("UBOT_LIVE_TOKEN");
            return h.serve(address, token.value_or(env ? env : ""));
          },
          py::arg("address") = "127.0.0.1:8765", py::arg("token") = py::none(),
          "Serve the live page and the Foxglove WebSocket protocol on [HOST:]PORT (docs/live.md); "
          "returns the page's URL. Non-blocking: the page follows step().")
      .def_property_readonly("live_url", &SimHandle::live_url)
      .def("close", &SimHandle::close)
      .def_property_readonly("closed", &SimHandle::closed)
      .def("__enter__", [](const Handle& h) { return h; })
      .def("__exit__", [](SimHandle& h, const py::args&) { h.close(); })
      .def_property_readonly(
          "time", [](const SimHandle& h) { return nanos_to_seconds(h.sim().world().time_ns()); })
      .def_property_readonly("time_ns",
                             [](const SimHandle& h) { return h.sim().world().time_ns(); })
      .def_property_readonly("step_count",
                             [](const SimHandle& h) { return h.sim().world().step_count(); })
      .def_property_readonly("step_time",
                             [](const SimHandle& h) { return h.sim().world().step_time(); })
      .def_property_readonly("seed", [](const SimHandle& h) { return h.sim().world().seed(); })
      .def_property_readonly("object_names",
                             [](const SimHandle& h) { return names(h, std::nullopt); })
      .def_property_readonly("robot_names",
                             [](const SimHandle& h) { return names(h, Role::kRobot); })
      .def_property_readonly("obstacle_names",
                             [](const SimHandle& h) { return names(h, Role::kObstacle); })
      .def_property_readonly("objects",
                             [](const Handle& h) {
                               std::vector<ObjectRef> out;
                               for (std::size_t i = 0; i < h->sim().world().size(); ++i) {
                                 out.push_back({h, static_cast<int>(i)});
                               }
                               return out;
                             })
      .def(
          "object",
          [](const Handle& h, const py::handle& o) {
            return ObjectRef{h, id_of(h, o)};
          },
          py::arg("name_or_id"))
      .def(
          "set_state",
          [](const Handle& h, const py::handle& o, const py::handle& state) {
            h->sim().teleport(id_of(h, o), finite_values(state, "set_state"));
          },
          py::arg("name_or_id"), py::arg("state"))
      .def(
          "set_velocity",
          [](const Handle& h, const py::handle& o, const py::handle& velocity) {
            const std::vector<double> v = finite_values(velocity, "set_velocity");
            if (v.size() != 2) {
              throw_value_error(fmt::format(
                  "set_velocity: expected 2 values (the kinematics frame's), got {}", v.size()));
            }
            h->sim().set_velocity(id_of(h, o), Eigen::Vector2d(v[0], v[1]));
          },
          py::arg("name_or_id"), py::arg("velocity"))
      .def(
          "set_goals",
          [](const Handle& h, const py::handle& o, const py::handle& goals) {
            std::vector<std::vector<double>> g;
            for (const auto& item : goals) {
              g.push_back(finite_values(item, "set_goals"));
              if (g.back().size() < 2 || g.back().size() > 3) {
                throw_value_error(
                    fmt::format("set_goals: a waypoint has 2 or 3 values (x, y[, yaw]), got {}",
                                g.back().size()));
              }
            }
            h->sim().set_goals(id_of(h, o), std::move(g));
          },
          py::arg("name_or_id"), py::arg("goals"))
      .def(
          "sensor",
          [](const Handle& h, const py::handle& o, const std::string& name) {
            return sensor_sample(h, id_of(h, o), name);
          },
          py::arg("object"), py::arg("sensor_name"))
      .def("reset", &SimHandle::reset, py::arg("seed") = py::none())
      .def("snapshot", [](const SimHandle& h) { return h.sim().snapshot(); })
      .def(
          "restore", [](SimHandle& h, const SimulationSnapshot& s) { h.sim().restore(s); },
          py::arg("snapshot"))
      .def(
          "clearance",
          [](const Handle& h, const py::handle& a, const py::handle& b) {
            const World& w = h->sim().world();
            return distance(w.shape(id_of(h, a)), w.shape(id_of(h, b)));
          },
          py::arg("a"), py::arg("b"),
          "Distance (m) between objects a and b (names, ids or Objects) now: 0 when their shapes "
          "touch or overlap.")
      .def(
          "min_clearance",
          [](const Handle& h, const py::handle& o) {
            const double d = h->sim().world().clearance(id_of(h, o));
            return std::isinf(d) ? std::numeric_limits<double>::quiet_NaN() : d;
          },
          py::arg("object"),
          "Distance (m) from the object (name, id or Object) to the nearest other object it can "
          "collide with (unobstructed ones left out) now; NaN when there is none.")
      .def("fov_detections", [](const SimHandle& h) { return h.sim().world().fov_detections(); })
      .def_property_readonly("world_name",
                             [](const SimHandle& h) { return h.sim().world().model().world.name; })
      .def_property_readonly("world_file",
                             [](const SimHandle& h) { return h.sim().world().model().file; })
      .def_property_readonly(
          "world_size",
          [](const SimHandle& h) {
            const WorldSettings& w = h.sim().world().model().world;
            return py::make_tuple(w.offset.x(), w.offset.x() + w.width, w.offset.y(),
                                  w.offset.y() + w.height);
          },
          "(x_min, x_max, y_min, y_max) of the world's area, m.")
      .def_property_readonly(
          "grid_map",
          [](const SimHandle& h) -> py::object {
            const std::shared_ptr<const GridMap>& g = h.sim().world().model().grid;
            if (!g) return py::none();
            // A copy, IR-SIM's layout: occupancy 0..100 indexed [ix, iy] (GridMap::occupancy).
            py::array_t<float> occupancy({g->nx, g->ny});
            std::copy(g->occupancy.begin(), g->occupancy.end(), occupancy.mutable_data());
            py::dict out;
            out["occupancy"] = occupancy;
            out["origin"] = py::make_tuple(g->origin.x(), g->origin.y());
            out["cell"] = py::make_tuple(g->cell.x(), g->cell.y());
            return out;
          },
          "The world's grid map (`world.obstacle_map`) or None: a dict with `occupancy` ((nx, ny) "
          "float32 copy, 0..100, > 50 occupied), `origin` (cell (0, 0)'s corner, m) and `cell` "
          "(cell size, m).");
  bind_outputs(c);
  bind_media(c);
}

}  // namespace ubot::python
