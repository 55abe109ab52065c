// IR-SIM's reciprocal velocity obstacle behaviour (irsim/lib/algorithm/rvo.py and the rvo
// wrappers in behavior_methods.py), reproduced operation by operation, quirks included, so that
// trajectories agree with IR-SIM 2.12.0's:
//  - a neighbour is always [x, y, vx, vy, r] with its true radius and the reciprocal (VO: the
//    neighbour's) apex, the ego at rest too (2.12.0's _neighbour_state; up to 2.10.2 a resting
//    ego read the neighbour's vx as its radius, a bug 2.12.0's TestRestStateCones pins fixed);
//  - candidates come from numpy.arange grids (upper bound excluded), x outer, first minimum wins;
//    an empty window on an axis becomes the one clipped velocity (2.12.0's _axis_candidates);
//  - the desired velocity uses vel_max and a fixed 0.1 m goal tolerance.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "behavior.h"
#include "ubot/core/angles.h"
#include "ubot/world/world.h"

namespace ubot::detail {
namespace {

using Vec2 = Eigen::Vector2d;

struct Neighbor {
  double x, y, vx, vy, r;
};

struct Segment {
  Vec2 a, b;
};

struct Cone {
  Vec2 apex, left, right;
};

struct Ego {
  double x, y, vx, vy, r, vx_des, vy_des, theta;
};

constexpr double kGridStep = 0.05;

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - b.x() * a.y(); }

// numpy.arange(start, stop, step) for doubles, element by element as numpy fills it.
std::vector<double> arange(double start, double stop, double step) {
  const double n = std::ceil((stop - start) / step);
  std::vector<double> out;
  if (!(n > 0)) return out;
  out.resize(static_cast<std::size_t>(n));
  out[0] = start;
  if (out.size() > 1) out[1] = start + step;
  const double delta = out.size() > 1 ? out[1] - start : step;
  for (std::size_t i = 2; i < out.size(); ++i) out[i] = start + static_cast<double>(i) * delta;
  return out;
}

// Edges of the collision cone of a disc (mx, my, mr) seen from the ego disc (x, y, r).
void cone_edges(double x, double y, double r, double mx, double my, double mr, Vec2& left,
                Vec2& right) {
  double dist = std::sqrt((my - y) * (my - y) + (mx - x) * (mx - x));
  const double angle = std::atan2(my - y, mx - x);
  if (dist < r + mr) dist = r + mr;
  const double half = std::asin(std::clamp((r + mr) / dist, -1.0, 1.0));
  left = {std::cos(angle + half), std::sin(angle + half)};
  right = {std::cos(angle - half), std::sin(angle - half)};
}

Cone neighbor_cone(const Ego& e, const Neighbor& n, RvoMode mode) {
  Cone cone;
  cone_edges(e.x, e.y, e.r, n.x, n.y, n.r, cone.left, cone.right);
  const Vec2 rvo_apex((e.vx + n.vx) / 2.0, (e.vy + n.vy) / 2.0);
  const Vec2 vo_apex(n.vx, n.vy);
  if (mode == RvoMode::kRvo) {
    cone.apex = rvo_apex;
  } else if (mode == RvoMode::kVo) {
    cone.apex = vo_apex;
  } else {  // hrvo
    double dist = std::sqrt((n.y - e.y) * (n.y - e.y) + (n.x - e.x) * (n.x - e.x));
    if (dist < e.r + n.r) dist = e.r + n.r;
    const double half = std::asin(std::clamp((e.r + n.r) / dist, -1.0, 1.0));
    const double angle = std::atan2(n.y - e.y, n.x - e.x);
    const double left = angle + half, right = angle - half;
    const Vec2 centre_line(n.x - e.x, n.y - e.y);
    const Vec2 current(e.vx - rvo_apex.x(), e.vy - rvo_apex.y());
    const double dis_rv = std::hypot(rvo_apex.x() - vo_apex.x(), rvo_apex.y() - vo_apex.y());
    const double rad_rv = std::atan2(rvo_apex.y() - vo_apex.y(), rvo_apex.x() - vo_apex.x());
    double temp = kPi - 2.0 * half;
    if (temp == 0.0) temp = 0.01;
    const double dis_diff = dis_rv * std::sin(left - rad_rv) / std::sin(temp);
    const Vec2 right_dir(std::cos(right), std::sin(right));
    cone.apex = cross(centre_line, current) <= 0.0 ? Vec2(rvo_apex - dis_diff * right_dir)
                                                   : Vec2(vo_apex + dis_diff * right_dir);
  }
  return cone;
}

Cone segment_cone(const Ego& e, const Segment& s) {
  const double a1 = std::atan2(s.a.y() - e.y, s.a.x() - e.x);
  const double a2 = std::atan2(s.b.y() - e.y, s.b.x() - e.x);
  const double d1 = std::hypot(s.a.x() - e.x, s.a.y() - e.y);
  const double d2 = std::hypot(s.b.x() - e.x, s.b.y() - e.y);
  const double e1 = d1 > 1e-6 ? std::asin(std::min(1.0, e.r / std::max(d1, e.r))) : kPi / 2.0;
  const double e2 = d2 > 1e-6 ? std::asin(std::min(1.0, e.r / std::max(d2, e.r))) : kPi / 2.0;
  const double diff = std::atan2(std::sin(a2 - a1), std::cos(a2 - a1));
  const double left = diff >= 0.0 ? a2 + e2 : a1 + e1;
  const double right = diff >= 0.0 ? a1 - e1 : a2 - e2;
  return {Vec2::Zero(), {std::cos(left), std::sin(left)}, {std::cos(right), std::sin(right)}};
}

// The cones as structure-of-arrays, widest first, so that a blocked candidate is usually
// found blocked by the first cone or two. The test is cross(edge, c - apex) as in IR-SIM; the
// order of the cones does not change the answer.
class ConeSet {
 public:
  explicit ConeSet(std::vector<Cone> cones) {
    const auto width = [](const Cone& c) { return c.left.dot(c.right); };  // cos(opening)
    std::stable_sort(cones.begin(), cones.end(),
                     [&](const Cone& a, const Cone& b) { return width(a) < width(b); });
    for (const Cone& c : cones) {
      ax_.push_back(c.apex.x());
      ay_.push_back(c.apex.y());
      lx_.push_back(c.left.x());
      ly_.push_back(c.left.y());
      rx_.push_back(c.right.x());
      ry_.push_back(c.right.y());
    }
  }
  bool contains(double vx, double vy) const {
    for (std::size_t k = 0; k < ax_.size(); ++k) {
      const double px = vx - ax_[k], py = vy - ay_[k];
      if (lx_[k] * py - px * ly_[k] <= 0.0 && rx_[k] * py - px * ry_[k] >= 0.0) return true;
    }
    return false;
  }

