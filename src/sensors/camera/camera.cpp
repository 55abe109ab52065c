#include "ubot/sensors/camera/camera.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "ubot/core/color.h"
#include "ubot/core/numbers.h"
#include "ubot/core/unreal.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

constexpr int kTile = 4;  // 4 x 4 pixels: one 16-ray Embree packet

// The pixel interval [lo, hi] (within [0, n - 1]) whose rays can meet a sphere seen at
// coordinate `a` across and `z` ahead (optical frame), radius r: the rays' slopes a / z lie
// between the tangents from the origin to the sphere's projection on that plane. One pixel of
// margin either side covers rounding. False when no pixel can.
bool pixel_interval(double a, double z, double r, double c, double focal, int n, int& lo, int& hi) {
  const double rho = std::hypot(a, z);
  if (rho <= r) {  // the origin projects inside: every slope
    lo = 0;
    hi = n - 1;
    return true;
  }
  constexpr double kHalfPi = std::numbers::pi / 2.0;
  const double theta = std::atan2(a, z), alpha = std::asin(r / rho);
  const double t0 = theta - alpha, t1 = theta + alpha;
  if (t0 >= kHalfPi || t1 <= -kHalfPi) return false;  // wholly behind the camera
  const double first = t0 <= -kHalfPi ? -kInf : c + focal * std::tan(t0) - 1.0;
  const double last = t1 >= kHalfPi ? kInf : c + focal * std::tan(t1) + 1.0;
  if (last < 0.0 || first > n - 1) return false;
  lo = first <= 0.0 ? 0 : static_cast<int>(std::floor(first));
  hi = last >= n - 1 ? n - 1 : static_cast<int>(std::ceil(last));
  return lo <= hi;
}

std::uint8_t to_byte(double c) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0));
}

}  // namespace

// The conventions module holds the rotation and the frame suffix (SPEC §0).
Eigen::Quaterniond Camera::optical_rotation() { return unreal::camera_link_to_optical(); }

std::string Camera::optical_frame_id() const { return unreal::optical_frame_id(header().frame_id); }

Eigen::Vector3d Camera::light_direction() { return Eigen::Vector3d(-0.5, 0.3, 0.8).normalized(); }

Camera::Camera(const SensorModel& model, const ObjectModel& owner, int index,
               std::uint64_t world_seed)
    : Sensor(model, owner, index, world_seed),
      params_(std::get<CameraModel>(model.params)),
      mount_{params_.offset, rotation_from_rpy(params_.rpy)},
      table_(make_ray_table(params_)) {
  const std::size_t n = static_cast<std::size_t>(params_.width) * params_.height;
  image_.width = params_.width;
  image_.height = params_.height;
  if (params_.depth) {
    image_.depth.assign(n, 0.0f);
  } else {
    image_.rgba.assign(n * 4, 0);
  }
}

std::shared_ptr<const Camera::RayTable> Camera::make_ray_table(const CameraModel& params) {
  auto table = std::make_shared<RayTable>();
  const int w = params.width, h = params.height;
  table->ray_of_pixel.resize(static_cast<std::size_t>(w) * h);
  for (int ty = 0; ty < h; ty += kTile) {
    for (int tx = 0; tx < w; tx += kTile) {
      for (int v = ty; v < std::min(h, ty + kTile); ++v) {
        for (int u = tx; u < std::min(w, tx + kTile); ++u) {
          const int p = v * w + u;
          table->ray_of_pixel[p] = static_cast<int>(table->pixel_of_ray.size());
          table->pixel_of_ray.push_back(p);
          const Eigen::Vector3d d(1.0, -(u - params.cx) / params.fx, -(v - params.cy) / params.fy);
          table->link_dir.push_back(d);
          table->inv_length.push_back(1.0 / d.norm());
        }
      }
    }
  }
  table->longest_ray_per_depth =
      1.0 / *std::min_element(table->inv_length.begin(), table->inv_length.end());
  return table;
}

SampleStatus Camera::measure(const SensorContext& ctx) {
  const Pose3d pose = compose(ctx.world.pose3d(object_id()), mount_);
  image_.pose = pose;
  image_.medium_pixels = 0;
  build_rays(pose);
  ctx.scene_3d().cast(scratch_->rays, object_id(), scratch_->hits);
  if (params_.depth) {
    media_depth(ctx, pose);
    fill_depth();
  } else {
    fill_color(ctx);
    media_color(ctx, pose);
  }
  return SampleStatus::kValid;
}

