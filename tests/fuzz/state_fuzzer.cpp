// A state file as Simulation::load_state reads it, into a simulation of tests/fuzz/
// state_world.yaml (one of each sensor type, an RVO crowd, an ORCA group, fog, smoke). The
// input is the file without its CRC-32, which the fuzzer appends (else nearly every input would
// stop at the checksum): magic, version, the world's description, then the state. Each input
// must give a snapshot or a ubot::Error, never a crash, a hang or unbounded memory; a snapshot
// that reads is restored and stepped, so values the reader let through must be safe to run.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ubot::Simulation* sim =
      new ubot::Simulation(ubot::load_world(UBOT_FUZZ_STATE_WORLD), {.threads = 1});
  static const ubot::SimulationSnapshot start = sim->snapshot();
  std::vector<std::uint8_t> bytes(data, data + size);
  const auto crc =
      static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), data, static_cast<uInt>(size)));
  for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(crc >> (8 * k)));
  try {
    sim->restore(sim->snapshot_from_bytes(bytes, "fuzz.bin"));
    sim->step();
  } catch (const ubot::Error&) {
  }
  sim->restore(start);
  return 0;
}
