#include "sim_handle.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <functional>

#include "errors.h"
#include "interrupt.h"
#include "ubot/core/error.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// Clears the busy flag however the step ends.
class BusyGuard {
 public:
  explicit BusyGuard(std::atomic<bool>& busy) : busy_(busy) {
    if (busy_.exchange(true)) throw Error("the simulation is stepping on another thread");
  }
  ~BusyGuard() { busy_ = false; }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  std::atomic<bool>& busy_;
};

}  // namespace

Eigen::Vector2d finite_pair(double a, double b, const std::string& what) {
  if (!std::isfinite(a) || !std::isfinite(b)) {
    throw_value_error(fmt::format("step: the command of {} is not finite: [{}, {}]", what, a, b));
  }
  return {a, b};
}

py::array readonly_view(const py::dtype& dtype, std::vector<py::ssize_t> shape, const void* data,
                        const py::handle& base) {
  py::array a(dtype, std::move(shape), {}, data, base);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

SimHandle::SimHandle(WorldModel model, int threads)
    : sim_(std::make_unique<Simulation>(std::make_shared<const WorldModel>(std::move(model)),
                                        SimulationOptions{.threads = threads})) {
  for (const ObjectModel& o : sim_->world().model().objects) ids_.emplace(o.name, o.id);
  commands_.resize(sim_->world().size());
}

SimHandle::~SimHandle() = default;

Simulation& SimHandle::sim() {
  return const_cast<Simulation&>(static_cast<const SimHandle*>(this)->sim());
}

const Simulation& SimHandle::sim() const {
  if (closed_) throw Error("the simulation is closed");
  // Another Python thread steps it (the GIL is released meanwhile), or a medium provider asks
  // from inside the step: its state is changing.
  if (busy_) throw Error("the simulation is in the middle of a step");
  return *sim_;
}

void SimHandle::close() {
  if (closed_) return;
  if (busy_) throw Error("close: the simulation is stepping on another thread");
  closed_ = true;
  {
    std::vector<std::unique_ptr<Sink>> sinks = std::move(sinks_);
    for (const auto& sink : sinks) sink->on_finish(*sim_);
  }
  finish_recording();
  live_.reset();  // after its sink: the server closes its connections and stops listening
}

int SimHandle::object_id(const py::handle& name_or_id) const {
  const int n = static_cast<int>(sim().world().size());
  if (py::isinstance<py::str>(name_or_id)) {
    const std::string name = name_or_id.cast<std::string>();
    const auto it = ids_.find(name);
    if (it == ids_.end()) throw_value_error(fmt::format("no object named {}", quote_value(name)));
    return it->second;
  }
  if (py::isinstance<py::int_>(name_or_id) && !py::isinstance<py::bool_>(name_or_id)) {
    // An int beyond long long is no id either (pybind11 would raise a RuntimeError).
    const auto id = py::reinterpret_borrow<py::int_>(name_or_id);
    if (id < py::int_(0) || id >= py::int_(n)) {
      throw_value_error(fmt::format("no object with id {} (the world has {})",
                                    std::string(py::str(name_or_id)), n));
    }
    return id.cast<int>();
  }
  throw py::type_error("an object is named by its name (str) or id (int)");
}

std::size_t SimHandle::sensor_index(int id, const std::string& name) const {
  const auto& sensors = sim().sensors();
  for (std::size_t i = 0; i < sensors.size(); ++i) {
    if (sensors[i]->object_id() == id && sensors[i]->model().common.name == name) return i;
  }
  throw_value_error(fmt::format("{} has no sensor named {}",
                                quote_value(sim().world().object_model(id).name),
                                quote_value(name)));
}

void SimHandle::parse_commands(const py::handle& commands) {
  std::fill(commands_.begin(), commands_.end(), Command{});
  if (py::isinstance<py::dict>(commands)) {
    parse_command_dict(py::reinterpret_borrow<py::dict>(commands));
  } else {
    parse_command_array(commands);
  }
}

void SimHandle::parse_command_dict(const py::dict& commands) {
  for (const auto& [key, value] : commands) {
    const int id = object_id(key);
    if (value.is_none()) continue;
    const auto v = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!v || v.ndim() != 1 || v.shape(0) != 2) {
      throw_value_error(fmt::format("step: the command of {} must be 2 numbers or None",
                                    sim().world().object_model(id).name));
    }
    commands_[id] = finite_pair(v.at(0), v.at(1), sim().world().object_model(id).name);
  }
}

