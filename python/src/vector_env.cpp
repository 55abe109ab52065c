#include "vector_env.h"

#include <fmt/format.h>
#include <pybind11/stl.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <cstdlib>
#include <span>

#include "errors.h"
#include "interrupt.h"
#include "placement.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/core/random.h"
#include "ubot/sensors/lidar2d/lidar2d.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

constexpr const char* kObservationNames[] = {"lidar", "state", "goal", "flags", "velocity"};

bool wants(const VectorEnvOptions& o, const char* name) {
  return std::find(o.observations.begin(), o.observations.end(), name) != o.observations.end();
}

void check_options(const VectorEnvOptions& o) {
  if (o.num_envs < 1) throw_value_error("VectorEnv: num_envs must be at least 1");
  checked_threads(o.threads, "VectorEnv");
  for (const std::string& name : o.observations) {
    if (std::find_if(std::begin(kObservationNames), std::end(kObservationNames),
                     [&](const char* k) { return name == k; }) == std::end(kObservationNames)) {
      throw_value_error(fmt::format(
          "VectorEnv: unknown observation {} (known: lidar, state, goal, flags, velocity)",
          quote_value(name)));
    }
  }
}

// Per-robot data of one env before its step, for the reward.
struct Before {
  bool has_goal = false;
  double gx = 0, gy = 0, distance = 0;
  bool arrive = false, collision = false;
};

}  // namespace

struct VectorEnv::Buffers {
  // [0]: the observation, [1]: the final observation of envs that ended this step.
  float* lidar[2] = {nullptr, nullptr};
  float* state[2] = {nullptr, nullptr};
  float* goal[2] = {nullptr, nullptr};
  bool* flags[2] = {nullptr, nullptr};
  float* velocity[2] = {nullptr, nullptr};
  double* reward = nullptr;
  bool* terminated = nullptr;
  bool* truncated = nullptr;
  bool* final_mask = nullptr;
};

VectorEnv::VectorEnv(std::shared_ptr<const WorldModel> model, VectorEnvOptions options)
    : model_(std::move(model)), options_(std::move(options)) {
  check_options(options_);
  for (const ObjectModel& o : model_->objects) {
    if (o.role != Role::kRobot) continue;
    robots_.push_back(o.id);
    robot_names_.push_back(o.name);
  }
  if (robots_.empty())
    throw Error(fmt::format("{}: VectorEnv needs a world with robots", model_->file));
  // Before any copy is built: a count the machine cannot hold is an error, not an OOM kill.
  check_memory_for_copies(*model_, static_cast<std::uint64_t>(options_.num_envs), "VectorEnv");
  episode_.assign(static_cast<std::size_t>(options_.num_envs), 0);
  for (int i = 0; i < options_.num_envs; ++i) {
    throw_if_stop_requested();  // Ctrl-C from Python (interrupt.h)
    envs_.push_back(std::make_unique<Simulation>(model_, SimulationOptions{.threads = 1}));
    if (i == 0 && !options_.start_state.empty()) {
      // Read once (every env shares the model object, so one snapshot restores into each).
      start_ = envs_[0]->snapshot_from_bytes(options_.start_state, "VectorEnv start_state");
      start_step_ = start_->step_count();
    }
    start_episode(i);
    commands_.emplace_back(model_->objects.size());
  }
  find_lidars();
  allocate();
  // A copy, not a reference to the static member (which libtbb does not define).
  int concurrency = tbb::task_arena::automatic;
  if (options_.threads > 0) concurrency = options_.threads;
  arena_ = std::make_unique<tbb::task_arena>(concurrency);
}

std::size_t VectorEnv::checked_env(int env, const char* what) const {
  if (env < 0 || env >= options_.num_envs) {
    throw_value_error(
        fmt::format("VectorEnv.{}: env must be in [0, {}), got {}", what, options_.num_envs, env));
  }
  return static_cast<std::size_t>(env);
}

std::uint64_t VectorEnv::episode_seed(int env) const {
  // Found by fuzz_python: an index out of range read past episode_ (a segfault from Python).
  const std::size_t i = checked_env(env, "episode_seed");
  return stream_seed(options_.seed, fmt::format("vector_env/{}/{}", env, episode_[i]));
}