 private:
  std::vector<double> ax_, ay_, lx_, ly_, rx_, ry_;
};

// Time until the ego disc, moving at candidate velocity c, reaches the segment.
double segment_collision_time(const Ego& e, const Segment& s, const Vec2& c) {
  const Vec2 d = s.b - s.a;
  const double len2 = d.squaredNorm();
  if (len2 < 1e-12) return 1e6;
  const double len = std::sqrt(len2);
  Vec2 normal = Vec2(-d.y(), d.x()) / len;
  const Vec2 ego(e.x, e.y);
  if (normal.dot(ego - s.a) < 0.0) normal = -normal;
  const double perpendicular = normal.dot(ego - s.a);
  const double toward = -normal.dot(c);
  if (!(toward > 1e-7)) return 1e6;
  const double tc = std::max((perpendicular - e.r) / toward, 0.0);
  const Vec2 hit = ego + c * tc;
  const double t = (hit - s.a).dot(d) / len2;
  return (-e.r / len <= t && t <= 1.0 + e.r / len) ? tc : 1e6;
}

// IR-SIM's cost of a blocked candidate: factor / (time to the first collision) + distance to
// the desired velocity, with lengths by std::hypot as numpy computes them.
double penalty(const Ego& e, const std::vector<Neighbor>& neighbors,
               const std::vector<Segment>& segments, const Vec2& c, double factor) {
  const auto length = [](double x, double y) { return std::hypot(x, y); };
  const Vec2 des(e.vx_des, e.vy_des);
  if (neighbors.empty() && segments.empty()) return length(c.x() - des.x(), c.y() - des.y());
  double tc_min = std::numeric_limits<double>::infinity();
  for (const Neighbor& n : neighbors) {
    const double dist = length(n.x - e.x, n.y - e.y);
    const double gap = dist * dist - (e.r + n.r) * (e.r + n.r);
    const double relative = length(2.0 * c.x() - e.vx - n.vx, 2.0 * c.y() - e.vy - n.vy);
    tc_min = std::min(tc_min, std::sqrt(std::max(gap, 0.0)) / (relative + 1e-7));
  }
  for (const Segment& s : segments) tc_min = std::min(tc_min, segment_collision_time(e, s, c));
  if (tc_min == 0.0) tc_min = 1e-4;
  return factor * (1.0 / tc_min) + length(c.x() - des.x(), c.y() - des.y());
}

double exact_length(double x, double y) { return std::hypot(x, y); }
double fast_length(double x, double y) { return std::sqrt(x * x + y * y); }

// An approximation of penalty() (within a few ulps) for scoring many candidates: the
// candidate-independent parts are computed once, and neighbours are visited in order of a
// lower bound on their collision time, stopping once no further one can be smaller.
class FastPenalty {
 public:
  FastPenalty(const Ego& e, const std::vector<Neighbor>& neighbors,
              const std::vector<Segment>& segments, double factor, double max_speed)
      : e_(e), segments_(segments), factor_(factor) {
    for (const Neighbor& nb : neighbors) {
      const double dist = fast_length(nb.x - e.x, nb.y - e.y);
      Term t;
      t.gap = std::sqrt(std::max(dist * dist - (e.r + nb.r) * (e.r + nb.r), 0.0));
      t.sum_vx = e.vx + nb.vx;
      t.sum_vy = e.vy + nb.vy;
      // |2c - (v + v_n)| <= 2 |c| + |v + v_n| for every candidate c.
      t.bound = t.gap / (2.0 * max_speed + fast_length(t.sum_vx, t.sum_vy) + 1e-7);
      terms_.push_back(t);
    }
    std::sort(terms_.begin(), terms_.end(),
              [](const Term& a, const Term& b) { return a.bound < b.bound; });
  }
  double operator()(const Vec2& c) const {
    const double des = fast_length(c.x() - e_.vx_des, c.y() - e_.vy_des);
    if (terms_.empty() && segments_.empty()) return des;
    double tc_min = std::numeric_limits<double>::infinity();
    for (const Term& t : terms_) {
      if (t.bound * (1.0 - 1e-12) > tc_min) break;
      const double rel = fast_length(2.0 * c.x() - t.sum_vx, 2.0 * c.y() - t.sum_vy);
      tc_min = std::min(tc_min, t.gap / (rel + 1e-7));
    }
    for (const Segment& s : segments_) tc_min = std::min(tc_min, segment_collision_time(e_, s, c));
    if (tc_min == 0.0) tc_min = 1e-4;
    return factor_ * (1.0 / tc_min) + des;
  }

