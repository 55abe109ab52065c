#pragma once
// World: the running state of a WorldModel (like MuJoCo's mjData next to mjModel), advanced by
// IR-SIM's step (SPEC §1):
//   0. group behaviours compute their members' commands from the world as it is;
//   1. objects move one by one in id order (a behaviour sees the objects before it already
//      moved): external command, else group command, else behaviour -> velocity and
//      acceleration limits -> kinematics;
//   2. time advances;
//   3. every object checks arrival (popping waypoints) and collisions, and sets its stop flag
//      according to the collision mode (`stop` freezes it from the next step until the overlap
//      ends).
// Sensors are not part of the world: they sample the post-move snapshot afterwards, and IMUs
// also the motion inside the step (pose3d_at; see sim/simulation.h and docs/sampling.md).
//
// 3D: every object has a full pose (pose3d). A planar object's is its state [x, y, yaw] at its
// `z`, tilted by its `roll` and `pitch`. An object with a `trajectory` is moved along it instead
// (its kinematics, behaviour, goals and stop flag do not apply); its planar state mirrors the 3D
// pose ([x, y, heading of its x axis]) so collisions, lidars and pictures work in the plane.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "ubot/config/world_model.h"
#include "ubot/core/pose3d.h"
#include "ubot/core/random.h"
#include "ubot/core/time.h"
#include "ubot/physics/contact_reading.h"
#include "ubot/world/fog_map.h"
#include "ubot/world/geometry.h"
#include "ubot/world/group_behavior.h"
#include "ubot/world/step_motion.h"
#include "ubot/world/trajectory.h"

namespace ubot {
namespace detail {
struct VelocityRange;
struct BehaviorEntry;
}  // namespace detail
namespace physics {
struct Body;
}

// What changes about one object while the world runs.
struct ObjectState {
  std::vector<double> state;                           // [x, y, yaw] (acker: + steer)
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();  // last applied command, kinematics frame
  double yaw_rate = 0.0;  // omni_angular: the command's third component (rad/s); else 0
  std::vector<std::vector<double>> goals;  // remaining waypoints, current first; may be empty
  bool arrive = false;
  bool collision = false;
  bool stop = false;
  std::vector<int> collision_ids;  // objects it overlaps after the last step
  bool done() const { return arrive || stop; }
};

// A trajectory object's current motion (world frame).
struct ScriptedMotion {
  Pose3d pose;
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();
};

// The body of an object in collision_mode: contact: its world-frame velocity, carried from step
// to step (a pushed box keeps sliding).
struct BodyMotion {
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  double spin = 0.0;
  bool dynamic = false;  // a free or driven body (its velocity is the body's, not a command's)
};

// Everything about a world that changes while it runs (MuJoCo's mjData; the WorldModel is its
// mjModel): a plain copyable value, so a snapshot is a copy and a restore an assignment
// (Simulation::snapshot). Entry i of each vector is object i's.
struct WorldState {
  std::uint64_t seed = 0;  // the world seed its streams were derived from
  std::vector<ObjectState> objects;
  std::vector<WorldShape> shapes;  // each object's shape at its current pose
  std::vector<RandomStream> wander_rng;
  std::vector<RandomStream> motion_rng;
  std::vector<ScriptedMotion> scripted;  // trajectory objects' motion now
  std::vector<StepMotion> step_motion;   // planar objects' motion during the last step
  std::vector<GroupRun> groups;          // object groups with a group behaviour, and its state
  FogMap fog;                            // `world.fog_map`: what has been seen (else empty)
  std::int64_t step_count = 0;
  // collision_mode: contact only (empty otherwise): each object's body and contact sensor.
  std::vector<BodyMotion> bodies;
  std::vector<ContactReading> contacts;
};

// Writes `state`, or reads into it (state files, core/state_io.h). Reading needs a state of the
// same model (World::state() of a world built from it): sizes fixed by the model must match,
// else an ubot::Error names what differs.
void io(StateIo& s, WorldState& state);
void io(StateIo& s, ContactReading& c);  // (a contact sensor's reading too)

// (Command, an external velocity command for one object for one step: group_behavior.h.)

class World {
 public:
  explicit World(WorldModel model);
  // A world at step 0 of a shared, immutable model, its streams derived from `seed` (a world
  // the model's seed would give, for another seed).
  World(std::shared_ptr<const WorldModel> model, std::uint64_t seed);

