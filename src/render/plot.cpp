// Stacked line plots: frame, grid, ticks, labels, series and legend per panel.
#include "ubot/render/plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "painter.h"
#include "ubot/core/error.h"

namespace ubot::render {
namespace {

constexpr double kLeftPx = 72.0, kRightPx = 16.0, kTopPx = 34.0, kBottomPx = 44.0;
constexpr double kPanelGapPx = 34.0, kFontPx = 12.0;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  // A drawable interval: an empty range becomes [-1, 1], a flat one gets some
  // room.
  Range padded(double fraction) const {
    if (!(lo <= hi)) return {-1.0, 1.0};
    const double span = hi - lo;
    const double pad = span > 0.0 ? span * fraction : std::max(std::abs(lo) * 0.1, 1.0);
    return {lo - pad, hi + pad};
  }
};

// Data -> pixels inside one panel's frame.
struct Frame {
  double x0, y0, width, height;  // pixels
  Range x, y;                    // data
  double px(double v) const { return x0 + (v - x.lo) / (x.hi - x.lo) * width; }
  double py(double v) const { return y0 + (y.hi - v) / (y.hi - y.lo) * height; }
};

std::string tick_label(double v, double step) {
  if (std::abs(v) < step * 1e-9) v = 0.0;  // no "-1.7e-17" for zero
  return fmt::format("{:g}", v);
}

void show_text(cairo_t* cr, const std::string& text, double x, double y, double align_x,
               double align_y) {
  const std::string t = internal::printable_text(text);
  cairo_text_extents_t e;
  cairo_text_extents(cr, t.c_str(), &e);
  cairo_move_to(cr, x - align_x * e.x_advance, y - e.y_bearing - align_y * e.height);
  cairo_show_text(cr, t.c_str());
}

void paint_grid(cairo_t* cr, const Frame& f, bool x_labels) {
  cairo_set_line_width(cr, 1.0);
  const auto xs = nice_ticks(f.x.lo, f.x.hi, 8), ys = nice_ticks(f.y.lo, f.y.hi, 5);
  cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
  for (double x : xs) {
    cairo_move_to(cr, std::round(f.px(x)) + 0.5, f.y0);
    cairo_line_to(cr, std::round(f.px(x)) + 0.5, f.y0 + f.height);
  }
  for (double y : ys) {
    cairo_move_to(cr, f.x0, std::round(f.py(y)) + 0.5);
    cairo_line_to(cr, f.x0 + f.width, std::round(f.py(y)) + 0.5);
  }
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  const double y_step = ys.size() > 1 ? ys[1] - ys[0] : 1.0;
  for (double y : ys) show_text(cr, tick_label(y, y_step), f.x0 - 6.0, f.py(y), 1.0, 0.5);
  if (x_labels) {
    const double x_step = xs.size() > 1 ? xs[1] - xs[0] : 1.0;
    for (double x : xs) {
      show_text(cr, tick_label(x, x_step), f.px(x), f.y0 + f.height + 5.0, 0.5, 0.0);
    }
  }
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_rectangle(cr, f.x0 + 0.5, f.y0 + 0.5, f.width - 1.0, f.height - 1.0);
  cairo_stroke(cr);
}

// A point of a series in pixels; x NaN marks a break in the line (a sample
// without data).
struct Pixel {
  double x, y;
  bool is_break() const { return std::isnan(x); }
};
constexpr Pixel kBreak{std::numeric_limits<double>::quiet_NaN(), 0.0};

// The points of one pixel column, for M4 aggregation: the first, lowest,
// highest and last.
class ColumnOfPoints {
 public:
  bool empty() const { return count_ == 0; }
  double column() const { return column_; }
  void add(std::size_t i, Pixel p) {
    if (count_++ == 0) {
      column_ = std::floor(p.x);
      first_ = last_ = low_ = high_ = {i, p};
      return;
    }
    last_ = {i, p};
    if (p.y > low_.p.y) low_ = {i, p};  // pixel y grows downwards
    if (p.y < high_.p.y) high_ = {i, p};
  }
  // Appends the kept points in the order they came, and empties the column.
  void flush(std::vector<Pixel>& out) {
    if (count_ == 0) return;
    out.push_back(first_.p);
    const bool low_first = low_.i < high_.i;
    for (const Indexed& q : {low_first ? low_ : high_, low_first ? high_ : low_}) {
      if (q.i != first_.i && q.i != last_.i) out.push_back(q.p);
    }
    if (last_.i != first_.i) out.push_back(last_.p);
    count_ = 0;
  }

