// Painting at pixel scale (pixel_painter.h): dots, 1 px lines, small sectors and rings written
// straight into the surface's premultiplied pixels.
#include "pixel_painter.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "painter.h"

namespace ubot::render::internal {
namespace {

std::uint32_t byte_of(double unit) {
  return static_cast<std::uint32_t>(std::lround(std::clamp(unit, 0.0, 1.0) * 255.0));
}

// x * y / 255, rounded, for bytes (exact: the usual (t + (t >> 8)) >> 8 with t = x y + 128).
std::uint32_t mul_255(std::uint32_t x, std::uint32_t y) {
  const std::uint32_t t = x * y + 128;
  return (t + (t >> 8)) >> 8;
}

// Clips segment a-b to the rectangle [lo, hi] (Liang-Barsky); false when nothing is left. Keeps
// a line's cost to the pixels it crosses inside the picture, however far its ends lie.
bool clip(Eigen::Vector2d& a, Eigen::Vector2d& b, const Eigen::Vector2d& lo,
          const Eigen::Vector2d& hi) {
  const Eigen::Vector2d d = b - a;
  double t0 = 0.0, t1 = 1.0;
  for (int axis = 0; axis < 2; ++axis) {
    const double p[2] = {-d[axis], d[axis]};
    const double q[2] = {a[axis] - lo[axis], hi[axis] - a[axis]};
    for (int k = 0; k < 2; ++k) {
      if (p[k] == 0.0) {
        if (q[k] < 0.0) return false;
        continue;
      }
      const double t = q[k] / p[k];
      if (p[k] < 0.0) {
        t0 = std::max(t0, t);
      } else {
        t1 = std::min(t1, t);
      }
    }
  }
  if (t0 > t1) return false;
  const Eigen::Vector2d start = a;
  a = start + t0 * d;
  b = start + t1 * d;
  return true;
}

double cross(const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
  return u.x() * v.y() - u.y() * v.x();
}

// Whether world-frame offset v from the apex lies in the sector: within the radius and between
// the side directions `from` (heading - fov / 2) and `to` (heading + fov / 2), counter-clockwise.
struct SectorTest {
  double radius2 = 0.0;
  Eigen::Vector2d from, to;
  bool full = false, wide = false;  // a disc; wider than a half turn

  bool holds(const Eigen::Vector2d& v) const {
    if (v.squaredNorm() > radius2) return false;
    if (full) return true;
    // Narrow: left of `from` and right of `to`. Wide: not in the narrow gap from `to` to `from`.
    if (!wide) return cross(from, v) >= 0.0 && cross(v, to) >= 0.0;
    return !(cross(to, v) > 0.0 && cross(v, from) > 0.0);
  }
};

}  // namespace

Premultiplied premultiplied(const Color& color) {
  const double a = std::clamp(color.a, 0.0, 1.0);
  return {byte_of(a), byte_of(color.r * a), byte_of(color.g * a), byte_of(color.b * a)};
}

PixelCanvas::PixelCanvas(cairo_surface_t* surface)
    : surface_(surface),
      data_(cairo_image_surface_get_data(surface)),
      stride_(cairo_image_surface_get_stride(surface)),
      width_(cairo_image_surface_get_width(surface)),
      height_(cairo_image_surface_get_height(surface)) {}

void PixelCanvas::direct() {
  if (direct_) return;
  cairo_surface_flush(surface_);
  direct_ = true;
}

void PixelCanvas::cairo() {
  if (!direct_) return;
  cairo_surface_mark_dirty(surface_);
  direct_ = false;
}

void PixelCanvas::blend(int x, int y, const Premultiplied& c) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_ || c.a == 0) return;
  auto* px = reinterpret_cast<std::uint32_t*>(data_ + std::ptrdiff_t{y} * stride_) + x;
  const std::uint32_t d = *px, keep = 255 - c.a;
  const std::uint32_t a = c.a + mul_255(d >> 24, keep);
  const std::uint32_t r = c.r + mul_255((d >> 16) & 0xFF, keep);
  const std::uint32_t g = c.g + mul_255((d >> 8) & 0xFF, keep);
  const std::uint32_t b = c.b + mul_255(d & 0xFF, keep);
  *px = (a << 24) | (r << 16) | (g << 8) | b;
}

void PixelCanvas::dot(const Eigen::Vector2d& p, const Premultiplied& color) {
  if (!std::isfinite(p.x()) || !std::isfinite(p.y())) return;
  blend(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y())), color);
}

