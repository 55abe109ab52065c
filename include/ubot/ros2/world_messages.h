#pragma once
// The world itself as ROS 2 messages, for viewers (Foxglove, Lichtblick, RViz), in the fixed
// frame `map` (docs/ros2.md, "The world as markers"):
//   /ubot/grid_map        nav_msgs/OccupancyGrid          the world's grid map, once, latched
//   /ubot/markers/static  visualization_msgs/MarkerArray  the objects that never move, once,
//                                                         latched
//   /ubot/markers         visualization_msgs/MarkerArray  everything else but trajectories, at
//                                                         most 10 times a simulated second: each
//                                                         message starts with DELETEALL and holds
//                                                         the whole moving picture
//   /ubot/trajectories    visualization_msgs/MarkerArray  every trajectory so far (at most 100
//                                                         points each), at most once a simulated
//                                                         second, also after a DELETEALL
// Both marker topics are made from the run's top-down picture (viz::RunDrawing), the one that
// world.png, the GIF and the live page show, so they carry the same colours, goals,
// trajectories, fields of view (and rings around what they detect), smoke cells and fog.
#include <optional>
#include <string_view>

#include "ubot/config/grid_map.h"
#include "ubot/core/time.h"
#include "ubot/render/drawing.h"
#include "ubot/ros2/messages.h"

namespace ubot {
class World;
}

namespace ubot::ros2 {

inline constexpr const char* kGridMapTopic = "/ubot/grid_map";
inline constexpr const char* kStaticMarkersTopic = "/ubot/markers/static";
inline constexpr const char* kMarkersTopic = "/ubot/markers";
inline constexpr const char* kTrajectoriesTopic = "/ubot/trajectories";
// The shortest simulated time between two /ubot/markers, and two /ubot/trajectories, messages:
// a trajectory is the longest part of the picture (100 robots' make 265 KiB), and changes least.
inline constexpr Nanos kMarkersPeriod = 100'000'000;
inline constexpr Nanos kTrajectoriesPeriod = 1'000'000'000;
// Whether a topic is one of the world's (the four above), not a robot's.
inline bool is_world_topic(std::string_view topic) {
  return topic == kStaticMarkersTopic || topic == kMarkersTopic || topic == kTrajectoriesTopic ||
         topic == kGridMapTopic;
}
// The points a trajectory marker keeps at most (evenly thinned, ending where the object is).
inline constexpr std::size_t kTrajectoryMarkerPoints = 100;

// The grid map as an OccupancyGrid (values 0..100 rounded, kept on the side of IR-SIM's
// occupied threshold (> 50) the grid has them; row-major from cell (0, 0), origin at its
// corner). Cells that are not square are resampled (nearest) onto square cells of the
// smaller side.
OccupancyGrid grid_map_message(const GridMap& grid, Nanos stamp);

// Which part of the picture a marker message carries.
enum class MarkerPart {
  kStatic,        // the objects that never move (viz::never_moves)
  kMoving,        // DELETEALL, then the other objects, goals, fields of view, smoke, fog, and
                  // the drawing's beams when it has them (a live view's: see MessageProducer)
  kTrajectories,  // DELETEALL, then every trajectory
};

// The markers of `part` of `drawing`, stamped `stamp`. Objects are flat prisms 0.1 m tall
// (circles as cylinders, polygons as filled triangles with an outline, polylines as lines);
// trajectories keep at most 100 points each (evenly thinned, ending where the object is), in
// their drawing's colour.
MarkerArray world_markers(const render::Drawing& drawing, const World& world, MarkerPart part,
                          Nanos stamp);

}  // namespace ubot::ros2
