// ubot against IR-SIM itself: each world runs in ubot's Simulation and is compared, step by
// step, with the trace IR-SIM made of it (kPinnedIrsimVersion) (tests/data/irsim_traces/,
// docs/irsim-parity.md; or the live one the test venv's IR-SIM made: find_trace in irsim_trace.h).
// Noise is off in both (dump.py switches IR-SIM's off after construction; here the loaded model
// is changed the same way). Poses, velocities and lidar origins must agree to 1e-9 m / rad,
// flags and env.done() exactly; lidar ranges to 1e-9 m except where IR-SIM's 64-gon circles
// differ from ubot's exact ones (beam_match.h says by how much).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "beam_match.h"
#include "irsim_trace.h"
#include "support/paths.h"
#include "ubot/config/load_world.h"
#include "ubot/core/angles.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sim/simulation.h"

namespace ubot::irsim_parity {
namespace {

using testing_support::source_path;

// What of a world IR-SIM drew at random, which ubot then takes from the trace (ubot draws from
// its own seeded streams, not numpy's: README "Behaviour, as IR-SIM"; the draws themselves are
// compared in distribution by tests/app/test_irsim_random.py).
enum class Draws {
  kNone,
  // Random placements, goals and shapes (`distribution: random`, `random_shape`): IR-SIM's
  // initial layout is injected (each object's state, goal and outline), and nothing random
  // happens after construction, so the whole trace is compared.
  kLayout,
  // As kLayout, and some object has `wander` goals: IR-SIM draws a new goal at the first
  // arrival, so the comparison ends there (wander off in ubot).
  kLayoutUntilArrival,
};

struct ParityCase {
  const char* name;   // the trace is tests/data/irsim_traces/<name>.json (or live: find_trace)
  const char* world;  // relative to the source tree
  Draws draws = Draws::kNone;
  // Compare up to this step only (0: the whole trace). Set where two exact circles of ubot
  // touch a step before IR-SIM's 64-gons do (docs/irsim-parity.md): a collision flag, then the
  // `stop` collision mode, makes the runs different worlds from there.
  std::size_t last_step = 0;
};

const ParityCase kCases[] = {
    {"collision_avoidance", "examples/collision_avoidance.yaml"},
    {"collision_world", "examples/collision_world.yaml"},
    {"fmcw_lidar_world", "examples/fmcw_lidar_world.yaml"},
    {"fov_world", "examples/fov_world.yaml", Draws::kLayoutUntilArrival},
    {"lidar_world", "examples/lidar_world.yaml"},
    {"acker_wheelbase_world", "tests/data/acker_wheelbase_world.yaml"},
    {"grid_cave_world", "tests/data/grid_cave_world.yaml"},
    // `sfm` (docs/behaviors.md): arrival at step 128 (head-on), loop resets from step 248.
    {"sfm_head_on", "tests/data/irsim_usage/23sfm_world/sfm_head_on.yaml"},
    {"sfm_world", "tests/data/irsim_usage/23sfm_world/sfm_world.yaml"},
    // IR-SIM's usage/ worlds (tests/data/irsim_usage/) and ubot's compound / has_velocity world.
    {"robot_compound_world", "tests/data/irsim_usage/02robot_world/robot_compound_world.yaml"},
    {"robot_omni_angular_world",
     "tests/data/irsim_usage/02robot_world/robot_omni_angular_world.yaml"},
    {"robot_omni_world", "tests/data/irsim_usage/02robot_world/robot_omni_world.yaml"},
    {"compound_lidar_world", "tests/data/compound_lidar_world.yaml"},
    // The other deterministic usage/ worlds (issue 13 item 6).
    {"car_world", "tests/data/irsim_usage/02robot_world/car_world.yaml"},
    {"robot_polygon_world", "tests/data/irsim_usage/02robot_world/robot_polygon_world.yaml"},
    {"robot_world", "tests/data/irsim_usage/02robot_world/robot_world.yaml"},
    {"obstacle_world", "tests/data/irsim_usage/03obstacle_world/obstacle_world.yaml"},
    {"render", "tests/data/irsim_usage/07render_world/render.yaml"},
    {"dynamic_obstacle", "tests/data/irsim_usage/12dynamic_obstacle/dynamic_obstacle.yaml"},
    {"car_world_3d", "tests/data/irsim_usage/14world_3d_plot/car_world.yaml"},
    {"robot_world_3d", "tests/data/irsim_usage/14world_3d_plot/robot_world_3d.yaml"},
    {"lidar_world_laser_color",
     "tests/data/irsim_usage/05lidar_world/lidar_world_laser_color.yaml"},
    {"lidar_world_noise", "tests/data/irsim_usage/05lidar_world/lidar_world_noise.yaml"},
    {"fog_grid_map", "tests/data/irsim_usage/24fog_world/fog_grid_map.yaml"},
    {"collision_avoidance_large",
     "tests/data/irsim_usage/11collision_avoidance/collision_avoidance_large.yaml"},
    {"cbf_world", "tests/data/irsim_usage/21cbf_world/cbf_world.yaml"},
    // obstacle_15 and obstacle_1 (r 0.37 and 0.55) come 0.91926 m apart at step 54: touching
    // circles, not yet touching 64-gons.
    {"cbf_world_dynamic", "tests/data/irsim_usage/21cbf_world/cbf_world_dynamic.yaml", Draws::kNone,
     53},
    {"cbf_world_dynamic_diff", "tests/data/irsim_usage/21cbf_world/cbf_world_dynamic_diff.yaml",
     Draws::kNone, 53},
    {"multi_objects_large",
     "tests/data/irsim_usage/06multi_objects_world/multi_objects_large.yaml"},
    // Random usage/ worlds from IR-SIM's layout (issue 13 item 6). random_obstacle_seed.yaml
    // is the same file as random_obstacle.yaml; keyboard_control_mpl.yaml is in `auto` mode.
    {"random_obstacle", "tests/data/irsim_usage/08random_obstacle/random_obstacle.yaml",
     Draws::kLayout},
    {"collision_avoidance_random",
     "tests/data/irsim_usage/11collision_avoidance/collision_avoidance_random.yaml",
     Draws::kLayout},
    {"multi_objects_world", "tests/data/irsim_usage/06multi_objects_world/multi_objects_world.yaml",
     Draws::kLayout},
    {"random_reset_world", "tests/data/irsim_usage/18random_reset_world/random_reset_world.yaml",
     Draws::kLayoutUntilArrival},
    {"fov_world_multi", "tests/data/irsim_usage/15fov_world/fov_world_multi.yaml",
     Draws::kLayoutUntilArrival},
    {"keyboard_control_mpl", "tests/data/irsim_usage/09keyboard_control/keyboard_control_mpl.yaml",
     Draws::kLayout},
    // 20 omni rvo wanderers at random headings: since IR-SIM 2.12.0 rotates their world
    // velocity into the body frame as ubot does, they agree (the acker robot, in keyboard mode
    // without a behaviour, stands in both).
    {"dynamic_random", "tests/data/irsim_usage/08random_obstacle/dynamic_random.yaml",
     Draws::kLayoutUntilArrival},
    // The `sfm` group behaviour with social groups (IR-SIM 2.12.0's usage sfm_group_world):
    // 285 steps agree to 2e-14. At step 286 robot_11, arrived and standing, reads robot_9,
    // standing too: with both velocities zero the interaction direction is the unit offset
    // itself, and the model's sign(theta) turns on whether that offset's length rounds to
    // exactly 1, which a 1e-15 difference in the positions flips (a 6e-4 lateral push).
    {"sfm_group_world", "tests/data/irsim_usage/23sfm_world/sfm_group_world.yaml", Draws::kNone,
     285},
};
// The worlds with lidars (their scans are compared too).
const ParityCase kLidarCases[] = {kCases[2],  kCases[4],  kCases[5],  kCases[6],  kCases[12],
                                  kCases[20], kCases[21], kCases[22], kCases[23], kCases[28],
                                  kCases[29], kCases[32], kCases[34], kCases[35]};

// What dump.py does to IR-SIM after construction: kinematic and sensor noise off.
void switch_noise_off(WorldModel& model) {
  for (ObjectModel& o : model.objects) {
    o.kinematics.noise = false;
    for (SensorModel& s : o.sensors) {
      s.common.noise = false;
      if (auto* lidar = std::get_if<Lidar2dModel>(&s.params)) lidar->velocity_noise_std = 0.0;
    }
  }
}

// IR-SIM's outline for ubot's shape: a circle's radius is IR-SIM's obj.radius (the minimum
// bounding radius of its 64-gon, which has its vertices on the circle); a polygon takes the
// ring's vertices (the ring repeats its first one).
void use_irsim_outline(ShapeModel& shape, const TraceObject& t) {
  if (!shape.parts.empty() || shape.solid) return;  // no random compounds or solids in IR-SIM
  if (shape.kind == ShapeKind::kCircle) {
    shape.radius = t.radius;
  } else if (shape.kind == ShapeKind::kPolygon && t.outline.size() >= 4) {
    shape.vertices.assign(t.outline.begin(), t.outline.end() - 1);
  }
}

void use_irsim_layout(WorldModel& model, const Trace& trace) {
  for (const TraceObject& t : trace.objects) {
    ObjectModel& o = model.objects.at(static_cast<std::size_t>(t.id));
    o.state = t.state;
    if (!t.goal.empty()) o.goals = {t.goal};
    o.behavior.wander = false;
    use_irsim_outline(o.shape, t);
  }
}

WorldModel load_for(const ParityCase& c, const Trace& trace) {
  WorldModel model = load_world(source_path(c.world), {.seed = 0});
  switch_noise_off(model);
  if (c.draws != Draws::kNone) use_irsim_layout(model, trace);
  return model;
}

// Index of the last frame to compare.
std::size_t last_frame(const ParityCase& c, const Trace& trace) {
  if (c.last_step > 0) return std::min(c.last_step, trace.frames.size() - 1);
  if (c.draws != Draws::kLayoutUntilArrival) return trace.frames.size() - 1;
  for (std::size_t k = 1; k < trace.frames.size(); ++k) {
    const auto& objects = trace.frames[k].objects;
    if (std::any_of(objects.begin(), objects.end(), [](const auto& o) { return o.arrive; })) {
      return k;
    }
  }
  return trace.frames.size() - 1;
}

double difference(double a, double b, bool is_angle) {
  return std::abs(is_angle ? wrap_to_pi(a - b) : a - b);
}

// "name[i]: ubot x, IR-SIM y" for every component further apart than the tolerance (index 2 of
// a state or an origin is the heading, compared modulo 2π).
void compare_values(const std::string& name, const std::vector<double>& ubot,
                    const std::vector<double>& irsim, bool has_heading,
                    std::vector<std::string>& out, double* largest = nullptr) {
  if (ubot.size() != irsim.size()) {
    out.push_back(
        fmt::format("{}: ubot has {} values, IR-SIM {}", name, ubot.size(), irsim.size()));
    return;
  }
  for (std::size_t i = 0; i < ubot.size(); ++i) {
    const double d = difference(ubot[i], irsim[i], has_heading && i == 2);
    if (largest) *largest = std::max(*largest, d);
    if (d > kTolerance) {
      out.push_back(fmt::format("{}[{}]: ubot {} IR-SIM {}", name, i, ubot[i], irsim[i]));
    }
  }
}

void compare_flag(const std::string& name, bool ubot, bool irsim, std::vector<std::string>& out) {
  if (ubot != irsim) out.push_back(fmt::format("{}: ubot {} IR-SIM {}", name, ubot, irsim));
}

std::vector<double> to_vector(const Eigen::Vector2d& v) { return {v.x(), v.y()}; }

// The applied command as IR-SIM reports it: omni_angular [forward, lateral, yaw rate], else two.
std::vector<double> command_of(const World& world, int id) {
  const ObjectState& o = world.object(id);
  if (world.object_model(id).kinematics.kind == KinematicsKind::kOmniAngular) {
    return {o.velocity.x(), o.velocity.y(), o.yaw_rate};
  }
  return to_vector(o.velocity);
}

// `largest`: the largest state difference so far (m or rad).
std::vector<std::string> object_differences(const World& world, const TraceFrame& frame,
                                            double& largest) {
  std::vector<std::string> out;
  for (const TraceObjectFrame& t : frame.objects) {
    const ObjectState& o = world.object(t.id);
    const std::string who = world.object_model(t.id).name;
    compare_values(who + ".state", o.state, t.state, true, out, &largest);
    compare_values(who + ".velocity", command_of(world, t.id), t.velocity, false, out);
    compare_values(who + ".velocity_xy", to_vector(world.velocity_xy(t.id)), t.velocity_xy, false,
                   out);
    compare_flag(who + ".collision", o.collision, t.collision, out);
    compare_flag(who + ".arrive", o.arrive, t.arrive, out);
    compare_flag(who + ".stop", o.stop, t.stop, out);
  }
  compare_flag("done()", world.done(), frame.done, out);
  return out;
}

std::string joined(const std::vector<std::string>& lines, std::size_t max_lines = 12) {
  std::string s;
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) s += "\n  " + lines[i];
  if (lines.size() > max_lines) s += fmt::format("\n  ... and {} more", lines.size() - max_lines);
  return s;
}

class IrsimParity : public ::testing::TestWithParam<ParityCase> {
 protected:
  void SetUp() override {
    trace_ = read_trace(find_trace(GetParam().name));
    ASSERT_EQ(trace_.irsim_version, kPinnedIrsimVersion);
    ASSERT_EQ(trace_.world_file, std::filesystem::path(GetParam().world).filename().string());
    ASSERT_GE(trace_.frames.size(), 11u) << "traces cover 10-300 steps";
  }
  Trace trace_;
};

// ---- Loading: what IR-SIM built from the same file ------------------------------------------

void expect_outline_matches(const ObjectModel& o, const TraceObject& t) {
  if (!o.shape.parts.empty()) {
    // IR-SIM's compound outline is the union of the parts: each of its vertices lies on the
    // boundary of at least one part.
    const WorldShape placed = place_shape(o.shape, 0.0, 0.0, 0.0);
    ASSERT_GE(t.outline.size(), 4u) << o.name;
    for (const Eigen::Vector2d& v : t.outline) {
      double nearest = std::numeric_limits<double>::infinity();
      for (const WorldShape& part : placed.parts) {
        nearest = std::min(nearest, boundary_distance(part, v));
      }
      EXPECT_LE(nearest, kTolerance) << o.name << " vertex " << v.transpose();
    }
    return;
  }
  if (o.shape.kind == ShapeKind::kCircle) {
    // IR-SIM's circle is a 64-gon with its vertices on the circle ubot models.
    ASSERT_EQ(t.outline.size(), 65u) << o.name;
    for (const Eigen::Vector2d& v : t.outline) {
      EXPECT_NEAR((v - o.shape.center).norm(), o.shape.radius, kTolerance) << o.name;
    }
    return;
  }
  // Polygons, rectangles, linestrings: the same vertices (a ring repeats its first one).
  const std::size_t n = o.shape.vertices.size();
  ASSERT_EQ(t.outline.size(), o.shape.closed() ? n + 1 : n) << o.name;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR((t.outline[i] - o.shape.vertices[i]).norm(), 0.0, kTolerance) << o.name << " " << i;
  }
}

