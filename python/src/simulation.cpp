// ubot.Simulation (docs/python.md): loading, stepping, objects, sensors, reset / snapshot /
// restore, state files and pickling (ubot.Snapshot, Simulation.save_state / load_state).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <cstdlib>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "bindings.h"
#include "errors.h"
#include "interrupt.h"
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
    throw WorldLoadError{e};
  }
}

// Builds the simulation of a loaded world. An error at a place in the world file (a behaviour
// nobody registered, found when the world is built) is raised as ubot.WorldError, as the
// loader's are.
Handle build_or_raise(WorldModel model, int threads) {
  try {
    return std::make_shared<SimHandle>(std::move(model), threads);
  } catch (const Error& e) {
    if (e.has_location()) throw WorldLoadError{e};
    throw;
  }
}

// The text of the world file at `path`, read whole as load_world reads it; none when it is no
// regular file or cannot be read (load_world then raises the error).
std::optional<std::string> world_text(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return text;
}

std::string current_dir() {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::current_path(ec);
  return ec ? std::string() : dir.string();
}

// Simulation's step_mode argument (IR-SIM's irsim.make(step_mode=...)): "internal" or "external".
std::optional<StepMode> step_mode_of(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  if (*name == "internal") return StepMode::kInternal;
  if (*name == "external") return StepMode::kExternal;
  throw_value_error(
      fmt::format("step_mode: expected 'internal' or 'external', got {}", quote_value(*name)));
}

Handle from_path(const std::filesystem::path& path, std::optional<std::uint64_t> seed, int threads,
                 const std::optional<std::string>& step_mode, bool host_behaviors,
                 std::function<void(const config::YamlDocument&)> on_document = nullptr) {
  checked_threads(threads, "Simulation");
  // Loaded from the file's text under the file's name, which is what load_world does: the text
  // kept for pickling is the text that was loaded.
  std::optional<std::string> text = world_text(path.string());
  // Loading and building a large world take seconds: Ctrl-C stops them (interrupt.h).
  return interruptible([&] {
    const LoadOptions options{.seed = seed,
                              .progress = stop_point,
                              .step_mode = step_mode_of(step_mode),
                              .host_behaviors = host_behaviors,
                              .on_document = std::move(on_document)};
    WorldModel model = load_or_raise([&] {
      return text ? load_world_from_string(*text, path.string(), options)
                  : load_world(path.string(), options);
    });
    auto h = build_or_raise(std::move(model), threads);
    if (text) {
      h->source() = SimHandle::Source{std::move(*text), path.string(), current_dir(),
                                      threads,          step_mode,     host_behaviors};
    }
    return h;
  });
}

// A world given as text: relative paths in it (meshes) resolve against base_dir, as they would
// for a file <base_dir>/<string>.
Handle from_yaml(const std::string& text, std::optional<std::uint64_t> seed, int threads,
                 std::optional<std::filesystem::path> base_dir,
                 const std::optional<std::string>& step_mode, bool host_behaviors) {
  checked_threads(threads, "Simulation.from_yaml");
  const std::filesystem::path dir = base_dir.value_or(std::filesystem::current_path());
  const std::string name = (dir / "<string>").string();
  return interruptible([&] {
    WorldModel model = load_or_raise([&] {
      return load_world_from_string(text, name,
                                    {.seed = seed,
                                     .progress = stop_point,
                                     .step_mode = step_mode_of(step_mode),
                                     .host_behaviors = host_behaviors});
    });
    auto h = build_or_raise(std::move(model), threads);
    h->source() = SimHandle::Source{text, name, current_dir(), threads, step_mode, host_behaviors};
    return h;
  });
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

// The format of the pickles of ubot.Snapshot and ubot.Simulation (docs/python.md, "Snapshots,
// state files and pickling").
constexpr int kPickleFormat = 1;

// __reduce__ of a class with py::pickle: copyreg.__newobj__(type) then __setstate__, at every
// pickle protocol (what protocols 2 and up do anyway). Without it protocols 0 and 1 go through
// copyreg._reduce_ex, which makes pybind11 abort the interpreter.
py::tuple reduce_with_state(const py::object& self) {
  return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"),
                        py::make_tuple(py::type::of(self)), self.attr("__getstate__")());
}

