#include "ubot/sensors/camera/camera.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "ubot/core/color.h"
#include "ubot/core/numbers.h"
#include "ubot/core/state_io.h"
#include "ubot/core/unreal.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

constexpr int kTile = 4;  // 4 x 4 pixels: 16 rays
// Rays per Scene::cast call: 256 tiles, a 64 x 64 pixel block in Z-order (the scene's coherent
// path culls per 4096, 256 and 16 rays).
constexpr std::size_t kBlockRays = 4096;

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

// Interleaves the bits of x and y (x in the even bits): the Z-order of tile (x, y).
std::uint64_t z_order(std::uint32_t x, std::uint32_t y) {
  std::uint64_t z = 0;
  for (int b = 0; b < 32; ++b) {
    z |= static_cast<std::uint64_t>((x >> b) & 1u) << (2 * b);
    z |= static_cast<std::uint64_t>((y >> b) & 1u) << (2 * b + 1);
  }
  return z;
}

// A world point in the camera's optical frame (x right, y down, z forward).
Eigen::Vector3d to_optical(const Pose3d& pose, const Eigen::Vector3d& p) {
  const Eigen::Vector3d l = pose.orientation.conjugate() * (p - pose.position);
  return {-l.y(), -l.z(), l.x()};
}

}  // namespace

// The conventions module holds the rotation and the frame suffix (SPEC §0).
Eigen::Quaterniond Camera::optical_rotation() { return unreal::camera_link_to_optical(); }

std::string Camera::optical_frame_id() const { return unreal::optical_frame_id(header().frame_id); }