 private:
  struct Term {
    double gap, sum_vx, sum_vy, bound;
  };
  const Ego& e_;
  const std::vector<Segment>& segments_;
  double factor_;
  std::vector<Term> terms_;
};

// numpy.argmin over candidates of an expensive exact score, found with a cheap approximate
// score first: only candidates whose approximate score is within a relative 1e-9 of the best
// one (far wider than the few ulps the two differ by) are scored exactly, in candidate order,
// so the first exact minimum wins as in numpy.
template <typename Approx, typename Exact>
std::optional<std::size_t> argmin(std::size_t count, Approx approx, Exact exact) {
  std::vector<double> scores(count);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    scores[i] = approx(i);
    best = std::min(best, scores[i]);
  }
  if (!(best < std::numeric_limits<double>::infinity())) return std::nullopt;
  const double window = best + std::abs(best) * 1e-9 + 1e-300;
  std::optional<std::size_t> chosen;
  double chosen_score = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    if (scores[i] > window) continue;
    const double score = exact(i);
    if (score < chosen_score) {
      chosen_score = score;
      chosen = i;
    }
  }
  return chosen;
}

// Largest candidate speed on the grid.
double max_speed(const std::vector<double>& vxs, const std::vector<double>& vys) {
  double mx = 0.0, my = 0.0;
  for (double v : vxs) mx = std::max(mx, std::abs(v));
  for (double v : vys) my = std::max(my, std::abs(v));
  return std::sqrt(mx * mx + my * my);
}

