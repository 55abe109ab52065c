#pragma once
// ubot._core.VectorEnv (docs/python.md, "VectorEnv"): N simulations of one shared WorldModel
// stepped together by one call, in C++ worker threads, writing observations into preallocated
// numpy arrays. python/ubot/vector_env.py wraps it in Gymnasium's conventions.
//
// Determinism: env i's episode k runs with world seed stream_seed(seed, "vector_env/<i>/<k>")
// (docs/determinism.md); envs share nothing that changes, and each writes only its own rows,
// so results do not depend on the thread count. With a start state every episode starts from
// it (episode steps and max_steps count from there) with that seed's random streams.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <tbb/task_arena.h>

#include <memory>
#include <string>
#include <vector>

#include "ubot/live/live_view.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sim/random_placement.h"
#include "ubot/sim/simulation.h"

namespace ubot::python {

struct VectorEnvOptions {
  int num_envs = 1;
  std::uint64_t seed = 0;
  int threads = 0;                // worker threads; 0 = all cores
  std::int64_t max_steps = 1000;  // truncation; <= 0: never
  std::vector<std::string> observations{"lidar", "state", "goal", "flags"};
  std::string lidar;  // each robot's lidar2d of this name; "" = its first lidar2d
  bool auto_reset = true;
  double arrive_reward = 1.0;      // added on the step a robot arrives
  double collision_penalty = 1.0;  // subtracted on the step a robot starts colliding
  // A state file's bytes (Simulation::save_state) every episode starts from instead of step 0,
  // its random streams reseeded from the episode's seed (Simulation::reseed); empty: step 0.
  std::vector<std::uint8_t> start_state;
  // Objects placed anew at the start of every episode (after the reset or the start state),
  // drawn from stream_seed(episode seed, "randomize"); unset: the world's own places.
  std::optional<PlacementSpec> randomize;
};

class VectorEnv {
 public:
  VectorEnv(std::shared_ptr<const WorldModel> model, VectorEnvOptions options);

  // Back to step 0 (with a new base seed when given); returns the observation dict.
  pybind11::dict reset(std::optional<std::uint64_t> seed);
  // Starts the next episode of every env i with mask[i] (Gymnasium's reset_mask): its episode
  // number goes up by one, as at an auto-reset. Returns the observation dict.
  pybind11::dict reset_envs(const pybind11::handle& mask);
  // One step of every env with actions of shape (num_envs, n_robots, 2); returns
  // (obs, reward, terminated, truncated, info).
  pybind11::tuple step(const pybind11::handle& actions);

  int num_envs() const { return options_.num_envs; }
  int num_robots() const { return static_cast<int>(robots_.size()); }
  int beams() const { return beams_; }
  const VectorEnvOptions& options() const { return options_; }
  const WorldModel& model() const { return *model_; }
  void set_randomize(std::optional<PlacementSpec> spec) { options_.randomize = std::move(spec); }
  const std::vector<std::string>& robot_names() const { return robot_names_; }
  // The observation arrays as a new dict (final: the final observations of ended envs).
  pybind11::dict observations(bool final = false) const;
  // The world seed of env i's current episode, and the episode's number. These three take an
  // index from Python: ValueError unless 0 <= env < num_envs.
  std::uint64_t episode_seed(int env) const;
  std::int64_t episode(int env) const { return episode_[checked_env(env, "episode")]; }
  // Steps of env i's current episode.
  std::int64_t episode_steps(int env) const {
    return envs_[checked_env(env, "episode_steps")]->world().step_count() - start_step_;
  }
  const Simulation& env(int i) const { return *envs_[i]; }
  // Per robot: its lidar's index in sensors() (empty without the lidar observation).
  const std::vector<std::size_t>& lidars() const { return lidar_; }
  // (n_robots, 2): every robot's vel_min (high: vel_max).
  pybind11::array_t<double> action_bounds(bool high) const;

  // Serves the live view (docs/live.md) of env `env` on [HOST:]PORT; returns its URL. The page
  // follows that env through its steps and resets; pausing it pauses step() for every env;
  // clients' commands drive its robots over the actions. ValueError: no such env, or already
  // serving.
  std::string serve(const std::string& address, const std::string& token, int env);
  std::optional<std::string> live_url() const;
  // Stops serving (closes the server's connections).
  void close();

 private:
  // `env` as an index, or ValueError "VectorEnv.<what>: env must be in [0, num_envs), got env".
  std::size_t checked_env(int env, const char* what) const;
  struct Buffers;  // raw pointers into the numpy arrays, for the worker threads
  void find_lidars();
  void allocate();
  void reset_env(int i);
  // Env i at the start of its current episode: step 0 of its episode seed, or the start state
  // reseeded with it.
  void start_episode(int i);
  void step_env(int i, const Buffers& b);
  void write_obs(int i, const Buffers& b, bool final_obs);
  Buffers buffers() const;
  // The live view, when serving: before a step, the served env's turn (its pace, a client's
  // pause, a client's teleop over its action; false: Ctrl-C); after a step or reset, shows it.
  bool live_turn();
  void publish_live();

  std::shared_ptr<const WorldModel> model_;
  VectorEnvOptions options_;
  std::vector<std::unique_ptr<Simulation>> envs_;
  std::optional<SimulationSnapshot> start_;  // options_.start_state, read once, shared
  std::int64_t start_step_ = 0;              // its step count (0 without one)
  std::vector<int> robots_;
  std::vector<std::string> robot_names_;
  std::vector<std::size_t> lidar_;        // per robot: its lidar's index in sensors()
  std::vector<const Lidar2d*> lidar_of_;  // [env * n_robots + robot]: that robot's lidar
  int beams_ = 0;
  std::vector<std::int64_t> episode_;
  std::vector<std::vector<Command>> commands_;  // per env, one per object
  // [0]: observation, [1]: final observation, by name; the dicts handed out are new each
  // time, so what Python does to them never changes what the workers write into.
  std::vector<std::pair<std::string, pybind11::array>> arrays_[2];
  pybind11::array_t<double> reward_;
  pybind11::array_t<bool> terminated_, truncated_, final_mask_;
  std::unique_ptr<tbb::task_arena> arena_;
  std::unique_ptr<live::LiveView> live_;
  int live_env_ = -1;  // the env the live view shows
};

void bind_vector_env(pybind11::module_& m);

}  // namespace ubot::python
