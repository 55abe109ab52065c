// The picture as a whole: background, world border, discs, beams, objects, highlights, caption.
#include "painter.h"

#include <algorithm>
#include <cmath>

#include "ubot/core/error.h"

namespace ubot::render::internal {
namespace {

// Cairo stores coordinates as 24.8 fixed point; keep far-away points well inside that range.
constexpr double kMaxPixelCoordinate = 1.0e6;
// Cairo's image surfaces are limited to 32767 pixels a side.
constexpr int kMaxSidePx = 32767;
constexpr double kBorderGrey = 0.8;

void paint_background(cairo_t* cr) {
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
  cairo_paint(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

void paint_border(cairo_t* cr, const Viewport& view, const Drawing& d) {
  const Eigen::Vector2d top_left = view.to_px({d.x_min, d.y_min + d.height});
  const Eigen::Vector2d bottom_right = view.to_px({d.x_min + d.width, d.y_min});
  // Half-pixel offsets put a 1 px line exactly on one pixel row, so it stays crisp.
  const double x0 = std::floor(top_left.x()) + 0.5, y0 = std::floor(top_left.y()) + 0.5;
  const double x1 = std::ceil(bottom_right.x()) - 0.5, y1 = std::ceil(bottom_right.y()) - 0.5;
  cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
  cairo_set_source_rgb(cr, kBorderGrey, kBorderGrey, kBorderGrey);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

// The raster through a Cairo image surface (straight grey into opaque ARGB32), scaled onto its
// world rectangle with nearest-pixel filtering so cells stay sharp squares.
void paint_raster(cairo_t* cr, const Viewport& view, const RasterDrawing& r) {
  if (r.columns < 1 || r.rows < 1 || !r.grey ||
      r.grey->size() != static_cast<std::size_t>(r.columns) * r.rows) {
    return;
  }
  SurfacePtr image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, r.columns, r.rows));
  if (cairo_surface_status(image.get()) != CAIRO_STATUS_SUCCESS) return;
  cairo_surface_flush(image.get());
  unsigned char* data = cairo_image_surface_get_data(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  for (int row = 0; row < r.rows; ++row) {
    auto* px = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(row) * stride);
    for (int c = 0; c < r.columns; ++c) {
      const std::uint32_t g = (*r.grey)[static_cast<std::size_t>(row) * r.columns + c];
      px[c] = 0xff000000u | (g << 16) | (g << 8) | g;
    }
  }
  cairo_surface_mark_dirty(image.get());
  const Eigen::Vector2d top_left = view.to_px({r.min.x(), r.max.y()});
  const Eigen::Vector2d bottom_right = view.to_px({r.max.x(), r.min.y()});
  cairo_save(cr);
  cairo_translate(cr, top_left.x(), top_left.y());
  cairo_scale(cr, (bottom_right.x() - top_left.x()) / r.columns,
              (bottom_right.y() - top_left.y()) / r.rows);
  cairo_set_source_surface(cr, image.get(), 0.0, 0.0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle(cr, 0.0, 0.0, r.columns, r.rows);
  cairo_fill(cr);
  cairo_restore(cr);
}

void paint_disc(cairo_t* cr, const Viewport& view, const DiscDrawing& disc) {
  if (!is_finite(disc.center) || !(disc.radius > 0.0)) return;
  const Eigen::Vector2d c = view.to_px(disc.center);
  cairo_new_path(cr);
  cairo_arc(cr, c.x(), c.y(), view.to_px_length(disc.radius), 0.0, 2.0 * M_PI);
  set_source(cr, disc.color);
  cairo_fill(cr);
}

void paint_hit_marks(cairo_t* cr, const Viewport& view, const BeamsDrawing& beams,
                     bool per_beam_colors) {
  const double radius = std::max(1.0, 1.5 * beams.line_width_px);
  for (std::size_t i = 0; i < beams.end_points.size(); ++i) {
    if (!beams.hit[i] || !is_finite(beams.end_points[i])) continue;
    Color color = per_beam_colors ? beams.beam_colors[i] : beams.color;
    // Beams are faint so the map stays readable; the returns themselves must stand out.
    color.a = std::max(color.a, 0.8);
    const Eigen::Vector2d p = view.to_px(beams.end_points[i]);
    cairo_new_path(cr);
    cairo_arc(cr, p.x(), p.y(), radius, 0.0, 2.0 * M_PI);
    set_source(cr, color);
    cairo_fill(cr);
  }
}

// Dots at the beams' own start points (contact markers).
void paint_start_marks(cairo_t* cr, const Viewport& view, const BeamsDrawing& beams) {
  for (const Eigen::Vector2d& start : beams.start_points) {
    if (!is_finite(start)) continue;
    const Eigen::Vector2d p = view.to_px(start);
    cairo_new_path(cr);
    cairo_arc(cr, p.x(), p.y(), beams.start_mark_radius_px, 0.0, 2.0 * M_PI);
    set_source(cr, beams.color);
    cairo_fill(cr);
  }
}

void paint_beams(cairo_t* cr, const Viewport& view, const BeamsDrawing& beams) {
  const bool own_starts = beams.start_points.size() == beams.end_points.size();
  if (own_starts && beams.start_mark_radius_px > 0.0) paint_start_marks(cr, view, beams);
  if ((!own_starts && !is_finite(beams.origin)) || !(beams.line_width_px > 0.0)) return;
  const bool per_beam_colors = beams.beam_colors.size() == beams.end_points.size();
  const Eigen::Vector2d origin = view.to_px(beams.origin);
  cairo_set_line_width(cr, beams.line_width_px);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_new_path(cr);
  for (std::size_t i = 0; i < beams.end_points.size(); ++i) {
    if (!is_finite(beams.end_points[i])) continue;
    if (own_starts && !is_finite(beams.start_points[i])) continue;
    const Eigen::Vector2d end = view.to_px(beams.end_points[i]);
    const Eigen::Vector2d start = own_starts ? view.to_px(beams.start_points[i]) : origin;
    cairo_move_to(cr, start.x(), start.y());
    cairo_line_to(cr, end.x(), end.y());
    if (per_beam_colors) {
      set_source(cr, beams.beam_colors[i]);
      cairo_stroke(cr);
    }
  }
  // One stroke for a single-coloured scan: faster, and the overlap near the origin does not
  // build up into an opaque blob.
  if (!per_beam_colors) {
    set_source(cr, beams.color);
    cairo_stroke(cr);
  }
  if (beams.mark_hits && beams.hit.size() == beams.end_points.size()) {
    paint_hit_marks(cr, view, beams, per_beam_colors);
  }
}

void paint_caption(cairo_t* cr, const std::string& caption, double font_px) {
  if (caption.empty()) return;
  const std::string text = printable_text(caption);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, text.c_str(), &extents);
  const double margin = 0.4 * font_px;
  // A translucent white box keeps the caption readable over whatever lies beneath.
  cairo_rectangle(cr, margin * 0.5, margin * 0.5, extents.x_advance + margin * 2.0,
                  extents.height + margin * 2.0);
  cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.75);
  cairo_fill(cr);
  cairo_move_to(cr, margin * 1.5, margin * 1.5 - extents.y_bearing);
  cairo_set_source_rgb(cr, 0.0, 0.0, 0.0);
  cairo_show_text(cr, text.c_str());
}

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid.
std::size_t utf8_sequence_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;  // overlong
    if (lead == 0xED) hi = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;  // overlong
    if (lead == 0xF4) hi = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

double font_size_px(ImageSize size) {
  return std::clamp(std::min(size.width_px, size.height_px) / 55.0, 9.0, 20.0);
}

}  // namespace

void set_font(cairo_t* cr, double font_px) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, font_px);
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options(cr, options);
  cairo_font_options_destroy(options);
}

