// The world as ROS 2 messages (world_messages.h): the grid map as an OccupancyGrid, the objects
// that never move as latched markers, the moving picture (objects, goals, fields of view) on
// /ubot/markers at most 10 times a simulated second and the trajectories once a second.
#include "ubot/ros2/world_messages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/ros2/message_producer.h"
#include "ubot/sim/simulation.h"
#include "ubot/viz/run_drawing.h"
#include "ubot/world/world.h"

namespace ubot::ros2 {
namespace {

// A robot with a goal and a field of view, a square obstacle that never moves, a circle that
// moves.
constexpr const char* kMarkersWorld = R"(
world: {width: 10, height: 10, step_time: 0.05}
robot:
  - kinematics: {name: diff}
    shape: {name: circle, radius: 0.2}
    state: [1, 1, 0]
    goal: [8, 1, 0]
    behavior: {name: dash}
    fov: 1.5
    fov_radius: 3
    plot: {show_fov: true}
obstacle:
  - shape: {name: polygon, vertices: [[4, 4], [6, 4], [6, 6], [4, 6]]}
  - shape: {name: circle, radius: 0.3}
    state: [2, 8, 0]
    kinematics: {name: omni}
    velocity: [0.5, 0]
    behavior: {name: dash}
    goal: [9, 8, 0]
)";

Simulation markers_sim(const std::string& yaml = kMarkersWorld) {
  return Simulation(load_world_from_string(yaml, "world_messages_test.yaml"), {.threads = 1});
}

MarkerArray markers_of(const Simulation& sim, MarkerPart part) {
  const viz::RunDrawing drawing(sim);
  return world_markers(drawing.draw(sim, {.sensors = false}), sim.world(), part,
                       sim.world().time_ns());
}

std::vector<const Marker*> in_namespace(const MarkerArray& a, const std::string& ns) {
  std::vector<const Marker*> out;
  for (const Marker& m : a.markers) {
    if (m.ns == ns && m.action == Marker::ADD) out.push_back(&m);
  }
  return out;
}

TEST(WorldMarkers, TheStaticPartHoldsOnlyWhatNeverMoves) {
  const Simulation sim = markers_sim();
  const MarkerArray fixed = markers_of(sim, MarkerPart::kStatic);
  ASSERT_EQ(fixed.markers.size(), 2u);  // the square: its fill and its outline
  const auto fill = in_namespace(fixed, "objects");
  ASSERT_EQ(fill.size(), 1u);
  EXPECT_EQ(fill[0]->type, Marker::TRIANGLE_LIST);
  EXPECT_EQ(fill[0]->header.frame_id, "map");
  ASSERT_EQ(fill[0]->points.size(), 6u);  // a square: one convex piece, two triangles
  const std::vector<Eigen::Vector2d>& square = sim.world().shape(1).vertices;
  ASSERT_EQ(square.size(), 4u);
  for (const Point& p : fill[0]->points) {
    EXPECT_TRUE(std::any_of(square.begin(), square.end(),
                            [&](const Eigen::Vector2d& v) { return v.x() == p.x && v.y() == p.y; }))
        << p.x << ", " << p.y;
    EXPECT_DOUBLE_EQ(p.z, 0.1);
  }
  const auto outline = in_namespace(fixed, "outlines");
  ASSERT_EQ(outline.size(), 1u);
  EXPECT_EQ(outline[0]->type, Marker::LINE_STRIP);
  ASSERT_EQ(outline[0]->points.size(), 5u);  // closed: back to the first vertex
  EXPECT_EQ(outline[0]->points.front(), outline[0]->points.back());
}

TEST(WorldMarkers, TheMovingPartStartsWithDeleteAllAndFollowsTheObjects) {
  Simulation sim = markers_sim();
  for (int k = 0; k < 10; ++k) sim.step();
  const MarkerArray moving = markers_of(sim, MarkerPart::kMoving);
  ASSERT_FALSE(moving.markers.empty());
  EXPECT_EQ(moving.markers.front().action, Marker::DELETEALL);
  const auto bodies = in_namespace(moving, "objects");
  ASSERT_EQ(bodies.size(), 2u);  // the robot and the moving circle, not the square
  const auto& robot = sim.world().object(0).state;
  const auto& circle = sim.world().object(2).state;
  EXPECT_EQ(bodies[0]->type, Marker::CYLINDER);
  EXPECT_DOUBLE_EQ(bodies[0]->pose.position.x, robot[0]);
  EXPECT_DOUBLE_EQ(bodies[0]->pose.position.y, robot[1]);
  EXPECT_DOUBLE_EQ(bodies[0]->scale.x, 0.4);
  EXPECT_DOUBLE_EQ(bodies[1]->pose.position.x, circle[0]);
  EXPECT_GT(circle[0], 2.0);  // it did move
  const auto goals = in_namespace(moving, "goals");
  ASSERT_GE(goals.size(), 1u);
  EXPECT_DOUBLE_EQ(goals[0]->pose.position.x, 8.0);
  EXPECT_DOUBLE_EQ(goals[0]->pose.position.y, 1.0);
  const auto fov = in_namespace(moving, "fov");
  ASSERT_EQ(fov.size(), 1u);
  EXPECT_EQ(fov[0]->type, Marker::TRIANGLE_LIST);
  EXPECT_DOUBLE_EQ(fov[0]->points.front().x, robot[0]);  // the sector's apex is the robot
}

TEST(WorldMarkers, TrajectoriesEndWhereTheObjectIsAndStayThin) {
  Simulation sim = markers_sim();
  viz::RunDrawing drawing(sim);
  for (int k = 0; k < 1200; ++k) {
    sim.step();
    drawing.record(sim);
  }
  const render::Drawing picture = drawing.draw(sim, {.sensors = false});
  const MarkerArray moving =
      world_markers(picture, sim.world(), MarkerPart::kMoving, sim.world().time_ns());
  EXPECT_TRUE(in_namespace(moving, "trajectories").empty());  // on their own topic
  const MarkerArray trajectories =
      world_markers(picture, sim.world(), MarkerPart::kTrajectories, sim.world().time_ns());
  EXPECT_EQ(trajectories.markers.front().action, Marker::DELETEALL);
  const auto trails = in_namespace(trajectories, "trajectories");
  ASSERT_EQ(trails.size(), 1u);  // the robot's (obstacles show one only with show_trajectory)
  ASSERT_EQ(trajectories.markers.size(), 2u);
  EXPECT_LE(trails[0]->points.size(), 101u);  // 1201 positions thinned, and the last
  EXPECT_GE(trails[0]->points.size(), 90u);
  EXPECT_DOUBLE_EQ(trails[0]->points.back().x, sim.world().object(0).state[0]);
  EXPECT_DOUBLE_EQ(trails[0]->points.front().x, 1.0);
}

TEST(GridMapMessage, SquareCellsKeepTheirValuesRowMajorFromTheCorner) {
  GridMap g;
  g.nx = 3;
  g.ny = 2;
  g.origin = {-1.0, 2.0};
  g.cell = {0.5, 0.5};
  g.occupancy = {0, 10, 20, 30, 50.3f, 49.6f};  // index i * ny + j
  const OccupancyGrid m = grid_map_message(g, 1'500'000'000);
  EXPECT_EQ(m.header.frame_id, "map");
  EXPECT_EQ(m.header.stamp.sec, 1);
  EXPECT_FLOAT_EQ(m.info.resolution, 0.5f);
  EXPECT_EQ(m.info.width, 3u);
  EXPECT_EQ(m.info.height, 2u);
  EXPECT_DOUBLE_EQ(m.info.origin.position.x, -1.0);
  EXPECT_DOUBLE_EQ(m.info.origin.position.y, 2.0);
  // data[y * width + x] = value(x, y), rounded, on the side of 50 the grid has it: 50.3 is
  // occupied (> 50), so 51, not 50
  EXPECT_EQ(m.data, (std::vector<std::int8_t>{0, 20, 51, 10, 30, 50}));
}

TEST(GridMapMessage, OblongCellsAreResampledOntoSquaresOfTheSmallerSide) {
  GridMap g;
  g.nx = 2;
  g.ny = 1;
  g.cell = {1.0, 0.5};
  g.occupancy = {0, 100};
  const OccupancyGrid m = grid_map_message(g, 0);
  EXPECT_FLOAT_EQ(m.info.resolution, 0.5f);
  EXPECT_EQ(m.info.width, 4u);
  EXPECT_EQ(m.info.height, 1u);
  EXPECT_EQ(m.data, (std::vector<std::int8_t>{0, 0, 100, 100}));
}

TEST(WorldTopics, TheProducerSendsTheWorldOnceAndMarkersAtTenHertz) {
  Simulation sim = markers_sim();
  MessageProducer producer(sim, PublishedRobots::kAll);
  const auto topic_of = [&](const std::string& name) {
    const auto& t = producer.topics();
    const auto it =
        std::find_if(t.begin(), t.end(), [&](const Topic& x) { return x.name == name; });
    return it == t.end() ? -1 : static_cast<int>(it - t.begin());
  };
  const int fixed = topic_of("/ubot/markers/static"), moving = topic_of("/ubot/markers");
  const int trails = topic_of("/ubot/trajectories");
  ASSERT_GE(fixed, 0);
  ASSERT_GE(moving, 0);
  ASSERT_GE(trails, 0);
  EXPECT_EQ(topic_of("/ubot/grid_map"), -1);  // this world has none
  EXPECT_TRUE(producer.topics()[fixed].qos.transient_local);
  int statics = 0;
  producer.static_messages(sim, [&](const Message& m) { statics += m.topic == fixed; });
  EXPECT_EQ(statics, 1);
  std::vector<Nanos> times, trail_times;
  const MessageConsumer note = [&](const Message& m) {
    if (m.topic == moving) times.push_back(m.time);
    if (m.topic == trails) trail_times.push_back(m.time);
  };
  producer.step_messages(sim, note);
  for (int k = 0; k < 40; ++k) {  // 2 s of 50 ms steps
    sim.step();
    producer.step_messages(sim, note);
  }
  ASSERT_EQ(times.size(), 21u);  // t = 0, 0.1, ..., 2.0 s
  for (std::size_t k = 0; k < times.size(); ++k) EXPECT_EQ(times[k], 100'000'000 * Nanos(k));
  EXPECT_EQ(trail_times, (std::vector<Nanos>{0, 1'000'000'000, 2'000'000'000}));
  // Not wanted: not made, and due again as soon as it is wanted.
  int made = 0;
  sim.step();
  sim.step();
  producer.step_messages(
      sim, [&](const Message&) { ++made; }, [](int) { return false; });
  EXPECT_EQ(made, 0);
  std::vector<Nanos> later;
  producer.step_messages(sim, [&](const Message& m) {
    if (m.topic == moving) later.push_back(m.time);
  });
  EXPECT_EQ(later, std::vector<Nanos>{2'100'000'000});
}

// A live view's /ubot/markers: made when its pace says so, whatever the simulated time, with
// the lidars' beams (a recording's have none: each scan is its LaserScan there).
TEST(WorldTopics, ALiveViewsMarkersComeAtItsPaceWithTheBeams) {
  Simulation sim(load_world(std::string(UBOT_SOURCE_DIR) + "/tests/data/live_world.yaml"),
                 {.threads = 1});
  const auto beams_in = [](MessageProducer& producer, const Simulation& s) {
    std::vector<std::size_t> lines;  // per /ubot/markers message: its beams (their ends)
    producer.step_messages(s, [&](const Message& m) {
      if (producer.topics()[m.topic].name != "/ubot/markers") return;
      std::size_t n = 0;
      for (const Marker& k : (*std::get<const MarkerArray*>(m.message)).markers) {
        if (k.ns == "beams" || k.ns == "beam_misses") n += k.points.size();
      }
      lines.push_back(n);
    });
    return lines;
  };
  MessageProducer recorded(sim, PublishedRobots::kAll);
  MessageProducer live(sim, PublishedRobots::kAll);
  bool due = false;
  live.set_live_markers({.due = [&] { return due; }, .beams_at_most = 100});
  sim.step();  // the rover's 180-beam scan has sampled
  EXPECT_EQ(beams_in(recorded, sim), std::vector<std::size_t>{0});  // a recording's: none
  EXPECT_TRUE(beams_in(live, sim).empty());                         // not due
  due = true;
  const std::vector<std::size_t> shown = beams_in(live, sim);
  ASSERT_EQ(shown.size(), 1u);
  // The live page's thinning (DrawParts::beams_at_most): one stride for every lidar, so fewer
  // than the 2D lidar's 180 beams and the 3D lidar's horizon ring, and exactly the drawing's.
  std::size_t drawn = 0;
  for (const auto& b : viz::RunDrawing(sim).draw(sim, {.beams_at_most = 100}).beams) {
    drawn += b.end_points.size();
  }
  EXPECT_GT(shown[0], 16u);
  EXPECT_LT(shown[0], 180u);
  EXPECT_EQ(shown[0], drawn);
}

TEST(WorldTopics, AGridWorldHasItsOccupancyGridLatched) {
  Simulation sim(load_world(std::string(UBOT_SOURCE_DIR) + "/tests/data/grid_cave_world.yaml"),
                 {.threads = 1});
  MessageProducer producer(sim, PublishedRobots::kAll);
  const auto& t = producer.topics();
  const auto it =
      std::find_if(t.begin(), t.end(), [](const Topic& x) { return x.name == "/ubot/grid_map"; });
  ASSERT_NE(it, t.end());
  EXPECT_EQ(it->kind, MessageKind::kOccupancyGrid);
  EXPECT_TRUE(it->qos.transient_local);
  const GridMap& grid = *sim.world().model().grid;
  OccupancyGrid got;
  producer.static_messages(sim, [&](const Message& m) {
    if (const auto* g = std::get_if<const OccupancyGrid*>(&m.message)) got = **g;
  });
  ASSERT_EQ(got.data.size(), static_cast<std::size_t>(got.info.width) * got.info.height);
  ASSERT_GT(got.data.size(), 0u);
  // Occupied cells stay occupied: the grid's count and the message's agree.
  ASSERT_DOUBLE_EQ(grid.cell.x(), grid.cell.y());
  EXPECT_EQ(got.info.width, static_cast<std::uint32_t>(grid.nx));
  const auto occupied = std::count_if(got.data.begin(), got.data.end(),
                                      [](std::int8_t v) { return v > GridMap::kOccupiedAbove; });
  EXPECT_EQ(static_cast<std::size_t>(occupied), grid.occupied_count());
}

}  // namespace
}  // namespace ubot::ros2