void VectorEnv::find_lidars() {
  if (!wants(options_, "lidar")) return;
  const auto& sensors = envs_[0]->sensors();
  for (std::size_t r = 0; r < robots_.size(); ++r) {
    std::optional<std::size_t> found;
    for (std::size_t s = 0; s < sensors.size() && !found; ++s) {
      const Sensor& sensor = *sensors[s];
      if (sensor.object_id() != robots_[r] || !sensor_if<Lidar2d>(sensor)) continue;
      if (options_.lidar.empty() || sensor.model().common.name == options_.lidar) found = s;
    }
    if (!found) {
      throw_value_error(fmt::format(
          "VectorEnv: robot {} has no lidar2d{} (the 'lidar' observation needs one per robot)",
          robot_names_[r], options_.lidar.empty() ? "" : " named '" + options_.lidar + "'"));
    }
    const int beams = sensor_if<Lidar2d>(*sensors[*found])->params().number;
    if (!lidar_.empty() && beams != beams_) {
      throw_value_error("VectorEnv: the robots' lidars have different beam counts");
    }
    beams_ = beams;
    lidar_.push_back(*found);
  }
  // Every env's lidars, found once: the sensors stay the same objects through reset (a
  // dynamic_cast per robot per env-step was a measurable share of a small world's step).
  for (const auto& env : envs_) {
    for (const std::size_t s : lidar_) lidar_of_.push_back(sensor_if<Lidar2d>(*env->sensors()[s]));
  }
}

void VectorEnv::allocate() {
  const py::ssize_t n = options_.num_envs, r = num_robots();
  auto both = [&](const char* name, py::array a, py::array f) {
    arrays_[0].emplace_back(name, a);
    arrays_[1].emplace_back(name, f);
  };
  if (wants(options_, "lidar")) {
    both("lidar", py::array_t<float>({n, r, py::ssize_t{beams_}}),
         py::array_t<float>({n, r, py::ssize_t{beams_}}));
  }
  if (wants(options_, "state"))
    both("state", py::array_t<float>({n, r, py::ssize_t{3}}),
         py::array_t<float>({n, r, py::ssize_t{3}}));
  if (wants(options_, "goal"))
    both("goal", py::array_t<float>({n, r, py::ssize_t{3}}),
         py::array_t<float>({n, r, py::ssize_t{3}}));
  if (wants(options_, "flags"))
    both("flags", py::array_t<bool>({n, r, py::ssize_t{3}}),
         py::array_t<bool>({n, r, py::ssize_t{3}}));
  if (wants(options_, "velocity"))
    both("velocity", py::array_t<float>({n, r, py::ssize_t{2}}),
         py::array_t<float>({n, r, py::ssize_t{2}}));
  for (auto& [name, a] : arrays_[1]) {
    std::memset(a.mutable_data(), 0, static_cast<std::size_t>(a.nbytes()));
  }
  reward_ = py::array_t<double>(n);
  terminated_ = py::array_t<bool>(n);
  truncated_ = py::array_t<bool>(n);
  final_mask_ = py::array_t<bool>(n);
}

VectorEnv::Buffers VectorEnv::buffers() const {
  Buffers b;
  for (int k = 0; k < 2; ++k) {
    for (const auto& [name, array] : arrays_[k]) {
      void* p = const_cast<void*>(array.data());
      if (name == "lidar") b.lidar[k] = static_cast<float*>(p);
      if (name == "state") b.state[k] = static_cast<float*>(p);
      if (name == "goal") b.goal[k] = static_cast<float*>(p);
      if (name == "flags") b.flags[k] = static_cast<bool*>(p);
      if (name == "velocity") b.velocity[k] = static_cast<float*>(p);
    }
  }
  b.reward = const_cast<double*>(reward_.data());
  b.terminated = const_cast<bool*>(terminated_.data());
  b.truncated = const_cast<bool*>(truncated_.data());
  b.final_mask = const_cast<bool*>(final_mask_.data());
  return b;
}