void check_world(const Drawing& drawing, const std::string& context) {
  if (!std::isfinite(drawing.x_min) || !std::isfinite(drawing.y_min) ||
      !std::isfinite(drawing.width) || !std::isfinite(drawing.height) || drawing.width <= 0.0 ||
      drawing.height <= 0.0) {
    throw Error(context +
                ": the world rectangle needs finite x_min, y_min and positive width, "
                "height");
  }
}

void check_size(ImageSize size, const std::string& context) {
  if (size.width_px < 1 || size.height_px < 1 || size.width_px > kMaxSidePx ||
      size.height_px > kMaxSidePx) {
    throw Error(context + ": picture size " + std::to_string(size.width_px) + "x" +
                std::to_string(size.height_px) + " px is outside 1.." + std::to_string(kMaxSidePx));
  }
}

SurfacePtr make_surface(ImageSize size, const std::string& context) {
  SurfacePtr surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size.width_px, size.height_px));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    throw Error(context + ": cannot create the picture: " +
                cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  return surface;
}

// One rectangle per run of fogged cells along x, filled at once.
void paint_fog(cairo_t* cr, const Viewport& view, const FogDrawing& fog) {
  for (int j = 0; j < fog.ny; ++j) {
    int i = 0;
    while (i < fog.nx) {
      if (!fog.fogged[static_cast<std::size_t>(i) * fog.ny + j]) {
        ++i;
        continue;
      }
      const int start = i;
      while (i < fog.nx && fog.fogged[static_cast<std::size_t>(i) * fog.ny + j]) ++i;
      const Eigen::Vector2d a =
          view.to_px({fog.x_min + start * fog.cell_width, fog.y_min + j * fog.cell_height});
      const Eigen::Vector2d b =
          view.to_px({fog.x_min + i * fog.cell_width, fog.y_min + (j + 1) * fog.cell_height});
      cairo_rectangle(cr, std::min(a.x(), b.x()), std::min(a.y(), b.y()), std::abs(b.x() - a.x()),
                      std::abs(b.y() - a.y()));
    }
  }
  set_source(cr, fog.color);
  cairo_fill(cr);
}

