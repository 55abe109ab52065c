#pragma once
// Internal: paints a Drawing onto a Cairo image surface. Shared by the PNG and GIF writers so
// both produce the same picture. Coordinates are transformed to pixels here (not with a Cairo
// matrix) so that line widths, dash lengths and text stay in pixels whatever the world scale.
#include <cairo.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pixel_painter.h"
#include "ubot/render/drawing.h"

namespace ubot::render::internal {

struct SurfaceDeleter {
  void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
using SurfacePtr = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

struct ContextDeleter {
  void operator()(cairo_t* cr) const { cairo_destroy(cr); }
};
using ContextPtr = std::unique_ptr<cairo_t, ContextDeleter>;

// Throw ubot::Error starting with `context` (which names the output path) when the world
// rectangle or the picture size cannot be drawn.
void check_world(const Drawing& drawing, const std::string& context);
void check_size(ImageSize size, const std::string& context);

// An opaque-white ARGB32 surface; throws ubot::Error (with `context`) when Cairo cannot make it.
SurfacePtr make_surface(ImageSize size, const std::string& context);

// Writes the surface as a PNG file (removing a partly written file on failure); throws
// ubot::Error starting with `context`.
void write_surface(cairo_surface_t* surface, const std::string& path, const std::string& context);
// The surface's pixels as straight (not premultiplied) RGBA, rows top to bottom.
std::vector<std::uint8_t> surface_rgba(cairo_surface_t* surface);

// Fixed font options: no hinting and no sub-pixel order, so text pixels depend only on the
// drawing (and the installed font), not on desktop settings.
void set_font(cairo_t* cr, double font_px);

// Paints the whole picture, replacing the surface's content; throws ubot::Error (with
// `context`) when Cairo reports a failure.
void paint(cairo_surface_t* surface, const Drawing& drawing, const std::string& context);

// World metres -> pixels: one scale for both axes (circles stay round), the world rectangle
// centred in the picture, y up.
class Viewport {
 public:
  Viewport(const Drawing& drawing, ImageSize size);
  Eigen::Vector2d to_px(const Eigen::Vector2d& world) const;
  // A length (radius, arrow) in pixels; 0 for a length that is not positive (or NaN).
  double to_px_length(double metres) const;

 private:
  double scale_ = 1.0;
  double offset_x_ = 0.0, offset_y_ = 0.0;
  double x_min_ = 0.0, y_top_ = 0.0;
};

bool is_finite(const Eigen::Vector2d& p);
void set_source(cairo_t* cr, const Color& color);
// Adds a polyline through the finite points; a non-finite point breaks the line.
void add_polyline(cairo_t* cr, const Viewport& view, const std::vector<Eigen::Vector2d>& points);

// Cairo rejects invalid UTF-8 and then refuses all further drawing on the context, so every
// text goes through this: invalid bytes become '?'.
std::string printable_text(const std::string& text);

// What the pixel painter took over in a picture, for its caption.
struct PixelCounts {
  std::size_t dots = 0;     // objects under kDotPx painted as dots
  std::size_t sectors = 0;  // sectors under kSmallSectorPx painted as pixels
};

// What the object painters share: Cairo's context, the same surface's pixels, the scale.
struct PaintTarget {
  cairo_t* cr;
  PixelCanvas& pixels;
  const Viewport& view;
  double font_px;
  PixelCounts& counts;
};

// Trajectory, FOV sector, shape, heading arrow, goal marker and label of one object; an object
// under kDotPx is a dot, its trail a 1 px line and its arrow one when at least 2 px long.
void paint_object(PaintTarget& target, const ObjectDrawing& object);
// The band around a highlighted shape (a pixel ring around one under kDotPx).
void paint_highlight(PaintTarget& target, const HighlightDrawing& highlight);

// Throws ubot::Stopped every few thousand items once a stop's finishing budget is spent.
void poll_stop(std::size_t item);

}  // namespace ubot::render::internal