// IR-SIM 2.12.0's _axis_candidates: the arange window [current - acce, current + acce] within
// [-vmax, vmax]; when the current velocity lies more than acce outside the limits (an initial
// or set velocity above them) the window is empty, and the clipped velocity is the one candidate
// (2.10.2's min() over no candidates raised there; ubot kept the current velocity).
std::vector<double> axis_candidates(double current, double acce, double vmax) {
  const double low = std::max(current - acce, -vmax), high = std::min(current + acce, vmax);
  if (high <= low) return {std::clamp(current, -vmax, vmax)};
  return arange(low, high, kGridStep);
}

Vec2 select_velocity(const Ego& e, const std::vector<Neighbor>& neighbors,
                     const std::vector<Segment>& segments, const std::vector<Cone>& cones,
                     const BehaviorModel& b) {
  const std::vector<double> vxs = axis_candidates(e.vx, b.acce, b.vxmax);
  const std::vector<double> vys = axis_candidates(e.vy, b.acce, b.vymax);
  // Candidates in numpy's order (vx outer), split into free and blocked ones.
  const ConeSet set(cones);
  std::vector<Vec2> free, blocked;
  for (const double vx : vxs) {
    for (const double vy : vys) (set.contains(vx, vy) ? blocked : free).emplace_back(vx, vy);
  }
  const Vec2 des(e.vx_des, e.vy_des);
  if (!free.empty()) {
    // The free candidate nearest the desired velocity.
    const auto i = argmin(
        free.size(),
        [&](std::size_t k) { return fast_length(free[k].x() - des.x(), free[k].y() - des.y()); },
        [&](std::size_t k) { return exact_length(free[k].x() - des.x(), free[k].y() - des.y()); });
    return free[*i];
  }
  // Every candidate is inside some cone: the least penalised one.
  const auto i = argmin(
      blocked.size(),
      [&, fast = FastPenalty(e, neighbors, segments, b.factor, max_speed(vxs, vys))](
          std::size_t k) { return fast(blocked[k]); },
      [&](std::size_t k) { return penalty(e, neighbors, segments, blocked[k], b.factor); });
  return i ? blocked[*i] : Vec2(e.vx, e.vy);
}

}  // namespace