void VectorEnv::write_obs(int i, const Buffers& b, bool final_obs) {
  const int k = final_obs ? 1 : 0;
  const Simulation& sim = *envs_[i];
  const World& w = sim.world();
  const std::size_t robots = robots_.size();
  for (std::size_t r = 0; r < robots; ++r) {
    const std::size_t row = static_cast<std::size_t>(i) * robots + r;
    const ObjectState& s = w.object(robots_[r]);
    if (b.lidar[k]) {
      const Lidar2d& lidar = *lidar_of_[row];
      const auto& ranges = lidar.scan().ranges;
      float* out = b.lidar[k] + row * static_cast<std::size_t>(beams_);
      if (ranges.empty()) {  // before the first sample: nothing seen, as far as it reaches
        std::fill(out, out + beams_, static_cast<float>(lidar.params().range_max));
      } else {
        for (int j = 0; j < beams_; ++j)
          out[j] = static_cast<float>(ranges[static_cast<std::size_t>(j)]);
      }
    }
    if (b.state[k]) {
      for (int j = 0; j < 3; ++j) b.state[k][row * 3 + j] = static_cast<float>(s.state[j]);
    }
    if (b.goal[k]) {
      const std::vector<double>& g = s.goals.empty() ? s.state : s.goals.front();
      for (int j = 0; j < 3; ++j) {  // a shuttle's [x, y] waypoint has the robot's heading
        b.goal[k][row * 3 + j] =
            static_cast<float>(j < static_cast<int>(g.size()) ? g[j] : s.state[j]);
      }
    }
    if (b.flags[k]) {
      b.flags[k][row * 3 + 0] = s.arrive;
      b.flags[k][row * 3 + 1] = s.collision;
      b.flags[k][row * 3 + 2] = s.stop;
    }
    if (b.velocity[k]) {
      b.velocity[k][row * 2 + 0] = static_cast<float>(s.velocity.x());
      b.velocity[k][row * 2 + 1] = static_cast<float>(s.velocity.y());
    }
  }
}

void VectorEnv::reset_env(int i) {
  ++episode_[i];
  start_episode(i);
}

void VectorEnv::start_episode(int i) {
  const std::uint64_t seed = episode_seed(i);
  if (!start_) {
    envs_[i]->reset(seed);
  } else {
    envs_[i]->restore(*start_);
    envs_[i]->reseed(seed);
  }
  if (options_.randomize) {
    place_or_raise(*envs_[i], *options_.randomize, stream_seed(seed, "randomize"),
                   fmt::format("VectorEnv: env {} episode {}: ", i, episode_[i]));
  }
}

void VectorEnv::step_env(int i, const Buffers& b) {
  Simulation& sim = *envs_[i];
  const World& w = sim.world();
  constexpr std::size_t kStackRobots = 64;
  Before stack[kStackRobots];
  std::vector<Before> heap;
  Before* before = stack;
  if (robots_.size() > kStackRobots) {
    heap.resize(robots_.size());
    before = heap.data();
  }
  for (std::size_t r = 0; r < robots_.size(); ++r) {
    const ObjectState& s = w.object(robots_[r]);
    Before& p = before[r];
    p = {};
    p.arrive = s.arrive;
    p.collision = s.collision;
    if (!s.goals.empty()) {
      p.has_goal = true;
      p.gx = s.goals.front()[0];
      p.gy = s.goals.front()[1];
      p.distance = std::hypot(s.state[0] - p.gx, s.state[1] - p.gy);
    }
  }
  sim.step(commands_[i]);
  double reward = 0.0;
  bool collided = false;
  for (std::size_t r = 0; r < robots_.size(); ++r) {
    const ObjectState& s = w.object(robots_[r]);
    const Before& p = before[r];
    if (p.has_goal) reward += p.distance - std::hypot(s.state[0] - p.gx, s.state[1] - p.gy);
    if (s.arrive && !p.arrive) reward += options_.arrive_reward;
    if (s.collision && !p.collision) reward -= options_.collision_penalty;
    collided = collided || s.collision;
  }
  const bool terminated = w.done() || collided;
  const bool truncated =
      !terminated && options_.max_steps > 0 && w.step_count() - start_step_ >= options_.max_steps;
  b.reward[i] = reward;
  b.terminated[i] = terminated;
  b.truncated[i] = truncated;
  b.final_mask[i] = false;
  if ((terminated || truncated) && options_.auto_reset) {
    write_obs(i, b, true);
    b.final_mask[i] = true;
    reset_env(i);
  }
  write_obs(i, b, false);
}

py::array_t<double> VectorEnv::action_bounds(bool high) const {
  const auto r = static_cast<py::ssize_t>(robots_.size());
  py::array_t<double> out({r, py::ssize_t{2}});
  auto w = out.mutable_unchecked<2>();
  for (py::ssize_t k = 0; k < r; ++k) {
    const ObjectModel& o =
        model_->objects[static_cast<std::size_t>(robots_[static_cast<std::size_t>(k)])];
    const std::vector<double>& v = high ? o.vel_max : o.vel_min;
    w(k, 0) = v[0];
    w(k, 1) = v[1];
  }
  return out;
}

py::dict VectorEnv::reset(std::optional<std::uint64_t> seed) {
  if (seed) options_.seed = *seed;
  std::fill(episode_.begin(), episode_.end(), 0);
  const Buffers b = buffers();
  {
    py::gil_scoped_release release;
    arena_->execute([&] {
      tbb::parallel_for(0, options_.num_envs, [&](int i) {
        start_episode(i);
        write_obs(i, b, false);
      });
    });
    publish_live();
  }
  return observations();
}