  const WorldModel& model() const { return *model_; }
  const std::shared_ptr<const WorldModel>& shared_model() const { return model_; }
  std::uint64_t seed() const { return state_.seed; }
  std::size_t size() const { return state_.objects.size(); }
  const ObjectModel& object_model(int id) const { return model_->objects[id]; }
  const ObjectState& object(int id) const { return state_.objects[id]; }
  // The object's shape at its current pose.
  const WorldShape& shape(int id) const { return state_.shapes[id]; }
  // Distance (m) from object `id`'s shape to the nearest other object it can collide with
  // (geometry's distance(); unobstructed objects and the grid map are left out): 0 when touching
  // or overlapping, +inf when there is no such object. The sweeps' min_clearance metric.
  double clearance(int id) const;

  // The running state, to copy out and assign back (Simulation::snapshot / restore). A state
  // assigned back must come from a world of the same model (Simulation checks that).
  const WorldState& state() const { return state_; }
  void set_state(const WorldState& state) {
    state_ = state;
    fov_cache_.clear();
  }

  // Puts object `id` at `state` (IR-SIM's set_state: [x, y, yaw], acker + steer; a shorter
  // vector keeps the remaining entries) as a jump, not a motion: its step motion rests there.
  // Throws ubot::Error for a trajectory object (its trajectory places it) or a wrong size.
  void teleport(int id, std::span<const double> state);
  // The random streams (wander goals, motion noise) become those a world of `seed` starts
  // with (its wanderers' first goals already drawn, as at construction); positions, goals and
  // everything else stay. Simulation::reseed.
  void reseed(std::uint64_t seed);
  // Sets object `id`'s velocity (IR-SIM's set_velocity; its kinematics frame: diff [v, w],
  // omni [vx, vy], acker [v, steer]) as it is, without limits: what an outside driver reports
  // (FMCW lidars measure it, velocity_xy reads it). The next internal step starts from it.
  void set_velocity(int id, const Eigen::Vector2d& velocity);
  // Replaces object `id`'s remaining waypoints (IR-SIM's set_goal); each has at least x, y
  // (a missing yaw reads 0). Throws ubot::Error for a waypoint of fewer than 2 or more than 3
  // entries.
  void set_goals(int id, std::vector<std::vector<double>> goals);

  std::int64_t step_count() const { return state_.step_count; }
  Nanos time_ns() const { return state_.step_count * step_ns_; }
  double step_time() const { return model_->world.step_time; }

  // Advances one step. `commands[id]`, when given and set, drives object `id` instead of its
  // behaviour (missing entries: behaviour). In `step_mode: external` nothing moves (see
  // step_in_place) and `commands` must hold no set command (ubot::Error). Once a stop is
  // requested (ubot/core/stop.h) a step of a world of 256 objects or more is cut short with
  // ubot::Stopped before the next object moves: the step count is unchanged, some objects have
  // moved.
  void step(std::span<const Command> commands = {});
  // IR-SIM's external step: the objects stay where set_state put them (their step motions at
  // rest), time advances, and the arrival (with the next waypoint) and collision flags are
  // those of the poses as they are.
  void step_in_place();

  // The fog of map (FogMap::enabled() false when the world has none), and its reveal after a
  // step: Simulation reveals it from the objects' lidar scans once they sampled (IR-SIM's
  // world.step after the sensors), and from fields of view.
  const FogMap& fog() const { return state_.fog; }
  FogMap& fog() { return state_.fog; }

  // IR-SIM's env.done(): every robot has arrived or is stopped (false without robots).
  bool done() const;

  // The object's contact sensor after the last step (collision_mode: contact; SPEC §9): always
  // written in that mode, empty in the others.
  const ContactReading& contact(int id) const;
  bool contact_mode() const { return model_->world.collision_mode == CollisionMode::kContact; }