// `polygon_edges`: a static polygon's edges (the closing one too) as line obstacles, those that
// come within `threshold` of the robot (a polygon's far side adds nothing a near edge does not
// bar already). A compound shape gives its polygon parts' edges (not its hull's).
void add_near_edges(const Ego& e, const WorldShape& shape, double threshold,
                    std::vector<Segment>& segments) {
  if (!shape.parts.empty()) {
    for (const WorldShape& part : shape.parts) add_near_edges(e, part, threshold, segments);
    return;
  }
  if (shape.circle) return;
  const std::size_t n = shape.vertices.size();
  const Vec2 p(e.x, e.y);
  for (std::size_t k = 0; k < n && n >= 2; ++k) {
    const Vec2& a = shape.vertices[k];
    const Vec2& b = shape.vertices[(k + 1) % n];
    if (point_segment_distance(p, a, b) < threshold) segments.push_back({a, b});
  }
}

Eigen::Vector2d rvo_velocity(const World& world, int id) {
  const ObjectModel& m = world.object_model(id);
  const ObjectState& s = world.object(id);
  const BehaviorModel& b = m.behavior;
  const Vec2 v = world.velocity_xy(id);
  const Vec2 des = desired_omni_velocity(world, id);
  Ego e{s.state[0], s.state[1], v.x(),     v.y(), world.radius_extend(id),
        des.x(),    des.y(),    s.state[2]};

  std::vector<Neighbor> neighbors;
  std::vector<Segment> segments;
  const double threshold2 = b.neighbor_threshold * b.neighbor_threshold;
  // The objects that may be within the threshold (World::rvo_candidates: a grid, during a step),
  // in id order, else all: either way each is tested below as before.
  thread_local std::vector<int> candidates;
  candidates.clear();
  // A static polygon's edges count while any of it may be within the threshold.
  const double query = std::abs(b.neighbor_threshold) + (b.polygon_edges ? world.max_reach() : 0.0);
  const bool near_only = world.rvo_candidates(e.x, e.y, query, candidates);
  const int count =
      near_only ? static_cast<int>(candidates.size()) : static_cast<int>(world.size());
  for (int k = 0; k < count; ++k) {
    const int other = near_only ? candidates[k] : k;
    if (other == id || !is_target(b.target_roles, world.object_model(other).role)) continue;
    const WorldShape& shape = world.shape(other);
    if (!shape.circle && !shape.closed) {
      for (std::size_t k = 0; k + 1 < shape.vertices.size(); ++k) {
        segments.push_back({shape.vertices[k], shape.vertices[k + 1]});
      }
      continue;
    }
    if (b.polygon_edges && !shape.circle && world.object_model(other).is_static) {
      add_near_edges(e, shape, b.neighbor_threshold, segments);
      continue;
    }
    // As IR-SIM's sequential step shows it to this robot (World::rvo_centroid).
    const Vec2 c = world.rvo_centroid(id, other);
    if ((e.x - c.x()) * (e.x - c.x()) + (e.y - c.y()) * (e.y - c.y()) < threshold2) {
      const Vec2 nv = world.rvo_neighbor_velocity(id, other);
      neighbors.push_back({c.x(), c.y(), nv.x(), nv.y(), world.radius_extend(other)});
    }
  }
  std::vector<Cone> cones;
  for (const Neighbor& n : neighbors) cones.push_back(neighbor_cone(e, n, b.mode));
  for (const Segment& sg : segments) cones.push_back(segment_cone(e, sg));

  const Vec2 chosen = select_velocity(e, neighbors, segments, cones, b);
  if (m.kinematics.kind == KinematicsKind::kOmni) {
    // RVO chooses a world-frame velocity; omni kinematics take [forward, lateral].
    return world_to_body(e.theta, chosen);
  }
  Vec2 diff = omni_to_diff(e.theta, chosen, 1.5, 0.2, 0.1);
  if (diff.isZero(0.0) && neighbors.empty() && segments.empty()) {
    // Nothing around and nothing chosen: turn towards the goal on the spot.
    diff = omni_to_diff(e.theta, Vec2(e.vx_des, e.vy_des), 1.5, 0.2, 0.1);
    diff.x() = 0.0;
  }
  return diff;
}

}  // namespace ubot::detail