TEST_P(IrsimParity, LoadsTheWorldAsIrsim) {
  const WorldModel model = load_for(GetParam(), trace_);
  EXPECT_EQ(model.world.step_time, trace_.step_time);
  ASSERT_EQ(model.objects.size(), trace_.objects.size());
  for (const TraceObject& t : trace_.objects) {
    const ObjectModel& o = model.objects.at(static_cast<std::size_t>(t.id));
    SCOPED_TRACE(o.name);
    EXPECT_EQ(o.name, t.name);
    EXPECT_EQ(o.is_static, t.is_static);
    std::vector<std::string> differences;
    compare_values("state", o.state, t.state, true, differences);
    if (!o.goals.empty()) compare_values("goal", o.goals.front(), t.goal, true, differences);
    EXPECT_TRUE(differences.empty()) << joined(differences);
    if (o.kinematics.kind == KinematicsKind::kAcker) {
      // IR-SIM's acker kinematics take the shape's wheelbase (`wheelbase or 1.0`).
      EXPECT_EQ(o.kinematics.wheelbase, t.wheelbase && *t.wheelbase != 0.0 ? *t.wheelbase : 1.0);
    }
    expect_outline_matches(o, t);
  }
}

// ---- Motion: every object's state, command and flags after every step -----------------------

