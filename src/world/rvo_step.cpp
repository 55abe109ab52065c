// How a step's RVO robots find their neighbours (a hash grid of the objects' centroids), and the
// parallel step.
//
// IR-SIM moves objects one after another in id order, and an RVO robot chooses its velocity
// from what it sees of the others: those before it have moved, those after it have not. The
// parallel step keeps exactly that, for worlds where who can see whom is bounded:
//   1. Objects whose behaviour reads only their own state (dash, none, commands, group
//      behaviours, trajectories, static or stopped objects) move first, together: what each does
//      cannot depend on the order.
//   2. RVO robots move in waves. A robot only looks at objects whose centroid lies within its
//      neighbour threshold, and in one step a centroid moves at most a bound computed from the
//      velocity limits (max_centroid_move), so two robots whose centroids start farther apart
//      than the widest threshold plus the largest move cannot see each other, before or after
//      either moves. A robot's wave is one more than that of every lower-id robot within that
//      distance: robots of one wave move together, and each sees every lower-id robot that
//      could matter to it already moved.
//   3. Reads go through rvo_centroid / rvo_neighbor_velocity, which answer for `other` what
//      the sequential step would show `reader`: after its move if other < reader and it has
//      moved (an independent object, or an RVO robot of an earlier wave), else before it. An
//      RVO robot of a lower id in the same or a later wave is far away: before and after its
//      move it lies outside the threshold, so either answer is the same.
// Worlds where this cannot be bounded (social-force robots, RVO robots on acker or noisy
// kinematics, moving open shapes) step sequentially, as do small worlds.

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "behavior.h"
#include "ubot/core/numbers.h"
#include "ubot/core/phase_clock.h"
#include "ubot/core/stop.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

// Below this many objects a step is too short for threads to pay.
constexpr std::size_t kParallelStepObjects = 256;

// The bucket of RVO's hash grid holding cell (ix, iy).
std::uint64_t grid_bucket(std::int64_t ix, std::int64_t iy, std::uint64_t mask) {
  std::uint64_t h = static_cast<std::uint64_t>(ix) * 0x9E3779B97F4A7C15ull ^
                    static_cast<std::uint64_t>(iy) * 0xC2B2AE3D27D4EB4Full;
  return (h ^ (h >> 29)) & mask;
}

std::int64_t cell_index(double v, double cell) {
  return static_cast<std::int64_t>(std::floor(v / cell));
}

}  // namespace

void World::begin_rvo_grid() {
  RvoGrid& g = rvo_grid_;
  g.active = false;
  if (!any_rvo_) return;
  const std::size_t n = size();
  g.cell = rvo_cell_;
  g.moved = 0.0;
  g.start.resize(n);
  g.always.clear();
  g.mask = std::bit_ceil(std::max<std::size_t>(2 * n, 16)) - 1;
  g.bucket_start.assign(g.mask + 2, 0);
  g.bucket_of.resize(n);
  constexpr auto kAlways = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t id = 0; id < n; ++id) {
    const WorldShape& shape = state_.shapes[id];
    const Eigen::Vector2d c = shape.circle || shape.closed
                                  ? centroid(shape)
                                  : Eigen::Vector2d(kInf, kInf);  // an open shape: always
    g.start[id] = c;
    if (!c.allFinite() || std::abs(c.x() / g.cell) > 1e15 || std::abs(c.y() / g.cell) > 1e15) {
      g.always.push_back(static_cast<int>(id));
      g.bucket_of[id] = kAlways;
    } else {
      const auto b = grid_bucket(cell_index(c.x(), g.cell), cell_index(c.y(), g.cell), g.mask);
      g.bucket_of[id] = static_cast<std::uint32_t>(b);
      ++g.bucket_start[b + 1];
    }
  }
  for (std::size_t b = 0; b + 1 < g.bucket_start.size(); ++b) {
    g.bucket_start[b + 1] += g.bucket_start[b];
  }
  g.ids.resize(n - g.always.size());
  thread_local std::vector<std::uint32_t> next;  // per bucket, its next free slot
  next.assign(g.bucket_start.begin(), g.bucket_start.end() - 1);
  for (std::size_t id = 0; id < n; ++id) {
    if (g.bucket_of[id] != kAlways) g.ids[next[g.bucket_of[id]]++] = static_cast<int>(id);
  }
  g.active = true;
}

