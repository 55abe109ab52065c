// The social force model's three terms, in IR-SIM's operation order (see social_force.h).
#include "ubot/world/social_force.h"

#include <algorithm>
#include <cmath>

namespace ubot::sfm {
namespace {

using Vec2 = Eigen::Vector2d;

// Anisotropic repulsion of one neighbour (Moussaïd et al. 2009): along and across the
// interaction direction t = lambda (v - v_n) + d_hat, decaying with the gap over B = gamma |t|.
// Returns false for a neighbour that exerts nothing (coincident, out of range, t = 0).
bool neighbor_force(const Agent& a, const Neighbor& n, const BehaviorModel::Sfm& p, Vec2& f) {
  const double dx = n.position.x() - a.position.x(), dy = n.position.y() - a.position.y();
  const double dist = std::sqrt(dx * dx + dy * dy);
  if (dist < 1e-6 || dist > p.neighbor_threshold) return false;
  const double dhx = dx / dist, dhy = dy / dist;
  const double vdx = a.velocity.x() - n.velocity.x(), vdy = a.velocity.y() - n.velocity.y();
  const double tx = p.lambda_importance * vdx + dhx, ty = p.lambda_importance * vdy + dhy;
  const double t_norm = std::sqrt(tx * tx + ty * ty);
  if (t_norm < 1e-9) return false;
  const double thx = tx / t_norm, thy = ty / t_norm;
  const double b = p.gamma * t_norm;
  const double theta = std::atan2(thx * dhy - thy * dhx, thx * dhx + thy * dhy);
  // The decay starts at the surface of the two safety bubbles, not at the centres.
  const double gap = std::max(dist - 2.0 * p.safety_radius, 0.0);
  const double kv = p.n_velocity * b * theta, ka = p.n_angular * b * theta;
  const double f_v = -std::exp(-gap / b - kv * kv);
  const double sign = theta > 0.0 ? 1.0 : (theta < 0.0 ? -1.0 : 0.0);
  const double f_a = -sign * std::exp(-gap / b - ka * ka);
  // Across: the left normal of t_hat.
  f = {f_v * thx + f_a * -thy, f_v * thy + f_a * thx};
  return true;
}

Vec2 closest_point(const Vec2& q, const Segment& s) {
  const double dx = s.b.x() - s.a.x(), dy = s.b.y() - s.a.y();
  const double l2 = dx * dx + dy * dy;
  if (l2 < 1e-12) return s.a;
  double t = ((q.x() - s.a.x()) * dx + (q.y() - s.a.y()) * dy) / l2;
  t = std::max(0.0, std::min(1.0, t));
  return {s.a.x() + t * dx, s.a.y() + t * dy};
}

Vec2 social_force(const Agent& a, std::span<const Neighbor> neighbors,
                  const BehaviorModel::Sfm& p) {
  const double threshold2 = std::pow(p.neighbor_threshold, 2.0);
  double fx = 0.0, fy = 0.0;
  for (const Neighbor& n : neighbors) {
    // IR-SIM filters by squared distance first, then social_force by distance again.
    const double ex = a.position.x() - n.position.x(), ey = a.position.y() - n.position.y();
    if (!(std::pow(ex, 2.0) + std::pow(ey, 2.0) < threshold2)) continue;
    Vec2 f;
    if (!neighbor_force(a, n, p, f)) continue;
    fx += f.x();
    fy += f.y();
  }
  return {fx, fy};
}

// Every wall within 5 sigma (plus the agent's radius) pushes, exp(-clearance / sigma), away from
// its closest point (Helbing & Molnár 1995), so symmetric walls cancel.
Vec2 obstacle_force(const Agent& a, std::span<const Segment> walls, const BehaviorModel::Sfm& p) {
  if (walls.empty()) return Vec2::Zero();
  const double cutoff = 5.0 * p.sigma_obstacle + a.radius;
  double fx = 0.0, fy = 0.0;
  for (const Segment& s : walls) {
    const Vec2 c = closest_point(a.position, s);
    const double dx = a.position.x() - c.x(), dy = a.position.y() - c.y();
    const double dist_center = std::sqrt(dx * dx + dy * dy);
    if (dist_center > cutoff) continue;
    if (dist_center < 1e-9) {  // on the wall: no direction to push in; IR-SIM pushes along +x
      fx += 1.0;
      continue;
    }
    const double amount = std::exp(-std::max(dist_center - a.radius, 0.0) / p.sigma_obstacle);
    fx += amount * dx / dist_center;
    fy += amount * dy / dist_center;
  }
  return {fx, fy};
}

}  // namespace

Forces forces(const Agent& agent, std::span<const Neighbor> neighbors,
              std::span<const Segment> walls, const BehaviorModel::Sfm& p) {
  const Vec2 desired((agent.desired_velocity.x() - agent.velocity.x()) / p.relaxation_time,
                     (agent.desired_velocity.y() - agent.velocity.y()) / p.relaxation_time);
  return {desired, social_force(agent, neighbors, p), obstacle_force(agent, walls, p)};
}

Eigen::Vector2d next_velocity(const Agent& agent, std::span<const Neighbor> neighbors,
                              std::span<const Segment> walls, const BehaviorModel::Sfm& p,
                              double dt) {
  const Forces f = forces(agent, neighbors, walls, p);
  const double ax = p.force_factor_desired * f.desired.x() + p.force_factor_social * f.social.x() +
                    p.force_factor_obstacle * f.obstacle.x();
  const double ay = p.force_factor_desired * f.desired.y() + p.force_factor_social * f.social.y() +
                    p.force_factor_obstacle * f.obstacle.y();
  double vx = agent.velocity.x() + dt * ax, vy = agent.velocity.y() + dt * ay;
  const double speed = std::sqrt(vx * vx + vy * vy);
  if (speed > p.vmax && speed > 1e-9) {
    const double scale = p.vmax / speed;
    vx *= scale;
    vy *= scale;
  }
  return {vx, vy};
}

}  // namespace ubot::sfm
