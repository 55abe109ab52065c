// One object: trajectory, FOV sector, shape, heading arrow, goal marker, label (in that order,
// so the shape covers its own trail and sector but not its arrow); and highlights around shapes.
#include <algorithm>
#include <cmath>

#include "painter.h"
#include "ubot/core/stop.h"

namespace ubot::render::internal {
namespace {

// Pixel sizes used when the drawing leaves a size at 0 and the shape gives no hint.
constexpr double kFallbackArrowPx = 20.0;
constexpr double kFallbackGoalPx = 8.0;
constexpr double kGoalFillAlpha = 0.35;

struct Box {
  Eigen::Vector2d min = Eigen::Vector2d::Zero(), max = Eigen::Vector2d::Zero();  // world frame
  bool valid = false;
};

Box bounding_box(const Shape& shape) {
  Box box;
  if (shape.kind == Shape::Kind::kCircle) {
    if (!is_finite(shape.center) || !std::isfinite(shape.radius)) return box;
    const Eigen::Vector2d r(shape.radius, shape.radius);
    return {shape.center - r, shape.center + r, true};
  }
  for (const Eigen::Vector2d& v : shape.vertices) {
    if (!is_finite(v)) continue;
    box.min = box.valid ? box.min.cwiseMin(v) : v;
    box.max = box.valid ? box.max.cwiseMax(v) : v;
    box.valid = true;
  }
  return box;
}

// Half the larger side of the shape's bounding box: the object's size for auto-sized markers.
double half_extent(const Shape& shape) {
  const Box box = bounding_box(shape);
  return box.valid ? 0.5 * (box.max - box.min).maxCoeff() : 0.0;
}

bool pose_is_finite(const Eigen::Vector3d& pose) { return pose.allFinite(); }

// An arrow or tick must be visible even when the outline is switched off ("none").
Color marker_color(const ObjectDrawing& object) {
  return object.edge.a > 0.0 ? object.edge : object.fill;
}

void paint_trajectory(cairo_t* cr, const Viewport& view, const ObjectDrawing& object) {
  if (object.trajectory.size() < 2) return;
  cairo_new_path(cr);
  add_polyline(cr, view, object.trajectory);
  cairo_set_line_width(cr, std::max(1.0, object.line_width_px));
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  set_source(cr, object.trajectory_color);
  cairo_stroke(cr);
}

void paint_fov(cairo_t* cr, const Viewport& view, const ObjectDrawing& object) {
  const double radius_px = view.to_px_length(object.fov_radius);
  if (!object.pose || !pose_is_finite(*object.pose) || !(object.fov > 0.0) || radius_px == 0.0) {
    return;
  }
  const Eigen::Vector2d apex = view.to_px(object.pose->head<2>());
  cairo_new_path(cr);
  if (object.fov >= 2.0 * M_PI) {
    cairo_arc(cr, apex.x(), apex.y(), radius_px, 0.0, 2.0 * M_PI);
  } else {
    // Pixel y points down, so a world angle a is the pixel angle -a.
    const double heading = (*object.pose)(2);
    cairo_move_to(cr, apex.x(), apex.y());
    cairo_arc(cr, apex.x(), apex.y(), radius_px, -(heading + 0.5 * object.fov),
              -(heading - 0.5 * object.fov));
    cairo_close_path(cr);
  }
  set_source(cr, object.fov_color);
  cairo_fill_preserve(cr);
  // A slightly stronger rim shows where the sector ends even when the fill is very faint.
  Color rim = object.fov_color;
  rim.a = std::min(1.0, 2.0 * rim.a);
  set_source(cr, rim);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
}

void add_shape_path(cairo_t* cr, const Viewport& view, const Shape& shape) {
  cairo_new_path(cr);
  if (shape.kind == Shape::Kind::kCircle) {
    if (!is_finite(shape.center) || !(shape.radius > 0.0)) return;
    const Eigen::Vector2d c = view.to_px(shape.center);
    cairo_arc(cr, c.x(), c.y(), view.to_px_length(shape.radius), 0.0, 2.0 * M_PI);
    cairo_close_path(cr);
    return;
  }
  add_polyline(cr, view, shape.vertices);
  if (shape.kind == Shape::Kind::kPolygon) cairo_close_path(cr);
}

void paint_shape(cairo_t* cr, const Viewport& view, const ObjectDrawing& object) {
  add_shape_path(cr, view, object.shape);
  if (object.filled && object.shape.kind != Shape::Kind::kPolyline) {
    set_source(cr, object.fill);
    cairo_fill_preserve(cr);
  }
  if (object.line_width_px > 0.0 && object.edge.a > 0.0) {
    const double lw = object.line_width_px;
    if (object.dashed) {
      const double dashes[] = {std::max(4.0, 4.0 * lw), std::max(2.5, 2.5 * lw)};
      cairo_set_dash(cr, dashes, 2, 0.0);
    }
    cairo_set_line_width(cr, lw);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    set_source(cr, object.edge);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0.0);
  }
  cairo_new_path(cr);
}

// A shaft from `from` (pixels) along world angle `angle`, ending in a filled triangular head.
void paint_arrow_px(cairo_t* cr, const Eigen::Vector2d& from, double angle, double length_px,
                    double width_px) {
  const Eigen::Vector2d dir(std::cos(angle), -std::sin(angle));  // pixel y points down
  const Eigen::Vector2d normal(-dir.y(), dir.x());
  const double head = std::min(0.4 * length_px, 5.0 + 3.0 * width_px);
  const Eigen::Vector2d tip = from + dir * length_px;
  const Eigen::Vector2d base = tip - dir * head;
  cairo_new_path(cr);
  cairo_move_to(cr, from.x(), from.y());
  cairo_line_to(cr, base.x(), base.y());
  cairo_set_line_width(cr, width_px);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
  cairo_stroke(cr);
  const Eigen::Vector2d left = base + normal * (0.5 * head);
  const Eigen::Vector2d right = base - normal * (0.5 * head);
  cairo_move_to(cr, tip.x(), tip.y());
  cairo_line_to(cr, left.x(), left.y());
  cairo_line_to(cr, right.x(), right.y());
  cairo_close_path(cr);
  cairo_fill(cr);
}

void paint_heading(cairo_t* cr, const Viewport& view, const ObjectDrawing& object) {
  if (!object.pose || !pose_is_finite(*object.pose)) return;
  double length_px = view.to_px_length(object.arrow_length);
  // Auto: reach well past the outline so the heading reads at a glance.
  if (length_px == 0.0) length_px = view.to_px_length(1.6 * half_extent(object.shape));
  if (length_px == 0.0) length_px = kFallbackArrowPx;
  set_source(cr, marker_color(object));
  paint_arrow_px(cr, view.to_px(object.pose->head<2>()), (*object.pose)(2), length_px,
                 std::max(1.0, object.line_width_px));
}

void paint_goal(cairo_t* cr, const Viewport& view, const ObjectDrawing& object) {
  if (!object.goal || !pose_is_finite(*object.goal)) return;
  double radius_px = view.to_px_length(object.goal_radius);
  if (radius_px == 0.0) radius_px = view.to_px_length(half_extent(object.shape));
  if (radius_px == 0.0) radius_px = kFallbackGoalPx;
  const Eigen::Vector2d c = view.to_px(object.goal->head<2>());
  // A translucent ghost of the object's colour: clearly a target, not a second object.
  Color ghost = object.fill;
  ghost.a *= kGoalFillAlpha;
  cairo_new_path(cr);
  cairo_arc(cr, c.x(), c.y(), radius_px, 0.0, 2.0 * M_PI);
  set_source(cr, ghost);
  cairo_fill_preserve(cr);
  Color rim = object.fill;
  rim.a = std::max(rim.a, 0.6);
  set_source(cr, rim);
  cairo_set_line_width(cr, 1.0);
  cairo_stroke(cr);
  // A short tick shows the goal heading.
  const double angle = (*object.goal)(2);
  const Eigen::Vector2d tip =
      c + 1.6 * radius_px * Eigen::Vector2d(std::cos(angle), -std::sin(angle));
  cairo_move_to(cr, c.x(), c.y());
  cairo_line_to(cr, tip.x(), tip.y());
  cairo_set_line_width(cr, 1.5);
  cairo_stroke(cr);
}

void paint_label(cairo_t* cr, const Viewport& view, const ObjectDrawing& object, double font_px) {
  if (object.label.empty()) return;
  Box box = bounding_box(object.shape);
  if (!box.valid) {
    if (!object.pose || !pose_is_finite(*object.pose)) return;
    box = {object.pose->head<2>(), object.pose->head<2>(), true};
  }
  // Just above and to the right of the object, clear of its outline.
  const Eigen::Vector2d corner = view.to_px({box.max.x(), box.max.y()});
  const std::string text = printable_text(object.label);
  cairo_set_font_size(cr, 0.85 * font_px);
  cairo_move_to(cr, corner.x() + 2.0, corner.y() - 2.0);
  set_source(cr, object.edge.a > 0.0 ? object.edge : Color{});
  cairo_show_text(cr, text.c_str());
  cairo_new_path(cr);
  cairo_set_font_size(cr, font_px);
}

// The larger side of the shape's box in pixels, when the shape is drawn at all (a circle of
// positive radius, a finite vertex); negative otherwise.
double size_px(const Viewport& view, const Shape& shape) {
  if (shape.kind == Shape::Kind::kCircle && !(shape.radius > 0.0)) return -1.0;
  const Box box = bounding_box(shape);
  return box.valid ? view.to_px_length((box.max - box.min).maxCoeff()) : -1.0;
}

bool is_dot(const Viewport& view, const Shape& shape) {
  const double px = size_px(view, shape);
  return px >= 0.0 && px < kDotPx;
}

Eigen::Vector2d box_center(const Shape& shape) {
  const Box box = bounding_box(shape);
  return 0.5 * (box.min + box.max);
}

// An object under a pixel: its trail as a 1 px line, its sector (Cairo's or pixels), the dot of
// its fill (its outline's colour when unfilled), its heading as a 1 px line when at least 2 px
// long (shorter, it stays inside the dot's neighbourhood), its goal.
void paint_dot_object(PaintTarget& t, const ObjectDrawing& object);

// A sector under kSmallSectorPx as pixels (the fill, the rim on its boundary pixels).
bool paint_small_fov(PaintTarget& t, const ObjectDrawing& object) {
  const double radius_px = t.view.to_px_length(object.fov_radius);
  if (!object.pose || !pose_is_finite(*object.pose) || !(object.fov > 0.0) || radius_px == 0.0 ||
      radius_px >= kSmallSectorPx) {
    return false;
  }
  Color rim = object.fov_color;
  rim.a = std::min(1.0, 2.0 * rim.a);
  t.pixels.direct();
  pixel_sector(t.pixels, t.view.to_px(object.pose->head<2>()), radius_px, (*object.pose)(2),
               object.fov, object.fov_color, rim);
  ++t.counts.sectors;
  return true;
}

void paint_fov_any(PaintTarget& t, const ObjectDrawing& object) {
  if (!(object.fov > 0.0) || paint_small_fov(t, object)) return;
  t.pixels.cairo();
  paint_fov(t.cr, t.view, object);
}

// A goal marker under kDotPx: a dot in its rim's colour.
bool paint_dot_goal(PaintTarget& t, const ObjectDrawing& object) {
  if (!object.goal || !pose_is_finite(*object.goal)) return false;
  double radius_px = t.view.to_px_length(object.goal_radius);
  if (radius_px == 0.0) radius_px = t.view.to_px_length(half_extent(object.shape));
  if (radius_px == 0.0 || 2.0 * radius_px >= kDotPx) return false;
  Color rim = object.fill;
  rim.a = std::max(rim.a, 0.6);
  t.pixels.direct();
  t.pixels.dot(t.view.to_px(object.goal->head<2>()), premultiplied(rim));
  return true;
}

void paint_dot_object(PaintTarget& t, const ObjectDrawing& object) {
  ++t.counts.dots;
  t.pixels.direct();
  pixel_polyline(t.pixels, t.view, object.trajectory, object.trajectory_color);
  paint_fov_any(t, object);
  t.pixels.direct();
  const bool fill =
      object.filled && object.shape.kind != Shape::Kind::kPolyline && object.fill.a > 0.0;
  t.pixels.dot(t.view.to_px(box_center(object.shape)),
               premultiplied(fill ? object.fill : object.edge));
  if (object.pose && pose_is_finite(*object.pose)) {
    double length_px = t.view.to_px_length(object.arrow_length);
    if (length_px == 0.0) length_px = t.view.to_px_length(1.6 * half_extent(object.shape));
    if (length_px >= 2.0) {
      const Eigen::Vector2d from = t.view.to_px(object.pose->head<2>());
      const double angle = (*object.pose)(2);
      const Eigen::Vector2d to =
          from + length_px * Eigen::Vector2d(std::cos(angle), -std::sin(angle));
      t.pixels.line(from, to, premultiplied(marker_color(object)), true);
    }
  }
  if (object.goal && !paint_dot_goal(t, object)) {
    t.pixels.cairo();
    paint_goal(t.cr, t.view, object);
  }
  if (!object.label.empty()) {
    t.pixels.cairo();
    paint_label(t.cr, t.view, object, t.font_px);
  }
}

// A ring gap..gap + width px around the circle that holds a shape under kDotPx.
void paint_dot_highlight(PaintTarget& t, const HighlightDrawing& highlight) {
  const double inner = 0.5 * size_px(t.view, highlight.shape) + highlight.gap_px;
  t.pixels.direct();
  pixel_ring(t.pixels, t.view.to_px(box_center(highlight.shape)), inner,
             inner + highlight.line_width_px, highlight.color);
}

}  // namespace