  // World-frame translational velocity of an object (IR-SIM's velocity_xy; in contact mode a
  // dynamic body's own velocity).
  Eigen::Vector2d velocity_xy(int id) const;
  // Yaw rate of an object (diff: w; acker: v tan(steer) / wheelbase; omni_angular: its commanded
  // yaw rate; omni and static: 0).
  double angular_velocity(int id) const;
  // Radius of the smallest circle around the object's shape, plus IR-SIM's 0.1 m margin.
  double radius_extend(int id) const { return radius_extend_[id]; }
  // The largest distance from an object's position to a point of its shape, over all objects.
  double max_reach() const { return max_reach_; }
  // True when any part of `other`'s shape lies in `observer`'s field-of-view sector (SPEC §10).
  bool fov_detect_object(int observer, int other) const;
  // IR-SIM's get_fov_detected_objects: the ids, ascending, of every other object `observer`
  // detects (empty when it has no field of view).
  std::vector<int> fov_detected_objects(int observer) const;
  // fov_detected_objects of every object at once (entry i for object i): what the outputs
  // record each step. Swept on the first call after the state last changed (step, teleport,
  // set_goals, set_state) and kept until it next changes, so the frames line, the picture and
  // the Python module of one step share one sweep. Safe to call from several threads at once;
  // the reference lives until the next change of the state.
  const std::vector<std::vector<int>>& fov_detections() const;

  // For RVO's neighbour search (src/world/rvo.cpp), during step() only: appends to `out` the ids,
  // ascending, of every object whose shape's centroid may now lie within `radius` of (x, y),
  // and of every object without a closed shape (which RVO always looks at): a superset of those
  // that do. False (nothing appended) outside step() or in a world without RVO behaviours: then
  // every object is a candidate.
  bool rvo_candidates(double x, double y, double radius, std::vector<int>& out) const;
  // What RVO robot `reader` sees of object `other` during step(): its centroid and velocity
  // after its move when it moves first (a lower id), else before it, as in IR-SIM's sequential
  // step, also when the step moves objects in parallel (set_parallel_for).
  Eigen::Vector2d rvo_centroid(int reader, int other) const;
  Eigen::Vector2d rvo_neighbor_velocity(int reader, int other) const;

  // Lets large steps (256 objects or more) move objects on several threads: `run(n, body)`
  // calls body(i) for every i in [0, n), in any order and on any thread (Simulation's
  // parallel_for). The objects whose behaviour reads only their own state move together; then
  // the RVO robots in waves, each wave's robots too far apart to see one another this step.
  // The result is the sequential step's, bit for bit (src/world/rvo_step.cpp says why). A copy
  // of the world runs sequentially until told again.
  using ParallelFor = std::function<void(std::size_t, const std::function<void(std::size_t)>&)>;
  void set_parallel_for(ParallelFor run) { parallel_.run = std::move(run); }
  bool has_parallel_for() const { return static_cast<bool>(parallel_.run); }
  // The sweep itself, on every call (what fov_detections keeps): objects sorted into rows, then
  // by x, each observer testing only its neighbours instead of every pair.
  std::vector<std::vector<int>> sweep_fov_detections() const;
  // True when `observer`'s field of view meets an occupied cell of the grid map; the lists above
  // then end with the map's IR-SIM id, size() (it comes after every robot and obstacle).
  bool fov_sees_grid(int observer) const;

