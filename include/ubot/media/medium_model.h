#pragma once
// The media a world file declares (`media:`, SPEC §8), as the WorldModel holds them
// (WorldModel::media). Depends on Eigen and the config layer's plain media settings only.
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/config/sensor_media.h"

namespace ubot {
namespace media {

// One spherical cell, in world coordinates (metres).
struct MediumCell {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  double radius = 1.5;       // below kMinRadius counts as kMinRadius
  double density = 0.0;      // 0..1
  double edge_factor = 1.0;  // 0..1, attenuates the density towards the medium's edge
  // How fast the cell moves (m/s, world frame). Only Doppler sensors read it: an FMCW beam cut
  // by this cell reports this velocity's radial component relative to the sensor. Zero: still
  // smoke.
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();

  static constexpr double kMinRadius = 0.01;
  double effective_density() const { return density * edge_factor; }
  double effective_radius() const { return radius < kMinRadius ? kMinRadius : radius; }
};

}  // namespace media

// One keyframe of a declared medium's animation.
struct MediumKeyframe {
  double t = 0.0;  // seconds of simulation time
  // Added to every cell position, in the medium's frame (the attached object's body frame).
  Eigen::Vector3d position_offset = Eigen::Vector3d::Zero();
  double radius_scale = 1.0;   // multiplies every cell radius
  double density_scale = 1.0;  // multiplies every cell density (the result is kept in [0, 1])
};

// A medium declared in the world file (`media:`).
struct MediumModel {
  std::string name;  // default "medium_<index>"
  std::string medium_type = "smoke";
  bool active = true;
  media::Tint tint;
  int attach = -1;  // object id: cell positions are in its body frame (x, y, yaw; z on its z)
  std::vector<media::MediumCell> cells;
  // Empty: the cells never change. Otherwise interpolated linearly between keyframes (t
  // strictly increasing), held before the first and after the last, or repeated with `loop`.
  std::vector<MediumKeyframe> keyframes;
  bool loop = false;
};

}  // namespace ubot