py::bytes to_py_bytes(const std::vector<std::uint8_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

// The bytes of a bytes-like object (bytes, bytearray, memoryview, a uint8 array); TypeError
// naming `who` for anything else.
std::vector<std::uint8_t> bytes_of(const py::handle& object, const std::string& who) {
  if (!PyObject_CheckBuffer(object.ptr())) {
    throw py::type_error(
        fmt::format("{}: expected bytes, got {}", who,
                    py::str(py::type::of(object).attr("__name__")).cast<std::string>()));
  }
  const py::buffer_info info = py::reinterpret_borrow<py::buffer>(object).request();
  if (info.ndim != 1 || info.itemsize != 1 || (info.size > 1 && info.strides[0] != 1)) {
    throw py::type_error(
        fmt::format("{}: expected bytes (a contiguous buffer of single bytes)", who));
  }
  const auto* p = static_cast<const std::uint8_t*>(info.ptr);
  return {p, p + info.size};
}

// ubot.Snapshot: a native snapshot and/or its bytes (SimulationSnapshot::to_bytes: a state
// file's content). Simulation.snapshot() makes the native one; an unpickled Snapshot holds the
// bytes only. A restore puts the native one back directly into a simulation of its model object
// (the simulation it was taken from) and otherwise reads the bytes (made then if needed) for the
// simulation restored into: a Snapshot restores into any simulation of the same world.
struct PySnapshot {
  std::optional<SimulationSnapshot> native;
  std::shared_ptr<const WorldModel> model;  // the model object `native` belongs to
  std::shared_ptr<const std::vector<std::uint8_t>> bytes;
  std::int64_t step_count = 0;
  std::uint64_t seed = 0;

  static PySnapshot of(SimulationSnapshot snapshot, std::shared_ptr<const WorldModel> model) {
    PySnapshot s;
    s.step_count = snapshot.step_count();
    s.seed = snapshot.seed();
    s.native = std::move(snapshot);
    s.model = std::move(model);
    return s;
  }
  // The state as bytes, made once; ubot::Error when part of it lives outside ubot (a medium
  // provider added from Python).
  const std::vector<std::uint8_t>& state_bytes() {
    if (!bytes) bytes = std::make_shared<const std::vector<std::uint8_t>>(native->to_bytes());
    return *bytes;
  }
};

// A restore ends the recording first (SimHandle::finish_recording), once the snapshot is known
// to fit: a refused one leaves both as they were.
void restore_snapshot(SimHandle& h, PySnapshot& snap) {
  Simulation& sim = h.sim();
  if (snap.native && snap.model == sim.model()) {
    h.finish_recording();
    sim.restore(*snap.native);
    return;
  }
  if (!snap.bytes) {
    try {
      snap.state_bytes();
    } catch (const Error&) {
      // No bytes (a medium provider added from Python): only a simulation of its own model
      // takes it, which this is not; restore says so.
      sim.restore(*snap.native);
      return;
    }
  }
  SimulationSnapshot read = sim.snapshot_from_bytes(*snap.bytes, "restore");
  h.finish_recording();
  sim.restore(read);
  if (!snap.native) {  // unpickled: keep the one read, for the next restore here
    snap.native = std::move(read);
    snap.model = sim.model();
  }
}

void bind_snapshot(py::module_& m) {
  py::class_<PySnapshot> snapshot_class(
      m, "Snapshot",
      "A simulation's whole running state (Simulation.snapshot()): restorable any number of "
      "times into any simulation of the same world, picklable (docs/python.md, \"Snapshots, "
      "state files and pickling\").");
  snapshot_class.def_readonly("step_count", &PySnapshot::step_count)
      .def_readonly("seed", &PySnapshot::seed)
      .def(
          "to_bytes", [](PySnapshot& s) { return to_py_bytes(s.state_bytes()); },
          "The state as bytes: what Simulation.save_state writes, what "
          "Simulation.snapshot_from_bytes reads (in any process). ubot.Error when a medium "
          "provider was added from Python.")
      .def(
          "__eq__",
          [](PySnapshot& a, const py::object& other) -> py::object {
            if (!py::isinstance<PySnapshot>(other))
              return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            PySnapshot& b = other.cast<PySnapshot&>();
            return py::bool_(a.state_bytes() == b.state_bytes());
          },
          py::arg("other"),
          "Equal when the states are: the same bytes (of any process). ubot.Error when a medium "
          "provider was added from Python.");
  snapshot_class.attr("__hash__") = py::none();  // equal by value, and not immutable to Python
  snapshot_class.def("__copy__", [](const PySnapshot& s) { return s; })
      .def(
          "__deepcopy__", [](const PySnapshot& s, const py::handle&) { return s; }, py::arg("memo"))
      .def("__repr__",
           [](const PySnapshot& s) {
             return fmt::format("<ubot.Snapshot step_count={} seed={}>", s.step_count, s.seed);
           })
      .def(py::pickle(
          [](PySnapshot& s) {
            try {
              s.state_bytes();
            } catch (const Error& e) {
              throw py::type_error(fmt::format("cannot pickle ubot.Snapshot: {}", e.what()));
            }
            return py::make_tuple(kPickleFormat, to_py_bytes(*s.bytes), s.step_count, s.seed);
          },
          [](const py::tuple& t) {
            if (t.size() != 4 || !py::isinstance<py::int_>(t[0])) {
              throw_value_error("ubot.Snapshot: not the state of a pickled Snapshot");
            }
            if (t[0].cast<int>() != kPickleFormat) {
              throw_value_error(
                  fmt::format("ubot.Snapshot: a pickle of format {}; this ubot reads format {}",
                              py::str(t[0]).cast<std::string>(), kPickleFormat));
            }
            PySnapshot s;
            s.bytes =
                std::make_shared<const std::vector<std::uint8_t>>(bytes_of(t[1], "ubot.Snapshot"));
            s.step_count = t[2].cast<std::int64_t>();
            s.seed = t[3].cast<std::uint64_t>();
            return s;
          }))
      .def("__reduce__", &reduce_with_state);
}

// Why `h` does not pickle, or nothing.
std::optional<std::string> pickle_refusal(SimHandle& h) {
  if (!h.pickle_refusal().empty()) return h.pickle_refusal();
  if (h.added_providers() > 0) {
    return fmt::format(
        "{} medium provider(s) were added with add_medium_provider; their state lives in "
        "Python, which a pickle of the simulation cannot hold",
        h.added_providers());
  }
  if (!h.source()) return "it does not know the world text it was loaded from";
  return std::nullopt;
}

// Simulation.__getstate__: the world (text, name, the directory its name is relative to, the
// seed it was loaded with, the threads) and the running state's bytes.
py::dict simulation_state(SimHandle& h) {
  const Simulation& sim = h.sim();  // ubot.Error when closed or stepping
  if (const auto why = pickle_refusal(h)) {
    throw py::type_error(fmt::format("cannot pickle ubot.Simulation: {}", *why));
  }
  std::vector<std::uint8_t> state;
  try {
    state = sim.snapshot().to_bytes();
  } catch (const Error& e) {
    throw py::type_error(fmt::format("cannot pickle ubot.Simulation: {}", e.what()));
  }
  const SimHandle::Source& source = *h.source();
  py::dict d;
  d["format"] = kPickleFormat;
  d["world"] = source.text;
  d["world_file"] = source.name;
  d["cwd"] = source.cwd;
  d["load_seed"] = sim.world().model().seed;
  d["threads"] = source.threads;
  d["step_mode"] = source.step_mode ? py::object(py::str(*source.step_mode)) : py::none();
  if (source.host_behaviors) d["host_behaviors"] = true;  // absent: false (older pickles too)
  d["state"] = to_py_bytes(state);
  return d;
}

// Simulation.__setstate__: the world loaded again from its text, under its name (a relative
// name made absolute against the original's directory when this process's is another one), with
// the seed it was loaded with (random placement is drawn at load); then the state read back.
Handle simulation_from_state(const py::dict& d) {
  if (!d.contains("format") || !py::isinstance<py::int_>(d["format"])) {
    throw_value_error("ubot.Simulation: not the state of a pickled Simulation");
  }
  if (d["format"].cast<int>() != kPickleFormat) {
    throw_value_error(
        fmt::format("ubot.Simulation: a pickle of format {}; this ubot reads format {}",
                    py::str(d["format"]).cast<std::string>(), kPickleFormat));
  }
  std::string text = d["world"].cast<std::string>();
  const std::string cwd = d["cwd"].cast<std::string>();
  const auto seed = d["load_seed"].cast<std::uint64_t>();
  const int threads = checked_threads(d["threads"].cast<int>(), "Simulation (unpickling)");
  // (Pickles from before step_mode was an argument have no entry: the file's own.)
  std::optional<std::string> step_mode;
  if (d.contains("step_mode") && !d["step_mode"].is_none()) {
    if (!py::isinstance<py::str>(d["step_mode"])) {
      throw_value_error("ubot.Simulation (unpickling): step_mode must be a string or None");
    }
    step_mode = d["step_mode"].cast<std::string>();
  }
  const bool host_behaviors = d.contains("host_behaviors") && d["host_behaviors"].cast<bool>();
  const std::vector<std::uint8_t> state = bytes_of(d["state"], "Simulation (unpickling)");
  std::filesystem::path file(d["world_file"].cast<std::string>());
  const std::string here = current_dir();
  if (file.is_relative() && !cwd.empty() &&
      std::filesystem::path(cwd).lexically_normal() !=
          std::filesystem::path(here).lexically_normal()) {
    file = std::filesystem::path(cwd) / file;
  }
  WorldModel model = load_or_raise([&] {
    return load_world_from_string(
        text, file.string(),
        {.seed = seed, .step_mode = step_mode_of(step_mode), .host_behaviors = host_behaviors});
  });
  auto h = build_or_raise(std::move(model), threads);
  h->source() =
      SimHandle::Source{std::move(text), file.string(), here, threads, step_mode, host_behaviors};
  Simulation& sim = h->sim();
  sim.restore(sim.snapshot_from_bytes(state, "pickled Simulation"));
  return h;
}

}  // namespace

