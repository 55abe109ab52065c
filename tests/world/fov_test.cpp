// Field of view (SPEC §10): which objects each observer detects, in a world whose geometry is
// worked out by hand (tests/data/fov_known_world.yaml), the all-at-once sweep the outputs use
// against the pairwise test on a random crowd, and the kept sweep (World::fov_detections) never
// outliving the state it was swept from.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

#include "ubot/config/load_world.h"
#include "ubot/core/angles.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

const std::string kKnownWorld = UBOT_SOURCE_DIR "/tests/data/fov_known_world.yaml";
constexpr int kWatcher = 0, kEast = 1, kNorth = 2, kWall = 3;

// The watcher turns 11.25° a step; its sector spans yaw ± 45°, 4 m.
//  - east (r 0.5 at 3 m, bearing 0): seen while the sector's right edge (yaw - 45°) passes within
//    0.5 m of its centre, 3 sin(yaw - 45°) <= 0.5, i.e. yaw <= 54.59°: steps 0..4.
//  - north (r 0.5 at 3 m, bearing 90°): by symmetry yaw >= 35.41°: steps 4..
//  - wall (4 m x 0.2 m from x = 8.5 to 12.5 at y = 6): its part within 4 m spans bearings 13.0°
//    (where the lower edge leaves the 4 m circle) to 17.45° (corner (8.5, 6.1)); the centre is
//    5.59 m away, out of reach: seen while yaw - 45° <= 17.45°: steps 0..5.
const std::vector<std::vector<int>> kWatcherSees = {
    {kEast, kWall},  {kEast, kWall}, {kEast, kWall}, {kEast, kWall}, {kEast, kNorth, kWall},
    {kNorth, kWall}, {kNorth},       {kNorth},       {kNorth}};

TEST(Fov, DetectionsInTheHandComputedWorld) {
  World w(load_world(kKnownWorld));
  for (int k = 0; k <= 8; ++k) {
    if (k > 0) w.step();
    SCOPED_TRACE("step " + std::to_string(k));
    ASSERT_NEAR(w.object(kWatcher).state[2], k * kPi / 16, 1e-9);
    const std::vector<std::vector<int>> seen = w.fov_detections();
    EXPECT_EQ(seen[kWatcher], kWatcherSees[k]);
    // north looks straight at the watcher robot (nearest point 2.7 m): obstacles detect robots.
    EXPECT_EQ(seen[kNorth], std::vector<int>{kWatcher});
    EXPECT_TRUE(seen[kEast].empty());  // no field of view
    EXPECT_TRUE(seen[kWall].empty());
    for (int id = 0; id < 4; ++id) EXPECT_EQ(w.fov_detected_objects(id), seen[id]) << id;
  }
}

TEST(Fov, NeverDetectsItselfButDetectsRobotsAndObstacles) {
  World w = make_world(R"(
robot:
  - {kinematics: {name: diff}, shape: {name: circle, radius: 1}, state: [0, 0, 0], fov: 1, fov_radius: 3}
  - {kinematics: {name: diff}, state: [2, 0, 0]}
obstacle:
  - {shape: {name: circle, radius: 0.5}, state: [2.5, 0.5, 0]}
)");
  // The observer's own disc contains the apex, yet it is not in its list.
  EXPECT_EQ(w.fov_detected_objects(0), (std::vector<int>{1, 2}));
  EXPECT_EQ(w.fov_detections()[0], (std::vector<int>{1, 2}));
}

// The sweep (grid rows, x windows, reach pre-test) finds exactly the pairs the exact test finds,
// for circles, rectangles and linestrings, full discs and narrow sectors, short and long radii.
TEST(Fov, SweepMatchesThePairwiseTest) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> pos(0.0, 60.0), yaw(-3.1, 3.1), size(0.1, 2.0);
  std::string yaml = "robot:\n";
  for (int i = 0; i < 150; ++i) {
    const double fov = i % 5 == 0 ? 6.283185307179586 * 0.999 : 0.2 + 0.02 * i;
    const double radius = i % 7 == 0 ? 40.0 : 1.0 + (i % 9);
    yaml += "  - {kinematics: {name: diff}, state: [" + std::to_string(pos(rng)) + ", " +
            std::to_string(pos(rng)) + ", " + std::to_string(yaw(rng)) +
            "], fov: " + std::to_string(fov) + ", fov_radius: " + std::to_string(radius) + "}\n";
  }
  yaml += "obstacle:\n";
  for (int i = 0; i < 150; ++i) {
    const std::string at = "state: [" + std::to_string(pos(rng)) + ", " + std::to_string(pos(rng)) +
                           ", " + std::to_string(yaw(rng)) + "]";
    if (i % 3 == 0) {
      yaml +=
          "  - {shape: {name: circle, radius: " + std::to_string(size(rng)) + "}, " + at + "}\n";
    } else if (i % 3 == 1) {
      yaml += "  - {shape: {name: rectangle, length: " + std::to_string(3 * size(rng)) +
              ", width: " + std::to_string(size(rng)) + "}, " + at + "}\n";
    } else {
      yaml += "  - {shape: {name: linestring, vertices: [[0, 0], [" +
              std::to_string(4 * size(rng)) + ", 1]]}, " + at + "}\n";
    }
  }
  World w = make_world(yaml);
  const std::vector<std::vector<int>> seen = w.fov_detections();
  std::size_t pairs = 0;
  for (int observer = 0; observer < static_cast<int>(w.size()); ++observer) {
    std::vector<int> expected;
    for (int other = 0; other < static_cast<int>(w.size()); ++other) {
      if (w.fov_detect_object(observer, other)) expected.push_back(other);
    }
    EXPECT_EQ(seen[observer], expected) << observer;
    EXPECT_EQ(w.fov_detected_objects(observer), expected) << observer;
    pairs += expected.size();
  }
  EXPECT_GT(pairs, 500u);  // the crowd is dense enough to exercise the windows
}