void Camera::build_rays(const Pose3d& pose) {
  const Eigen::Matrix3d r = pose.orientation.toRotationMatrix();
  std::vector<scene::Ray>& rays = scratch_->rays;
  rays.resize(table_->link_dir.size());
  scratch_->hits.resize(rays.size());
  for (std::size_t k = 0; k < rays.size(); ++k) {
    rays[k].origin = pose.position;
    rays[k].direction = r * table_->link_dir[k];  // optical z component 1: distances are depths
    rays[k].max_distance = params_.max_depth;
  }
}

template <class F>
void Camera::for_pixels_near(const Eigen::Vector3d& center, double radius, F&& f) const {
  int u0, u1, v0, v1;
  if (!pixel_interval(center.x(), center.z(), radius, params_.cx, params_.fx, params_.width, u0,
                      u1) ||
      !pixel_interval(center.y(), center.z(), radius, params_.cy, params_.fy, params_.height, v0,
                      v1)) {
    return;
  }
  for (int v = v0; v <= v1; ++v) {
    for (int u = u0; u <= u1; ++u) f(v * params_.width + u);
  }
}

namespace {

// A world point in the camera's optical frame (x right, y down, z forward).
Eigen::Vector3d to_optical(const Pose3d& pose, const Eigen::Vector3d& p) {
  const Eigen::Vector3d l = pose.orientation.conjugate() * (p - pose.position);
  return {-l.y(), -l.z(), l.x()};
}

}  // namespace

void Camera::media_depth(const SensorContext& ctx, const Pose3d& pose) {
  Buffers& buf = *scratch_;
  buf.media_entry.assign(buf.rays.size(), kInf);
  buf.media = media::MediaView(ctx.media, model().common.smoke, pose.position,
                               params_.max_depth * table_->longest_ray_per_depth);
  for (const media::MediaView::Cell& cell : buf.media.cells()) {
    for_pixels_near(to_optical(pose, cell.center), cell.radius, [&](int p) {
      const int k = table_->ray_of_pixel[p];
      const double len = 1.0 / table_->inv_length[k];
      // The surface (or the far end of the range) bounds where the ray can enter a cell.
      const double limit = (buf.hits[k].hit() ? buf.hits[k].distance : params_.max_depth) * len;
      const double t =
          media::entry_distance(pose.position, buf.rays[k].direction * table_->inv_length[k],
                                cell.center, cell.radius, limit);
      buf.media_entry[k] = std::min(buf.media_entry[k], t);
    });
  }
}

void Camera::fill_depth() {
  const Buffers& buf = *scratch_;
  const bool noisy = model().common.noise && params_.std > 0.0;
  for (std::size_t p = 0; p < image_.depth.size(); ++p) {
    const int k = table_->ray_of_pixel[p];
    double d = buf.hits[k].hit() ? buf.hits[k].distance : kInf;
    const double medium = buf.media_entry[k] * table_->inv_length[k];  // entry depth
    if (buf.media_entry[k] < kInf && medium <= d) {
      d = medium;
      ++image_.medium_pixels;
    }
    auto in_range = [&](double x) { return x >= params_.min_depth && x <= params_.max_depth; };
    if (!in_range(d)) {
      image_.depth[p] = 0.0f;
      continue;
    }
    if (noisy) d += rng().gaussian(params_.std);
    image_.depth[p] = in_range(d) ? static_cast<float>(d) : 0.0f;
  }
}

void Camera::resolve_colors(const SensorContext& ctx) {
  if (object_colors_.size() == ctx.world.size()) return;
  object_colors_.clear();
  for (int id = 0; id < static_cast<int>(ctx.world.size()); ++id) {
    const std::string& name = ctx.world.object_model(id).color;
    Eigen::Vector3d c(kDefaultObject[0], kDefaultObject[1], kDefaultObject[2]);
    if (!name.empty()) {
      if (const auto parsed = parse_color(name)) c = {parsed->r, parsed->g, parsed->b};
    }
    object_colors_.push_back(c);
  }
}

