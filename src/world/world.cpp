#include "ubot/world/world.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "behavior.h"
#include "grid_collision.h"
#include "kinematics.h"
#include "ubot/core/angles.h"
#include "ubot/core/error.h"
#include "ubot/core/numbers.h"
#include "ubot/core/phase_clock.h"
#include "ubot/core/stop.h"

namespace ubot {
namespace {

// A step of a huge world (16,384 objects each avoiding every other) can take seconds: in a world
// of at least this many objects a stop request is looked at before each object moves (a relaxed
// atomic load), so that a signal ends the step within its budget. Smaller worlds always finish
// the step they are in.
constexpr int kStopPollObjects = 256;

// Beyond this many radians a heading is wrapped by remainder() rather than turn by turn.
constexpr double kFarHeading = 64.0 * kPi;

std::vector<double> random_point(RandomStream& rng, const BehaviorModel& b) {
  return {rng.uniform(b.range_low[0], b.range_high[0]),
          rng.uniform(b.range_low[1], b.range_high[1]),
          rng.uniform(b.range_low[2], b.range_high[2])};
}

// IR-SIM's WrapToRegion(theta, [-pi, pi]) applied after each move: whole turns, ends kept.
// Turns are taken off one at a time as IR-SIM does (bit for bit, for the headings a move
// makes); a heading many turns out is first brought within a turn in one IEEE remainder, so
// the wrap is O(1) (a yaw of 1e11 took 19 s for 3 steps, 1e16 never ended).
double wrap_to_region(double theta) {
  if (std::abs(theta) > kFarHeading) theta = std::remainder(theta, 2.0 * kPi);
  while (theta > kPi) theta -= 2.0 * kPi;
  while (theta < -kPi) theta += 2.0 * kPi;
  return theta;
}

// The farthest point of a body-frame shape from the body origin, padded so that rounding in the
// placed shape's coordinates never makes a rejection wrong.
double shape_reach(const ShapeModel& shape) {
  double reach = 0.0;
  if (!shape.parts.empty()) {
    for (const ShapeModel& part : shape.parts) reach = std::max(reach, shape_reach(part));
  } else if (shape.kind == ShapeKind::kCircle) {
    reach = shape.center.norm() + shape.radius;
  } else {
    for (const Eigen::Vector2d& v : shape.vertices) reach = std::max(reach, v.norm());
  }
  return reach * (1.0 + 1e-9) + 1e-9;
}

// False when an object at offset (dx, dy) from an observer lies wholly beyond `reach` (its
// field-of-view radius plus the object's reach): the cheap test before the exact one, for a
// 1000-robot world has a million pairs each step.
bool within_reach(double dx, double dy, double reach) { return dx * dx + dy * dy <= reach * reach; }

}  // namespace

// (A moved-from WorldModel keeps its seed: the argument order does not matter.)
World::World(WorldModel model)
    : World(std::make_shared<const WorldModel>(std::move(model)), model.seed) {}

World::World(std::shared_ptr<const WorldModel> shared, std::uint64_t seed)
    : model_(std::move(shared)) {
  state_.seed = seed;
  step_ns_ = seconds_to_nanos(model_->world.step_time);
  if (step_ns_ <= 0) throw Error(fmt::format("{}: step_time is too small", model_->file));
  const std::size_t n = model_->objects.size();
  state_.objects.resize(n);
  state_.shapes.resize(n);
  radius_extend_.resize(n);
  reach_.resize(n);
  tilt_.resize(n);
  trajectories_.resize(n);
  motion_tracked_.assign(n, 1);
  state_.scripted.resize(n);
  const WorldSettings& ws = model_->world;
  if (ws.fog_map) {
    state_.fog = FogMap(ws.width, ws.height, ws.fog_map_resolution.value_or(0.1), ws.offset);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const ObjectModel& m = model_->objects[i];
    if (m.id != static_cast<int>(i)) throw Error("object ids must equal their index");
    ObjectState& s = state_.objects[i];
    s.state = m.state;
    s.velocity = {m.velocity[0], m.velocity[1]};
    s.yaw_rate = m.velocity.size() > 2 ? m.velocity[2] : 0.0;
    s.goals = m.goals;
    state_.wander_rng.emplace_back(stream_seed(seed, m.name + "/wander"));
    state_.motion_rng.emplace_back(stream_seed(seed, m.name + "/kinematics"));
    // IR-SIM draws a wandering object's first goal when it is created.
    if (m.behavior.wander) s.goals = {random_point(state_.wander_rng.back(), m.behavior)};
    if (m.trajectory) {
      trajectories_[i].emplace(*m.trajectory);
      follow_trajectory(static_cast<int>(i), 0);
    }
    place_shape(m.shape, s.state[0], s.state[1], s.state[2], state_.shapes[i]);
    state_.step_motion.emplace_back(s.state[0], s.state[1], s.state[2]);
    radius_extend_[i] = m.shape.bounding_radius() + 0.1;
    reach_[i] = shape_reach(m.shape);
    max_reach_ = std::max(max_reach_, reach_[i]);
    tilt_[i] = rotation_from_rpy(m.roll, m.pitch, 0.0);
  }
  state_.groups = detail::make_group_runs(*this);
  behaviors_ = detail::object_behaviors(*this);
  // RVO's grid (begin_rvo_grid): a cell as wide as the widest neighbour threshold.
  for (std::size_t i = 0; i < size(); ++i) {
    if (!reads_neighbors(static_cast<int>(i))) continue;
    any_rvo_ = true;
    rvo_cell_ = std::max(rvo_cell_, model_->objects[i].behavior.neighbor_threshold);
  }
  rvo_cell_ = std::isfinite(rvo_cell_) && rvo_cell_ > 0.0 ? std::max(rvo_cell_, 0.5) : 1.0;
  init_parallel_step();
  if (contact_mode()) init_bodies();
}

void World::follow_trajectory(int id, Nanos t_ns) {
  const Trajectory& trajectory = *trajectories_[id];
  const double t = nanos_to_seconds(t_ns);
  ScriptedMotion& now = state_.scripted[id];
  now = {trajectory.pose(t), trajectory.velocity(t), trajectory.angular_velocity(t)};
  ObjectState& s = state_.objects[id];
  const double yaw = planar_yaw(now.pose.orientation);
  s.state = {now.pose.position.x(), now.pose.position.y(), yaw};
  // Reported like a diff drive's command: forward speed in the plane and yaw rate.
  const Eigen::Vector3d& v = now.velocity;
  s.velocity = {v.x() * std::cos(yaw) + v.y() * std::sin(yaw), now.angular_velocity.z()};
}

void World::step(std::span<const Command> commands) {
  if (model_->world.step_mode == StepMode::kExternal) {
    if (std::any_of(commands.begin(), commands.end(),
                    [](const Command& c) { return c.has_value(); })) {
      throw Error(
          fmt::format("{}: world.step_mode is external: objects are placed with set_state "
                      "and set_velocity, not commanded",
                      model_->file));
    }
    step_in_place();
    return;
  }
  std::vector<Command> group;
  {
    const PhaseClock clock(behavior_clock());
    group = detail::group_commands(*this, state_.groups);
  }
  std::vector<Eigen::Vector3d> before;
  if (contact_mode()) {
    for (const ObjectState& s : state_.objects)
      before.emplace_back(s.state[0], s.state[1], s.state[2]);
  }
  begin_rvo_grid();
  struct EndGrid {  // also when a stop cuts the step short
    RvoGrid& grid;
    ~EndGrid() { grid.active = false; }
  } end_grid{rvo_grid_};
  // Cut short, the step leaves some objects moved and the rest where they were; the run that
  // asked to stop records nothing of it (ubot/core/stop.h).
  if (!step_in_parallel(commands, group)) {
    const bool may_cut_short = size() >= kStopPollObjects;
    for (int id = 0; id < static_cast<int>(size()); ++id) {
      if (may_cut_short) throw_if_stop_requested();
      const bool external = static_cast<std::size_t>(id) < commands.size() && commands[id];
      move_object(id, external ? commands[id] : group[id]);
      track_rvo_move(id);
    }
  }
  rvo_grid_.active = false;
  if (contact_mode()) solve_contacts(before);
  ++state_.step_count;
  for (int id = 0; id < static_cast<int>(size()); ++id) check_arrival(id);
  check_collisions();
  fov_cache_.clear();
}

void World::step_in_place() {
  for (int id = 0; id < static_cast<int>(size()); ++id) {
    record_rest(id);
  }
  ++state_.step_count;
  for (int id = 0; id < static_cast<int>(size()); ++id) check_arrival(id);
  check_collisions();
  fov_cache_.clear();
}

void World::move_object(int id, const Command& command) {
  const ObjectModel& m = model_->objects[id];
  ObjectState& s = state_.objects[id];
  if (trajectories_[id]) {
    follow_trajectory(id, (state_.step_count + 1) * step_ns_);
    place_shape(m.shape, s.state[0], s.state[1], s.state[2], state_.shapes[id]);
    return;
  }
  if (m.is_static || s.stop) {
    s.velocity.setZero();
    s.yaw_rate = 0.0;
    if (s.stop) record_rest(id);
    return;
  }
  update_goals_before_move(id);
  // Velocity bounds of this step: limits narrowed by the acceleration limit (IR-SIM's
  // get_vel_range), then numpy.clip semantics (max, then min).
  const double dt = model_->world.step_time;
  detail::VelocityRange range;
  for (int k = 0; k < 2; ++k) {
    range.min[k] = std::max(m.vel_min[k], s.velocity[k] - m.acce[k] * dt);
    range.max[k] = std::min(m.vel_max[k], s.velocity[k] + m.acce[k] * dt);
  }
  Eigen::Vector2d u;
  if (command) {
    u = *command;
  } else {
    const PhaseClock clock(behavior_clock());
    u = behavior_velocity(id, range);
  }
  for (int k = 0; k < 2; ++k) u[k] = std::min(std::max(u[k], range.min[k]), range.max[k]);
  const Eigen::Vector2d applied =
      m.kinematics.noise ? detail::apply_motion_noise(m.kinematics, u, state_.motion_rng[id]) : u;
  const double x0 = s.state[0], y0 = s.state[1], yaw0 = s.state[2];
  const double yaw_rate = m.kinematics.kind == KinematicsKind::kOmniAngular
                              ? omni_angular_yaw_rate(id, command.has_value())
                              : 0.0;
  const double applied_yaw_rate =
      m.kinematics.noise ? detail::yaw_rate_noise(m.kinematics, yaw_rate, state_.motion_rng[id])
                         : yaw_rate;
  detail::integrate(m.kinematics, s.state, applied, dt, applied_yaw_rate);
  s.state[2] = wrap_to_region(s.state[2]);
  record_motion(id, x0, y0, yaw0);
  s.velocity = u;
  s.yaw_rate = yaw_rate;
  place_shape(m.shape, s.state[0], s.state[1], s.state[2], state_.shapes[id]);
}

double World::omni_angular_yaw_rate(int id, bool commanded) const {
  // The third velocity component, limited like the others (vel_min / vel_max / acce [2]).
  const ObjectModel& m = model_->objects[id];
  const ObjectState& s = state_.objects[id];
  const double dt = model_->world.step_time;
  const double low = std::max(m.vel_min[2], s.yaw_rate - m.acce[2] * dt);
  const double high = std::min(m.vel_max[2], s.yaw_rate + m.acce[2] * dt);
  // An external command has no yaw rate (Command is [forward, lateral]): it does not turn.
  const detail::BehaviorEntry* behavior = behaviors_[id];
  const double wanted =
      !commanded && behavior && behavior->yaw_rate ? behavior->yaw_rate(*this, id) : 0.0;
  return std::min(std::max(wanted, low), high);
}

Eigen::Vector2d World::behavior_velocity(int id, const detail::VelocityRange& range) {
  // Null: no behaviour, or one left to the host (LoadOptions::host_behaviors).
  const detail::BehaviorEntry* behavior = behaviors_[id];
  return behavior ? behavior->velocity(*this, id, range) : Eigen::Vector2d::Zero();
}

void World::update_goals_before_move(int id) {
  const ObjectModel& m = model_->objects[id];
  ObjectState& s = state_.objects[id];
  if (!s.arrive) return;
  if (m.behavior.wander) {
    s.goals = {random_point(state_.wander_rng[id], m.behavior)};
    s.arrive = false;
  } else if (m.behavior.loop && !m.goals.empty()) {
    if (m.goals.size() > 1) {
      s.goals = m.goals;
    } else {
      // Back and forth between the goal and the start (a shuttle, IR-SIM #263), as IR-SIM 2.12.0
      // does: in arrive_mode `state` both keep their heading (the arrival test compares it); in
      // `position` mode they are [x, y] only, so a behaviour that turns to a waypoint's heading
      // (omni_angular's dash) keeps the heading it has.
      const std::size_t keep = m.arrive_mode == ArriveMode::kState ? 3 : 2;
      s.goals = {{m.goals[0].begin(), m.goals[0].begin() + keep},
                 {m.state.begin(), m.state.begin() + keep}};
    }
    s.arrive = false;
  }
}

void World::check_arrival(int id) {
  const ObjectModel& m = model_->objects[id];
  ObjectState& s = state_.objects[id];
  if (trajectories_[id]) {
    s.arrive = nanos_to_seconds(time_ns()) >= trajectories_[id]->end_time();
    return;
  }
  if (s.goals.empty()) {
    s.arrive = false;
    return;
  }
  const std::vector<double>& g = s.goals.front();
  const double dx = s.state[0] - g[0], dy = s.state[1] - g[1];
  double squared = dx * dx + dy * dy;
  if (m.arrive_mode == ArriveMode::kState && g.size() > 2) {
    const double dt = s.state[2] - g[2];
    squared += dt * dt;
  }
  if (std::sqrt(squared) < m.goal_threshold) {
    if (s.goals.size() == 1) {
      s.arrive = true;
    } else {
      s.goals.erase(s.goals.begin());
      s.arrive = false;
    }
  } else {
    s.arrive = false;
  }
}

double World::clearance(int id) const {
  double nearest = std::numeric_limits<double>::infinity();
  for (int other = 0; other < static_cast<int>(size()); ++other) {
    if (other == id || model_->objects[other].unobstructed) continue;
    nearest = std::min(nearest, distance(state_.shapes[id], state_.shapes[other]));
  }
  return nearest;
}

void World::sort_sweep() {
  const int n = static_cast<int>(size());
  if (static_cast<int>(sweep_.size()) != n) {
    sweep_.resize(n);
    for (int id = 0; id < n; ++id) sweep_[id].id = id;
  }
  for (SweepEntry& e : sweep_) e.box = state_.shapes[e.id].box;
  auto before = [](const SweepEntry& a, const SweepEntry& b) {
    const double xa = a.box.min.x(), xb = b.box.min.x();
    return xa < xb || (xa == xb && a.id < b.id);
  };
  // Insertion sort from the last step's order: linear when the objects moved little. The first
  // step, a reset or teleports may leave it far from sorted: past a budget of moves, a full sort.
  std::size_t budget = 8 * sweep_.size() + 64;
  for (std::size_t i = 1; i < sweep_.size(); ++i) {
    if (!before(sweep_[i], sweep_[i - 1])) continue;
    const SweepEntry e = sweep_[i];
    std::size_t j = i;
    for (; j > 0 && before(e, sweep_[j - 1]) && budget > 0; --j, --budget) {
      sweep_[j] = sweep_[j - 1];
    }
    sweep_[j] = e;
    if (budget == 0) {
      std::sort(sweep_.begin(), sweep_.end(), before);
      return;
    }
  }
}

// The pairs whose shapes meet among those starting at sweep_[first, last) (sort_sweep's order).
void World::sweep_pairs(std::size_t first, std::size_t last,
                        std::vector<std::pair<int, int>>& out) const {
  for (std::size_t i = first; i < last; ++i) {
    const SweepEntry& ea = sweep_[i];
    for (std::size_t j = i + 1; j < sweep_.size(); ++j) {
      const SweepEntry& eb = sweep_[j];
      if (eb.box.min.x() > ea.box.max.x()) break;
      if (!ea.box.overlaps(eb.box)) continue;
      if (intersects(state_.shapes[ea.id], state_.shapes[eb.id])) out.emplace_back(ea.id, eb.id);
    }
  }
}

void World::check_collisions() {
  // Sweep and prune along x over the boxes in one contiguous array (sort_sweep); only pairs
  // whose boxes overlap reach the exact test. A large world sweeps in pieces on the threads
  // (set_parallel_for); each object's ids are sorted below, so the pieces' order is no matter.
  const int n = static_cast<int>(size());
  sort_sweep();
  for (ObjectState& s : state_.objects) {
    s.collision = false;
    s.collision_ids.clear();
  }
  constexpr std::size_t kPiece = 512;
  const std::size_t pieces = (sweep_.size() + kPiece - 1) / kPiece;
  std::vector<std::vector<std::pair<int, int>>>& pairs = collision_pairs_;
  pairs.resize(std::max<std::size_t>(pieces, 1));
  for (auto& p : pairs) p.clear();
  auto sweep_piece = [&](std::size_t k) {
    sweep_pairs(k * kPiece, std::min(sweep_.size(), (k + 1) * kPiece), pairs[k]);
  };
  if (parallel_.run && pieces > 1) {
    parallel_.run(pieces, sweep_piece);
  } else {
    for (std::size_t k = 0; k < pieces; ++k) sweep_piece(k);
  }
  for (const auto& piece : pairs) {
    for (const auto& [a, b] : piece) {
      // An unobstructed object is invisible to the others, but still bumps into them itself.
      if (!model_->objects[b].unobstructed) state_.objects[a].collision_ids.push_back(b);
      if (!model_->objects[a].unobstructed) state_.objects[b].collision_ids.push_back(a);
    }
  }
  const CollisionMode mode = model_->world.collision_mode;
  for (int id = 0; id < n; ++id) {
    ObjectState& s = state_.objects[id];
    std::sort(s.collision_ids.begin(), s.collision_ids.end());
    // The grid map is no object: it sets the flag without adding an id.
    s.collision = !s.collision_ids.empty() ||
                  (model_->grid && detail::touches_grid(*model_->grid, state_.shapes[id]));
    if (trajectories_[id]) {
      s.stop = false;  // a scripted object is never stopped
    } else if (mode == CollisionMode::kStop) {
      s.stop = s.collision;
    } else if (mode == CollisionMode::kUnobstructedObstacles) {
      s.stop = model_->objects[id].role == Role::kRobot && s.collision;
    }
  }
}

void World::reseed(std::uint64_t seed) {
  const World fresh(model_, seed);
  state_.seed = seed;
  state_.wander_rng = fresh.state_.wander_rng;
  state_.motion_rng = fresh.state_.motion_rng;
}

void World::teleport(int id, std::span<const double> state) {
  const ObjectModel& m = model_->objects[id];
  if (trajectories_[id]) {
    throw Error(fmt::format("{}: set_state: {} follows a trajectory, which places it", model_->file,
                            m.name));
  }
  ObjectState& s = state_.objects[id];
  if (state.size() < 2 || state.size() > s.state.size()) {
    throw Error(fmt::format("{}: set_state: {} takes 2 to {} values, got {}", model_->file, m.name,
                            s.state.size(), state.size()));
  }
  std::copy(state.begin(), state.end(), s.state.begin());
  s.state[2] = wrap_to_region(s.state[2]);
  record_rest(id);
  place_shape(m.shape, s.state[0], s.state[1], s.state[2], state_.shapes[id]);
  fov_cache_.clear();
}

void World::set_velocity(int id, const Eigen::Vector2d& velocity) {
  if (!velocity.allFinite()) {
    throw Error(fmt::format("{}: set_velocity: {}: the velocity must be finite", model_->file,
                            model_->objects[id].name));
  }
  state_.objects[id].velocity = velocity;
}

void World::set_goals(int id, std::vector<std::vector<double>> goals) {
  for (std::vector<double>& g : goals) {
    if (g.size() < 2 || g.size() > 3) {
      throw Error(
          fmt::format("{}: set_goals: {}: a waypoint has 2 or 3 values (x, y[, yaw]), got {}",
                      model_->file, model_->objects[id].name, g.size()));
    }
    g.resize(3, 0.0);
  }
  state_.objects[id].goals = std::move(goals);
  fov_cache_.clear();
}

bool World::done() const {
  bool any_robot = false;
  for (std::size_t i = 0; i < size(); ++i) {
    if (model_->objects[i].role != Role::kRobot) continue;
    any_robot = true;
    if (!state_.objects[i].done()) return false;
  }
  return any_robot;
}

Eigen::Vector2d World::velocity_xy(int id) const {
  if (trajectories_[id]) return state_.scripted[id].velocity.head<2>();
  if (contact_mode() && state_.bodies[id].dynamic) return state_.bodies[id].velocity;
  const ObjectModel& m = model_->objects[id];
  return detail::velocity_xy(m.kinematics.kind, state_.objects[id].state,
                             state_.objects[id].velocity);
}

double World::angular_velocity(int id) const {
  if (trajectories_[id]) return state_.scripted[id].angular_velocity.z();
  if (contact_mode() && state_.bodies[id].dynamic) return state_.bodies[id].spin;
  const ObjectModel& m = model_->objects[id];
  const ObjectState& s = state_.objects[id];
  switch (m.kinematics.kind) {
    case KinematicsKind::kDiff:
      return s.velocity[1];
    case KinematicsKind::kAcker:
      return s.velocity[0] * std::tan(s.state[3]) / m.kinematics.wheelbase;
    case KinematicsKind::kOmniAngular:
      return s.yaw_rate;
    case KinematicsKind::kOmni:
    case KinematicsKind::kNone:
      break;
  }
  return 0.0;
}

double World::base_z(int id) const {
  return trajectories_[id] ? state_.scripted[id].pose.position.z() : model_->objects[id].z;
}

Pose3d World::pose3d(int id) const {
  if (trajectories_[id]) return state_.scripted[id].pose;
  const ObjectModel& m = model_->objects[id];
  const std::vector<double>& s = state_.objects[id].state;
  const double half_yaw = 0.5 * s[2];
  const Eigen::Quaterniond yaw(std::cos(half_yaw), 0.0, 0.0, std::sin(half_yaw));
  return {{s[0], s[1], m.z}, yaw * tilt_[id]};
}

void World::track_motion_within_steps(const std::vector<bool>& tracked) {
  if (tracked.size() != size()) {
    throw Error(
        fmt::format("track_motion_within_steps: {} flags for {} objects", tracked.size(), size()));
  }
  for (std::size_t id = 0; id < size(); ++id) {
    const bool was = motion_tracked_[id] != 0;
    motion_tracked_[id] = tracked[id];
    if (tracked[id] && !was) record_rest(static_cast<int>(id));  // from now on
  }
}

void World::record_motion(int id, double x0, double y0, double yaw0) {
  if (!motion_tracked_[id]) return;
  const std::vector<double>& s = state_.objects[id].state;
  state_.step_motion[id] = StepMotion(x0, y0, yaw0, s[0], s[1], s[2]);
}

void World::record_rest(int id) {
  if (!motion_tracked_[id]) return;
  const std::vector<double>& s = state_.objects[id].state;
  state_.step_motion[id] = StepMotion(s[0], s[1], s[2]);
}

Pose3d World::pose3d_at(int id, Nanos t) const {
  if (trajectories_[id]) return trajectories_[id]->pose(nanos_to_seconds(t));
  if (!motion_tracked_[id]) {
    throw Error(
        fmt::format("pose3d_at: {}'s motion within steps is not tracked "
                    "(World::track_motion_within_steps)",
                    model_->objects[id].name));
  }
  const Nanos end = time_ns();
  if (t >= end) return pose3d(id);
  const Nanos start = end - step_ns_;
  const double s =
      t <= start ? 0.0 : static_cast<double>(t - start) / static_cast<double>(step_ns_);
  Eigen::Vector2d position;
  Eigen::Quaterniond yaw;
  state_.step_motion[id].at(s, position, yaw);
  return {{position.x(), position.y(), model_->objects[id].z}, yaw * tilt_[id]};
}

bool World::fov_detect_object(int observer, int other) const {
  const ObjectModel& m = model_->objects[observer];
  if (!m.fov || !m.fov_radius || observer == other) return false;
  const ObjectState& s = state_.objects[observer];
  return intersects_sector(state_.shapes[other], {s.state[0], s.state[1]}, s.state[2], *m.fov,
                           *m.fov_radius);
}

std::vector<int> World::fov_detected_objects(int observer) const {
  std::vector<int> seen;
  const ObjectModel& m = model_->objects[observer];
  if (!m.fov || !m.fov_radius) return seen;
  const double x = state_.objects[observer].state[0], y = state_.objects[observer].state[1];
  for (int other = 0; other < static_cast<int>(size()); ++other) {
    const std::vector<double>& p = state_.objects[other].state;
    if (within_reach(p[0] - x, p[1] - y, *m.fov_radius + reach_[other]) &&
        fov_detect_object(observer, other)) {
      seen.push_back(other);
    }
  }
  if (fov_sees_grid(observer)) seen.push_back(static_cast<int>(size()));
  return seen;
}

bool World::fov_sees_grid(int observer) const {
  const ObjectModel& m = model_->objects[observer];
  if (!model_->grid || !m.fov || !m.fov_radius) return false;
  const ObjectState& s = state_.objects[observer];
  return detail::sector_touches_grid(*model_->grid, {s.state[0], s.state[1]}, s.state[2], *m.fov,
                                     *m.fov_radius);
}

const std::vector<std::vector<int>>& World::FovCache::get(const World& world) const {
  const std::lock_guard lock(mutex_);
  if (!value_) value_ = world.sweep_fov_detections();
  return *value_;
}

const std::vector<std::vector<int>>& World::fov_detections() const { return fov_cache_.get(*this); }

std::vector<std::vector<int>> World::sweep_fov_detections() const {
  const int n = static_cast<int>(size());
  std::vector<std::vector<int>> seen(n);
  // A grid of rows `cell` metres high, objects sorted by (row, x): an observer looks only at the
  // rows its window [y - w, y + w] spans and, in each, at the x range [x - w, x + w], where w
  // (at most `cell`) is its radius plus the largest reach, padded so that the window never drops
  // a pair within_reach keeps. Rows come from a monotonic function of y, so no rounding can put
  // an object outside the rows searched. An object whose position is not finite is detected by
  // nobody, as in within_reach.
  auto window = [&](const ObjectModel& m) {
    return (*m.fov_radius + max_reach_) * (1.0 + 1e-9) + 1e-9;
  };
  double cell = 0.0;
  for (const ObjectModel& m : model_->objects) {
    if (m.fov && m.fov_radius) cell = std::max(cell, window(m));
  }
  if (cell == 0.0) return seen;
  auto row_of = [cell](double y) { return std::clamp(std::floor(y / cell), -1e15, 1e15); };
  struct Entry {
    double row, x, y;
    int id;
  };
  std::vector<Entry> grid;
  grid.reserve(n);
  for (int id = 0; id < n; ++id) {
    const std::vector<double>& s = state_.objects[id].state;
    if (std::isfinite(s[0]) && std::isfinite(s[1])) grid.push_back({row_of(s[1]), s[0], s[1], id});
  }
  auto key = [](const Entry& e) { return std::pair{e.row, e.x}; };
  std::ranges::sort(grid, {}, key);
  for (int observer = 0; observer < n; ++observer) {
    const ObjectModel& m = model_->objects[observer];
    if (!m.fov || !m.fov_radius) continue;
    const double x = state_.objects[observer].state[0], y = state_.objects[observer].state[1],
                 w = window(m);
    for (double row = row_of(y - w); row <= row_of(y + w); row += 1.0) {
      auto it = std::ranges::lower_bound(grid, std::pair{row, x - w}, {}, key);
      for (; it != grid.end() && it->row == row && it->x <= x + w; ++it) {
        if (within_reach(it->x - x, it->y - y, *m.fov_radius + reach_[it->id]) &&
            fov_detect_object(observer, it->id)) {
          seen[observer].push_back(it->id);
        }
      }
    }
    std::ranges::sort(seen[observer]);
    if (fov_sees_grid(observer)) seen[observer].push_back(n);
  }
  return seen;
}

}  // namespace ubot