 private:
  struct Indexed {
    std::size_t i;
    Pixel p;
  };
  std::size_t count_ = 0;
  double column_ = 0.0;
  Indexed first_{}, last_{}, low_{}, high_{};
};

// A series' points in pixels, in order, breaks included. A series with many
// more points than the frame has pixel columns (an IMU's million samples across
// 900 columns) keeps, of each column's run of points, only the first, lowest,
// highest and last (M4 aggregation, Jugel et al., VLDB 2014): the line through
// them covers the same pixels, and drawing costs the columns, not the samples
// (a million samples took a minute to stroke).
std::vector<Pixel> series_pixels(const Frame& f, const PlotSeries& s) {
  const std::size_t n = std::min(s.x.size(), s.y.size());
  const bool aggregate = static_cast<double>(n) > 4.0 * f.width;
  std::vector<Pixel> out;
  out.reserve(aggregate ? static_cast<std::size_t>(4.0 * f.width) + 16 : n);
  ColumnOfPoints column;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
      column.flush(out);
      if (out.empty() || !out.back().is_break()) out.push_back(kBreak);
      continue;
    }
    // Clamped so that far-out values stay inside Cairo's fixed-point range.
    const Pixel p{std::clamp(f.px(s.x[i]), -1e6, 1e6), std::clamp(f.py(s.y[i]), -1e6, 1e6)};
    if (!aggregate) {
      out.push_back(p);
      continue;
    }
    if (!column.empty() && std::floor(p.x) != column.column()) column.flush(out);
    column.add(i, p);
  }
  column.flush(out);
  return out;
}

void paint_series(cairo_t* cr, const Frame& f, const PlotSeries& s) {
  cairo_save(cr);
  cairo_rectangle(cr, f.x0, f.y0, f.width, f.height);
  cairo_clip(cr);
  cairo_new_path(cr);
  bool pen_down = false;
  for (const Pixel& p : series_pixels(f, s)) {
    if (p.is_break()) {
      pen_down = false;
    } else if (pen_down) {
      cairo_line_to(cr, p.x, p.y);
    } else {
      cairo_move_to(cr, p.x, p.y);
      cairo_line_to(cr, p.x, p.y);  // a lone point still shows as a dot
      pen_down = true;
    }
  }
  internal::set_source(cr, s.color);
  cairo_set_line_width(cr, 1.3);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke(cr);
  cairo_restore(cr);
}

void paint_legend(cairo_t* cr, const Frame& f, const std::vector<PlotSeries>& series) {
  double x = f.x0 + f.width - 8.0;
  // Right to left, so the entries end at the frame's right edge.
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    const std::string label = internal::printable_text(it->label);
    cairo_text_extents_t e;
    cairo_text_extents(cr, label.c_str(), &e);
    x -= e.x_advance;
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    show_text(cr, label, x, f.y0 - 4.0, 0.0, 1.0);
    x -= 22.0;
    internal::set_source(cr, it->color);
    cairo_set_line_width(cr, 2.0);
    cairo_move_to(cr, x, f.y0 - 4.0 - 0.5 * kFontPx * 0.7);
    cairo_line_to(cr, x + 16.0, f.y0 - 4.0 - 0.5 * kFontPx * 0.7);
    cairo_stroke(cr);
    x -= 12.0;
  }
}