// The kept detections follow every change of the state: a step, a teleport, a state assigned
// back (Simulation::restore) and a copy, each compared with the hand-computed lists.
TEST(Fov, KeptDetectionsAreSweptOnceAndFollowEveryStep) {
  World w(load_world(kKnownWorld));
  const std::vector<std::vector<int>>& first = w.fov_detections();
  // Kept: the second reader gets the same lists, not a new sweep (which would be a new vector,
  // allocated while the old one still lived, so at another address).
  const std::vector<int>* const kept = first.data();
  EXPECT_EQ(w.fov_detections().data(), kept);
  EXPECT_EQ(first, w.sweep_fov_detections());
  EXPECT_EQ(first[kWatcher], kWatcherSees[0]);
  for (int k = 1; k <= 8; ++k) {
    w.step();
    EXPECT_EQ(w.fov_detections()[kWatcher], kWatcherSees[k]) << "step " << k;
  }
}

TEST(Fov, KeptDetectionsFollowATeleport) {
  World w(load_world(kKnownWorld));
  ASSERT_EQ(w.fov_detections()[kWatcher], kWatcherSees[0]);
  // east to (5, 1.5), at bearing -90° 3.5 m away: 2.47 m from the sector's -45° edge, so out of
  // it (radius 0.5).
  const std::vector<double> behind = {5, 1.5, 0};
  w.teleport(kEast, behind);
  EXPECT_EQ(w.fov_detections()[kWatcher], (std::vector<int>{kWall}));
  // north to (7, 5), 2 m straight ahead of the watcher; looking down (-90°, ±0.5 rad, 3 m) it
  // sees nobody: the watcher is 90° off its heading, east 3.5 m beyond its reach.
  const std::vector<double> ahead = {7, 5, -kPi / 2};
  w.teleport(kNorth, ahead);
  EXPECT_EQ(w.fov_detections()[kWatcher], (std::vector<int>{kNorth, kWall}));
  EXPECT_TRUE(w.fov_detections()[kNorth].empty());
  EXPECT_EQ(w.fov_detections(), w.sweep_fov_detections());
}

TEST(Fov, KeptDetectionsFollowAStateAssignedBack) {
  World w(load_world(kKnownWorld));
  const WorldState at0 = w.state();
  for (int k = 1; k <= 5; ++k) w.step();
  ASSERT_EQ(w.fov_detections()[kWatcher], kWatcherSees[5]);  // kept for step 5
  w.set_state(at0);
  EXPECT_EQ(w.fov_detections()[kWatcher], kWatcherSees[0]);
  const WorldState at0_again = w.state();
  w.step();
  w.set_state(at0_again);
  EXPECT_EQ(w.fov_detections()[kWatcher], kWatcherSees[0]);
}

TEST(Fov, ACopiedWorldKeepsItsOwnDetections) {
  World w(load_world(kKnownWorld));
  ASSERT_EQ(w.fov_detections()[kWatcher], kWatcherSees[0]);
  const World copy = w;
  for (int k = 1; k <= 5; ++k) w.step();
  EXPECT_EQ(copy.fov_detections()[kWatcher], kWatcherSees[0]);
  EXPECT_EQ(w.fov_detections()[kWatcher], kWatcherSees[5]);
  World assigned = copy;
  ASSERT_EQ(assigned.fov_detections()[kWatcher], kWatcherSees[0]);
  assigned = w;  // assigned over: its kept step-0 sweep goes with its old state
  EXPECT_EQ(assigned.fov_detections()[kWatcher], kWatcherSees[5]);
}

// Readers on several threads at once (sensors sample a const World in parallel) share one sweep.
TEST(Fov, ConcurrentReadersShareOneSweep) {
  const World w(load_world(kKnownWorld));
  // Each reader notes the lists' storage: a second sweep would have put new storage there.
  std::vector<const std::vector<int>*> seen(8, nullptr);
  std::vector<std::thread> readers;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    readers.emplace_back([&w, &seen, i] { seen[i] = w.fov_detections().data(); });
  }
  for (std::thread& t : readers) t.join();
  for (const auto* s : seen) EXPECT_EQ(s, seen[0]);
  EXPECT_EQ(w.fov_detections().data(), seen[0]);
  EXPECT_EQ(w.fov_detections()[kWatcher], kWatcherSees[0]);
}

}  // namespace
}  // namespace ubot