namespace {

// The caption with a note of what the pixel painter took over.
std::string caption_with(const std::string& caption, const PixelCounts& counts) {
  std::string text = caption;
  if (counts.dots > 0) text += "   objects under 1 px as dots";
  if (counts.sectors > 0) text += "   small FOV sectors as pixels";
  return text;
}

void paint_objects(PaintTarget& t, const Drawing& drawing) {
  for (std::size_t i = 0; i < drawing.objects.size(); ++i) {
    poll_stop(i + 1);
    if (drawing.fog && i == drawing.objects_under_fog) {
      t.pixels.cairo();
      paint_fog(t.cr, t.view, *drawing.fog);
    }
    paint_object(t, drawing.objects[i]);
  }
  t.pixels.cairo();
  if (drawing.fog && drawing.objects_under_fog >= drawing.objects.size()) {
    paint_fog(t.cr, t.view, *drawing.fog);
  }
}

// A thinned scan (a large world's picture: Drawing::beam_stride > 1) at pixel scale: each beam
// a 1 px line, each return a square of the hit mark's size, written straight into the pixels.
// Cairo's anti-aliased stroke and one arc fill per return cost 20 000 beams 0.2 s; these cost
// a few pixel writes each. Pictures within the beam budget (every example) are drawn by Cairo
// as before.
void pixel_beams(PixelCanvas& pixels, const Viewport& view, const BeamsDrawing& beams) {
  if (!is_finite(beams.origin) || !(beams.line_width_px > 0.0)) return;
  pixels.direct();
  const Eigen::Vector2d origin = view.to_px(beams.origin);
  const Premultiplied color = premultiplied(beams.color);
  for (const Eigen::Vector2d& end : beams.end_points) {
    if (is_finite(end)) pixels.line(origin, view.to_px(end), color, false);
  }
  if (!beams.mark_hits || beams.hit.size() != beams.end_points.size()) return;
  Color mark = beams.color;
  mark.a = std::max(mark.a, 0.8);
  const Premultiplied hit = premultiplied(mark);
  const int half = static_cast<int>(std::max(1.0, 1.5 * beams.line_width_px)) / 2;
  for (std::size_t i = 0; i < beams.end_points.size(); ++i) {
    if (!beams.hit[i] || !is_finite(beams.end_points[i])) continue;
    const Eigen::Vector2d p = view.to_px(beams.end_points[i]);
    const int x = static_cast<int>(std::floor(p.x())), y = static_cast<int>(std::floor(p.y()));
    for (int dy = -half; dy <= half; ++dy) {
      for (int dx = -half; dx <= half; ++dx) pixels.blend(x + dx, y + dy, hit);
    }
  }
}

// Whether a scan is painted at pixel scale (pixel_beams): thinned, one colour, its own origin.
bool at_pixel_scale(const Drawing& drawing, const BeamsDrawing& beams) {
  return drawing.beam_stride > 1 && beams.beam_colors.empty() && beams.start_points.empty();
}

void paint_beams_layer(cairo_t* cr, PixelCanvas& pixels, const Viewport& view,
                       const Drawing& drawing, bool over) {
  std::size_t n = 0;
  for (const BeamsDrawing& beams : drawing.beams) {
    poll_stop(++n);
    if (beams.over_objects != over) continue;
    if (at_pixel_scale(drawing, beams)) {
      pixel_beams(pixels, view, beams);
    } else {
      pixels.cairo();
      paint_beams(cr, view, beams);
    }
  }
}

}  // namespace