py::dict VectorEnv::reset_envs(const py::handle& mask) {
  const auto m = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
  if (!m || m.ndim() != 1 || m.shape(0) != options_.num_envs) {
    throw_value_error(
        fmt::format("VectorEnv.reset: reset_mask must have shape ({},)", options_.num_envs));
  }
  const bool* chosen = m.data();
  const Buffers b = buffers();
  {
    py::gil_scoped_release release;
    arena_->execute([&] {
      tbb::parallel_for(0, options_.num_envs, [&](int i) {
        if (!chosen[i]) return;
        reset_env(i);
        write_obs(i, b, false);
      });
    });
    publish_live();
  }
  return observations();
}

std::string VectorEnv::serve(const std::string& address, const std::string& token, int env) {
  checked_env(env, "serve");
  if (live_) throw_value_error(fmt::format("VectorEnv.serve: already serving at {}", live_->url()));
  live::LiveServerOptions options;
  options.address = live::parse_live_address(address, "VectorEnv.serve");
  options.token = token;
  options.origin = "VectorEnv.serve";
  // speed 0: the training loop sets the pace; the view shows each step it takes.
  live_ = std::make_unique<live::LiveView>(*envs_[env], std::move(options), 0.0);
  live_env_ = env;
  publish_live();
  return live_->url();
}

std::optional<std::string> VectorEnv::live_url() const {
  if (!live_) return std::nullopt;
  return live_->url();
}

void VectorEnv::close() {
  if (!live_) return;
  live_->finish();
  live_.reset();
  live_env_ = -1;
}

bool VectorEnv::live_turn() {
  PendingSignal signal;
  py::gil_scoped_release release;
  auto& own = commands_[live_env_];
  const auto turn = live_->turn(*envs_[live_env_], std::ref(signal), own);
  if (!turn || signal.raised()) return false;
  if (turn->data() != own.data()) std::copy(turn->begin(), turn->end(), own.begin());
  return true;
}

void VectorEnv::publish_live() {
  if (live_) live_->publish(*envs_[live_env_]);
}

py::dict VectorEnv::observations(bool final) const {
  py::dict out;
  for (const auto& [name, array] : arrays_[final ? 1 : 0]) out[name.c_str()] = array;
  return out;
}

py::tuple VectorEnv::step(const py::handle& actions) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(actions);
  const py::ssize_t n = options_.num_envs, r = num_robots();
  if (!a || a.ndim() != 3 || a.shape(0) != n || a.shape(1) != r || a.shape(2) != 2) {
    throw_value_error(fmt::format("VectorEnv.step: actions must have shape ({}, {}, 2)", n, r));
  }
  const double* v = a.data();
  for (py::ssize_t k = 0; k < a.size(); ++k) {
    if (!std::isfinite(v[k])) throw_value_error("VectorEnv.step: actions must be finite");
  }
  const Buffers b = buffers();
  const auto set_actions = [&](int i) {
    for (std::size_t k = 0; k < robots_.size(); ++k) {
      const double* u = v + (static_cast<std::size_t>(i) * robots_.size() + k) * 2;
      commands_[i][robots_[k]] = Eigen::Vector2d(u[0], u[1]);
    }
  };
  if (live_) {  // the watched copy's turn: pace, pause, and a client's teleop over the action
    set_actions(live_env_);
    if (!live_turn()) throw py::error_already_set();  // KeyboardInterrupt
  }
  {
    py::gil_scoped_release release;
    arena_->execute([&] {
      tbb::parallel_for(tbb::blocked_range<int>(0, options_.num_envs),
                        [&](const tbb::blocked_range<int>& range) {
                          for (int i = range.begin(); i != range.end(); ++i) {
                            if (i != live_env_) set_actions(i);
                            step_env(i, b);
                          }
                        });
    });
    publish_live();
  }
  py::dict info;
  const bool* mask = final_mask_.data();
  if (std::any_of(mask, mask + n, [](bool m) { return m; })) {
    info["final_observation"] = observations(true);
    info["_final_observation"] = final_mask_;
  }
  return py::make_tuple(observations(), reward_, terminated_, truncated_, info);
}