void poll_stop(std::size_t item) {
  if (item % 2048 == 0 && finish_budget_spent()) throw Stopped{stop_requested()};
}

void paint_highlight(PaintTarget& t, const HighlightDrawing& highlight) {
  const Box box = bounding_box(highlight.shape);
  if (!box.valid || !(highlight.line_width_px > 0.0) || !(highlight.gap_px >= 0.0)) return;
  if (is_dot(t.view, highlight.shape)) {
    paint_dot_highlight(t, highlight);
    return;
  }
  t.pixels.cairo();
  cairo_t* cr = t.cr;
  const Viewport& view = t.view;
  // Stroking the outline 2 (gap + width) wide and then clearing a 2 gap wide stroke and the
  // inside leaves a band gap..gap + width px outside the shape, whatever its kind. This is done
  // in a group clipped to the shape's box, so the clearing leaves the picture beneath intact.
  const double reach = highlight.gap_px + highlight.line_width_px + 1.0;
  const Eigen::Vector2d top_left = view.to_px({box.min.x(), box.max.y()});
  const Eigen::Vector2d bottom_right = view.to_px({box.max.x(), box.min.y()});
  cairo_save(cr);
  cairo_new_path(cr);
  cairo_rectangle(cr, std::floor(top_left.x() - reach), std::floor(top_left.y() - reach),
                  std::ceil(bottom_right.x() - top_left.x() + 2.0 * reach) + 1.0,
                  std::ceil(bottom_right.y() - top_left.y() + 2.0 * reach) + 1.0);
  cairo_clip(cr);
  cairo_push_group(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  add_shape_path(cr, view, highlight.shape);
  set_source(cr, highlight.color);
  cairo_set_line_width(cr, 2.0 * (highlight.gap_px + highlight.line_width_px));
  cairo_stroke_preserve(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
  if (highlight.shape.kind != Shape::Kind::kPolyline) cairo_fill_preserve(cr);
  if (highlight.gap_px > 0.0) {
    cairo_set_line_width(cr, 2.0 * highlight.gap_px);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
  cairo_pop_group_to_source(cr);
  cairo_paint(cr);
  cairo_restore(cr);
}

void paint_object(PaintTarget& t, const ObjectDrawing& object) {
  if (is_dot(t.view, object.shape)) {
    paint_dot_object(t, object);
    return;
  }
  t.pixels.cairo();
  paint_trajectory(t.cr, t.view, object);
  paint_fov_any(t, object);
  t.pixels.cairo();
  paint_shape(t.cr, t.view, object);
  paint_heading(t.cr, t.view, object);
  paint_goal(t.cr, t.view, object);
  paint_label(t.cr, t.view, object, t.font_px);
}

}  // namespace ubot::render::internal