void World::track_rvo_move(int id) {
  RvoGrid& g = rvo_grid_;
  if (!g.active) return;
  const WorldShape& shape = state_.shapes[id];
  if (!(shape.circle || shape.closed) || !g.start[id].allFinite()) return;  // always looked at
  const Eigen::Vector2d now = centroid(shape);
  const double moved = (now - g.start[id]).norm();
  if (!(moved <= g.moved)) g.moved = std::isfinite(moved) ? moved : kInf;
}

bool World::rvo_candidates(double x, double y, double radius, std::vector<int>& out) const {
  const RvoGrid& g = rvo_grid_;
  // Every centroid is within g.moved of where the step began: one within `radius` of (x, y)
  // now began within radius + moved.
  const double reach = radius + g.moved;
  if (!g.active || !std::isfinite(reach) || !std::isfinite(x) || !std::isfinite(y) ||
      std::abs(x / g.cell) > 1e15 || std::abs(y / g.cell) > 1e15) {
    return false;
  }
  // A box of more cells than there are objects: looking at every object is cheaper.
  const double side = 2.0 * reach / g.cell + 2.0;
  if (side * side > static_cast<double>(size())) return false;
  const std::size_t first = out.size();
  out.insert(out.end(), g.always.begin(), g.always.end());
  const std::int64_t lo_x = cell_index(x - reach, g.cell), hi_x = cell_index(x + reach, g.cell);
  const std::int64_t lo_y = cell_index(y - reach, g.cell), hi_y = cell_index(y + reach, g.cell);
  for (std::int64_t ix = lo_x; ix <= hi_x; ++ix) {
    for (std::int64_t iy = lo_y; iy <= hi_y; ++iy) {
      const std::uint64_t b = grid_bucket(ix, iy, g.mask);
      out.insert(out.end(), g.ids.begin() + g.bucket_start[b],
                 g.ids.begin() + g.bucket_start[b + 1]);
    }
  }
  // In id order, each once (cells of one bucket are met as often as they are asked).
  const auto begin = out.begin() + static_cast<std::ptrdiff_t>(first);
  std::sort(begin, out.end());
  out.erase(std::unique(begin, out.end()), out.end());
  return true;
}

Eigen::Vector2d World::rvo_centroid(int reader, int other) const {
  const ParallelStep& p = parallel_;
  if (!p.active || sees_moved(reader, other)) return centroid(state_.shapes[other]);
  return rvo_grid_.start[other];
}

Eigen::Vector2d World::rvo_neighbor_velocity(int reader, int other) const {
  const ParallelStep& p = parallel_;
  if (!p.active || sees_moved(reader, other)) return velocity_xy(other);
  return p.start_velocity[other];
}

bool World::sees_moved(int reader, int other) const {
  const std::vector<int>& wave = parallel_.wave;
  return other < reader && (wave[other] == kIndependent || wave[other] < wave[reader]);
}

void World::init_parallel_step() {
  // RVO robots can move in waves when each one's centroid move per step is bounded by its
  // velocity limits (max_centroid_move) and nothing they look at moves in ways the waves do not
  // know about.
  rvo_parallel_ok_ = true;
  for (std::size_t id = 0; id < size(); ++id) {
    const ObjectModel& m = model_->objects[id];
    const bool open = !m.shape.closed();
    const bool moves = !m.is_static || m.trajectory.has_value();
    if (!reads_neighbors(static_cast<int>(id))) {
      if (open && moves) rvo_parallel_ok_ = false;  // RVO reads its segments as they are now
      continue;
    }
    const KinematicsKind kind = m.kinematics.kind;
    if (open || m.kinematics.noise || !std::isfinite(m.behavior.neighbor_threshold) ||
        (kind != KinematicsKind::kDiff && kind != KinematicsKind::kOmni)) {
      rvo_parallel_ok_ = false;
    }
    max_rvo_threshold_ = std::max(max_rvo_threshold_, std::abs(m.behavior.neighbor_threshold));
  }
}