void paint_plot(cairo_surface_t* surface, const Plot& plot, const std::string& context) {
  const double width = cairo_image_surface_get_width(surface);
  const double height = cairo_image_surface_get_height(surface);
  internal::ContextPtr context_ptr(cairo_create(surface));
  cairo_t* cr = context_ptr.get();
  internal::set_font(cr, kFontPx);
  cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, 0.0, 0.0, 0.0);
  show_text(cr, plot.title, width / 2.0, 8.0, 0.5, 0.0);

  Range x;
  for (const PlotPanel& p : plot.panels) {
    for (const PlotSeries& s : p.series) {
      for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
        if (std::isfinite(s.y[i])) x.add(s.x[i]);
      }
    }
  }
  if (!(x.lo < x.hi)) x = x.padded(0.0);
  const int n = static_cast<int>(plot.panels.size());
  const double panel_height =
      n > 0 ? (height - kTopPx - kBottomPx - (n - 1) * kPanelGapPx) / n : 0.0;
  for (int k = 0; k < n; ++k) {
    const PlotPanel& panel = plot.panels[k];
    Range y;
    for (const PlotSeries& s : panel.series) {
      for (double v : s.y) y.add(v);
    }
    const Frame f{kLeftPx,
                  kTopPx + k * (panel_height + kPanelGapPx),
                  width - kLeftPx - kRightPx,
                  panel_height,
                  x,
                  y.padded(0.05)};
    if (f.width <= 0.0 || f.height <= 0.0) continue;
    paint_grid(cr, f, k == n - 1);
    for (const PlotSeries& s : panel.series) paint_series(cr, f, s);
    cairo_set_source_rgb(cr, 0.0, 0.0, 0.0);
    show_text(cr, panel.y_label, f.x0, f.y0 - 4.0, 0.0, 1.0);
    paint_legend(cr, f, panel.series);
  }
  cairo_set_source_rgb(cr, 0.0, 0.0, 0.0);
  show_text(cr, plot.x_label, kLeftPx + (width - kLeftPx - kRightPx) / 2.0, height - 6.0, 0.5, 1.0);
  cairo_surface_flush(surface);
  if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
    throw Error(context + ": drawing failed: " + cairo_status_to_string(cairo_status(cr)));
  }
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi) || max_ticks < 1) return {};
  // The smallest step of 1, 2 or 5 × 10^k that gives at most max_ticks + 1
  // ticks.
  double magnitude = std::pow(10.0, std::floor(std::log10((hi - lo) / max_ticks)));
  double first = 0.0, last = -1.0, step = magnitude;
  for (int i = 0;; ++i) {
    step = magnitude * (i % 3 == 0 ? 1.0 : i % 3 == 1 ? 2.0 : 5.0);
    if (i % 3 == 2) magnitude *= 10.0;
    first = std::ceil(lo / step - 1e-9);
    last = std::floor(hi / step + 1e-9);
    if (last - first + 1.0 <= max_ticks + 1.0) break;
  }
  std::vector<double> ticks;
  // Integer multiples of the step, so that 0 is exactly 0 (not -0) and values
  // do not drift.
  for (double k = first; k <= last; k += 1.0) {
    const double tick = k * step + 0.0;
    if (tick >= lo && tick <= hi) ticks.push_back(tick);
  }
  return ticks;
}

std::vector<std::uint8_t> render_plot_rgba(const Plot& plot, ImageSize size) {
  const std::string context = "render_plot_rgba";
  internal::check_size(size, context);
  internal::SurfacePtr surface = internal::make_surface(size, context);
  paint_plot(surface.get(), plot, context);
  return internal::surface_rgba(surface.get());
}

void write_plot_png(const Plot& plot, ImageSize size, const std::string& path) {
  const std::string context = "write_plot_png '" + path + "'";
  internal::check_size(size, context);
  internal::SurfacePtr surface = internal::make_surface(size, context);
  paint_plot(surface.get(), plot, context);
  internal::write_surface(surface.get(), path, context);
}

}  // namespace ubot::render