  // Full 3D pose of the object's body frame in the world.
  Pose3d pose3d(int id) const;
  // Full 3D pose at time t inside the last step, [time_ns() - step, time_ns()] (t = 0 before the
  // first step; other times are clamped to the step): a planar object moves from its pre-step
  // to its post-step pose with a constant body-frame twist (StepMotion), a trajectory object
  // follows its trajectory. Exactly pose3d(id) at time_ns(), and exactly the pre-step pose at
  // the step's start. A collision never cuts a step short (the world moves the whole step and
  // stops the object from the next one), and an object that did not move rests.
  Pose3d pose3d_at(int id, Nanos t) const;
  // Which objects pose3d_at() may be asked about inside a step (by default all; Simulation keeps
  // those carrying a sensor that samples inside steps). The others' motion within a step is not
  // made (four trig calls an object a step, a twentieth of a small world's step), and
  // pose3d_at() refuses them. Config, not state: a copy keeps it, restore() leaves it.
  void track_motion_within_steps(const std::vector<bool>& tracked);
  // The height of object `id`'s body origin: pose3d(id).position.z() without the rotation.
  double base_z(int id) const;
  // The scripted trajectory an object follows, or nullptr.
  const Trajectory* trajectory(int id) const {
    return trajectories_[id] ? &*trajectories_[id] : nullptr;
  }

  // Measuring (Simulation::set_timing): behavior_ns() is the wall time spent computing
  // behaviours' velocities (group and per object) in the steps since timing was turned on.
  void set_timing(bool on) {
    timing_ = on;
    behavior_ns_ = 0;
  }
  std::int64_t behavior_ns() const { return behavior_ns_; }

 private:
  void move_object(int id, const Command& command);
  Eigen::Vector2d behavior_velocity(int id, const detail::VelocityRange& range);
  double omni_angular_yaw_rate(int id, bool commanded) const;
  void update_goals_before_move(int id);
  void check_arrival(int id);
  void check_collisions();
  // collision_mode: contact (contact_step.cpp): the kinematic step's poses become the bodies'
  // targets, and the contact solver moves the bodies from their poses `before` the step.
  void init_bodies();
  void solve_contacts(const std::vector<Eigen::Vector3d>& before);
  void add_grid_fixtures(std::vector<physics::Body>& bodies) const;
  void follow_trajectory(int id, Nanos t);

  // Fixed for the model: the model itself and what is derived from it once.
  std::shared_ptr<const WorldModel> model_;
  std::vector<double> radius_extend_;
  // The farthest any point of the object's shape lies from its state point: objects farther
  // than this from a field of view's reach are not tested exactly.
  std::vector<double> reach_;
  double max_reach_ = 0.0;
  // Each object's fixed roll and pitch as a rotation (q_y(pitch) q_x(roll)): a planar body's
  // orientation is then q_z(yaw) times it, one sincos per pose (IMUs ask at every sample).
  std::vector<Eigen::Quaterniond> tilt_;
  std::vector<std::optional<Trajectory>> trajectories_;
  std::vector<std::uint8_t> motion_tracked_;  // per object: track_motion_within_steps()
  // Records object id's motion inside this step, from the pre-step to its current pose (at
  // rest when it did not move), if it is tracked.
  void record_motion(int id, double x0, double y0, double yaw0);
  void record_rest(int id);
  // Per object, the registry's entry for its `behavior:` (null: none, or left to the host).
  std::vector<const detail::BehaviorEntry*> behaviors_;
  // collision_mode: contact: the grid map's occupied cells merged into rectangles, each a static
  // solver fixture (shape centred on its box's centre); contact_step.cpp.
  struct GridFixture {
    ShapeModel shape;
    Aabb box;
  };
  std::vector<GridFixture> grid_fixtures_;
  Nanos step_ns_ = 0;
  // What changes.
  WorldState state_;

  // fov_detections of state_, once asked for; emptied by every member that changes state_
  // (fog() aside: the detections do not read the fog). The mutex makes the first call from
  // concurrent const readers sweep once; clearing happens only in non-const members, which (as
  // for any C++ object) must not run while a reader holds the lists. A copied world starts
  // empty (a mutex cannot be copied) and sweeps again when asked.
  class FovCache {
   public:
    FovCache() = default;
    FovCache(const FovCache&) {}
    FovCache& operator=(const FovCache&) {
      clear();
      return *this;
    }
    void clear() {
      const std::lock_guard lock(mutex_);
      value_.reset();
    }
    const std::vector<std::vector<int>>& get(const World& world) const;

