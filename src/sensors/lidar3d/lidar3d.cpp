#include "ubot/sensors/lidar3d/lidar3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ubot/core/angles.h"
#include "ubot/core/numbers.h"
#include "ubot/core/state_io.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

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
  Buffers& buf = *scratch_;
  const std::size_t n = channels() * columns();
  buf.column_origin.resize(columns());
  buf.column_rotation.resize(columns());
  buf.rays.resize(n);
  buf.hits.resize(n);
  buf.media_distance.resize(n);
  buf.media_cell.resize(n);
  place_columns(ctx);
  build_rays();
  ctx.scene_3d().cast(buf.rays, object_id(), buf.hits);
  cut_by_media(ctx);
  fill_points();
  return SampleStatus::kValid;
}

void Lidar3d::place_columns(const SensorContext& ctx) {
  Buffers& buf = *scratch_;
  const Pose3d now = compose(ctx.world.pose3d(object_id()), mount_);
  sweep_.pose = now;
  const Nanos duration = seconds_to_nanos(sweep_duration());
  sweep_.sweep_start = ctx.stamp - duration;
  const Eigen::Matrix3d r_now = now.orientation.toRotationMatrix();
  for (std::size_t c = 0; c < columns(); ++c) {
    if (!params_.motion_distortion) {
      buf.column_origin[c] = now.position;
      buf.column_rotation[c] = r_now;
      continue;
    }
    const Pose3d p = pose_at(sweep_.sweep_start + seconds_to_nanos(column_times_[c]), now);
    buf.column_origin[c] = p.position;
    buf.column_rotation[c] = p.orientation.toRotationMatrix();
  }
}

void Lidar3d::build_rays() {
  Buffers& buf = *scratch_;
  // Column-major: the channels of one column are neighbours (one or two 16-ray packets from one
  // origin, nearly parallel: coherent traversal).
  const std::size_t nc = channels();
  for (std::size_t c = 0; c < columns(); ++c) {
    const Eigen::Matrix3d& r = buf.column_rotation[c];
    for (std::size_t k = 0; k < nc; ++k) {
      scene::Ray& ray = buf.rays[c * nc + k];
      ray.origin = buf.column_origin[c];
      ray.direction =
          r * Eigen::Vector3d(cos_el_[k] * cos_az_[c], cos_el_[k] * sin_az_[c], sin_el_[k]);
      ray.max_distance = params_.range_max;
    }
  }
}

void Lidar3d::cut_by_media(const SensorContext& ctx) {
  Buffers& buf = *scratch_;
  std::fill(buf.media_cell.begin(), buf.media_cell.end(), -1);
  // Every column origin lies within `travel` of the sweep's end: cells farther than
  // range_max + travel cannot be met.
  double travel = 0.0;
  for (const Eigen::Vector3d& o : buf.column_origin) {
    travel = std::max(travel, (o - sweep_.pose.position).norm());
  }
  buf.media = media::MediaView(ctx.media, model().common.smoke, sweep_.pose.position,
                               params_.range_max + travel);
  if (buf.media.empty()) return;
  std::fill(buf.media_distance.begin(), buf.media_distance.end(), kInf);
  const std::size_t nc = channels();
  for (std::size_t c = 0; c < columns(); ++c) {
    // A column's rays lie in the half-plane through its origin spanned by the sensor's z axis
    // and the column's forward direction f: a cell can only meet them when its centre is within
    // a radius of that plane and not more than a radius behind it.
    const Eigen::Matrix3d& r = buf.column_rotation[c];
    const Eigen::Vector3d f = r * Eigen::Vector3d(cos_az_[c], sin_az_[c], 0.0);
    const Eigen::Vector3d n = r * Eigen::Vector3d(-sin_az_[c], cos_az_[c], 0.0);
    const Eigen::Vector3d& o = buf.column_origin[c];
    for (int k = 0; k < static_cast<int>(buf.media.size()); ++k) {
      const media::MediaView::Cell& cell = buf.media.cells()[k];
      const Eigen::Vector3d m = cell.center - o;
      if (std::abs(m.dot(n)) > cell.radius || m.dot(f) < -cell.radius) continue;
      for (std::size_t j = 0; j < nc; ++j) {
        const std::size_t i = c * nc + j;
        const double limit = std::min(buf.hits[i].distance, params_.range_max);
        const double t =
            media::entry_distance(o, buf.rays[i].direction, cell.center, cell.radius, limit);
        if (t < buf.media_distance[i]) {
          buf.media_distance[i] = t;
          buf.media_cell[i] = k;
        }
      }
    }
  }
}

