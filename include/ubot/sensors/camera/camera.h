#pragma once
// Pinhole cameras (SPEC §5, §6): `depth_camera` and `rgb_camera`, one class.
//
// Geometry: the camera link frame sits at the mount (x forward, y left, z up); the image lives in
// its optical frame (z forward, x right, y down), turned from the link by the quaternion
// (x, y, z, w) = (-0.5, 0.5, -0.5, 0.5) (kOpticalRotation). Pixel (u, v) (column, row; integer
// coordinates at pixel centres, as in ROS CameraInfo / OpenCV) looks along
// ((u - cx) / fx, (v - cy) / fy, 1) in the optical frame. Rays are cast through the 3D scene in
// 4 x 4 pixel tiles, 16 x 16 and 64 x 64 pixel blocks of them (Z-order), one 64 x 64 block per
// Scene::cast call, so rays, hits and pixels stay in cache; the scene's coherent path culls the
// shapes per block and per tile (scene.h). Directions have optical z component 1, so the distance
// the scene reports is directly the depth.
//
// Depth (depth_camera): the z distance along the optical axis (not the ray length): a plane
// facing the camera at distance d reads d at every pixel. No hit, or a depth outside
// [min_depth, max_depth], gives 0. Noise N(0, std) (when `noise` is on) is added to valid pixels,
// in pixel order, and the range rule applies again after it. Media (SPEC §8): a pixel ray
// entering a cell before its surface (or with no surface) reads the entry point's depth instead.
//
// Colour (rgb_camera): object colours (their `color`, else grey 0.6) and the ground's (the
// world's Lighting: `ground: {color}`, default (0.50, 0.47, 0.42)) are shaded by the world's one
// directional light (`light:`): c * (ambient + diffuse max(0, n.L)) with L the unit direction
// towards the light in the world and n the surface normal facing the camera (defaults 0.45,
// 0.55, L = normalise(-0.5, 0.3, 0.8)). Pixels that see nothing within [near_clip, far_clip] are
// the sky colour (default (0.70, 0.82, 0.95)) with alpha 0; surfaces have alpha 255. Media (SPEC
// §6): every cell a pixel ray enters within preview_distance (ray length; with media_occlusion also
// no farther than its surface) blends the pixel towards the cell's tint (a provider's own tint; the
// camera's smoke_interference_tint for legacy-tag media) with opacity min(effective density x
// opacity scale, max opacity), farthest cell first; alpha is kept.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "ubot/core/pose3d.h"
#include "ubot/core/scratch.h"
#include "ubot/media/medium.h"
#include "ubot/scene/scene.h"
#include "ubot/sensors/sensor.h"

namespace ubot {

struct CameraImage {
  Pose3d pose;  // camera link pose in the world at the stamp
  int width = 0, height = 0;
  std::vector<float> depth;        // depth_camera: metres along the optical axis, 0 = no data
  std::vector<std::uint8_t> rgba;  // rgb_camera: 8-bit RGBA, row-major
  int medium_pixels = 0;           // pixels a medium changed (cut depth or tinted colour)
};

// A depth image as 16-bit millimetres (PNG files, ROS 16UC1): round(depth x 1000), 0 = no data.
// max_depth is at most 65.535 m, so every valid depth fits (a depth under 0.5 mm reads 0).
inline std::uint16_t depth_millimetres(float depth) {
  const double mm = static_cast<double>(depth) * 1000.0 + 0.5;
  return mm >= 65535.0 ? 65535 : static_cast<std::uint16_t>(mm);
}
inline void depth_to_millimetres(const std::vector<float>& depth, std::vector<std::uint16_t>& out) {
  out.resize(depth.size());
  for (std::size_t i = 0; i < depth.size(); ++i) out[i] = depth_millimetres(depth[i]);
}

class Camera final : public Sensor {
 public:
  Camera(const SensorModel& model, const ObjectModel& owner, int index, std::uint64_t world_seed);

  bool casts_in_3d() const override { return true; }
  std::unique_ptr<Sensor> clone() const override { return std::make_unique<Camera>(*this); }
  void copy_state_from(const Sensor& other) override {
    *this = same_type_as<Camera>(other);  // Simulation::restore pairs sensors of one model
  }
  void io_own_state(StateIo& s) override;
  SensorRef ref() const override { return this; }
  const CameraModel& params() const { return params_; }
  const CameraImage& image() const { return image_; }
  const Pose3d& mount() const { return mount_; }
  // Frame id of the images: the sensor frame id + "_optical".
  std::string optical_frame_id() const;

  // Camera link -> optical frame (x, y, z, w) = (-0.5, 0.5, -0.5, 0.5)
  // (unreal::camera_link_to_optical).
  static Eigen::Quaterniond optical_rotation();