void bind_vector_env(py::module_& m) {
  py::class_<VectorEnv>(m, "_VectorEnv", "The C++ core of ubot.VectorEnv (docs/python.md).")
      .def(py::init([](const std::string& world, int num_envs, std::uint64_t seed, int threads,
                       std::int64_t max_steps, std::vector<std::string> observations,
                       std::string lidar, bool auto_reset, double arrive_reward,
                       double collision_penalty, const py::bytes& start_state) {
             // Loading and building 10^5 copies take seconds: Ctrl-C stops them (interrupt.h).
             return interruptible([&] {
               std::shared_ptr<const WorldModel> model;
               try {
                 model = std::make_shared<const WorldModel>(
                     load_world(world, {.progress = stop_point}));
               } catch (const Error& e) {
                 throw WorldLoadError{e};
               }
               const std::string_view state = start_state;
               return std::make_unique<VectorEnv>(
                   model, VectorEnvOptions{
                              num_envs, seed, threads, max_steps, std::move(observations),
                              std::move(lidar), auto_reset, arrive_reward, collision_penalty,
                              std::vector<std::uint8_t>(state.begin(), state.end()), std::nullopt});
             });
           }),
           py::arg("world"), py::arg("num_envs"), py::arg("seed") = 0, py::arg("threads") = 0,
           py::arg("max_steps") = 1000,
           py::arg("observations") = std::vector<std::string>{"lidar", "state", "goal", "flags"},
           py::arg("lidar") = "", py::arg("auto_reset") = true, py::arg("arrive_reward") = 1.0,
           py::arg("collision_penalty") = 1.0, py::arg("start_state") = py::bytes())
      .def("reset", &VectorEnv::reset, py::arg("seed") = py::none())
      .def(
          "set_randomize",
          [](VectorEnv& v, const std::optional<py::dict>& spec) {
            v.set_randomize(spec ? std::optional(placement_spec(v.model(), *spec)) : std::nullopt);
          },
          py::arg("spec"),
          "Objects placed anew at every later episode start (a spec checked by "
          "ubot._learning.resets.check_randomize), or None: the world's own places.")
      .def_property_readonly("object_names",
                             [](const VectorEnv& v) {
                               std::vector<std::string> names;
                               for (const ObjectModel& o : v.model().objects)
                                 names.push_back(o.name);
                               return names;
                             })
      .def_property_readonly("world_size",
                             [](const VectorEnv& v) {
                               const WorldSettings& w = v.model().world;
                               return std::vector<double>{w.offset.x(), w.offset.x() + w.width,
                                                          w.offset.y(), w.offset.y() + w.height};
                             })
      .def("reset_envs", &VectorEnv::reset_envs, py::arg("mask"))
      .def("step", &VectorEnv::step, py::arg("actions"))
      .def_property_readonly("num_envs", &VectorEnv::num_envs)
      .def_property_readonly("num_robots", &VectorEnv::num_robots)
      .def_property_readonly("beams", &VectorEnv::beams)
      .def_property_readonly("robot_names", &VectorEnv::robot_names)
      .def_property_readonly("max_steps", [](const VectorEnv& e) { return e.options().max_steps; })
      .def_property_readonly("observations", [](const VectorEnv& e) { return e.observations(); })
      .def_property_readonly("seed", [](const VectorEnv& e) { return e.options().seed; })
      .def(
          "serve",
          [](VectorEnv& e, const std::string& address, std::optional<std::string> token, int env) {
            const char* from_env = std::getenv("UBOT_LIVE_TOKEN");
            return e.serve(address, token.value_or(from_env ? from_env : ""), env);
          },
          py::arg("address") = "127.0.0.1:8765", py::arg("token") = py::none(), py::arg("env") = 0,
          "Serve the live view of env `env` on [HOST:]PORT (docs/live.md); returns its URL.")
      .def_property_readonly("live_url", &VectorEnv::live_url)
      .def("close", &VectorEnv::close)
      .def("episode_seed", &VectorEnv::episode_seed, py::arg("env"))
      .def("episode", &VectorEnv::episode, py::arg("env"))
      .def("episode_steps", &VectorEnv::episode_steps, py::arg("env"))
      .def_property_readonly(
          "action_low", [](const VectorEnv& e) { return e.action_bounds(false); },
          "(n_robots, 2) each robot's vel_min (the bound of its actions).")
      .def_property_readonly(
          "action_high", [](const VectorEnv& e) { return e.action_bounds(true); },
          "(n_robots, 2) each robot's vel_max.")
      .def_property_readonly(
          "lidar_range_max",
          [](const VectorEnv& e) {
            std::vector<double> out;
            for (std::size_t s : e.lidars()) {
              out.push_back(sensor_if<Lidar2d>(*e.env(0).sensors()[s])->params().range_max);
            }
            return out;
          },
          "Per robot: range_max of its lidar (the bound of the lidar observation).");
}

}  // namespace ubot::python
