// collision_mode: contact through the world (SPEC §9, issue 14 item 6): pushing, episodes,
// timers, determinism, and the loader's keys.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(UBOT_SOURCE_DIR) + "/examples/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

World push_box_world(const std::string& replace_from = "", const std::string& replace_to = "") {
  std::string yaml = read_example("push_box.yaml");
  if (!replace_from.empty()) yaml.replace(yaml.find(replace_from), replace_from.size(), replace_to);
  return World(load_world_from_string(yaml, "push_box.yaml"));
}

constexpr int kRobot = 0, kBox = 1;

TEST(ContactWorld, RobotPushesTheBoxForward) {
  World w = push_box_world();
  ASSERT_TRUE(w.contact_mode());
  for (int k = 0; k < 10; ++k) w.step();  // the robot (edge at 1.3) has not reached x = 2.6 yet
  EXPECT_EQ(w.object(kBox).state[0], 3.0);
  EXPECT_EQ(w.object(kBox).state[1], 5.0);
  for (int k = 0; k < 60; ++k) w.step();
  // Pushed head-on along y = 5: forward by metres, not sideways, and ahead of the robot.
  EXPECT_GT(w.object(kBox).state[0], 6.0);
  EXPECT_NEAR(w.object(kBox).state[1], 5.0, 0.05);
  EXPECT_GT(w.object(kBox).state[0] - w.object(kRobot).state[0], 0.3 + 0.4 - 0.05);
  EXPECT_FALSE(w.object(kRobot).stop);  // contact never freezes an object
}

TEST(ContactWorld, BoxStaysPutWhenNothingPushesIt) {
  // The robot drives up, away from the box.
  World w = push_box_world("goal: [9, 5, 0]", "goal: [1, 9, 0]");
  for (int k = 0; k < 80; ++k) w.step();
  EXPECT_GT(w.object(kRobot).state[1], 8.5);
  EXPECT_EQ(w.object(kBox).state[0], 3.0);
  EXPECT_EQ(w.object(kBox).state[1], 5.0);
  EXPECT_EQ(w.object(kBox).state[2], 0.0);
  EXPECT_FALSE(w.contact(kBox).in_contact);
}

TEST(ContactWorld, StopModeIsUnchanged) {
  World w = push_box_world("collision_mode: 'contact'", "collision_mode: 'stop'");
  EXPECT_FALSE(w.contact_mode());
  for (int k = 0; k < 40; ++k) w.step();
  EXPECT_TRUE(w.object(kRobot).stop);
  EXPECT_EQ(w.object(kBox).state[0], 3.0);
  EXPECT_FALSE(w.contact(kRobot).in_contact);
}

// started and ended are each true once per episode; contact_time and air_time advance by the
// step time (in integer nanoseconds) and the other is held at zero.
TEST(ContactWorld, EpisodeEdgesAndTimers) {
  World w = push_box_world();
  const Nanos step = seconds_to_nanos(0.1);
  int started = 0, ended = 0, touching_steps = 0;
  ContactReading previous;
  for (int k = 0; k < 150; ++k) {
    w.step();
    const ContactReading& r = w.contact(kRobot);
    started += r.started;
    ended += r.ended;
    EXPECT_EQ(r.started, r.in_contact && !previous.in_contact);
    EXPECT_EQ(r.ended, !r.in_contact && previous.in_contact);
    if (r.in_contact) {
      ++touching_steps;
      EXPECT_EQ(r.contact_time, previous.contact_time + step);
      EXPECT_EQ(r.air_time, 0);
      EXPECT_EQ(r.partners, std::vector<int>{kBox});
      ASSERT_FALSE(r.reports.empty());
      EXPECT_EQ(r.reports[0].other, kBox);
      EXPECT_LT(r.reports[0].normal.x(), -0.99);  // the box pushes the robot back (-x)
      EXPECT_GE(r.reports[0].force, 0.0);
      // The box reads the same contact from its side.
      EXPECT_EQ(w.contact(kBox).partners, std::vector<int>{kRobot});
      EXPECT_GT(w.contact(kBox).reports[0].normal.x(), 0.99);
    } else {
      EXPECT_EQ(r.air_time, previous.air_time + step);
      EXPECT_EQ(r.contact_time, 0);
    }
    previous = r;
  }
  // One episode: pushing from x ≈ 2.3 until the robot brakes at its goal and the box slides on.
  EXPECT_EQ(started, 1);
  EXPECT_EQ(ended, 1);
  EXPECT_GT(touching_steps, 30);
  EXPECT_TRUE(w.object(kRobot).arrive);
}

TEST(ContactWorld, PushingForceMatchesTheBoxDrag) {
  // While the robot pushes at a steady 1 m/s, the box's floor drag (damping 2/s × 1 kg × 1 m/s)
  // is what the robot must push with.
  World w = push_box_world();
  for (int k = 0; k < 45; ++k) w.step();
  const ContactReading& box = w.contact(kBox);
  ASSERT_TRUE(box.in_contact);
  EXPECT_NEAR(w.velocity_xy(kBox).x(), 1.0, 0.02);
  EXPECT_NEAR(box.force.x(), 2.0 * 1.0 * w.velocity_xy(kBox).x(), 0.1);
}