  // An RGB channel as 8 bits: lround(clamp(c, 0, 1) * 255), without the library call.
  static std::uint8_t color_byte(double c);

  // An object without a `color` (the light, the sky and the ground's colour: the world's
  // Lighting).
  static constexpr double kDefaultObject[3] = {0.6, 0.6, 0.6};

 private:
  SampleStatus measure(const SensorContext& ctx) override;
  // Casts the rays block by block and calls f(ray, hit) for each.
  template <class F>
  void cast_blocks(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r, F&& f);
  void resolve_colors(const SensorContext& ctx);
  // The view's cells and, per image row, the cells whose pixel rectangle covers it and the
  // columns [row_lo, row_hi] any of them covers (the pixels media may change).
  void find_media(const SensorContext& ctx, const Pose3d& pose, double reach);
  bool media_may_change(int ray) const {
    const int u = table_->u_of_ray[ray], v = table_->v_of_ray[ray];
    return u >= scratch_->row_lo[v] && u <= scratch_->row_hi[v];
  }
  // The depth image: the hits (depth_camera), the media, then range, noise and range again.
  void depth_image(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r);
  void media_depth(const Pose3d& pose, const Eigen::Matrix3d& r);
  // The RGB image: shaded hits or sky, then the media's tints (rgb_camera).
  void color_image(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r);
  void media_color(const SensorContext& ctx, const Pose3d& pose, const Eigen::Matrix3d& r);
  // The conservative pixel rectangle [u0, u1] x [v0, v1] of the sphere (center, radius) given in
  // the optical frame: every pixel whose ray can meet it. False when none can.
  bool pixel_rect(const Eigen::Vector3d& center, double radius, int& u0, int& u1, int& v0,
                  int& v1) const;

  // The rays' layout and link-frame directions: fixed by the model, computed once at
  // construction and shared (immutable) by the clones that snapshots hold.
  struct RayTable {
    // Rays in 4 x 4 pixel tiles, the tiles in Z-order (so 16 and 256 consecutive tiles are
    // 16 x 16 and 64 x 64 pixel blocks where the image has them): ray k is pixel pixel_of_ray[k],
    // at column u_of_ray[k] and row v_of_ray[k].
    std::vector<int> pixel_of_ray;
    std::vector<int> ray_of_pixel;  // the inverse
    std::vector<std::uint16_t> u_of_ray, v_of_ray;
    std::vector<Eigen::Vector3d> link_dir;  // per ray: (1, -(u - cx)/fx, -(v - cy)/fy)
    std::vector<double> inv_length;         // per ray: 1 / |link_dir|
    double longest_ray_per_depth = 1.0;     // the longest ray's length per metre of depth
  };
  static std::shared_ptr<const RayTable> make_ray_table(const CameraModel& params);
  // A world direction of ray k with optical z component 1 (the same expression wherever used, so
  // the same bits).
  static Eigen::Vector3d ray_direction(const Eigen::Matrix3d& r, const RayTable& t, int k) {
    return r * t.link_dir[k];
  }
  struct RowCell {  // a view cell whose pixel rectangle covers a row, from column u0 to u1
    int cell, u0, u1;
  };
  struct Tinted {  // a pixel's ray enters a cell at `distance` (ray length)
    double distance;
    int cell;
  };
  struct Blend {
    double tint[3];
    double opacity;
  };
  // Working storage of one sample, rewritten by every sample before it is read: not state, so
  // clones and restores leave it out (Scratch).
  struct Buffers {
    std::vector<scene::Ray> rays;     // one block's
    std::vector<scene::RayHit> hits;  // its hits
    // depth_camera with media or noise: per pixel, the depth before the range rule (+inf none).
    std::vector<double> depth;
    // rgb_camera: per pixel media may change, RGB in [0, 1] and (media_occlusion) the hit's ray
    // distance (+inf none).
    std::vector<double> color, hit_distance;
    media::MediaView media;
    std::vector<RowCell> row_cells;      // by row: row v's are [row_first[v], row_first[v + 1])
    std::vector<std::size_t> row_first;  // per row, and one more
    std::vector<int> row_lo, row_hi;     // per row: the columns media may change (lo > hi: none)
    std::vector<Tinted> tinted;          // one pixel's entries
    std::vector<Blend> blends;           // per view cell
  };

  CameraModel params_;
  Pose3d mount_;
  std::shared_ptr<const RayTable> table_;
  CameraImage image_;
  std::vector<Eigen::Vector3d> object_colors_;  // by object id, resolved at the first sample
  Scratch<Buffers> scratch_;
};

}  // namespace ubot