void Lidar3d::fill_points() {
  const Buffers& buf = *scratch_;
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
      const scene::RayHit& h = buf.hits[i];
      // A medium entered no farther than the surface wins (smoke in front of a wall, or at it).
      const bool medium = buf.media_cell[i] >= 0 && buf.media_distance[i] <= h.distance;
      if (!medium && !h.hit()) continue;
      const double distance = medium ? buf.media_distance[i] : h.distance;
      if (distance < params_.range_min) continue;  // blocked, but not measured
      double range = distance + (noisy ? rng().gaussian(params_.std) : 0.0);
      if (range > params_.range_max) continue;  // noise pushed it out of range: no return
      range = std::max(range, params_.range_min);
      const double e = range * cos_el_[k];
      sweep_.points.push_back({static_cast<float>(e * cos_az_[c]),
                               static_cast<float>(e * sin_az_[c]),
                               static_cast<float>(range * sin_el_[k]), medium ? 0.0f : 1.0f,
                               static_cast<std::uint16_t>(k), 0, time});
      sweep_.points_world.push_back(buf.column_origin[c] + range * buf.rays[i].direction);
      sweep_.hit_object.push_back(medium ? -1 : h.user_id);
      sweep_.hit_medium.push_back(medium ? buf.media.cells()[buf.media_cell[i]].snapshot : -1);
    }
  }
}

void Lidar3d::io_own_state(StateIo& s) {
  LidarSweep& w = sweep_;
  io(s, w.pose);
  s.value(w.sweep_start);
  s.sequence(
      w.points,
      [&](LidarPoint& p) {
        s.value(p.x);
        s.value(p.y);
        s.value(p.z);
        s.value(p.intensity);
        s.value(p.ring);
        s.value(p.time);
      },
      22);
  if (s.reading()) {
    for (const LidarPoint& p : w.points) {
      if (p.ring >= elevations_.size()) s.fail("a point of a channel this lidar lacks");
    }
    // One entry per point in each of the other lists.
    w.points_world.resize(w.points.size());
    w.hit_object.resize(w.points.size());
    w.hit_medium.resize(w.points.size());
  }
  s.same_size(w.points_world, "points");
  s.same_size(w.hit_object, "points");
  s.same_size(w.hit_medium, "points");
  if (s.reading()) {
    for (std::size_t i = 0; i < w.points.size(); ++i) {
      if (w.hit_object[i] < -1 || w.hit_object[i] >= s.object_count) {
        s.fail("a point on an object this world lacks");
      }
      if (w.hit_medium[i] < -1 || w.hit_medium[i] >= s.media_count) {
        s.fail("a point cut by a medium this step lacks");
      }
    }
  }
  // The poses kept for motion distortion.
  std::vector<std::pair<Nanos, Pose3d>> history(history_.begin(), history_.end());
  s.sequence(
      history,
      [&](std::pair<Nanos, Pose3d>& h) {
        s.value(h.first);
        io(s, h.second);
      },
      64);
  if (s.reading()) {
    for (std::size_t i = 1; i < history.size(); ++i) {
      if (history[i].first < history[i - 1].first) s.fail("motion history out of time order");
    }
    history_.assign(history.begin(), history.end());
  }
}

}  // namespace ubot
