// Media declared in the world file: keyframe interpolation and the attached object's frame.
#include <algorithm>
#include <cmath>

#include "ubot/media/provider.h"
#include "ubot/world/world.h"

namespace ubot::media {

KeyframeState evaluate_keyframes(const MediumModel& model, double seconds) {
  KeyframeState s;
  const std::vector<MediumKeyframe>& k = model.keyframes;
  if (k.empty()) return s;
  double t = seconds;
  if (model.loop && k.size() >= 2 && t > k.back().t) {
    const double period = k.back().t - k.front().t;
    t = k.front().t + std::fmod(t - k.front().t, period);
  }
  if (t < k.front().t) {
    s.value = k.front();
    return s;
  }
  // The segment [k[i], k[i+1]) holding t; at or after the last keyframe: held.
  const auto next = std::upper_bound(k.begin(), k.end(), t,
                                     [](double v, const MediumKeyframe& f) { return v < f.t; });
  if (next == k.end()) {
    s.value = k.back();
    return s;
  }
  const MediumKeyframe& a = *(next - 1);
  const MediumKeyframe& b = *next;
  const double span = b.t - a.t;
  const double u = (t - a.t) / span;
  s.value.t = seconds;
  s.value.position_offset = a.position_offset + u * (b.position_offset - a.position_offset);
  s.value.radius_scale = a.radius_scale + u * (b.radius_scale - a.radius_scale);
  s.value.density_scale = a.density_scale + u * (b.density_scale - a.density_scale);
  s.offset_rate = (b.position_offset - a.position_offset) / span;
  return s;
}

bool DeclaredMedium::snapshot(const MediumQuery& query, MediumSnapshot& out) {
  out.name = model_.name;
  out.medium_type = model_.medium_type;
  out.active = model_.active;
  out.tint = model_.tint;
  out.source_object = model_.attach;
  if (model_.attach < 0 && model_.keyframes.empty()) {  // still smoke: the cells as declared
    out.cells.assign(model_.cells.begin(), model_.cells.end());
    return true;
  }
  const KeyframeState k = evaluate_keyframes(model_, nanos_to_seconds(query.time));
  // The medium's frame in the world: identity, or the attached object's position (its base
  // height, a trajectory's too) and heading, moving with its velocity and yaw rate.
  Eigen::Vector2d origin = Eigen::Vector2d::Zero(), v_origin = Eigen::Vector2d::Zero();
  double z0 = 0.0, yaw = 0.0, w = 0.0;
  if (model_.attach >= 0) {
    const std::vector<double>& state = query.world.object(model_.attach).state;
    origin = {state[0], state[1]};
    yaw = state[2];
    z0 = query.world.base_z(model_.attach);
    v_origin = query.world.velocity_xy(model_.attach);
    w = query.world.angular_velocity(model_.attach);
  }
  const double c = std::cos(yaw), s = std::sin(yaw);
  auto rotate = [&](const Eigen::Vector3d& p) {
    return Eigen::Vector2d(c * p.x() - s * p.y(), s * p.x() + c * p.y());
  };
  const Eigen::Vector2d drift = rotate(k.offset_rate);
  out.cells.resize(model_.cells.size());
  for (std::size_t i = 0; i < model_.cells.size(); ++i) {
    const MediumCell& cell = model_.cells[i];
    MediumCell& o = out.cells[i];
    const Eigen::Vector2d r = rotate(cell.position + k.value.position_offset);  // from origin
    o.position = {origin.x() + r.x(), origin.y() + r.y(),
                  z0 + cell.position.z() + k.value.position_offset.z()};
    // Rigid motion with the object (v + w x r) plus the keyframed drift, turned with it.
    o.velocity = {v_origin.x() - w * r.y() + drift.x(), v_origin.y() + w * r.x() + drift.y(),
                  k.offset_rate.z()};
    o.radius = cell.radius * k.value.radius_scale;
    o.density = std::clamp(cell.density * k.value.density_scale, 0.0, 1.0);
    o.edge_factor = cell.edge_factor;
  }
  return true;
}

}  // namespace ubot::media
