// Raw pixel buffers to PNG with libpng (camera images).
#include "ubot/render/image_png.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ubot/core/error.h"
#include "ubot/core/output_files.h"

namespace ubot::render {
namespace {

// libpng reports errors by longjmp; nothing with a destructor lives between setjmp and the
// calls that can jump (the rows are prepared before).
bool encode(std::FILE* file, int width, int height, int bit_depth, int color_type,
            std::vector<png_bytep>& rows) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  if (!png) return false;
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    return false;
  }
  png_init_io(png, file);
  // Fast deflate: camera images are written at every sample.
  png_set_compression_level(png, 3);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height),
               bit_depth, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_rows(png, info, rows.data());
  png_write_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

void write_file(const std::string& path, int width, int height, int bit_depth, int color_type,
                std::vector<png_bytep>& rows) {
  std::FILE* file = std::fopen(partial_path_for_writing(path).c_str(), "wb");
  if (!file) throw Error(path + ": cannot open for writing: " + std::strerror(errno));
  const bool ok = encode(file, width, height, bit_depth, color_type, rows);
  const bool closed = std::fclose(file) == 0;
  if (!ok || !closed) {
    discard_output(path);  // no truncated picture left behind
    throw Error(path + ": write failed");
  }
  publish_output(path);
}

void check_size(const std::string& path, int width, int height, std::size_t have,
                std::size_t per_pixel) {
  if (width <= 0 || height <= 0 ||
      have != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * per_pixel) {
    throw Error(path + ": image buffer does not match its size");
  }
}

}  // namespace

void write_png_rgba8(const std::string& path, int width, int height,
                     std::span<const std::uint8_t> rgba) {
  check_size(path, width, height, rgba.size(), 4);
  const std::size_t stride = static_cast<std::size_t>(width) * 4;
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) rows[y] = const_cast<png_bytep>(rgba.data() + y * stride);
  write_file(path, width, height, 8, PNG_COLOR_TYPE_RGBA, rows);
}

void write_png_gray16(const std::string& path, int width, int height,
                      std::span<const std::uint16_t> gray) {
  check_size(path, width, height, gray.size(), 1);
  std::vector<std::uint8_t> be(gray.size() * 2);  // PNG samples are big-endian
  for (std::size_t i = 0; i < gray.size(); ++i) {
    be[2 * i] = static_cast<std::uint8_t>(gray[i] >> 8);
    be[2 * i + 1] = static_cast<std::uint8_t>(gray[i] & 0xFF);
  }
  const std::size_t stride = static_cast<std::size_t>(width) * 2;
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) rows[y] = be.data() + y * stride;
  write_file(path, width, height, 16, PNG_COLOR_TYPE_GRAY, rows);
}

}  // namespace ubot::render
