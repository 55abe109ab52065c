#pragma once
// Internal: painting at pixel scale, straight into an ARGB32 surface's pixels, for what is too
// small for anti-aliasing to mean anything: an object under a pixel (a dot), its trail (a 1 px
// line through the pixels its points fall in), a small FOV sector (the pixels whose centres it
// holds, its boundary pixels in the rim colour), the ring around a tiny highlighted object. Each
// costs a few pixel writes, where a Cairo fill or stroke costs 5 to 20 µs whatever its size,
// so a 65,536-object world paints in a fraction of a second. Exact integer blending (Cairo's
// OVER on premultiplied bytes), so pictures stay byte-identical run to run.
#include <cairo.h>

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "ubot/render/drawing.h"

namespace ubot::render::internal {

class Viewport;

// Below these sizes the pixel painter takes over (kDotPx: an object's or goal's larger side;
// kSmallSectorPx: a sector's radius). Every example's objects and sectors are far larger.
inline constexpr double kDotPx = 1.0;
inline constexpr double kSmallSectorPx = 8.0;

// A colour as premultiplied bytes, the way Cairo's ARGB32 stores it.
struct Premultiplied {
  std::uint32_t a = 0, r = 0, g = 0, b = 0;
};
Premultiplied premultiplied(const Color& color);

// The surface's pixels, for direct writes between Cairo's drawing: direct() flushes Cairo before
// the first write of a run of them, cairo() marks the surface dirty before Cairo draws again.
class PixelCanvas {
 public:
  explicit PixelCanvas(cairo_surface_t* surface);
  void direct();
  void cairo();

  // Blends `color` over pixel (x, y), if it lies in the picture.
  void blend(int x, int y, const Premultiplied& color);
  // The pixel holding point `p` (pixel coordinates).
  void dot(const Eigen::Vector2d& p, const Premultiplied& color);
  // A 1 px line from a to b (pixel coordinates), each pixel painted once; `skip_first` leaves
  // out a's pixel (a polyline's joint, painted by the segment before).
  void line(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Premultiplied& color,
            bool skip_first);
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  cairo_surface_t* surface_;
  unsigned char* data_ = nullptr;
  int stride_ = 0, width_ = 0, height_ = 0;
  bool direct_ = false;
};

// A polyline through the finite points (world frame), 1 px wide; a non-finite point breaks it.
void pixel_polyline(PixelCanvas& canvas, const Viewport& view,
                    const std::vector<Eigen::Vector2d>& points, const Color& color);
// A sector with its apex at `apex` (pixels), `radius_px` deep, centred on world angle `heading`,
// `fov` wide (a disc from 2 pi): the pixels whose centres it holds in `fill`, those of them next
// to a pixel outside it also in `rim` (at least the apex's pixel).
void pixel_sector(PixelCanvas& canvas, const Eigen::Vector2d& apex, double radius_px,
                  double heading, double fov, const Color& fill, const Color& rim);
// The pixels whose centres lie between `inner_px` and `outer_px` from `center` (pixels).
void pixel_ring(PixelCanvas& canvas, const Eigen::Vector2d& center, double inner_px,
                double outer_px, const Color& color);

}  // namespace ubot::render::internal
