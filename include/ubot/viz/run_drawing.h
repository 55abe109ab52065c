#pragma once
// Turns a running simulation into top-down Drawings: objects in their colours, goals,
// trajectories, lidar beams (FMCW beams coloured by radial velocity), 3D lidar returns of the
// channel nearest the horizon (dots), camera frusta (their side edges, 3 m deep), FOV sectors
// (`show_fov`) with a ring in the observer's colour around each object they detect, and smoke
// cells (translucent discs in their medium's tint). A picture keeps to two budgets, so that one
// of a 10,000-robot world costs about as much as one of 55: when the sensors' beams total more
// than 20 000, every sensor is drawn with every k-th beam (the same k for all); when the
// trajectories total more than 200 000 points, each keeps every m-th point (and its last). The
// caption says what was thinned ("every 18th beam", "trajectories: every 6th point"); worlds
// within both budgets get every beam and point.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "ubot/render/drawing.h"
#include "ubot/sim/simulation.h"

namespace ubot::viz {

// Whether object `id` is drawn once for the whole run (the live page's world message, the
// latched static markers): IR-SIM's `static`, or one without kinematics or trajectory outside
// contact mode (where a push moves anything). False for an id out of range.
bool never_moves(const World& world, int id);

// What a drawing leaves out, for consumers that show those parts another way.
struct DrawParts {
  bool sensors = true;  // lidar beams, 3D lidar dots, camera frusta, contact markers
  // 0: the pictures' rule (every sensor, each lidar's beams thinned by one stride so that they
  // total at most PictureBudget::beams). Otherwise the live page's: each lidar thinned by one
  // stride (every k-th beam, the same k for all, in Drawing::beam_stride) so that about this
  // many are drawn in all, a scan keeping at least 16 beams, sensors past the budget left out.
  std::size_t beams_at_most = 0;
  // The objects' trajectories (thinned to PictureBudget::trajectory_points): a long run's are
  // most of a picture's cost, and a frame that does not draw them skips them.
  bool trajectories = true;
};

// The pictures' budgets: world.png's by default, run.gif's smaller ones from gif_frames.
inline constexpr std::size_t kPictureBeams = 20000;
inline constexpr std::size_t kPictureTrajectoryPoints = 200000;
struct PictureBudget {
  std::size_t beams = kPictureBeams;  // with DrawParts::beams_at_most 0
  // Trajectory points in all, at most (past it each keeps every m-th point and its last).
  std::size_t trajectory_points = kPictureTrajectoryPoints;
  std::string caption_note;  // appended to the caption (gif_frames: the frames' reduction)
};

// run.gif's frames for a world whose first drawing is `first` and whose world.png has `picture`
// pixels: the frame size, and the budget each frame is drawn with
// (RunDrawing::draw(sim, {}, budget)).
struct GifFrames {
  render::ImageSize size;
  PictureBudget budget;
  // A frame every this many samples (world.sample_time): 1 up to kGifFullObjects objects, then
  // one more for every kGifFullObjects more (1500 objects: every 5th), so that a large world's
  // frames cost about what a small world's do per step. The last step always gets a frame.
  std::int64_t sample_stride = 1;
};
// Worlds of at most kGifFullObjects objects get world.png's size and budgets (every example's
// run.gif is as before). Larger ones get frames of half the side (at least 200 px; objects
// under a pixel are then painted as dots: ubot/render/drawing.h), budgets of 2000 beams and
// 50 000 trajectory points, a frame every sample_stride samples, and the caption says so
// ("frames 400 px, every 5th sample").
inline constexpr std::size_t kGifFullObjects = 300;
GifFrames gif_frames(const render::Drawing& first, render::ImageSize picture);

class RunDrawing {
 public:
  explicit RunDrawing(const Simulation& sim);
  // Appends every object's current position to its trajectory; after a reset (the step count
  // went back) the trajectories start again.
  void record(const Simulation& sim);
  // The picture of the current state. Checks ubot::finish_budget_spent() every few thousand
  // objects and throws ubot::Stopped once a stop's finishing budget is spent.
  render::Drawing draw(const Simulation& sim, DrawParts parts = {},
                       const PictureBudget& budget = {}) const;

 private:
  std::vector<std::vector<Eigen::Vector2d>> trajectories_;
  std::int64_t recorded_step_ = 0;  // the step count at the last record()
  std::vector<render::Color> colors_;
  std::optional<render::RasterDrawing> grid_;  // the grid map's picture, made once
};

}  // namespace ubot::viz