TEST(ContactWorld, SameSeedSameContacts) {
  World a = push_box_world(), b = push_box_world();
  for (int k = 0; k < 80; ++k) {
    a.step();
    b.step();
    for (int id : {kRobot, kBox}) {
      ASSERT_EQ(a.object(id).state, b.object(id).state);
      const ContactReading &ra = a.contact(id), &rb = b.contact(id);
      ASSERT_EQ(ra.reports.size(), rb.reports.size());
      for (std::size_t i = 0; i < ra.reports.size(); ++i) {
        EXPECT_EQ(ra.reports[i].point, rb.reports[i].point);
        EXPECT_EQ(ra.reports[i].normal, rb.reports[i].normal);
        EXPECT_EQ(ra.reports[i].force, rb.reports[i].force);
        EXPECT_EQ(ra.reports[i].depth, rb.reports[i].depth);
      }
      EXPECT_EQ(ra.force, rb.force);
    }
  }
}

TEST(ContactWorld, SnapshotRestoreReplaysTheSameContacts) {
  World w = push_box_world();
  for (int k = 0; k < 30; ++k) w.step();
  const WorldState saved = w.state();
  for (int k = 0; k < 10; ++k) w.step();
  const std::vector<double> box = w.object(kBox).state;
  const Eigen::Vector2d force = w.contact(kRobot).force;
  w.set_state(saved);
  for (int k = 0; k < 10; ++k) w.step();
  EXPECT_EQ(w.object(kBox).state, box);
  EXPECT_EQ(w.contact(kRobot).force, force);
}

TEST(ContactWorld, ConcavePolygonAndLinestringAreFixtures) {
  // An L-shaped fixture and a wall line: a robot driving +x meets the line and stops at it.
  World w(load_world_from_string(R"(
world: {width: 10, height: 10, collision_mode: contact}
robot:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.2}
    state: [1, 1, 0]
    goal: [9, 1, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: linestring, vertices: [[3, 0], [3, 2]]}
    state: [0, 0, 0]
  - shape: {name: polygon, vertices: [[5, 0], [7, 0], [7, 1], [6, 1], [6, 2], [5, 2]]}
    state: [0, 0, 0]
)",
                                 "t.yaml"));
  for (int k = 0; k < 60; ++k) w.step();
  EXPECT_NEAR(w.object(0).state[0], 3.0 - 0.2, 0.02);
  EXPECT_EQ(w.contact(0).partners, std::vector<int>{1});
  EXPECT_LT(w.contact(0).reports[0].normal.x(), -0.99);
  // The L's notch (x in [6, 7], y in [1, 2]) is open: a robot driving -x at y = 1.5 enters it
  // and stops at its inner face x = 6, not at the convex hull's x = 7.
  World around(load_world_from_string(R"(
world: {width: 10, height: 10, collision_mode: contact}
robot:
  - kinematics: {name: omni}
    shape: {name: circle, radius: 0.2}
    state: [9, 1.5, 0]
    goal: [1, 1.5, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: polygon, vertices: [[5, 0], [7, 0], [7, 1], [6, 1], [6, 2], [5, 2]]}
    state: [0, 0, 0]
)",
                                      "t.yaml"));
  for (int k = 0; k < 80; ++k) around.step();
  EXPECT_NEAR(around.object(0).state[0], 6.0 + 0.2, 0.02);
  EXPECT_NEAR(around.object(0).state[1], 1.5, 1e-3);
}

TEST(ContactWorld, MovingLinestringIsKinematicAndPushes) {
  const std::string yaml = R"(
world: {width: 10, height: 10, collision_mode: contact}
robot:
  - kinematics: {name: omni}
    shape: {name: linestring, vertices: [[0, -0.5], [0, 0.5]]}
    state: [1, 5, 0]
    goal: [9, 5, 0]
    behavior: {name: dash}
obstacle:
  - shape: {name: circle, radius: 0.3}
    state: [3, 5, 0]
    mass: 1.0
)";
  World contact(load_world_from_string(yaml, "t.yaml"));
  std::string free = yaml;
  free.replace(free.find("contact}"), 7, "unobstructed");
  World kinematic(load_world_from_string(free, "t.yaml"));
  for (int k = 0; k < 40; ++k) {
    contact.step();
    kinematic.step();
    // The segment moves exactly as its kinematics say, box or not.
    ASSERT_EQ(contact.object(0).state, kinematic.object(0).state) << k;
  }
  EXPECT_GT(contact.object(1).state[0], 4.5);  // and pushed the box ahead of it
  EXPECT_EQ(contact.contact(1).partners, std::vector<int>{0});
}

void expect_load_error(const std::string& yaml, const std::string& message) {
  try {
    load_world_from_string(yaml, "bad.yaml");
    FAIL() << "expected: " << message;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(ContactWorld, LoaderRejectsBadPhysicsKeys) {
  expect_load_error(
      "world: {collision_mode: contact}\nobstacle:\n  - shape: {name: linestring, vertices: "
      "[[0, 0], [1, 0]]}\n    mass: 1\n",
      "bad.yaml:4:11: obstacle[0].mass: a linestring has no area");
  expect_load_error("obstacle:\n  - shape: {name: circle}\n    mass: -1\n",
                    "bad.yaml:3:11: obstacle[0].mass");
  expect_load_error("obstacle:\n  - shape: {name: circle}\n    restitution: 2\n",
                    "bad.yaml:3:18: obstacle[0].restitution");
  expect_load_error("world: {contact_substeps: 0}\n", "contact_substeps must be an integer");
  expect_load_error(
      "robot:\n  - sensors:\n      - type: contact2d\n        plot: {force_scale: -1}\n",
      "force_scale");
}

}  // namespace
}  // namespace ubot