TEST_P(IrsimParity, MovesAsIrsimStepByStep) {
  Simulation sim(load_for(GetParam(), trace_), {.threads = 1});
  double largest = 0.0;
  const std::vector<std::string> initial =
      object_differences(sim.world(), trace_.frames[0], largest);
  ASSERT_TRUE(initial.empty()) << joined(initial);
  const std::size_t last = last_frame(GetParam(), trace_);
  for (std::size_t k = 1; k <= last; ++k) {
    sim.step();
    const TraceFrame& frame = trace_.frames[k];
    ASSERT_EQ(frame.step, static_cast<int>(k));
    ASSERT_NEAR(static_cast<double>(sim.world().time_ns()) * 1e-9, frame.time, kTolerance);
    const std::vector<std::string> differences = object_differences(sim.world(), frame, largest);
    ASSERT_TRUE(differences.empty())
        << GetParam().name << " diverges from IR-SIM at step " << k << ":" << joined(differences);
  }
  std::cout << fmt::format("{}: {} steps agree; largest state difference {:.3g}\n", GetParam().name,
                           last, largest);
}

// ---- Lidars: origin, ranges, valid masks and radial velocities after every step -------------

struct BeamCounts {
  int exact = 0, circle_ring = 0, grazing = 0;
};

const Lidar2d* find_lidar(const Simulation& sim, const TraceSensor& t) {
  for (const auto& s : sim.sensors()) {
    if (s->object_id() == t.object_id && s->index() == t.index) {
      if (const Lidar2d* lidar = sensor_if<Lidar2d>(*s)) return lidar;
    }
  }
  return nullptr;
}