std::shared_ptr<SimHandle> simulation_from_path(
    const std::filesystem::path& path, std::optional<std::uint64_t> seed, int threads,
    const std::optional<std::string>& step_mode, bool host_behaviors,
    std::function<void(const config::YamlDocument&)> on_document) {
  return from_path(path, seed, threads, step_mode, host_behaviors, std::move(on_document));
}

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
  c.def(py::init([](const std::filesystem::path& path, std::optional<std::uint64_t> seed,
                    int threads, const std::optional<std::string>& step_mode, bool host_behaviors) {
          return from_path(path, seed, threads, step_mode, host_behaviors);
        }),
        py::arg("path"), py::arg("seed") = py::none(), py::arg("threads") = 0,
        py::arg("step_mode") = py::none(), py::arg("host_behaviors") = false)
      .def_static("from_yaml", &from_yaml, py::arg("text"), py::arg("seed") = py::none(),
                  py::arg("threads") = 0, py::arg("base_dir") = py::none(),
                  py::arg("step_mode") = py::none(), py::arg("host_behaviors") = false)
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
      .def(
          "snapshot",
          [](const SimHandle& h) {
            const Simulation& sim = h.sim();
            return PySnapshot::of(sim.snapshot(), sim.model());
          },
          "The whole running state now, as a ubot.Snapshot.")
      .def("restore", &restore_snapshot, py::arg("snapshot"),
           "Puts a Snapshot's state back (of this simulation, or of any simulation of the same "
           "world: an unpickled one too); stepping on repeats the run from there exactly.")
      .def(
          "snapshot_from_bytes",
          [](const SimHandle& h, const py::handle& data) {
            const Simulation& sim = h.sim();
            auto bytes = std::make_shared<const std::vector<std::uint8_t>>(
                bytes_of(data, "snapshot_from_bytes"));
            PySnapshot s =
                PySnapshot::of(sim.snapshot_from_bytes(*bytes, "snapshot_from_bytes"), sim.model());
            s.bytes = std::move(bytes);
            return s;
          },
          py::arg("data"),
          "A Snapshot of this simulation's world from Snapshot.to_bytes()'s bytes (of any "
          "process); ubot.Error for bytes that are no state, damaged or of another world.")
      .def(
          "save_state",
          [](const SimHandle& h, const std::filesystem::path& path) {
            h.sim().save_state(path.string());
          },
          py::arg("path"),
          "Writes the running state to a file (snapshot().to_bytes(); written as PATH.part, then "
          "renamed).")
      .def(
          "load_state",
          [](SimHandle& h, const std::filesystem::path& path) {
            SimulationSnapshot read = h.sim().read_state(path.string());
            h.finish_recording();  // once the file is known to fit
            h.sim().restore(read);
          },
          py::arg("path"),
          "Puts back the state save_state wrote (in any process, for a simulation of the same "
          "world); ubot.Error for a missing, damaged or foreign file, the simulation untouched.")
      .def(
          "reseed", [](SimHandle& h, std::uint64_t seed) { h.sim().reseed(seed); }, py::arg("seed"),
          "Every random stream (wander goals, motion and sensor noise) becomes the one a "
          "simulation of world seed `seed` starts with; positions, outputs and the step count "
          "stay. For runs fanned out from one saved state: each draws its own noise.")
      .def(
          "_forbid_pickling",
          [](SimHandle& h, const std::string& why) { h.pickle_refusal() = why; }, py::arg("why"),
          "For layers that run part of the world in Python (ubot.irsim): pickling the simulation "
          "then raises TypeError saying `why`.")
      .def(py::pickle(&simulation_state, &simulation_from_state))
      .def("__reduce__", &reduce_with_state)
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