void PixelCanvas::line(const Eigen::Vector2d& from, const Eigen::Vector2d& to,
                       const Premultiplied& color, bool skip_first) {
  Eigen::Vector2d a = from, b = to;
  const Eigen::Vector2d lo(-1.0, -1.0), hi(width_ + 1.0, height_ + 1.0);
  if (!clip(a, b, lo, hi)) return;
  skip_first = skip_first && a == from;  // a clipped start is no joint
  // One sample per pixel along the longer axis, each pixel painted once.
  const int steps = static_cast<int>(std::ceil((b - a).cwiseAbs().maxCoeff()));
  int last_x = static_cast<int>(std::floor(a.x())), last_y = static_cast<int>(std::floor(a.y()));
  if (!skip_first) blend(last_x, last_y, color);
  for (int i = 1; i <= steps; ++i) {
    const Eigen::Vector2d q = a + (b - a) * (static_cast<double>(i) / steps);
    const int x = static_cast<int>(std::floor(q.x())), y = static_cast<int>(std::floor(q.y()));
    if (x == last_x && y == last_y) continue;
    blend(x, y, color);
    last_x = x;
    last_y = y;
  }
}

void pixel_polyline(PixelCanvas& canvas, const Viewport& view,
                    const std::vector<Eigen::Vector2d>& points, const Color& color) {
  const Premultiplied c = premultiplied(color);
  bool pen_down = false;
  Eigen::Vector2d last;
  for (const Eigen::Vector2d& point : points) {
    if (!is_finite(point)) {
      pen_down = false;
      continue;
    }
    const Eigen::Vector2d p = view.to_px(point);
    // A point in the same pixel as the one before adds nothing (a stopped robot's trail).
    if (pen_down && std::floor(p.x()) == std::floor(last.x()) &&
        std::floor(p.y()) == std::floor(last.y())) {
      continue;
    }
    if (pen_down) canvas.line(last, p, c, true);
    if (!pen_down) canvas.dot(p, c);
    last = p;
    pen_down = true;
  }
}

void pixel_sector(PixelCanvas& canvas, const Eigen::Vector2d& apex, double radius_px,
                  double heading, double fov, const Color& fill, const Color& rim) {
  // The sector's box, one pixel wider all round so that boundary pixels see an outside one.
  constexpr int kSpan = 2 * static_cast<int>(kSmallSectorPx) + 4;
  const int x0 = static_cast<int>(std::floor(apex.x() - radius_px)) - 1;
  const int y0 = static_cast<int>(std::floor(apex.y() - radius_px)) - 1;
  const int n = std::min(kSpan, static_cast<int>(std::ceil(2.0 * radius_px)) + 3);
  SectorTest test;
  test.radius2 = radius_px * radius_px;
  test.full = fov >= 2.0 * M_PI;
  test.wide = fov > M_PI;
  test.from = {std::cos(heading - 0.5 * fov), std::sin(heading - 0.5 * fov)};
  test.to = {std::cos(heading + 0.5 * fov), std::sin(heading + 0.5 * fov)};
  std::array<std::uint8_t, kSpan * kSpan> inside{};
  bool any = false;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      // Pixel y points down: world offset (dx, -dy).
      const Eigen::Vector2d v(x0 + i + 0.5 - apex.x(), apex.y() - (y0 + j + 0.5));
      inside[j * kSpan + i] = test.holds(v);
      any = any || inside[j * kSpan + i];
    }
  }
  const Premultiplied f = premultiplied(fill), r = premultiplied(rim);
  if (!any) {
    canvas.dot(apex, r);  // smaller than a pixel centre's reach: still marked
    return;
  }
  for (int j = 1; j + 1 < n; ++j) {
    for (int i = 1; i + 1 < n; ++i) {
      const std::uint8_t* at = &inside[j * kSpan + i];
      if (!*at) continue;
      canvas.blend(x0 + i, y0 + j, f);
      if (!at[-1] || !at[1] || !at[-kSpan] || !at[kSpan]) canvas.blend(x0 + i, y0 + j, r);
    }
  }
}

void pixel_ring(PixelCanvas& canvas, const Eigen::Vector2d& center, double inner_px,
                double outer_px, const Color& color) {
  const Premultiplied c = premultiplied(color);
  const int x0 = static_cast<int>(std::floor(center.x() - outer_px));
  const int x1 = static_cast<int>(std::ceil(center.x() + outer_px));
  const int y0 = static_cast<int>(std::floor(center.y() - outer_px));
  const int y1 = static_cast<int>(std::ceil(center.y() + outer_px));
  const double in2 = inner_px * inner_px, out2 = outer_px * outer_px;
  for (int y = std::max(0, y0); y <= std::min(canvas.height() - 1, y1); ++y) {
    for (int x = std::max(0, x0); x <= std::min(canvas.width() - 1, x1); ++x) {
      const double d2 = (Eigen::Vector2d(x + 0.5, y + 0.5) - center).squaredNorm();
      if (d2 >= in2 && d2 < out2) canvas.blend(x, y, c);
    }
  }
}

}  // namespace ubot::render::internal