// The circle object `id` is now, if it is one.
std::optional<Circle> circle_of(const World& world, int id) {
  if (id < 0 || !world.shape(id).circle) return std::nullopt;
  return Circle{world.shape(id).center, world.shape(id).radius};
}

void compare_beam(const World& world, const Lidar2d& lidar, const TraceSensor& sensor,
                  const TraceScan& irsim, std::size_t i, BeamCounts& counts,
                  std::vector<std::string>& out) {
  const LaserScan& scan = lidar.scan();
  const double yaw = scan.origin.z() + lidar.angles()[i];
  const Eigen::Vector2d origin = scan.origin.head<2>();
  const Eigen::Vector2d direction(std::cos(yaw), std::sin(yaw));
  const std::optional<Circle> hit = circle_of(world, scan.hit_object[i]);
  const BeamMatch match =
      match_beam(origin, direction, scan.ranges[i], irsim.ranges[i], hit ? &*hit : nullptr);
  const auto beam = [&] { return fmt::format("beam {}", i); };
  if (match == BeamMatch::kMismatch) {
    out.push_back(fmt::format("{} range: ubot {} IR-SIM {} (ubot hit object {})", beam(),
                              scan.ranges[i], irsim.ranges[i], scan.hit_object[i]));
    return;
  }
  counts.exact += match == BeamMatch::kExact;
  counts.circle_ring += match == BeamMatch::kCircleRing;
  counts.grazing += match == BeamMatch::kGrazing;
  // A beam that slipped past a 64-gon, or whose polygon hit lies just beyond range_max, may
  // have a different valid flag; every other must agree.
  const bool valid_may_differ =
      match == BeamMatch::kGrazing ||
      (match == BeamMatch::kCircleRing && irsim.ranges[i] >= sensor.range_max - kTolerance);
  const bool ubot_valid = scan.valid[i] != 0;
  if (ubot_valid != irsim.valid[i] && !valid_may_differ) {
    out.push_back(fmt::format("{} valid: ubot {} IR-SIM {}", beam(), ubot_valid, irsim.valid[i]));
  }
  // Radial velocity projects the hit object's velocity on the beam: the same object in both
  // (when IR-SIM saw it at all), whichever point of its outline the beam met.
  if (!irsim.radial_velocity.empty() && match != BeamMatch::kGrazing && ubot_valid &&
      irsim.valid[i] && std::abs(scan.radial_velocity[i] - irsim.radial_velocity[i]) > kTolerance) {
    out.push_back(fmt::format("{} radial velocity: ubot {} IR-SIM {}", beam(),
                              scan.radial_velocity[i], irsim.radial_velocity[i]));
  }
  // has_velocity: the world velocity of the object the beam hit (0 for none), the same object
  // in both except where a beam grazes IR-SIM's 64-gon.
  if (!irsim.velocity.empty() && match != BeamMatch::kGrazing &&
      (scan.velocity[i] - irsim.velocity[i]).cwiseAbs().maxCoeff() > kTolerance) {
    out.push_back(fmt::format("{} velocity: ubot [{}, {}] IR-SIM [{}, {}]", beam(),
                              scan.velocity[i].x(), scan.velocity[i].y(), irsim.velocity[i].x(),
                              irsim.velocity[i].y()));
  }
}