void Camera::fill_color(const SensorContext& ctx) {
  resolve_colors(ctx);
  const Eigen::Vector3d light = light_direction();
  const std::size_t n = table_->pixel_of_ray.size();
  Buffers& buf = *scratch_;
  buf.color.resize(3 * n);
  for (std::size_t p = 0; p < n; ++p) {
    const scene::RayHit& h = buf.hits[table_->ray_of_pixel[p]];
    double* c = &buf.color[3 * p];
    if (!h.hit() || h.distance < params_.min_depth) {
      std::copy(kSky, kSky + 3, c);
      image_.rgba[4 * p + 3] = 0;
      continue;
    }
    const int id = h.user_id;
    const double* base = id >= 0 ? object_colors_[id].data() : kGround;
    const double shade = kAmbient + kDiffuse * std::max(0.0, h.normal.dot(light));
    for (int i = 0; i < 3; ++i) c[i] = base[i] * shade;
    image_.rgba[4 * p + 3] = 255;
  }
}

void Camera::media_color(const SensorContext& ctx, const Pose3d& pose) {
  const double reach =
      params_.media_occlusion
          ? std::min(params_.preview_distance, params_.max_depth * table_->longest_ray_per_depth)
          : params_.preview_distance;
  Buffers& buf = *scratch_;
  buf.media = media::MediaView(ctx.media, model().common.smoke, pose.position, reach);
  buf.tinted.clear();
  for (int ci = 0; ci < static_cast<int>(buf.media.size()); ++ci) {
    const media::MediaView::Cell& cell = buf.media.cells()[ci];
    for_pixels_near(to_optical(pose, cell.center), cell.radius, [&](int p) {
      const int k = table_->ray_of_pixel[p];
      double limit = params_.preview_distance;
      if (params_.media_occlusion && buf.hits[k].hit()) {
        limit = std::min(limit, buf.hits[k].distance / table_->inv_length[k]);
      }
      const double t =
          media::entry_distance(pose.position, buf.rays[k].direction * table_->inv_length[k],
                                cell.center, cell.radius, limit);
      if (t < kInf) buf.tinted.push_back({p, t, ci});
    });
  }
  // Each view cell's tint and opacity, once.
  buf.blends.clear();
  for (const media::MediaView::Cell& cell : buf.media.cells()) {
    const media::MediumSnapshot& s = ctx.media[cell.snapshot];
    const media::Tint tint = s.legacy_tag.empty() ? s.tint : params_.smoke_interference_tint;
    buf.blends.push_back({tint.r, tint.g, tint.b,
                          std::min(s.cells[cell.index].effective_density() *
                                       params_.smoke_interference_opacity_scale,
                                   params_.max_smoke_interference_opacity)});
  }
  // Group the entries by pixel (a counting sort: linear), then per pixel farthest cell first:
  // the nearest smoke lies on top.
  const std::size_t n = table_->pixel_of_ray.size();
  buf.first.assign(n + 1, 0);
  for (const Tinted& t : buf.tinted) ++buf.first[t.pixel + 1];
  for (std::size_t p = 0; p < n; ++p) buf.first[p + 1] += buf.first[p];
  buf.ordered.resize(buf.tinted.size());
  buf.fill = buf.first;
  for (const Tinted& t : buf.tinted) buf.ordered[buf.fill[t.pixel]++] = t;
  for (std::size_t p = 0; p < n; ++p) {
    const auto begin = buf.ordered.begin() + buf.first[p],
               end = buf.ordered.begin() + buf.first[p + 1];
    if (begin == end) continue;
    ++image_.medium_pixels;
    std::sort(begin, end, [](const Tinted& a, const Tinted& b) {
      return a.distance != b.distance ? a.distance > b.distance : a.cell < b.cell;
    });
    double* c = &buf.color[3 * p];
    for (auto t = begin; t != end; ++t) {
      const Blend& b = buf.blends[t->cell];
      for (int i = 0; i < 3; ++i) c[i] = c[i] + (b.tint[i] - c[i]) * b.opacity;
    }
  }
  for (std::size_t p = 0; p < table_->pixel_of_ray.size(); ++p) {
    for (int i = 0; i < 3; ++i) image_.rgba[4 * p + i] = to_byte(buf.color[3 * p + i]);
  }
}

}  // namespace ubot
