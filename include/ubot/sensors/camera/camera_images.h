#pragma once
// Camera images of a run, one PNG per sample, next to frames.jsonl (whose camera entries name
// them): <out>/<object>/<sensor>/<sequence, 6 digits>.png. rgb_camera: 8-bit RGBA (alpha 0 where
// the pixel sees nothing: sky); depth_camera: 16-bit grey in millimetres along the optical axis,
// 0 = no data (depth_to_millimetres).
#include <filesystem>
#include <map>
#include <string>

#include "ubot/sensors/camera/camera.h"
#include "ubot/sim/simulation.h"

namespace ubot {

// A file-name-safe version of an object or sensor name, one path component that stays inside its
// folder: characters other than letters, digits, '-', '_' and '.' become '_', and so does a '.'
// at the start or after another '.' (no hidden names, no ".."); "" becomes "_".
std::string file_safe_name(const std::string& name);

// Records that `owner` (e.g. "'robot/imu_0'") writes `file`; an ubot::Error naming both owners
// when another already does (two names equal once made file-safe: "a/b" and "a_b").
void claim_output_name(std::map<std::string, std::string>& claimed, const std::string& file,
                       const std::string& owner);
// Creates `dir` and its parents (nothing if they exist); throws ubot::Error naming it otherwise.
void create_output_dir(const std::filesystem::path& dir);

// Where `camera`'s current sample goes, relative to the output directory.
std::string camera_image_file(const Simulation& sim, const Camera& camera);

class CameraImagesWriter {
 public:
  // Creates the cameras' folders under `out`. Throws ubot::Error when it cannot.
  CameraImagesWriter(std::filesystem::path out, const Simulation& sim);
  // Writes the images of the cameras that sampled in this step (Disabled samples have none).
  void write(const Simulation& sim);
  std::int64_t images() const { return images_; }

 private:
  std::filesystem::path out_;
  std::vector<std::uint16_t> millimetres_;  // reused
  std::int64_t images_ = 0;
  // Whether the simulation has a camera at all: a fleet's step then skips its 10,000 other
  // sensors (a simulation's sensors are fixed by its model).
  bool any_camera_ = false;
};

}  // namespace ubot
