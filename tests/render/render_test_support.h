#pragma once
// Helpers shared by the render tests: scratch files and reading PNGs back.
#include <cairo.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ubot/render/drawing.h"

namespace ubot::render::test_support {

// A file name in the test temp dir, unique per process and test, removed when it goes away.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = ::testing::TempDir() + "ubot_render_" + std::to_string(::getpid()) + "_" +
            info->test_suite_name() + "_" + info->name() + "_" + suffix;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Rgb8 {
  int r = 0, g = 0, b = 0;
};

inline std::ostream& operator<<(std::ostream& os, const Rgb8& c) {
  return os << "(" << c.r << ", " << c.g << ", " << c.b << ")";
}

// Straight RGB pixels of a decoded picture, rows top to bottom.
struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
  Rgb8 at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2]};
  }
};

// Reads a PNG with Cairo (independent of the writer's own pixel path).
inline Picture load_png(const std::string& path) {
  cairo_surface_t* surface = cairo_image_surface_create_from_png(path.c_str());
  Picture picture;
  if (cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS) {
    picture.width = cairo_image_surface_get_width(surface);
    picture.height = cairo_image_surface_get_height(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    const unsigned char* data = cairo_image_surface_get_data(surface);
    for (int y = 0; y < picture.height; ++y) {
      const auto* row = reinterpret_cast<const std::uint32_t*>(data + y * stride);
      for (int x = 0; x < picture.width; ++x) {
        // Pictures are opaque, so premultiplied and straight values agree.
        picture.rgba.push_back((row[x] >> 16) & 0xFF);
        picture.rgba.push_back((row[x] >> 8) & 0xFF);
        picture.rgba.push_back(row[x] & 0xFF);
        picture.rgba.push_back(row[x] >> 24);
      }
    }
  }
  cairo_surface_destroy(surface);
  return picture;
}

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline bool is_white(Rgb8 c) { return c.r == 255 && c.g == 255 && c.b == 255; }
inline bool is_reddish(Rgb8 c) { return c.r > 200 && c.g < 60 && c.b < 60; }

// A 10 m x 10 m world drawn at 10 px/m on 100 x 100 px: world (x, y) is pixel (10 x, 100 - 10 y).
inline Drawing ten_metre_world() {
  Drawing drawing;
  drawing.x_min = 0.0;
  drawing.y_min = 0.0;
  drawing.width = 10.0;
  drawing.height = 10.0;
  return drawing;
}
constexpr ImageSize kSmall{100, 100};

inline ObjectDrawing circle(double x, double y, double radius, Color fill) {
  ObjectDrawing object;
  object.shape.kind = Shape::Kind::kCircle;
  object.shape.center = {x, y};
  object.shape.radius = radius;
  object.fill = fill;
  object.edge = fill;
  return object;
}

constexpr Color kRed{1.0, 0.0, 0.0, 1.0};
constexpr Color kBlue{0.0, 0.0, 1.0, 1.0};
constexpr Color kGreen{0.0, 1.0, 0.0, 1.0};

}  // namespace ubot::render::test_support
