// Model / state split (issue 11, item 6): Simulation::snapshot / restore / reset give back the
// exact bytes a run writes (frames.jsonl, points.bin and MCAP through the real writers).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/record/frames_writer.h"
#include "ubot/record/mcap_recorder.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/lidar2d/lidar2d.h"
#include "ubot/sensors/lidar3d/lidar3d.h"
#include "ubot/sim/simulation.h"

namespace ubot {
namespace {

namespace fs = std::filesystem;

// Noisy lidars (one with a seed), a noisy IMU with bias walk and low-pass filter, a lidar3d with
// motion distortion, a camera, a smoke cloud, and robots moving with dash, rvo and wander (the
// wanderer's goals and the noisy robot's kinematics draw from their own streams).
constexpr const char* kBusyWorld = R"(
world: {width: 20, height: 20, step_time: 0.05, seed: 3}
robot:
  - name: rover
    kinematics: {name: diff, noise: true}
    shape: {name: circle, radius: 0.3}
    state: [2, 2, 0]
    goal: [[[16, 3, 0], [16, 16, 0], [3, 16, 0]]]
    behavior: {name: dash, loop: true}
    vel_max: [1.5, 1.5]
    sensors:
      - {name: lidar2d, range_max: 8, angle_range: 3.14, number: 60, noise: true, std: 0.05}
      - {name: lidar2d, range_max: 8, angle_range: 3.14, number: 60, noise: true, seed: 5,
         angle_std: 0.01}
      - {name: imu, noise: true, accelerometer_noise_std: 0.05, gyroscope_noise_std: 0.01,
         accelerometer_random_walk: 0.01, gyroscope_random_walk: 0.001, low_pass: true,
         low_pass_cutoff_hz: 15}
      - {name: lidar3d, preset: VLP-16, noise: true, motion_distortion: true, number: 90,
         offset: [0, 0, 0.5]}
      - {name: depth_camera, width: 16, height: 12, noise: true, std: 0.02,
         offset: [0.2, 0, 0.4]}
  - name: walker
    kinematics: {name: omni}
    state: [10, 10, 0]
    behavior: {name: rvo, wander: true, range_low: [1, 1, -3.14], range_high: [19, 19, 3.14]}
  - name: crosser
    kinematics: {name: omni}
    state: [18, 10, 0]
    goal: [2, 10, 0]
    behavior: {name: rvo}
obstacle:
  - {shape: {name: rectangle, length: 2, width: 2}, state: [8, 6, 0], height: 2}
  - {shape: {name: circle, radius: 1}, state: [12, 13, 0]}
media:
  - name: smoke
    medium_type: smoke
    cells: [{position: [6, 3, 0.5], radius: 1.5, density: 1}]
    keyframes: [{t: 0, position_offset: [0, 0]}, {t: 10, position_offset: [8, 8]}]
)";

std::string read(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The bytes a run writes while `sim` steps from its current step to step `n`, with writers opened
// now: frames.jsonl (+ points.bin) and run.mcap, concatenated with labels.
std::string record_to(Simulation& sim, int n, const std::string& name) {
  // The pid keeps parallel test processes (ctest -j, two checkouts) out of each other's files.
  const fs::path dir =
      fs::temp_directory_path() / ("ubot_snapshot_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    FramesWriter frames((dir / "frames.jsonl").string(), sim);
    McapRecorder mcap((dir / "run.mcap").string(), sim);
    while (sim.world().step_count() < n) {
      sim.step();
      frames.write_step(sim);
      mcap.record(sim);
    }
    frames.close();
    mcap.close();
  }
  std::string bytes = "frames:" + read(dir / "frames.jsonl") + "\nmcap:" + read(dir / "run.mcap");
  if (fs::exists(dir / "points.bin")) bytes += "\npoints:" + read(dir / "points.bin");
  fs::remove_all(dir);
  return bytes;
}

void step_to(Simulation& sim, int k) {
  while (sim.world().step_count() < k) sim.step();
}

std::shared_ptr<const WorldModel> busy_model(std::optional<std::uint64_t> seed = {}) {
  return std::make_shared<const WorldModel>(
      load_world_from_string(kBusyWorld, "busy.yaml", {.seed = seed}));
}

std::shared_ptr<const WorldModel> warehouse_model() {
  return std::make_shared<const WorldModel>(
      load_world(std::string(UBOT_SOURCE_DIR) + "/examples/warehouse.yaml"));
}

// Snapshot at k, run to n, restore, run to n again: the same bytes both times, and the bytes of
// a run that was never interrupted.
void expect_branches_repeat(const std::shared_ptr<const WorldModel>& model, int k, int n) {
  Simulation straight(model);
  step_to(straight, k);
  const std::string expected = record_to(straight, n, "straight");
  ASSERT_GT(expected.size(), 1000u);

  Simulation sim(model);
  step_to(sim, k);
  const SimulationSnapshot at_k = sim.snapshot();
  EXPECT_EQ(at_k.step_count(), k);
  EXPECT_EQ(record_to(sim, n, "first"), expected);
  sim.restore(at_k);
  EXPECT_EQ(sim.world().step_count(), k);
  EXPECT_EQ(record_to(sim, n, "again"), expected);
  sim.restore(at_k);  // a snapshot restores any number of times
  EXPECT_EQ(record_to(sim, n, "third"), expected);
}

TEST(Snapshot, RestoreRepeatsTheRunByteForByteOnABusyWorld) {
  expect_branches_repeat(busy_model(), 17, 60);
}

TEST(Snapshot, RestoreRepeatsTheRunByteForByteOnTheWarehouse) {
  expect_branches_repeat(warehouse_model(), 12, 40);
}

TEST(Snapshot, RestoreGoesBackwardsAndForwards) {
  // A snapshot taken later restored after an earlier one: each gives its own continuation.
  const auto model = busy_model();
  Simulation straight(model);
  step_to(straight, 30);
  const std::string from30 = record_to(straight, 45, "straight30");
  Simulation sim(model);
  step_to(sim, 10);
  const SimulationSnapshot at10 = sim.snapshot();
  step_to(sim, 30);
  const SimulationSnapshot at30 = sim.snapshot();
  sim.restore(at10);
  step_to(sim, 20);
  sim.restore(at30);
  EXPECT_EQ(record_to(sim, 45, "at30"), from30);
}

TEST(Snapshot, ResetEqualsAFreshSimulationWithThatSeed) {
  const auto model = busy_model();
  Simulation fresh(busy_model(9));
  const std::string expected = record_to(fresh, 40, "fresh9");
  Simulation sim(model);
  step_to(sim, 25);
  sim.reset(9);
  EXPECT_EQ(sim.world().step_count(), 0);
  EXPECT_EQ(sim.world().seed(), 9u);
  EXPECT_EQ(record_to(sim, 40, "reset9"), expected);  // the header's seed included
  // Back to the model's seed: the model's own run.
  Simulation original(model);
  const std::string own = record_to(original, 40, "own");
  EXPECT_NE(own, expected);
  sim.reset(3);
  EXPECT_EQ(record_to(sim, 40, "reset3"), own);
}

// World::fov_detections keeps its sweep until the state changes: a restore, a reset and a
// teleport through the Simulation must each give the detections of the new state, not the kept
// ones. tests/data/fov_known_world.yaml: the watcher (0) turns 11.25° a step; it sees east (1)
// and the wall (3) at step 0, north (2) and the wall at step 5 (tests/world/fov_test.cpp).
TEST(Snapshot, FovDetectionsFollowRestoreResetAndTeleport) {
  Simulation sim(load_world(std::string(UBOT_SOURCE_DIR) + "/tests/data/fov_known_world.yaml"));
  const std::vector<int> at0 = {1, 3}, at5 = {2, 3};
  ASSERT_EQ(sim.world().fov_detections()[0], at0);
  const SimulationSnapshot start = sim.snapshot();
  step_to(sim, 5);
  ASSERT_EQ(sim.world().fov_detections()[0], at5);
  const SimulationSnapshot five = sim.snapshot();
  sim.restore(start);
  EXPECT_EQ(sim.world().fov_detections()[0], at0);
  sim.restore(five);
  EXPECT_EQ(sim.world().fov_detections()[0], at5);
  sim.reset(0);
  EXPECT_EQ(sim.world().fov_detections()[0], at0);
  // east to 2 m straight ahead of the watcher (5, 5) at yaw 0.
  const std::vector<double> ahead = {7, 5, 0};
  sim.teleport(1, ahead);
  EXPECT_EQ(sim.world().fov_detections()[0], at0);  // still east and the wall
  const std::vector<double> behind = {2, 5, 0};     // 3 m behind it
  sim.teleport(1, behind);
  EXPECT_EQ(sim.world().fov_detections()[0], std::vector<int>{3});
}

TEST(Snapshot, RestoresIntoAnotherSimulationOfTheSameModel) {
  const auto model = busy_model();
  Simulation straight(model);
  step_to(straight, 20);
  const std::string expected = record_to(straight, 50, "straight");
  Simulation source(model);
  step_to(source, 20);
  const SimulationSnapshot snapshot = source.snapshot();
  Simulation other(model, {.threads = 1});  // the thread count is not state
  step_to(other, 5);
  other.restore(snapshot);
  EXPECT_EQ(record_to(other, 50, "other"), expected);
}

// What the sensors hold now: every camera image, lidar2d scan and lidar3d sweep, with each
// sensor's sequence number and stamp, as bytes.
std::string sensor_outputs(const Simulation& sim) {
  std::string out;
  auto add = [&out](const auto& v) {
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
  };
  for (const auto& sensor : sim.sensors()) {
    out += sensor->header().sensor_id + ":" + std::to_string(sensor->header().sequence) + "@" +
           std::to_string(sensor->header().stamp) + ";";
    if (const Camera* c = sensor_if<Camera>(*sensor)) {
      add(c->image().depth);
      add(c->image().rgba);
    } else if (const Lidar2d* l = sensor_if<Lidar2d>(*sensor)) {
      add(l->scan().ranges);
    } else if (const Lidar3d* l3 = sensor_if<Lidar3d>(*sensor)) {
      add(l3->sweep().points_world);
    }
  }
  return out;
}

TEST(Snapshot, StaysUnchangedWhileItsSimulationStepsOn) {
  // A snapshot shares no mutable state with the simulation it came from: after that simulation
  // has stepped on (its cameras and lidars sampling again into their buffers), the snapshot
  // still restores the outputs and the continuation of step 30, also into a simulation whose
  // sensors have never sampled.
  for (const auto& model : {warehouse_model(), busy_model()}) {
    Simulation straight(model);
    step_to(straight, 30);
    const std::string outputs_at30 = sensor_outputs(straight);
    const std::string expected = record_to(straight, 45, "straight");

    Simulation sim(model);
    step_to(sim, 30);
    const SimulationSnapshot at30 = sim.snapshot();
    step_to(sim, 60);
    ASSERT_NE(sensor_outputs(sim), outputs_at30);  // the outputs did change meanwhile

    Simulation fresh(model);
    fresh.restore(at30);
    EXPECT_EQ(sensor_outputs(fresh), outputs_at30);
    EXPECT_EQ(record_to(fresh, 45, "fresh"), expected);
    sim.restore(at30);
    EXPECT_EQ(sensor_outputs(sim), outputs_at30);
    EXPECT_EQ(record_to(sim, 45, "again"), expected);
  }
}

TEST(Snapshot, RefusesASnapshotOfAnotherModel) {
  Simulation sim(busy_model());
  Simulation other(busy_model());  // same text, but another model object
  step_to(other, 3);
  try {
    sim.restore(other.snapshot());
    FAIL() << "restored a snapshot of another model";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("another world model"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sim.world().step_count(), 0);  // untouched
  EXPECT_THROW(sim.restore(SimulationSnapshot{}), Error);
}

// A provider without clone(): the default says it cannot be copied.
class OpaqueProvider final : public media::MediumProvider {
 public:
  bool snapshot(const media::MediumQuery&, media::MediumSnapshot&) override { return false; }
};

// A provider with state: it counts its calls and moves its cell by them.
class CountingProvider final : public media::MediumProvider {
 public:
  bool snapshot(const media::MediumQuery&, media::MediumSnapshot& out) override {
    ++calls_;
    out.cells.push_back({.position = {2.0 + 0.1 * calls_, 2, 0.5}, .radius = 0.5, .density = 1});
    return true;
  }
  std::unique_ptr<MediumProvider> clone() const override {
    return std::make_unique<CountingProvider>(*this);
  }
  void copy_state_from(const MediumProvider& other) override {
    calls_ = static_cast<const CountingProvider&>(other).calls_;
  }

 private:
  int calls_ = 0;
};

TEST(Snapshot, MediumProvidersStateIsPartOfTheSnapshot) {
  const auto model = busy_model();
  Simulation straight(model);
  straight.add_medium_provider(std::make_unique<CountingProvider>());
  step_to(straight, 10);
  const std::string expected = record_to(straight, 30, "straight");
  Simulation sim(model);
  sim.add_medium_provider(std::make_unique<CountingProvider>());
  step_to(sim, 10);
  const SimulationSnapshot at10 = sim.snapshot();
  step_to(sim, 22);
  sim.restore(at10);
  EXPECT_EQ(record_to(sim, 30, "restored"), expected);
  // reset gives the provider back its state from when it was added.
  Simulation fresh(model);
  fresh.add_medium_provider(std::make_unique<CountingProvider>());
  const std::string from0 = record_to(fresh, 15, "fresh");
  sim.reset(3);
  EXPECT_EQ(record_to(sim, 15, "reset"), from0);
}

TEST(Snapshot, RefusesProvidersThatCannotBeCopied) {
  Simulation sim(busy_model());
  sim.add_medium_provider(std::make_unique<OpaqueProvider>());
  EXPECT_THROW(sim.snapshot(), Error);
  Simulation plain(sim.model());
  const SimulationSnapshot s = plain.snapshot();
  EXPECT_THROW(sim.restore(s), Error);  // another number of providers
}

// ---- state files (issue 47): a snapshot as bytes, read back by another model object ---------

std::shared_ptr<const WorldModel> example_model(const std::string& name) {
  return std::make_shared<const WorldModel>(load_world(std::string(UBOT_SOURCE_DIR) + "/" + name));
}

// Bytes of step k from one model object, read by a simulation of another model object loaded
// from the same text (what another process does), continue byte for byte; and bytes read back
// and written again are the same bytes.
void expect_bytes_continue(const std::function<std::shared_ptr<const WorldModel>()>& load, int k,
                           int n) {
  const auto model = load();
  Simulation straight(model);
  step_to(straight, k);
  const std::vector<std::uint8_t> bytes = straight.snapshot().to_bytes();
  const std::string expected = record_to(straight, n, "straight");

  Simulation elsewhere(load());
  step_to(elsewhere, 3);  // wherever it was
  const SimulationSnapshot read = elsewhere.snapshot_from_bytes(bytes);
  EXPECT_EQ(read.step_count(), k);
  EXPECT_EQ(read.to_bytes(), bytes);
  EXPECT_FALSE(read == elsewhere.snapshot());  // step 3, not k
  EXPECT_TRUE(read == SimulationSnapshot(read));
  elsewhere.restore(read);
  EXPECT_EQ(record_to(elsewhere, n, "elsewhere"), expected);
}

TEST(StateFile, BytesContinueByteForByteInAnotherModelObject) {
  expect_bytes_continue([] { return busy_model(); }, 17, 50);
  expect_bytes_continue([] { return warehouse_model(); }, 12, 30);
  // Contact physics (bodies and contact sensors), an ORCA group (its velocities), the IMU.
  expect_bytes_continue([] { return example_model("examples/push_box.yaml"); }, 15, 40);
  expect_bytes_continue([] { return example_model("tests/data/orca_parity_world.yaml"); }, 9, 30);
  expect_bytes_continue([] { return example_model("examples/imu_world.yaml"); }, 11, 30);
  expect_bytes_continue([] { return example_model("examples/fov_world.yaml"); }, 8, 20);
}

TEST(StateFile, SaveAndLoadAFile) {
  const auto model = busy_model();
  Simulation straight(model);
  step_to(straight, 20);
  const fs::path path =
      fs::temp_directory_path() / ("ubot_state_test_" + std::to_string(::getpid()) + ".bin");
  straight.save_state(path.string());
  EXPECT_FALSE(fs::exists(path.string() + ".part"));
  const std::string expected = record_to(straight, 35, "straight");
  Simulation other(busy_model());
  other.load_state(path.string());
  EXPECT_EQ(other.world().step_count(), 20);
  EXPECT_EQ(record_to(other, 35, "loaded"), expected);
  fs::remove(path);
  try {
    other.load_state(path.string());
    FAIL() << "loaded a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

std::string load_error(Simulation& sim, const std::vector<std::uint8_t>& bytes) {
  const std::int64_t before = sim.world().step_count();
  try {
    sim.restore(sim.snapshot_from_bytes(bytes, "s.bin"));
  } catch (const Error& e) {
    EXPECT_EQ(sim.world().step_count(), before);  // untouched
    return e.what();
  }
  ADD_FAILURE() << "read bytes that should have failed";
  return "";
}

// The bytes with their CRC made right again (a file edited on purpose, not damaged).
std::vector<std::uint8_t> with_crc(std::vector<std::uint8_t> bytes) {
  bytes.resize(bytes.size() - 4);
  std::uint32_t crc = 0xFFFFFFFFu;  // CRC-32 (zlib's), bit by bit: no zlib in the test
  for (const std::uint8_t b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  crc ^= 0xFFFFFFFFu;
  for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(crc >> (8 * k)));
  return bytes;
}

TEST(StateFile, BadBytesAreClearErrors) {
  Simulation source(busy_model());
  step_to(source, 7);
  const std::vector<std::uint8_t> good = source.snapshot().to_bytes();
  Simulation sim(busy_model());
  step_to(sim, 2);
  ASSERT_EQ(with_crc(good), good);  // the test's CRC is zlib's

  auto expect = [&](const std::vector<std::uint8_t>& bytes, const std::string& needle) {
    const std::string message = load_error(sim, bytes);
    EXPECT_NE(message.find("s.bin"), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos) << message;
  };
  expect({}, "not a ubot state file");
  std::vector<std::uint8_t> b = good;
  b[0] = 'X';
  expect(b, "not a ubot state file");
  b = good;
  b[8] = 2;  // version 2
  expect(with_crc(b), "format version 2; this ubot reads version 1");
  b = good;
  b[b.size() / 2] ^= 0x40;
  expect(b, "damaged");
  b = good;
  b.resize(b.size() - 100);
  expect(b, "damaged");
  b = good;
  b.insert(b.end() - 4, {1, 2, 3});
  expect(with_crc(b), "3 bytes left over");
  // A state of another world names the first difference.
  Simulation warehouse(warehouse_model());
  expect(warehouse.snapshot().to_bytes(), "another world");
  // Bytes that cut the state short, with a right CRC: a count that no longer fits, or the read
  // runs out; either way the message names the byte and the part being read.
  b = good;
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(b.size() / 2), b.end() - 4);
  expect(with_crc(b), "(at byte ");
  expect(with_crc(b), ", reading sensors.");
  EXPECT_EQ(sim.world().step_count(), 2);
}

TEST(StateFile, AnAddedProviderCannotBeSaved) {
  Simulation sim(busy_model());
  sim.add_medium_provider(std::make_unique<CountingProvider>());
  try {
    (void)sim.snapshot().to_bytes();
    FAIL() << "saved a provider's state";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("add_medium_provider"), std::string::npos) << e.what();
  }
  Simulation plain(busy_model());
  const std::vector<std::uint8_t> bytes = plain.snapshot().to_bytes();
  EXPECT_THROW((void)sim.snapshot_from_bytes(bytes), Error);
}

// Noisy sensors and noisy motion, no wanderer.
constexpr const char* kNoisyWorld = R"(
world: {width: 10, height: 10, step_time: 0.1, seed: 3}
robot:
  - name: r
    kinematics: {name: diff, noise: true}
    state: [2, 2, 0]
    goal: [8, 8, 0]
    sensors:
      - {name: lidar2d, range_max: 6, number: 30, noise: true, std: 0.05}
      - {name: imu, noise: true, accelerometer_random_walk: 0.01}
obstacle:
  - {shape: {name: circle, radius: 1}, state: [5, 5, 0]}
)";

TEST(StateFile, ReseedGivesRunsFannedOutFromOneStateTheirOwnNoise) {
  const auto model =
      std::make_shared<const WorldModel>(load_world_from_string(kNoisyWorld, "noisy.yaml"));
  // At step 0 of a world without wanderers, reseed(s) is reset(s).
  Simulation reset(model), reseeded(model);
  reset.reset(9);
  reseeded.reseed(9);
  EXPECT_EQ(reseeded.world().seed(), 9u);
  EXPECT_EQ(reseeded.snapshot().to_bytes(), reset.snapshot().to_bytes());
  EXPECT_EQ(record_to(reseeded, 20, "reseeded"), record_to(reset, 20, "reset"));
  // From one state at step 10: the same seed repeats, another seed draws other noise.
  Simulation source(model);
  step_to(source, 10);
  const std::vector<std::uint8_t> at10 = source.snapshot().to_bytes();
  std::string runs[3];
  for (int k = 0; k < 3; ++k) {
    Simulation sim(model);
    sim.restore(sim.snapshot_from_bytes(at10));
    sim.reseed(k == 2 ? 5 : 4);
    EXPECT_EQ(sim.world().step_count(), 10);
    runs[k] = record_to(sim, 25, "fan" + std::to_string(k));
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_NE(runs[0], runs[2]);
  EXPECT_NE(runs[0], record_to(source, 25, "unreseeded"));
}

}  // namespace
}  // namespace ubot
