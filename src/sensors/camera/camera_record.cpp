// The camera type's frames.jsonl piece (compiled into the record library): its parameters and its
// image file.
#include "frames_fields.h"
#include "ubot/record/frames_writer.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/camera/camera_images.h"
#include "ubot/sensors/camera/camera_sinks.h"

namespace ubot {
namespace {

// A camera's parameters under their YAML names, its resolved intrinsics, its frames and where
// its images go (relative to frames.jsonl).
void write_camera_parameters(JsonWriter& j, const Simulation& sim, const Camera& camera) {
  const CameraModel& p = camera.params();
  const SensorCommon& c = camera.model().common;
  j.key("frame_id").value(camera.header().frame_id);
  j.key("optical_frame_id").value(camera.optical_frame_id());
  j.key("width").value(p.width).key("height").value(p.height);
  j.key("fx").value(p.fx).key("fy").value(p.fy).key("cx").value(p.cx).key("cy").value(p.cy);
  j.key(p.depth ? "min_depth" : "near_clip").value(p.min_depth);
  j.key(p.depth ? "max_depth" : "far_clip").value(p.max_depth);
  j.key("update_rate_hz");
  if (c.update_rate_hz) {
    j.value(*c.update_rate_hz);
  } else {
    j.null();  // every step
  }
  write_vector(j, "offset", p.offset);
  write_vector(j, "rpy", p.rpy);
  if (p.depth) {
    j.key("noise").value(c.noise).key("std").value(p.std);
    if (p.std_quadratic > 0.0) j.key("std_quadratic").value(p.std_quadratic);
    j.key("image_format").value("png16_mm");
  } else {
    const media::Tint& t = p.smoke_interference_tint;
    const double tint[3] = {t.r, t.g, t.b};
    j.key("smoke_interference_tint").array(tint);
    j.key("smoke_interference_opacity_scale").value(p.smoke_interference_opacity_scale);
    j.key("max_smoke_interference_opacity").value(p.max_smoke_interference_opacity);
    j.key("preview_distance").value(p.preview_distance);
    j.key("media_occlusion").value(p.media_occlusion);
    j.key("image_format").value("png_rgba8");
  }
  const std::string first = camera_image_file(sim, camera);
  j.key("image_dir").value(first.substr(0, first.rfind('/')));
}

// A camera sample: its link pose [x, y, z, qx, qy, qz, qw] at the stamp, its image file and the
// number of pixels a medium changed.
void write_camera(JsonWriter& j, const Simulation& sim, const Camera& camera) {
  const CameraImage& img = camera.image();
  const Eigen::Quaterniond& q = img.pose.orientation;
  const double origin[7] = {img.pose.position.x(),
                            img.pose.position.y(),
                            img.pose.position.z(),
                            q.x(),
                            q.y(),
                            q.z(),
                            q.w()};
  j.key("origin").array(origin);
  j.key("image").value(camera_image_file(sim, camera));
  j.key("medium_pixels").value(img.medium_pixels);
}

}  // namespace

void write_frames_parameters(const FramesContext& f, const Camera& s) {
  write_camera_parameters(f.json, f.sim, s);
  write_smoke(f.json, s.model().common.smoke);
}

void write_frames_sample(const FramesContext& f, const Camera& s) {
  if (write_status(f.json, s.header())) write_camera(f.json, f.sim, s);
}

}  // namespace ubot