// x in [0, 255] splits exactly into its integer part and its fraction, and lround rounds halves
// up (away from zero).
std::uint8_t Camera::color_byte(double c) {
  const double x = std::clamp(c, 0.0, 1.0) * 255.0;
  const int whole = static_cast<int>(x);
  return static_cast<std::uint8_t>(whole + (x - whole >= 0.5 ? 1 : 0));
}

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
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<std::pair<std::uint64_t, int>> tiles;  // (Z-order, tile index)
  const int tiles_x = (w + kTile - 1) / kTile, tiles_y = (h + kTile - 1) / kTile;
  for (int ty = 0; ty < tiles_y; ++ty) {
    for (int tx = 0; tx < tiles_x; ++tx) tiles.emplace_back(z_order(tx, ty), ty * tiles_x + tx);
  }
  std::sort(tiles.begin(), tiles.end());
  table->ray_of_pixel.resize(n);
  table->pixel_of_ray.reserve(n);
  table->u_of_ray.reserve(n);
  table->v_of_ray.reserve(n);
  table->link_dir.reserve(n);
  table->inv_length.reserve(n);
  for (const auto& [order, tile] : tiles) {
    const int tx = tile % tiles_x * kTile, ty = tile / tiles_x * kTile;
    for (int v = ty; v < std::min(h, ty + kTile); ++v) {
      for (int u = tx; u < std::min(w, tx + kTile); ++u) {
        const int p = v * w + u;
        table->ray_of_pixel[p] = static_cast<int>(table->pixel_of_ray.size());
        table->pixel_of_ray.push_back(p);
        table->u_of_ray.push_back(static_cast<std::uint16_t>(u));
        table->v_of_ray.push_back(static_cast<std::uint16_t>(v));
        const Eigen::Vector3d d(1.0, -(u - params.cx) / params.fx, -(v - params.cy) / params.fy);
        table->link_dir.push_back(d);
        table->inv_length.push_back(1.0 / d.norm());
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
  const Eigen::Matrix3d r = pose.orientation.toRotationMatrix();
  if (params_.depth) {
    depth_image(ctx, pose, r);
  } else {
    color_image(ctx, pose, r);
  }
  return SampleStatus::kValid;
}

template <class F>
void Camera::cast_blocks(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r,
                         F&& f) {
  Buffers& buf = *scratch_;
  const std::size_t n = table_->pixel_of_ray.size();
  for (std::size_t k0 = 0; k0 < n; k0 += kBlockRays) {
    const std::size_t count = std::min(kBlockRays, n - k0);
    buf.rays.resize(count);
    buf.hits.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      scene::Ray& ray = buf.rays[i];
      ray.origin = pose.position;
      // Optical z component 1: distances are depths.
      ray.direction = ray_direction(r, *table_, static_cast<int>(k0 + i));
      ray.max_distance = params_.max_depth;
    }
    ctx.scene_3d().cast(buf.rays, object_id(), buf.hits);
    for (std::size_t i = 0; i < count; ++i) f(static_cast<int>(k0 + i), buf.hits[i]);
  }
}

bool Camera::pixel_rect(const Eigen::Vector3d& center, double radius, int& u0, int& u1, int& v0,
                        int& v1) const {
  return pixel_interval(center.x(), center.z(), radius, params_.cx, params_.fx, params_.width, u0,
                        u1) &&
         pixel_interval(center.y(), center.z(), radius, params_.cy, params_.fy, params_.height, v0,
                        v1);
}

void Camera::find_media(const SensorContext& ctx, const Pose3d& pose, double reach) {
  Buffers& buf = *scratch_;
  const int h = params_.height;
  buf.media = media::MediaView(ctx.media, model().common.smoke, pose.position, reach);
  buf.row_lo.assign(h, params_.width);
  buf.row_hi.assign(h, -1);
  buf.row_first.assign(h + 1, 0);
  buf.row_cells.clear();
  if (buf.media.empty()) return;
  // Each cell's rectangle, counted per row, then filed by row (cells in view order).
  struct Rect {
    int u0, u1, v0, v1;
  };
  std::vector<Rect> rects(buf.media.size(), Rect{0, -1, 0, -1});
  for (std::size_t ci = 0; ci < rects.size(); ++ci) {
    const media::MediaView::Cell& cell = buf.media.cells()[ci];
    Rect& q = rects[ci];
    if (!pixel_rect(to_optical(pose, cell.center), cell.radius, q.u0, q.u1, q.v0, q.v1)) {
      q = Rect{0, -1, 0, -1};
      continue;
    }
    for (int v = q.v0; v <= q.v1; ++v) {
      ++buf.row_first[v + 1];
      buf.row_lo[v] = std::min(buf.row_lo[v], q.u0);
      buf.row_hi[v] = std::max(buf.row_hi[v], q.u1);
    }
  }
  for (int v = 0; v < h; ++v) buf.row_first[v + 1] += buf.row_first[v];
  buf.row_cells.resize(buf.row_first[h]);
  std::vector<std::size_t> fill(buf.row_first.begin(), buf.row_first.end() - 1);
  for (std::size_t ci = 0; ci < rects.size(); ++ci) {
    const Rect& q = rects[ci];
    for (int v = q.v0; v <= q.v1; ++v) {
      buf.row_cells[fill[v]++] = {static_cast<int>(ci), q.u0, q.u1};
    }
  }
}

void Camera::depth_image(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r) {
  Buffers& buf = *scratch_;
  find_media(ctx, pose, params_.max_depth * table_->longest_ray_per_depth);
  const bool noisy = model().common.noise && (params_.std > 0.0 || params_.std_quadratic > 0.0);
  auto in_range = [&](double x) { return x >= params_.min_depth && x <= params_.max_depth; };
  if (buf.media.empty() && !noisy) {  // the image straight from the hits
    cast_blocks(ctx, pose, r, [&](int k, const scene::RayHit& hit) {
      const double d = hit.hit() ? hit.distance : kInf;
      image_.depth[table_->pixel_of_ray[k]] = in_range(d) ? static_cast<float>(d) : 0.0f;
    });
    return;
  }
  buf.depth.resize(image_.depth.size());
  cast_blocks(ctx, pose, r, [&](int k, const scene::RayHit& hit) {
    buf.depth[table_->pixel_of_ray[k]] = hit.hit() ? hit.distance : kInf;
  });
  if (!buf.media.empty()) media_depth(pose, r);
  // Range, noise (in pixel order: the random stream's order) and range again.
  for (std::size_t p = 0; p < image_.depth.size(); ++p) {
    double d = buf.depth[p];
    if (!in_range(d)) {
      image_.depth[p] = 0.0f;
      continue;
    }
    if (noisy) d += rng().gaussian(params_.std + params_.std_quadratic * d * d);
    image_.depth[p] = in_range(d) ? static_cast<float>(d) : 0.0f;
  }
}

// A pixel ray entering a cell before its surface (or with no surface within the range) reads
// the entry point's depth.
void Camera::media_depth(const Pose3d& pose, const Eigen::Matrix3d& r) {
  Buffers& buf = *scratch_;
  const int w = params_.width;
  for (int v = 0; v < params_.height; ++v) {
    const RowCell* first = buf.row_cells.data() + buf.row_first[v];
    const RowCell* last = buf.row_cells.data() + buf.row_first[v + 1];
    for (int u = buf.row_lo[v]; u <= buf.row_hi[v]; ++u) {
      const int p = v * w + u;
      const int k = table_->ray_of_pixel[p];
      const double len = 1.0 / table_->inv_length[k];
      // The surface (or the far end of the range) bounds where the ray can enter a cell.
      const double limit = (buf.depth[p] < kInf ? buf.depth[p] : params_.max_depth) * len;
      double entry = kInf;  // the nearest cell entry (ray length)
      bool any = false;
      Eigen::Vector3d unit;
      for (const RowCell* c = first; c != last; ++c) {
        if (u < c->u0 || u > c->u1) continue;
        if (!any) {
          unit = ray_direction(r, *table_, k) * table_->inv_length[k];
          any = true;
        }
        const media::MediaView::Cell& cell = buf.media.cells()[c->cell];
        entry = std::min(
            entry, media::entry_distance(pose.position, unit, cell.center, cell.radius, limit));
      }
      const double medium = entry * table_->inv_length[k];  // entry depth
      if (entry < kInf && medium <= buf.depth[p]) {
        buf.depth[p] = medium;
        ++image_.medium_pixels;
      }
    }
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

void Camera::color_image(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r) {
  resolve_colors(ctx);
  Buffers& buf = *scratch_;
  const double reach =
      params_.media_occlusion
          ? std::min(params_.preview_distance, params_.max_depth * table_->longest_ray_per_depth)
          : params_.preview_distance;
  find_media(ctx, pose, reach);
  const bool media = !buf.media.empty();
  if (media) {
    buf.color.resize(3 * image_.rgba.size() / 4);
    if (params_.media_occlusion) buf.hit_distance.resize(image_.rgba.size() / 4);
  }
  const Lighting& lighting = ctx.world.model().lighting;
  const Eigen::Vector3d light = lighting.direction;
  const double ambient = lighting.ambient, diffuse = lighting.diffuse;
  const double* ground = lighting.ground.data();
  const double* sky_rgb = lighting.sky.data();
  const std::uint8_t sky[3] = {color_byte(sky_rgb[0]), color_byte(sky_rgb[1]),
                               color_byte(sky_rgb[2])};
  cast_blocks(ctx, pose, r, [&](int k, const scene::RayHit& h) {
    const int p = table_->pixel_of_ray[k];
    std::uint8_t* px = &image_.rgba[4 * static_cast<std::size_t>(p)];
    const bool seen = h.hit() && h.distance >= params_.min_depth;
    double c[3];
    if (seen) {
      const double* base = h.user_id >= 0 ? object_colors_[h.user_id].data() : ground;
      const double shade = ambient + diffuse * std::max(0.0, h.normal.dot(light));
      for (int i = 0; i < 3; ++i) c[i] = base[i] * shade;
    }
    px[3] = seen ? 255 : 0;
    if (media && media_may_change(k)) {  // tinted (or not) by media_color
      double* out = &buf.color[3 * static_cast<std::size_t>(p)];
      if (seen) {
        std::copy(c, c + 3, out);
      } else {
        std::copy(sky_rgb, sky_rgb + 3, out);
      }
      if (params_.media_occlusion) buf.hit_distance[p] = h.hit() ? h.distance : kInf;
      return;
    }
    for (int i = 0; i < 3; ++i) px[i] = seen ? color_byte(c[i]) : sky[i];
  });
  if (media) media_color(ctx, pose, r);
}

// Every cell a pixel ray enters within its limit blends the pixel towards the cell's tint,
// farthest first (the nearest smoke lies on top).
void Camera::media_color(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r) {
  Buffers& buf = *scratch_;
  // Each view cell's tint and opacity, once.
  buf.blends.clear();
  for (const media::MediaView::Cell& cell : buf.media.cells()) {
    const media::MediumSnapshot& s = ctx.media[cell.snapshot];
    const media::Tint tint = s.legacy_tag.empty() ? s.tint : params_.smoke_interference_tint;
    buf.blends.push_back({{tint.r, tint.g, tint.b},
                          std::min(s.cells[cell.index].effective_density() *
                                       params_.smoke_interference_opacity_scale,
                                   params_.max_smoke_interference_opacity)});
  }
  const int w = params_.width;
  for (int v = 0; v < params_.height; ++v) {
    const RowCell* first = buf.row_cells.data() + buf.row_first[v];
    const RowCell* last = buf.row_cells.data() + buf.row_first[v + 1];
    for (int u = buf.row_lo[v]; u <= buf.row_hi[v]; ++u) {
      const int p = v * w + u;
      const int k = table_->ray_of_pixel[p];
      double limit = params_.preview_distance;
      if (params_.media_occlusion && buf.hit_distance[p] < kInf) {
        limit = std::min(limit, buf.hit_distance[p] / table_->inv_length[k]);
      }
      buf.tinted.clear();
      bool any = false;
      Eigen::Vector3d unit;
      for (const RowCell* c = first; c != last; ++c) {
        if (u < c->u0 || u > c->u1) continue;
        if (!any) {
          unit = ray_direction(r, *table_, k) * table_->inv_length[k];
          any = true;
        }
        const media::MediaView::Cell& cell = buf.media.cells()[c->cell];
        const double t =
            media::entry_distance(pose.position, unit, cell.center, cell.radius, limit);
        if (t < kInf) buf.tinted.push_back({t, c->cell});
      }
      double* color = &buf.color[3 * static_cast<std::size_t>(p)];
      if (!buf.tinted.empty()) {
        ++image_.medium_pixels;
        std::sort(buf.tinted.begin(), buf.tinted.end(), [](const Tinted& a, const Tinted& b) {
          return a.distance != b.distance ? a.distance > b.distance : a.cell < b.cell;
        });
        for (const Tinted& t : buf.tinted) {
          const Blend& b = buf.blends[t.cell];
          for (int i = 0; i < 3; ++i) color[i] = color[i] + (b.tint[i] - color[i]) * b.opacity;
        }
      }
      std::uint8_t* px = &image_.rgba[4 * static_cast<std::size_t>(p)];
      for (int i = 0; i < 3; ++i) px[i] = color_byte(color[i]);
    }
  }
}

void Camera::io_own_state(StateIo& s) {
  CameraImage& m = image_;
  io(s, m.pose);
  s.same_size(m.depth, "depth pixels");
  s.same_size(m.rgba, "colour bytes");
  s.value(m.medium_pixels);
}
}  // namespace ubot
