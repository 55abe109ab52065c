#include "ubot/sensors/lidar3d/lidar3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ubot/core/angles.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Pose3d mount_pose(const Lidar3dModel& p) { return {p.offset, rotation_from_rpy(p.rpy)}; }

}  // namespace

Lidar3d::Lidar3d(const SensorModel& model, const ObjectModel& owner, int index,
                 std::uint64_t world_seed)
    : Sensor(model, owner, index, world_seed),
      params_(std::get<Lidar3dModel>(model.params)),
      mount_(mount_pose(params_)),
      elevations_(params_.vertical_angles),
      azimuths_(scan_angles(params_.angle_range, params_.number)) {
  const double period = 1.0 / params_.rotation_rate_hz;
  for (double a : azimuths_) {
    column_times_.push_back((a - azimuths_.front()) / (2.0 * kPi) * period);
    cos_az_.push_back(std::cos(a));
    sin_az_.push_back(std::sin(a));
  }
  for (double e : elevations_) {
    cos_el_.push_back(std::cos(e));
    sin_el_.push_back(std::sin(e));
  }
  const std::size_t n = channels() * columns();
  column_origin_.resize(columns());
  column_rotation_.resize(columns());
  rays_.resize(n);
  hits_.resize(n);
  media_distance_.resize(n);
  media_cell_.resize(n);
}

void Lidar3d::observe(const World& world, Nanos t) {
  if (!params_.motion_distortion) return;
  history_.emplace_back(t, compose(world.pose3d(object_id()), mount_));
  // Keep the poses the next sweep can need: those after its start and the one before.
  const Nanos keep_after = t - seconds_to_nanos(sweep_duration()) - 1;
  while (history_.size() > 2 && history_[1].first <= keep_after) history_.pop_front();
}

Pose3d Lidar3d::pose_at(Nanos t, const Pose3d& now) const {
  if (history_.empty() || t >= history_.back().first) return now;
  if (t <= history_.front().first) return history_.front().second;  // still before the start
  const auto after = std::lower_bound(history_.begin(), history_.end(), t,
                                      [](const auto& e, Nanos x) { return e.first < x; });
  const auto before = after - 1;
  const double u =
      static_cast<double>(t - before->first) / static_cast<double>(after->first - before->first);
  const Pose3d& a = before->second;
  const Pose3d& b = after->second;
  return {a.position + u * (b.position - a.position), a.orientation.slerp(u, b.orientation)};
}

SampleStatus Lidar3d::measure(const SensorContext& ctx) {
  place_columns(ctx);
  build_rays();
  ctx.scene_3d().cast(rays_, object_id(), hits_);
  cut_by_media(ctx);
  fill_points(ctx);
  return SampleStatus::kValid;
}

void Lidar3d::place_columns(const SensorContext& ctx) {
  const Pose3d now = compose(ctx.world.pose3d(object_id()), mount_);
  sweep_.pose = now;
  const Nanos duration = seconds_to_nanos(sweep_duration());
  sweep_.sweep_start = ctx.stamp - duration;
  const Eigen::Matrix3d r_now = now.orientation.toRotationMatrix();
  for (std::size_t c = 0; c < columns(); ++c) {
    if (!params_.motion_distortion) {
      column_origin_[c] = now.position;
      column_rotation_[c] = r_now;
      continue;
    }
    const Pose3d p = pose_at(sweep_.sweep_start + seconds_to_nanos(column_times_[c]), now);
    column_origin_[c] = p.position;
    column_rotation_[c] = p.orientation.toRotationMatrix();
  }
}

void Lidar3d::build_rays() {
  // Column-major: the channels of one column are neighbours (one or two 16-ray packets from one
  // origin, nearly parallel: coherent traversal).
  const std::size_t nc = channels();
  for (std::size_t c = 0; c < columns(); ++c) {
    const Eigen::Matrix3d& r = column_rotation_[c];
    for (std::size_t k = 0; k < nc; ++k) {
      scene::Ray& ray = rays_[c * nc + k];
      ray.origin = column_origin_[c];
      ray.direction =
          r * Eigen::Vector3d(cos_el_[k] * cos_az_[c], cos_el_[k] * sin_az_[c], sin_el_[k]);
      ray.max_distance = params_.range_max;
    }
  }
}