std::vector<std::string> scan_differences(const World& world, const Lidar2d& lidar,
                                          const TraceSensor& sensor, const TraceScan& irsim,
                                          BeamCounts& counts) {
  std::vector<std::string> out;
  const LaserScan& scan = lidar.scan();
  compare_values("origin", {scan.origin.x(), scan.origin.y(), scan.origin.z()}, irsim.origin, true,
                 out);
  if (scan.ranges.size() != irsim.ranges.size() || irsim.valid.size() != irsim.ranges.size() ||
      (!irsim.radial_velocity.empty() && irsim.radial_velocity.size() != irsim.ranges.size()) ||
      (!irsim.velocity.empty() && scan.velocity.size() != irsim.velocity.size())) {
    out.push_back(fmt::format(
        "ubot has {} beams, IR-SIM {} ranges, {} valid flags, {} radial "
        "velocities",
        scan.ranges.size(), irsim.ranges.size(), irsim.valid.size(), irsim.radial_velocity.size()));
    return out;
  }
  for (std::size_t i = 0; i < scan.ranges.size(); ++i) {
    compare_beam(world, lidar, sensor, irsim, i, counts, out);
  }
  return out;
}

class IrsimLidarParity : public IrsimParity {};

TEST_P(IrsimLidarParity, ScansAsIrsimStepByStep) {
  ASSERT_FALSE(trace_.sensors.empty());
  Simulation sim(load_for(GetParam(), trace_), {.threads = 1});
  std::vector<const Lidar2d*> lidars;
  for (const TraceSensor& t : trace_.sensors) {
    lidars.push_back(find_lidar(sim, t));
    ASSERT_NE(lidars.back(), nullptr) << "no lidar " << t.index << " on object " << t.object_id;
    std::vector<std::string> differences;
    compare_values("beam angles", lidars.back()->angles(), t.angles, false, differences);
    ASSERT_TRUE(differences.empty()) << joined(differences);
  }
  BeamCounts counts;
  const std::size_t last = last_frame(GetParam(), trace_);
  std::size_t beams = 0;  // every beam of every lidar in every compared frame
  for (const Lidar2d* lidar : lidars) beams += last * lidar->angles().size();
  for (std::size_t k = 1; k <= last; ++k) {
    sim.step();
    ASSERT_EQ(sim.sampled().size(), lidars.size()) << "every lidar samples every step";
    for (std::size_t s = 0; s < lidars.size(); ++s) {
      const std::vector<std::string> differences = scan_differences(
          sim.world(), *lidars[s], trace_.sensors[s], trace_.frames[k].scans.at(s), counts);
      ASSERT_TRUE(differences.empty())
          << GetParam().name << " lidar " << s << " diverges from IR-SIM at step " << k << ":"
          << joined(differences);
    }
  }
  // Not vacuous: every beam was classified, and most agree exactly.
  EXPECT_EQ(static_cast<std::size_t>(counts.exact + counts.circle_ring + counts.grazing), beams);
  EXPECT_GT(counts.exact, counts.circle_ring + counts.grazing);
  std::cout << fmt::format(
      "{}: {} beams agree to 1e-9 m, {} end on IR-SIM's 64-gon ring, {} graze it\n",
      GetParam().name, counts.exact, counts.circle_ring, counts.grazing);
}

// The version every trace must come from is the one the test venv installs, so that the live
// traces (made by the venv's IR-SIM) and the committed ones are of one release.
TEST(PinnedIrsim, IsTheTestRequirementsPin) {
  std::ifstream in(source_path("requirements/test.txt"));
  ASSERT_TRUE(in) << "requirements/test.txt";
  std::string line, pin;
  while (std::getline(in, line)) {
    if (line.rfind("ir-sim==", 0) == 0) pin = line.substr(8);
  }
  EXPECT_EQ(pin, kPinnedIrsimVersion);
}

std::string case_name(const ::testing::TestParamInfo<ParityCase>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Worlds, IrsimParity, ::testing::ValuesIn(kCases), case_name);
INSTANTIATE_TEST_SUITE_P(Worlds, IrsimLidarParity, ::testing::ValuesIn(kLidarCases), case_name);

}  // namespace
}  // namespace ubot::irsim_parity