   private:
    mutable std::mutex mutex_;
    mutable std::optional<std::vector<std::vector<int>>> value_;
  };
  FovCache fov_cache_;

  // During step() in a world with RVO behaviours: each object's shape centroid when the step
  // began, by cell of a hash grid, and the most any centroid has moved since, so that an RVO
  // robot looks at the objects near it rather than all (15,000 objects' centroids, 1000 RVO
  // robots: half of a fleet step). Candidates are then tested exactly as before, in id order:
  // the same neighbours, the same velocities. Inactive outside step(); a copy starts inactive.
  struct RvoGrid {
    RvoGrid() = default;
    RvoGrid(const RvoGrid&) {}
    RvoGrid& operator=(const RvoGrid&) {
      active = false;
      return *this;
    }
    bool active = false;
    double cell = 1.0;
    double moved = 0.0;
    std::vector<Eigen::Vector2d> start;
    // The cells hashed into a power of two of buckets, counting-sorted: bucket b holds
    // ids[bucket_start[b], bucket_start[b + 1]) in id order. Cells sharing a bucket only add
    // candidates, which the exact test drops.
    std::uint64_t mask = 0;
    std::vector<std::uint32_t> bucket_start, bucket_of;
    std::vector<int> ids;
    std::vector<int> always;  // open shapes, non-finite centroids
  };
  // check_collisions' sweep and prune: every object's box in order of (min x, id). Kept from
  // step to step (objects move little, so re-sorting is nearly free), but derived data: any
  // correct sort of the same boxes gives the same order, and the same collisions.
  struct SweepEntry {
    Aabb box;
    int id;
  };
  std::vector<SweepEntry> sweep_;
  std::vector<std::vector<std::pair<int, int>>> collision_pairs_;  // per piece of the sweep
  void sort_sweep();
  void sweep_pairs(std::size_t first, std::size_t last,
                   std::vector<std::pair<int, int>>& out) const;
  void begin_rvo_grid();
  void track_rvo_move(int id);
  // The parallel step (src/world/rvo_step.cpp). Per object: kIndependent, or the wave of an RVO
  // robot. Not state: derived at each parallel step's start, and not copied.
  static constexpr int kIndependent = -1;
  struct ParallelStep {
    ParallelStep() = default;
    ParallelStep(const ParallelStep&) {}
    ParallelStep& operator=(const ParallelStep&) { return *this; }
    ParallelFor run;
    bool active = false;  // during a parallel step: rvo_centroid and co. tell moved from not
    std::vector<int> wave;
    std::vector<int> independent;         // ids moved together first
    std::vector<int> by_wave;             // the RVO robots, wave by wave
    std::vector<std::size_t> wave_start;  // wave k: by_wave[wave_start[k], wave_start[k + 1])
    std::vector<Eigen::Vector2d> start_velocity;  // velocity_xy at the step's start
  };
  bool step_in_parallel(std::span<const Command> commands, const std::vector<Command>& group);
  // Whether its behaviour reads the objects within its neighbor_threshold (RVO's grid and waves).
  bool reads_neighbors(int id) const;
  bool behavior_reads_others(int id, std::span<const Command> commands,
                             const std::vector<Command>& group) const;
  bool assign_waves(const std::vector<int>& robots, double reach);
  bool sees_moved(int reader, int other) const;
  double max_centroid_move(int id) const;
  // From the model: whether RVO robots may move in waves at all, and their widest threshold.
  void init_parallel_step();
  bool rvo_parallel_ok_ = false;
  double max_rvo_threshold_ = 0.0;
  ParallelStep parallel_;
  // Wall time in behaviours while timing is on (set_timing): a measurement, not state.
  bool timing_ = false;
  std::int64_t behavior_ns_ = 0;
  // Per object in a sequential step; a parallel step times its RVO waves whole.
  std::int64_t* behavior_clock() { return timing_ && !parallel_.active ? &behavior_ns_ : nullptr; }
  bool any_rvo_ = false;  // from the model, at construction
  double rvo_cell_ = 0.0;
  RvoGrid rvo_grid_;
};

}  // namespace ubot