// How far RVO robot `id`'s centroid can move in this step: the clamped command (move_object)
// is either inside the step's velocity range or its upper end, so each component is at most the
// larger magnitude of the two ends; diff moves the state point by |v| dt and turns the centroid's
// offset by |w| dt, omni moves by |(vx, vy)| dt. Padded for rounding.
double World::max_centroid_move(int id) const {
  const ObjectModel& m = model_->objects[id];
  const ObjectState& s = state_.objects[id];
  const double dt = model_->world.step_time;
  double bound[2];
  for (int k = 0; k < 2; ++k) {
    const double lo = std::max(m.vel_min[k], s.velocity[k] - m.acce[k] * dt);
    const double hi = std::min(m.vel_max[k], s.velocity[k] + m.acce[k] * dt);
    bound[k] = std::max(std::abs(lo), std::abs(hi));
  }
  const Eigen::Vector2d offset =
      centroid(state_.shapes[id]) - Eigen::Vector2d(s.state[0], s.state[1]);
  const double move = m.kinematics.kind == KinematicsKind::kOmni
                          ? std::hypot(bound[0], bound[1]) * dt
                          : (bound[0] + offset.norm() * bound[1]) * dt;
  return move * (1.0 + 1e-9) + 1e-9;
}

bool World::reads_neighbors(int id) const {
  return behaviors_[id] && behaviors_[id]->reach == detail::BehaviorReach::kNeighbors;
}

bool World::behavior_reads_others(int id, std::span<const Command> commands,
                                  const std::vector<Command>& group) const {
  const ObjectModel& m = model_->objects[id];
  const bool commanded =
      (static_cast<std::size_t>(id) < commands.size() && commands[id]) || group[id].has_value();
  if (commanded || trajectories_[id] || m.is_static || state_.objects[id].stop) return false;
  return behaviors_[id] && behaviors_[id]->reach != detail::BehaviorReach::kSelf;
}

// Each RVO robot's wave: one more than that of every lower-id RVO robot whose centroid starts
// within `reach` of its own (a grid of cell `reach` over the robots' start centroids), in id
// order. The robots are then listed wave by wave.
bool World::assign_waves(const std::vector<int>& robots, double reach) {
  ParallelStep& p = parallel_;
  const RvoGrid& g = rvo_grid_;
  if (!(reach > 0.0) || !std::isfinite(reach)) return false;
  thread_local std::vector<std::uint32_t> start, bucket;
  thread_local std::vector<int> ids;
  const std::uint64_t mask = std::bit_ceil(std::max<std::size_t>(2 * robots.size(), 16)) - 1;
  start.assign(mask + 2, 0);
  bucket.resize(robots.size());
  for (std::size_t k = 0; k < robots.size(); ++k) {
    const Eigen::Vector2d& c = g.start[robots[k]];
    if (!c.allFinite() || std::abs(c.x() / reach) > 1e15 || std::abs(c.y() / reach) > 1e15) {
      return false;
    }
    bucket[k] = static_cast<std::uint32_t>(
        grid_bucket(cell_index(c.x(), reach), cell_index(c.y(), reach), mask));
  }
  // Robots are visited in id order, and a bucket lists the robots visited so far.
  std::vector<std::uint32_t>& filled = start;  // per bucket: how many are in, below
  ids.assign(robots.size(), 0);
  for (std::size_t k = 0; k < robots.size(); ++k) ++filled[bucket[k] + 1];
  for (std::size_t b = 0; b + 1 < filled.size(); ++b) filled[b + 1] += filled[b];
  thread_local std::vector<std::uint32_t> count;
  count.assign(mask + 1, 0);
  int waves = 0;
  const double reach2 = reach * reach;
  // Robots that see most of the crowd (a threshold as wide as the world) leave nothing to do
  // together, and checking every pair would cost what RVO's own search does: step sequentially.
  std::size_t budget = 64 * robots.size() + 4096;
  for (std::size_t k = 0; k < robots.size(); ++k) {
    const int id = robots[k];
    const Eigen::Vector2d& c = g.start[id];
    int wave = 0;
    const std::int64_t cx = cell_index(c.x(), reach), cy = cell_index(c.y(), reach);
    for (std::int64_t ix = cx - 1; ix <= cx + 1; ++ix) {
      for (std::int64_t iy = cy - 1; iy <= cy + 1; ++iy) {
        const std::uint64_t b = grid_bucket(ix, iy, mask);
        if (count[b] > budget) return false;
        budget -= count[b];
        for (std::uint32_t j = filled[b]; j < filled[b] + count[b]; ++j) {
          const int other = ids[j];
          if ((g.start[other] - c).squaredNorm() <= reach2) {
            wave = std::max(wave, p.wave[other] + 1);
          }
        }
      }
    }
    p.wave[id] = wave;
    waves = std::max(waves, wave + 1);
    ids[filled[bucket[k]] + count[bucket[k]]++] = id;
  }
  // Wave by wave, in id order within each (a counting sort).
  p.wave_start.assign(static_cast<std::size_t>(waves) + 1, 0);
  for (const int id : robots) ++p.wave_start[p.wave[id] + 1];
  for (int w = 0; w < waves; ++w) p.wave_start[w + 1] += p.wave_start[w];
  p.by_wave.resize(robots.size());
  thread_local std::vector<std::size_t> next;
  next.assign(p.wave_start.begin(), p.wave_start.end() - 1);
  for (const int id : robots) p.by_wave[next[p.wave[id]]++] = id;
  return true;
}

