// World::set_parallel_for: a large step moved on several threads (independent objects together,
// RVO robots in waves) ends exactly where the sequential step ends, bit for bit.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "ubot/world/world.h"
#include "world_test_support.h"

namespace ubot {
namespace {

using testing_support::make_world;

// A crowded floor: RVO robots of every mode, dash robots and a scripted shuttle between them in
// id order, static circles, polygons and a wall (RVO looks at its segments), 700 objects in a
// 30 m square: most robots see several others, so the waves are many and short.
std::string crowd(const std::string& rvo_kinematics = "{name: diff}") {
  const std::string rvo = R"(
    kinematics: )" + rvo_kinematics +
                          R"(
    shape: {name: circle, radius: 0.2}
    vel_min: [-1, -1]
    vel_max: [1, 1]
    distribution: {name: random, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]}
)";
  const std::string dash = R"(
    kinematics: {name: diff}
    shape: {name: rectangle, length: 0.6, width: 0.4}
    behavior: {name: dash, wander: true, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]}
    distribution: {name: random, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]}
)";
  return R"(
world: {width: 30, height: 30, seed: 7, collision_mode: unobstructed}
robot:
  - number: 150
    behavior: {name: rvo, wander: true, neighbor_threshold: 3.0, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]})" +
         rvo + R"(  - number: 100)" + dash + R"(  - number: 150
    behavior: {name: rvo, mode: hrvo, wander: true, neighbor_threshold: 2.0, factor: 2.0, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]})" +
         rvo + R"(  - number: 1
    shape: {name: circle, radius: 0.3}
    trajectory:
      interpolation: linear
      waypoints:
        - {t: 0, position: [2, 15, 0], rpy: [0, 0, 0]}
        - {t: 30, position: [28, 15, 0], rpy: [0, 0, 0]}
  - number: 100
    behavior: {name: rvo, mode: vo, wander: true, neighbor_threshold: 4.0, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]})" +
         rvo + R"(  - number: 100)" + dash + R"(
obstacle:
  - number: 60
    distribution: {name: random, range_low: [1, 1, 0], range_high: [29, 29, 0]}
    shape: {name: circle, radius: 0.3}
  - number: 38
    distribution: {name: random, range_low: [1, 1, -3.14], range_high: [29, 29, 3.14]}
    shape: {name: rectangle, length: 1.5, width: 0.5}
  - shape: {name: linestring, vertices: [[5, 5], [25, 5], [25, 25]]}
)";
}

// Calls body(i) for every i, last first: the order a sequential step never takes.
World::ParallelFor reversed(std::atomic<int>* calls) {
  return [calls](std::size_t n, const std::function<void(std::size_t)>& body) {
    ++*calls;
    for (std::size_t i = n; i-- > 0;) body(i);
  };
}

// Two real threads, each taking every other i.
World::ParallelFor two_threads() {
  return [](std::size_t n, const std::function<void(std::size_t)>& body) {
    std::thread other([&] {
      for (std::size_t i = 1; i < n; i += 2) body(i);
    });
    for (std::size_t i = 0; i < n; i += 2) body(i);
    other.join();
  };
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every object's pose, velocity, goals, flags and placed shape, compared bit for bit.
void expect_same_state(const World& a, const World& b, int step) {
  ASSERT_EQ(a.size(), b.size());
  for (int id = 0; id < static_cast<int>(a.size()); ++id) {
    const ObjectState& sa = a.object(id);
    const ObjectState& sb = b.object(id);
    ASSERT_EQ(sa.state.size(), sb.state.size());
    for (std::size_t k = 0; k < sa.state.size(); ++k) {
      ASSERT_TRUE(same_bits(sa.state[k], sb.state[k]))
          << "object " << id << " state[" << k << "] at step " << step << ": " << sa.state[k]
          << " vs " << sb.state[k];
    }
    ASSERT_TRUE(same_bits(sa.velocity.x(), sb.velocity.x()) &&
                same_bits(sa.velocity.y(), sb.velocity.y()))
        << "object " << id << " velocity at step " << step;
    ASSERT_EQ(sa.goals, sb.goals) << "object " << id << " at step " << step;
    ASSERT_EQ(sa.arrive, sb.arrive);
    ASSERT_EQ(sa.collision, sb.collision);
    ASSERT_EQ(sa.collision_ids, sb.collision_ids);
    ASSERT_TRUE(same_bits(a.shape(id).center.x(), b.shape(id).center.x()));
  }
}

void expect_parallel_matches_sequential(const std::string& yaml, World::ParallelFor run,
                                        int steps) {
  World sequential = make_world(yaml);
  World parallel = make_world(yaml);
  parallel.set_parallel_for(std::move(run));
  for (int k = 1; k <= steps; ++k) {
    sequential.step();
    parallel.step();
    expect_same_state(sequential, parallel, k);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ParallelStep, OutOfOrderRunsGiveTheSequentialStep) {
  std::atomic<int> calls{0};
  expect_parallel_matches_sequential(crowd(), reversed(&calls), 25);
  // The independent objects, then several waves of RVO robots, every step.
  EXPECT_GT(calls.load(), 25 * 3);
}

TEST(ParallelStep, TwoThreadsGiveTheSequentialStep) {
  expect_parallel_matches_sequential(crowd(), two_threads(), 15);
}

TEST(ParallelStep, OmniRvoRobotsMoveInWavesToo) {
  std::atomic<int> calls{0};
  expect_parallel_matches_sequential(crowd("{name: omni}"), reversed(&calls), 12);
  EXPECT_GT(calls.load(), 12 * 3);
}

TEST(ParallelStep, WorldsItCannotBoundStepSequentially) {
  // RVO robots on noisy kinematics: their moves have no bound, so the objects move one after
  // another; only the collision check's sweep (two pieces of 512 boxes) runs on the threads.
  std::atomic<int> calls{0};
  expect_parallel_matches_sequential(crowd("{name: diff, noise: true}"), reversed(&calls), 5);
  EXPECT_EQ(calls.load(), 5);
}

TEST(ParallelStep, SmallWorldsStepSequentially) {
  std::atomic<int> calls{0};
  World w = make_world(R"(
robot:
  - number: 10
    distribution: {name: random, range_low: [1, 1, 0], range_high: [9, 9, 0]}
    kinematics: {name: diff}
    behavior: {name: rvo, wander: true, range_low: [1, 1, 0], range_high: [9, 9, 0]}
)");
  w.set_parallel_for(reversed(&calls));
  w.step();
  EXPECT_EQ(calls.load(), 0);
}

TEST(ParallelStep, ACopyOfTheWorldStepsSequentially) {
  std::atomic<int> calls{0};
  World w = make_world(crowd());
  w.set_parallel_for(reversed(&calls));
  World copy = w;
  copy.step();
  EXPECT_EQ(calls.load(), 0);
  w.step();
  EXPECT_GT(calls.load(), 0);
  expect_same_state(w, copy, 1);
}

}  // namespace
}  // namespace ubot
