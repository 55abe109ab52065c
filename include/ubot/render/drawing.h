#pragma once
// Top-down pictures of a world: a plain description of what to draw (in world metres, REP 103:
// x right, y up on the picture), rendered with Cairo to PNG files and animated GIFs. The
// renderer knows nothing of worlds or sensors; the caller turns its state into a Drawing.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/core/color.h"

namespace ubot::render {

// Colours and their names live in core (ubot/core/color.h), which sensors read too.
using ubot::Color;
using ubot::parse_color;

struct Shape {
  enum class Kind { kCircle, kPolygon, kPolyline };
  Kind kind = Kind::kCircle;
  Eigen::Vector2d center = Eigen::Vector2d::Zero();  // circle
  double radius = 0.0;                               // circle
  std::vector<Eigen::Vector2d> vertices;             // polygon (closed) or polyline, world frame
};

struct ObjectDrawing {
  Shape shape;
  Color fill{0.25, 0.41, 0.88, 1.0};
  Color edge{0.0, 0.0, 0.0, 1.0};
  bool filled = true;   // polylines are never filled
  bool dashed = false;  // dashed outline (IR-SIM obj_linestyle '--')
  double line_width_px = 1.5;
  std::optional<Eigen::Vector3d> pose;      // x, y, heading: draws a heading arrow when set
  double arrow_length = 0.0;                // metres; 0 = auto from the shape size
  std::optional<Eigen::Vector3d> goal;      // x, y, heading of the goal (drawn as a marker)
  double goal_radius = 0.0;                 // marker size in metres; 0 = auto
  std::vector<Eigen::Vector2d> trajectory;  // past positions, drawn as a line
  Color trajectory_color{0.0, 0.0, 0.0, 0.6};
  // Field of view sector (apex at pose, centred on heading).
  double fov = 0.0;         // opening angle in radians; 0 = none
  double fov_radius = 0.0;  // metres
  Color fov_color{0.53, 0.81, 0.92, 0.25};
  std::string label;  // optional text drawn next to the object
  int tag = -1;       // the caller's id for it (not drawn; the live view selects objects by it)
};

// A band around a shape, `gap_px` clear of its outline and `line_width_px` wide (a ring around a
// circle, an offset outline around a polygon or polyline): marks an object, e.g. one that a
// field of view detects, in the observer's colour.
struct HighlightDrawing {
  Shape shape;
  Color color{0.0, 0.0, 0.0, 1.0};
  double gap_px = 3.0;
  double line_width_px = 2.0;
};

// Lidar beams: one segment per beam from `origin` to `end_points[i]`.
struct BeamsDrawing {
  Eigen::Vector2d origin = Eigen::Vector2d::Zero();
  std::vector<Eigen::Vector2d> end_points;
  std::vector<std::uint8_t> hit;   // per beam: 1 = return, 0 = no return (may be empty)
  std::vector<Color> beam_colors;  // optional per-beam colour (e.g. Doppler), else color
  Color color{1.0, 0.0, 0.0, 0.3};
  double line_width_px = 0.6;
  bool mark_hits = true;  // small dots at the hit points (only where `hit` says 1)
  // Optional per-beam starts instead of `origin` (contact2d's force lines start at each contact
  // point), and, when > 0, a dot of this radius at each start (its contact markers).
  std::vector<Eigen::Vector2d> start_points;
  double start_mark_radius_px = 0.0;
  bool over_objects = false;  // drawn after the objects (contacts lie on their outlines)
};

// Translucent disc, e.g. a smoke cell seen from above.
struct DiscDrawing {
  Eigen::Vector2d center = Eigen::Vector2d::Zero();
  double radius = 0.0;
  Color color{0.55, 0.55, 0.55, 0.4};
};

// A grey image laid on the world rectangle [min, max] (a grid map), one pixel per cell, drawn
// with crisp (nearest) pixels.
struct RasterDrawing {
  Eigen::Vector2d min = Eigen::Vector2d::Zero(), max = Eigen::Vector2d::Ones();
  int columns = 0, rows = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> grey;  // columns x rows, rows top to bottom
};

// A grid of unexplored cells (IR-SIM's fog of map): each cell whose `fogged` entry is 1 is
// painted in `color`, over what is drawn before it.
struct FogDrawing {
  double x_min = 0.0, y_min = 0.0;  // world position of cell (0, 0)'s corner
  double cell_width = 0.1, cell_height = 0.1;
  int nx = 0, ny = 0;                  // cells along x and y
  std::vector<std::uint8_t> fogged;    // nx * ny, x-major
  Color color{0.78, 0.78, 0.80, 1.0};  // IR-SIM's light grey, opaque
};

struct Drawing {
  // World rectangle to show: [x_min, x_min + width] × [y_min, y_min + height].
  double x_min = 0.0, y_min = 0.0, width = 10.0, height = 10.0;
  std::optional<RasterDrawing> raster;  // drawn first (under everything)
  std::vector<DiscDrawing> discs;       // then discs
  std::vector<BeamsDrawing> beams;      // then beams
  std::vector<ObjectDrawing> objects;   // then objects, in order
  // The fog, painted after the first `objects_under_fog` objects (IR-SIM draws it over the
  // obstacles and under the robots).
  std::optional<FogDrawing> fog;
  std::size_t objects_under_fog = 0;
  std::vector<HighlightDrawing> highlights;  // then highlights, over the objects
  std::string caption;                       // e.g. "t = 3.20 s", top-left
  std::size_t beam_stride = 1;  // every beam_stride-th beam of each lidar is in `beams`
};

struct ImageSize {
  int width_px = 800;
  int height_px = 800;
};
// Picks a picture size for a world rectangle: the longer side gets `max_side_px` pixels.
ImageSize fit_image(const Drawing& drawing, int max_side_px);

// Pictures at any size: what is smaller than a pixel is painted at pixel scale, not anti-aliased
// (an object under 1 px as a dot of its fill, its trail as a 1 px line, a FOV sector under 8 px
// deep as the pixels whose centres it holds, the ring around a detected object under 1 px as
// pixels), and the caption says so ("objects under 1 px as dots"); docs/large-runs.md.
//
// Painting and encoding check ubot::finish_budget_spent() (ubot/core/stop.h) every few thousand
// items or rows and give up with ubot::Stopped once a stop's finishing budget is spent:
// write_png then leaves no file, a GIF frame leaves the animation as it was (close() ends it
// validly with the frames so far; no frame can be added after one given up while encoding).

// Renders to a PNG file; throws ubot::Error when the file cannot be written.
void write_png(const Drawing& drawing, ImageSize size, const std::string& path);

// Renders to memory: straight (not premultiplied) 8-bit RGBA, rows top to bottom, 4 bytes a pixel,
// the same pixels write_png stores. For tests and for callers that encode pictures themselves.
std::vector<std::uint8_t> render_rgba(const Drawing& drawing, ImageSize size);

// An animated GIF written frame by frame (fixed 256-colour palette, so frames are cheap and the
// output is deterministic). Throws ubot::Error on I/O failure.
class GifWriter {
 public:
  GifWriter(const std::string& path, ImageSize size, double frame_seconds);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  void add_frame(const Drawing& drawing);
  // Writes the trailer and closes the file (also done by the destructor, which cannot throw).
  void close();
  int frame_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ubot::render
