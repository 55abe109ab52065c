// Single pictures: fit_image, render_rgba and write_png.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "painter.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/core/stop.h"

namespace ubot::render {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

struct PngOutput {
  std::FILE* file = nullptr;
  bool stopped = false;  // a stop's finishing budget ran out while encoding
};

// Cairo's PNG encoder calls this with every few KiB it compressed: the place to give up when a
// stop's finishing budget is spent.
cairo_status_t write_to_file(void* closure, const unsigned char* data, unsigned int length) {
  auto* out = static_cast<PngOutput*>(closure);
  if (finish_budget_spent()) {
    out->stopped = true;
    return CAIRO_STATUS_WRITE_ERROR;
  }
  return std::fwrite(data, 1, length, out->file) == length ? CAIRO_STATUS_SUCCESS
                                                           : CAIRO_STATUS_WRITE_ERROR;
}

std::uint8_t unpremultiply(std::uint32_t channel, std::uint32_t alpha) {
  if (alpha == 255) return static_cast<std::uint8_t>(channel);  // the usual case: no division
  if (alpha == 0) return 0;
  return static_cast<std::uint8_t>((channel * 255 + alpha / 2) / alpha);
}

}  // namespace

namespace internal {

// Opens the file ourselves (rather than cairo_surface_write_to_png) to report errno's reason.
void write_surface(cairo_surface_t* surface, const std::string& path, const std::string& context) {
  std::unique_ptr<std::FILE, FileCloser> file(
      std::fopen(partial_path_for_writing(path).c_str(), "wb"));
  if (!file) throw Error(context + ": cannot open for writing: " + std::strerror(errno));
  PngOutput out{file.get()};
  const cairo_status_t status = cairo_surface_write_to_png_stream(surface, write_to_file, &out);
  const int close_result = std::fclose(file.release());
  if (out.stopped) {
    discard_output(path);  // no half picture under any name
    throw Stopped{stop_requested()};
  }
  if (status != CAIRO_STATUS_SUCCESS || close_result != 0) {
    const std::string reason =
        status != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(status) : std::strerror(errno);
    discard_output(path);  // do not leave a truncated picture behind
    throw Error(context + ": write failed: " + reason);
  }
  publish_output(path);
}

std::vector<std::uint8_t> surface_rgba(cairo_surface_t* surface) {
  cairo_surface_flush(surface);
  const int width = cairo_image_surface_get_width(surface);
  const int height = cairo_image_surface_get_height(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
  std::size_t out = 0;
  for (int y = 0; y < height; ++y) {
    const auto* row =
        reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
    for (int x = 0; x < width; ++x) {
      const std::uint32_t argb = row[x];  // premultiplied, native-endian 0xAARRGGBB
      const std::uint32_t a = argb >> 24;
      for (const int shift : {16, 8, 0}) {
        rgba[out++] = unpremultiply((argb >> shift) & 0xFF, a);
      }
      rgba[out++] = static_cast<std::uint8_t>(a);
    }
  }
  return rgba;
}

}  // namespace internal

ImageSize fit_image(const Drawing& drawing, int max_side_px) {
  if (!std::isfinite(drawing.width) || !std::isfinite(drawing.height) || drawing.width <= 0.0 ||
      drawing.height <= 0.0) {
    throw Error("fit_image: the world rectangle needs a positive width and height");
  }
  const int side = std::max(1, max_side_px);
  const auto shorter = [side](double ratio) {
    return static_cast<int>(std::max(1L, std::lround(side * ratio)));
  };
  if (drawing.width >= drawing.height) return {side, shorter(drawing.height / drawing.width)};
  return {shorter(drawing.width / drawing.height), side};
}

std::vector<std::uint8_t> render_rgba(const Drawing& drawing, ImageSize size) {
  const std::string context = "render_rgba";
  internal::check_world(drawing, context);
  internal::check_size(size, context);
  internal::SurfacePtr surface = internal::make_surface(size, context);
  internal::paint(surface.get(), drawing, context);
  return internal::surface_rgba(surface.get());
}

void write_png(const Drawing& drawing, ImageSize size, const std::string& path) {
  const std::string context = "write_png '" + path + "'";
  internal::check_world(drawing, context);
  internal::check_size(size, context);
  internal::SurfacePtr surface = internal::make_surface(size, context);
  internal::paint(surface.get(), drawing, context);
  internal::write_surface(surface.get(), path, context);
}

}  // namespace ubot::render