void Lidar3d::cut_by_media(const SensorContext& ctx) {
  std::fill(media_cell_.begin(), media_cell_.end(), -1);
  // Every column origin lies within `travel` of the sweep's end: cells farther than
  // range_max + travel cannot be met.
  double travel = 0.0;
  for (const Eigen::Vector3d& o : column_origin_) {
    travel = std::max(travel, (o - sweep_.pose.position).norm());
  }
  media_ = media::MediaView(ctx.media, model().common.smoke, sweep_.pose.position,
                            params_.range_max + travel);
  if (media_.empty()) return;
  std::fill(media_distance_.begin(), media_distance_.end(), kInf);
  const std::size_t nc = channels();
  for (std::size_t c = 0; c < columns(); ++c) {
    // A column's rays lie in the half-plane through its origin spanned by the sensor's z axis
    // and the column's forward direction f: a cell can only meet them when its centre is within
    // a radius of that plane and not more than a radius behind it.
    const Eigen::Matrix3d& r = column_rotation_[c];
    const Eigen::Vector3d f = r * Eigen::Vector3d(cos_az_[c], sin_az_[c], 0.0);
    const Eigen::Vector3d n = r * Eigen::Vector3d(-sin_az_[c], cos_az_[c], 0.0);
    const Eigen::Vector3d& o = column_origin_[c];
    for (int k = 0; k < static_cast<int>(media_.size()); ++k) {
      const media::MediaView::Cell& cell = media_.cells()[k];
      const Eigen::Vector3d m = cell.center - o;
      if (std::abs(m.dot(n)) > cell.radius || m.dot(f) < -cell.radius) continue;
      for (std::size_t j = 0; j < nc; ++j) {
        const std::size_t i = c * nc + j;
        const double limit = std::min(hits_[i].distance, params_.range_max);
        const double t =
            media::entry_distance(o, rays_[i].direction, cell.center, cell.radius, limit);
        if (t < media_distance_[i]) {
          media_distance_[i] = t;
          media_cell_[i] = k;
        }
      }
    }
  }
}

void Lidar3d::fill_points(const SensorContext& ctx) {
  sweep_.points.clear();
  sweep_.points_world.clear();
  sweep_.hit_object.clear();
  sweep_.hit_medium.clear();
  const bool noisy = model().common.noise && params_.std > 0.0;
  const std::size_t nc = channels();
  for (std::size_t c = 0; c < columns(); ++c) {
    const auto time = static_cast<float>(column_times_[c]);
    for (std::size_t k = 0; k < nc; ++k) {
      const std::size_t i = c * nc + k;
      const scene::RayHit& h = hits_[i];
      // A medium entered no farther than the surface wins (smoke in front of a wall, or at it).
      const bool medium = media_cell_[i] >= 0 && media_distance_[i] <= h.distance;
      if (!medium && !h.hit()) continue;
      const double distance = medium ? media_distance_[i] : h.distance;
      if (distance < params_.range_min) continue;  // blocked, but not measured
      double range = distance + (noisy ? rng().gaussian(params_.std) : 0.0);
      if (range > params_.range_max) continue;  // noise pushed it out of range: no return
      range = std::max(range, params_.range_min);
      const double e = range * cos_el_[k];
      sweep_.points.push_back({static_cast<float>(e * cos_az_[c]),
                               static_cast<float>(e * sin_az_[c]),
                               static_cast<float>(range * sin_el_[k]), medium ? 0.0f : 1.0f,
                               static_cast<std::uint16_t>(k), 0, time});
      sweep_.points_world.push_back(column_origin_[c] + range * rays_[i].direction);
      sweep_.hit_object.push_back(medium ? -1 : ctx.scene_3d().user_id(h.body));
      sweep_.hit_medium.push_back(medium ? media_.cells()[media_cell_[i]].snapshot : -1);
    }
  }
}

}  // namespace ubot
