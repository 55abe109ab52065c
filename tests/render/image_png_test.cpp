// Camera images to PNG: read back with libpng's low-level reader (no colour conversion), every
// sample must come back exactly, 16-bit grey included.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/render/image_png.h"

namespace ubot::render {
namespace {

struct Read {
  int width = 0, height = 0, bit_depth = 0, color_type = 0;
  std::vector<std::vector<std::uint8_t>> rows;
};

Read read_png(const std::string& path) {
  Read r;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return r;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    std::fclose(f);
    return r;
  }
  png_init_io(png, f);
  png_read_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
  r.width = static_cast<int>(png_get_image_width(png, info));
  r.height = static_cast<int>(png_get_image_height(png, info));
  r.bit_depth = png_get_bit_depth(png, info);
  r.color_type = png_get_color_type(png, info);
  png_bytepp rows = png_get_rows(png, info);
  const std::size_t bytes = png_get_rowbytes(png, info);
  for (int y = 0; y < r.height; ++y) r.rows.emplace_back(rows[y], rows[y] + bytes);
  png_destroy_read_struct(&png, &info, nullptr);
  std::fclose(f);
  return r;
}

std::string scratch(const char* name) {
  // The pid keeps parallel test processes (ctest -j, two checkouts) out of each other's files.
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(ImagePng, Rgba8RoundTrips) {
  std::vector<std::uint8_t> rgba(5 * 3 * 4);
  for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<std::uint8_t>(i * 37 + 1);
  const std::string path = scratch("ubot_image_png_rgba.png");
  write_png_rgba8(path, 5, 3, rgba);
  Read r = read_png(path);
  ASSERT_EQ(r.width, 5);
  ASSERT_EQ(r.height, 3);
  EXPECT_EQ(r.bit_depth, 8);
  EXPECT_EQ(r.color_type, PNG_COLOR_TYPE_RGBA);
  for (int y = 0; y < 3; ++y) {
    EXPECT_EQ(r.rows[y],
              std::vector<std::uint8_t>(rgba.begin() + y * 20, rgba.begin() + y * 20 + 20));
  }
  std::filesystem::remove(path);
}

TEST(ImagePng, Gray16IsBigEndianAndExact) {
  const std::vector<std::uint16_t> mm = {0, 1, 255, 256, 5000, 65535};
  const std::string path = scratch("ubot_image_png_gray16.png");
  write_png_gray16(path, 3, 2, mm);
  const Read r = read_png(path);
  ASSERT_EQ(r.width, 3);
  EXPECT_EQ(r.bit_depth, 16);
  EXPECT_EQ(r.color_type, PNG_COLOR_TYPE_GRAY);
  for (int i = 0; i < 6; ++i) {
    const auto& row = r.rows[i / 3];
    EXPECT_EQ(row[2 * (i % 3)] << 8 | row[2 * (i % 3) + 1], mm[i]);
  }
  std::filesystem::remove(path);
}

TEST(ImagePng, BadSizeOrPathIsAnError) {
  const std::vector<std::uint16_t> two(2);
  EXPECT_THROW(write_png_gray16(scratch("ubot_bad.png"), 3, 2, two), Error);
  EXPECT_THROW(write_png_gray16("/nonexistent/dir/x.png", 1, 2, two), Error);
}

}  // namespace
}  // namespace ubot::render
