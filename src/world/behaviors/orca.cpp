// ORCA after van den Berg et al. 2011 (see ubot/world/orca.h): RVO2's step, agent by agent.
#include "ubot/world/orca.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace ubot::orca {
namespace {

using Vec2 = Eigen::Vector2d;

// Below this a determinant counts as zero (parallel lines), as RVO2's RVO_EPSILON.
constexpr double kEpsilon = 1e-5;

double det(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Optimises along line `k` within the disc and the lines before it (RVO2's linearProgram1).
// `direction`: maximise along `opt` instead of approaching the point `opt`.
bool solve_on_line(std::span<const Line> lines, std::size_t k, double radius, const Vec2& opt,
                   bool direction, Vec2& result) {
  const Line& line = lines[k];
  const double dot = line.point.dot(line.direction);
  const double discriminant = dot * dot + radius * radius - line.point.squaredNorm();
  if (discriminant < 0.0) return false;  // the disc misses the line
  const double root = std::sqrt(discriminant);
  double t_left = -dot - root, t_right = -dot + root;
  for (std::size_t i = 0; i < k; ++i) {
    const double denominator = det(line.direction, lines[i].direction);
    const double numerator = det(lines[i].direction, line.point - lines[i].point);
    if (std::abs(denominator) <= kEpsilon) {
      if (numerator < 0.0) return false;  // parallel and wholly outside line i
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0) {
      t_right = std::min(t_right, t);
    } else {
      t_left = std::max(t_left, t);
    }
    if (t_left > t_right) return false;
  }
  if (direction) {
    result = line.point + (opt.dot(line.direction) > 0.0 ? t_right : t_left) * line.direction;
  } else {
    const double t = line.direction.dot(opt - line.point);
    result = line.point + std::clamp(t, t_left, t_right) * line.direction;
  }
  return true;
}

// RVO2's linearProgram2: incremental 2D LP. Returns lines.size() on success, else the index of
// the line that could not be satisfied (result then holds the best before it).
std::size_t solve_2d(std::span<const Line> lines, double radius, const Vec2& opt, bool direction,
                     Vec2& result) {
  if (direction) {
    result = opt * radius;  // opt is a unit direction
  } else if (opt.squaredNorm() > radius * radius) {
    result = opt.normalized() * radius;
  } else {
    result = opt;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (det(lines[i].direction, lines[i].point - result) > 0.0) {  // result violates line i
      const Vec2 before = result;
      if (!solve_on_line(lines, i, radius, opt, direction, result)) {
        result = before;
        return i;
      }
    }
  }
  return lines.size();
}

// RVO2's linearProgram3: the velocity minimising the largest penetration of the soft lines
// (from `first_failed` on), keeping the first `hard` lines, by a 2D LP on projected lines.
void solve_3d(std::span<const Line> lines, std::size_t hard, std::size_t first_failed,
              double radius, Vec2& result) {
  double distance = 0.0;
  for (std::size_t i = first_failed; i < lines.size(); ++i) {
    if (!(det(lines[i].direction, lines[i].point - result) > distance)) continue;
    std::vector<Line> projected(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard));
    for (std::size_t j = hard; j < i; ++j) {
      Line line;
      const double determinant = det(lines[i].direction, lines[j].direction);
      if (std::abs(determinant) <= kEpsilon) {
        if (lines[i].direction.dot(lines[j].direction) > 0.0) continue;  // same direction
        line.point = 0.5 * (lines[i].point + lines[j].point);            // opposite
      } else {
        line.point = lines[i].point +
                     (det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                         lines[i].direction;
      }
      line.direction = (lines[j].direction - lines[i].direction).normalized();
      projected.push_back(line);
    }
    const Vec2 before = result;
    const Vec2 inward(-lines[i].direction.y(), lines[i].direction.x());
    if (solve_2d(projected, radius, inward, true, result) < projected.size()) {
      result = before;  // only rounding can fail here: keep the previous answer
    }
    distance = det(lines[i].direction, lines[i].point - result);
  }
}

}  // namespace

std::vector<int> neighbors(std::span<const Agent> agents, int i) {
  const Agent& a = agents[static_cast<std::size_t>(i)];
  std::vector<std::pair<double, int>> found;
  if (a.max_neighbors <= 0) return {};
  double range2 = a.neighbor_dist * a.neighbor_dist;
  const auto max = static_cast<std::size_t>(a.max_neighbors);
  for (int j = 0; j < static_cast<int>(agents.size()); ++j) {
    if (j == i) continue;
    const double d2 = (a.position - agents[static_cast<std::size_t>(j)].position).squaredNorm();
    if (!(d2 < range2)) continue;
    // Insertion into the sorted list; once full, only nearer agents get in.
    if (found.size() < max) found.emplace_back(d2, j);
    std::size_t k = found.size() - 1;
    while (k != 0 && d2 < found[k - 1].first) {
      found[k] = found[k - 1];
      --k;
    }
    found[k] = {d2, j};
    if (found.size() == max) range2 = found.back().first;
  }
  std::vector<int> ids;
  for (const auto& f : found) ids.push_back(f.second);
  return ids;
}

std::optional<Line> orca_line(const Agent& a, const Agent& b, double time_step) {
  const Vec2 rel_position = b.position - a.position;
  const Vec2 rel_velocity = a.velocity - b.velocity;
  const double dist2 = rel_position.squaredNorm();
  const double combined = a.radius + b.radius;
  const double combined2 = combined * combined;
  Line line;
  Vec2 u;
  if (dist2 > combined2) {
    // Apart: the velocity obstacle is a cone truncated by a disc at 1 / timeHorizon.
    const double inv_horizon = 1.0 / a.time_horizon;
    const Vec2 w = rel_velocity - inv_horizon * rel_position;  // from the cut-off centre
    const double w2 = w.squaredNorm();
    const double dot1 = w.dot(rel_position);
    if (dot1 < 0.0 && dot1 * dot1 > combined2 * w2) {
      // Nearest boundary point is on the cut-off circle.
      const double w_length = std::sqrt(w2);
      const Vec2 unit_w = w / w_length;
      line.direction = {unit_w.y(), -unit_w.x()};
      u = (combined * inv_horizon - w_length) * unit_w;
    } else {
      // Nearest boundary point is on a leg of the cone.
      const double leg = std::sqrt(dist2 - combined2);
      if (det(rel_position, w) > 0.0) {  // left leg
        line.direction = Vec2(rel_position.x() * leg - rel_position.y() * combined,
                              rel_position.x() * combined + rel_position.y() * leg) /
                         dist2;
      } else {  // right leg
        line.direction = -Vec2(rel_position.x() * leg + rel_position.y() * combined,
                               -rel_position.x() * combined + rel_position.y() * leg) /
                         dist2;
      }
      u = rel_velocity.dot(line.direction) * line.direction - rel_velocity;
    }
  } else {
    // Already overlapping: get apart within this one step.
    const double inv_step = 1.0 / time_step;
    const Vec2 w = rel_velocity - inv_step * rel_position;
    const double w_length = w.norm();
    // Coincident with equal velocities: no direction to part in (RVO2 divides by zero here and
    // its agents' velocities become NaN). Leave the pair unconstrained instead.
    if (!(w_length > 0.0)) return std::nullopt;
    const Vec2 unit_w = w / w_length;
    line.direction = {unit_w.y(), -unit_w.x()};
    u = (combined * inv_step - w_length) * unit_w;
  }
  // Each agent takes half of the change: reciprocity.
  line.point = a.velocity + 0.5 * u;
  return line;
}

Eigen::Vector2d solve(std::span<const Line> lines, std::size_t hard_lines, double max_speed,
                      const Eigen::Vector2d& preferred) {
  Vec2 result;
  const std::size_t failed = solve_2d(lines, max_speed, preferred, false, result);
  if (failed < lines.size()) solve_3d(lines, hard_lines, failed, max_speed, result);
  return result;
}

std::vector<Eigen::Vector2d> new_velocities(std::span<const Agent> agents, double time_step) {
  std::vector<Eigen::Vector2d> out;
  out.reserve(agents.size());
  std::vector<Line> lines;
  for (int i = 0; i < static_cast<int>(agents.size()); ++i) {
    const Agent& a = agents[static_cast<std::size_t>(i)];
    lines.clear();
    for (const int j : neighbors(agents, i)) {
      if (auto line = orca_line(a, agents[static_cast<std::size_t>(j)], time_step)) {
        lines.push_back(*line);
      }
    }
    out.push_back(solve(lines, 0, a.max_speed, a.pref_velocity));
  }
  return out;
}

}  // namespace ubot::orca