void SimHandle::parse_command_array(const py::handle& commands) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(commands);
  const World& world = sim().world();
  std::size_t robots = 0;
  while (robots < world.size() &&
         world.object_model(static_cast<int>(robots)).role == Role::kRobot) {
    ++robots;
  }
  if (!a || a.ndim() != 2 || a.shape(0) != static_cast<py::ssize_t>(robots) || a.shape(1) != 2) {
    const std::string got = a ? fmt::format("an array of shape {}",
                                            py::str(py::tuple(a.attr("shape"))).cast<std::string>())
                              : std::string(py::str(py::type::of(commands).attr("__name__")));
    throw_value_error(fmt::format(
        "step: commands are None, a dict {{name: [a, b]}} or an array of shape ({}, 2), got {}",
        robots, got));
  }
  const auto r = a.unchecked<2>();
  for (std::size_t i = 0; i < robots; ++i) {
    const auto row = static_cast<py::ssize_t>(i);
    commands_[i] = finite_pair(r(row, 0), r(row, 1), world.object_model(static_cast<int>(i)).name);
  }
}

void SimHandle::run_steps(std::int64_t n, bool with_commands) {
  BusyGuard guard(busy_);
  py::gil_scoped_release release;
  const std::span<const Command> own =
      with_commands ? std::span<const Command>(commands_) : std::span<const Command>{};
  for (std::int64_t k = 0; k < n; ++k) {
    std::span<const Command> commands = own;
    if (live_) {
      PendingSignal signal;
      const auto turn = live_->turn(*sim_, std::ref(signal), own);
      if (!turn || signal.raised()) {
        py::gil_scoped_acquire gil;
        throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals raised
      }
      commands = *turn;
    }
    sim_->step(commands);
    // Sinks only read the simulation (no Python inside).
    for (const auto& sink : sinks_) sink->on_step(*sim_, {.step = sim_->world().step_count()});
    for (const auto& sink : recording_sinks_) {
      sink->on_step(*sim_, {.step = sim_->world().step_count()});
    }
  }
}

void SimHandle::step(const py::handle& commands) {
  sim();  // closed?
  const bool with_commands = !commands.is_none();
  if (with_commands) parse_commands(commands);
  run_steps(1, with_commands);
}

double SimHandle::bench_step(std::int64_t n) {
  sim();
  if (n < 0) throw_value_error("_bench_step: n must not be negative");
  const auto start = std::chrono::steady_clock::now();
  run_steps(n, false);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void SimHandle::reset(std::optional<std::uint64_t> seed) {
  const std::uint64_t s = seed.value_or(sim().world().seed());
  finish_recording();
  BusyGuard guard(busy_);
  sim_->reset(s);
}

std::string SimHandle::serve(const std::string& address, const std::string& token) {
  sim();
  if (live_) throw Error(fmt::format("serve: already serving at {}", live_->url()));
  live::LiveServerOptions options;
  options.address = live::parse_live_address(address, "serve");
  options.token = token;
  options.origin = "serve";
  // speed 0: the Python loop sets the pace; the view shows each step it takes.
  live_ = std::make_unique<live::LiveView>(*sim_, std::move(options), 0.0);
  add_sink(live::live_sink(*live_));
  return live_->url();
}

std::optional<std::string> SimHandle::live_url() const {
  if (!live_) return std::nullopt;
  return live_->url();
}

void SimHandle::add_sink(std::unique_ptr<Sink> sink) {
  sim();
  sink->on_start(*sim_);
  sinks_.push_back(std::move(sink));
}

void SimHandle::add_recording_sink(std::unique_ptr<Sink> sink) {
  sim();
  sink->on_start(*sim_);
  recording_sinks_.push_back(std::move(sink));
}

void SimHandle::finish_recording() {
  std::vector<std::unique_ptr<Sink>> sinks = std::move(recording_sinks_);
  recording_sinks_.clear();
  recording_.reset();
  for (const auto& sink : sinks) sink->on_finish(*sim_);
}

}  // namespace ubot::python