bool World::step_in_parallel(std::span<const Command> commands, const std::vector<Command>& group) {
  ParallelStep& p = parallel_;
  if (!p.run || size() < kParallelStepObjects) return false;
  const int n = static_cast<int>(size());
  // Who reads others: RVO robots go in waves; anything else (social force) steps sequentially.
  p.wave.assign(n, kIndependent);
  p.independent.clear();
  thread_local std::vector<int> robots;
  robots.clear();
  for (int id = 0; id < n; ++id) {
    if (!behavior_reads_others(id, commands, group)) {
      p.independent.push_back(id);
    } else if (reads_neighbors(id) && rvo_parallel_ok_ && rvo_grid_.active) {
      robots.push_back(id);
    } else {
      return false;
    }
  }
  // What the robots see of objects that move before them but after them in id order.
  double rvo_move = 0.0;
  for (const int id : robots) rvo_move = std::max(rvo_move, max_centroid_move(id));
  if (!robots.empty()) {
    if (!assign_waves(robots, max_rvo_threshold_ + rvo_move)) return false;
    p.start_velocity.resize(n);
    for (int id = 0; id < n; ++id) p.start_velocity[id] = velocity_xy(id);
  }
  auto command_of = [&](int id) -> const Command& {
    return static_cast<std::size_t>(id) < commands.size() && commands[id] ? commands[id]
                                                                          : group[id];
  };
  struct Active {  // also when a stop or an error cuts the step short
    bool& active;
    ~Active() { active = false; }
  } active{p.active};
  p.active = true;
  throw_if_stop_requested();
  p.run(p.independent.size(), [&](std::size_t k) {
    const int id = p.independent[k];
    move_object(id, command_of(id));
  });
  if (robots.empty()) return true;
  // The robots look for neighbours around where objects began the step, as far out as anything
  // has moved since (track_rvo_move's job in the sequential step).
  double moved = rvo_move;
  for (const int id : p.independent) {
    const WorldShape& shape = state_.shapes[id];
    if (!(shape.circle || shape.closed) || !rvo_grid_.start[id].allFinite()) continue;
    const double d = (centroid(shape) - rvo_grid_.start[id]).norm();
    if (!(d <= moved)) moved = std::isfinite(d) ? d : kInf;
  }
  rvo_grid_.moved = moved;
  const PhaseClock clock(timing_ ? &behavior_ns_ : nullptr);  // the waves: RVO's choices
  for (std::size_t w = 0; w + 1 < p.wave_start.size(); ++w) {
    throw_if_stop_requested();
    const std::size_t first = p.wave_start[w];
    p.run(p.wave_start[w + 1] - first,
          [&](std::size_t k) { move_object(p.by_wave[first + k], std::nullopt); });
  }
  return true;
}

}  // namespace ubot
