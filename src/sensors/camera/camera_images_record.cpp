#include "ubot/sensors/camera/camera_images.h"

#include <fmt/format.h>

#include <cctype>

#include "ubot/core/error.h"
#include "ubot/render/image_png.h"

namespace ubot {
namespace {

std::filesystem::path camera_dir(const Simulation& sim, const Sensor& camera) {
  return std::filesystem::path(file_safe_name(sim.world().object_model(camera.object_id()).name)) /
         file_safe_name(camera.model().common.name);
}

}  // namespace

std::string file_safe_name(const std::string& name) {
  std::string out = name.empty() ? "_" : name;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    // A '.' may not start the name (no hidden file, no "..") nor follow another '.'.
    const bool dot_ok = c == '.' && i > 0 && name[i - 1] != '.';
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && !dot_ok) {
      out[i] = '_';
    }
  }
  return out;
}

void create_output_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("{}: cannot create: {}", dir.string(), ec.message()));
}

std::string camera_image_file(const Simulation& sim, const Camera& camera) {
  return (camera_dir(sim, camera) / fmt::format("{:06d}.png", camera.header().sequence))
      .generic_string();
}

void claim_output_name(std::map<std::string, std::string>& claimed, const std::string& file,
                       const std::string& owner) {
  const auto [it, inserted] = claimed.emplace(file, owner);
  if (inserted) return;
  throw Error(
      fmt::format("{} and {} would both write {} (their names are the same once made "
                  "file-safe); rename one",
                  it->second, owner, file));
}

CameraImagesWriter::CameraImagesWriter(std::filesystem::path out, const Simulation& sim)
    : out_(std::move(out)) {
  std::map<std::string, std::string> claimed;
  for (const auto& sensor : sim.sensors()) {
    if (!sensor_if<Camera>(*sensor)) continue;
    any_camera_ = true;
    const std::filesystem::path dir = out_ / camera_dir(sim, *sensor);
    claim_output_name(claimed, dir.string(),
                      fmt::format("'{}/{}'", sim.world().object_model(sensor->object_id()).name,
                                  sensor->model().common.name));
    create_output_dir(dir);
  }
}

void CameraImagesWriter::write(const Simulation& sim) {
  if (!any_camera_) return;
  for (const int i : sim.sampled()) {
    const Sensor& sensor = *sim.sensors()[i];
    const Camera* c = sensor_if<Camera>(sensor);
    if (!c || sensor.header().disabled()) continue;
    const Camera& camera = *c;
    const CameraImage& img = camera.image();
    const std::string path = (out_ / camera_image_file(sim, camera)).string();
    if (camera.params().depth) {
      depth_to_millimetres(img.depth, millimetres_);
      render::write_png_gray16(path, img.width, img.height, millimetres_);
    } else {
      render::write_png_rgba8(path, img.width, img.height, img.rgba);
    }
    ++images_;
  }
}

}  // namespace ubot
