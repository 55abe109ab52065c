#pragma once
// Turns a running simulation into top-down Drawings: objects in their colours, goals,
// trajectories, lidar beams (FMCW beams coloured by radial velocity), 3D lidar returns of the
// channel nearest the horizon (dots), camera frusta (their side edges, 3 m deep), FOV sectors
// (`show_fov`) with a ring in the observer's colour around each object they detect, and smoke
// cells (translucent discs in their medium's tint). Sensors are drawn in order while their beams
// total at most 20 000 (the caption then says how many were drawn), so a picture of a
// 1000-robot world costs about as much as one of 55.
#include <optional>
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
  // 0: the pictures' rule (whole sensors while their beams total at most 20 000). Otherwise
  // every sensor is drawn, each lidar's beams thinned by one stride (every k-th beam, the same k
  // for all, in Drawing::beam_stride) so that about this many are drawn in all: the live page.
  std::size_t beams_at_most = 0;
};

class RunDrawing {
 public:
  explicit RunDrawing(const Simulation& sim);
  // Appends every object's current position to its trajectory; after a reset (the step count
  // went back) the trajectories start again.
  void record(const Simulation& sim);
  // The picture of the current state.
  render::Drawing draw(const Simulation& sim, DrawParts parts = {}) const;

 private:
  std::vector<std::vector<Eigen::Vector2d>> trajectories_;
  std::int64_t recorded_step_ = 0;  // the step count at the last record()
  std::vector<render::Color> colors_;
  std::optional<render::RasterDrawing> grid_;  // the grid map's picture, made once
};

}  // namespace ubot::viz