void paint(cairo_surface_t* surface, const Drawing& drawing, const std::string& context) {
  const ImageSize size{cairo_image_surface_get_width(surface),
                       cairo_image_surface_get_height(surface)};
  const Viewport view(drawing, size);
  const double font_px = font_size_px(size);
  ContextPtr cr(cairo_create(surface));
  set_font(cr.get(), font_px);
  paint_background(cr.get());
  if (drawing.raster) paint_raster(cr.get(), view, *drawing.raster);
  paint_border(cr.get(), view, drawing);
  std::size_t n = 0;
  for (const DiscDrawing& disc : drawing.discs) {
    poll_stop(++n);
    paint_disc(cr.get(), view, disc);
  }
  PixelCanvas pixels(surface);
  paint_beams_layer(cr.get(), pixels, view, drawing, false);
  pixels.cairo();
  PixelCounts counts;
  PaintTarget target{cr.get(), pixels, view, font_px, counts};
  paint_objects(target, drawing);
  paint_beams_layer(cr.get(), pixels, view, drawing, true);
  pixels.cairo();
  for (const HighlightDrawing& h : drawing.highlights) {
    poll_stop(++n);
    paint_highlight(target, h);
  }
  pixels.cairo();
  paint_caption(cr.get(), caption_with(drawing.caption, counts), font_px);
  cairo_surface_flush(surface);
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS) {
    throw Error(context + ": drawing failed: " + cairo_status_to_string(cairo_status(cr.get())));
  }
}

Viewport::Viewport(const Drawing& drawing, ImageSize size)
    : scale_(std::min(size.width_px / drawing.width, size.height_px / drawing.height)),
      offset_x_(0.5 * (size.width_px - scale_ * drawing.width)),
      offset_y_(0.5 * (size.height_px - scale_ * drawing.height)),
      x_min_(drawing.x_min),
      y_top_(drawing.y_min + drawing.height) {}

Eigen::Vector2d Viewport::to_px(const Eigen::Vector2d& world) const {
  const double x = offset_x_ + (world.x() - x_min_) * scale_;
  const double y = offset_y_ + (y_top_ - world.y()) * scale_;
  return {std::clamp(x, -kMaxPixelCoordinate, kMaxPixelCoordinate),
          std::clamp(y, -kMaxPixelCoordinate, kMaxPixelCoordinate)};
}

double Viewport::to_px_length(double metres) const {
  return metres > 0.0 ? std::min(metres * scale_, kMaxPixelCoordinate) : 0.0;
}

bool is_finite(const Eigen::Vector2d& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

void set_source(cairo_t* cr, const Color& color) {
  cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a);
}

std::string printable_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

void add_polyline(cairo_t* cr, const Viewport& view, const std::vector<Eigen::Vector2d>& points) {
  bool pen_down = false;
  for (const Eigen::Vector2d& point : points) {
    if (!is_finite(point)) {
      pen_down = false;
      continue;
    }
    const Eigen::Vector2d p = view.to_px(point);
    if (pen_down) {
      cairo_line_to(cr, p.x(), p.y());
    } else {
      cairo_move_to(cr, p.x(), p.y());
      pen_down = true;
    }
  }
}

}  // namespace ubot::render::internal
