#pragma once
// `ubot run`: runs a world and writes its outputs.
#include <cstdint>
#include <optional>
#include <string>

#include "ubot/config/load_world.h"

namespace ubot::app {

struct RunOptions {
  std::string world;
  std::optional<std::int64_t> steps;  // stop after this many steps (default 1000)
  std::optional<std::uint64_t> seed;  // overrides the world's seed
  std::string out;                    // output directory
  bool render = false;                // also write run.gif
  bool picture = true;                // world.png (--no-picture: none)
  bool quiet = false;                 // no progress line, no summary
  bool progress = false;  // --progress: the load progress line even when stderr is no terminal
  bool timings = false;   // --timings: print where the steps spent their wall time
  std::string frames = "every";  // frames.jsonl: every | N | none
  int threads = 0;               // sensor and motion threads, 0 = all cores
  std::string map;    // --map PATH: map the lidars into PATH (.las/.ply/.pcd); "" = the world's
  bool ros2 = false;  // ROS 2 bridge: publish topics, receive cmd_vel
  std::optional<int> ros_domain_id;       // overrides ROS_DOMAIN_ID
  std::optional<double> realtime;         // pace simulation time at this multiple of wall time
  std::string mcap;                       // --mcap PATH: record as MCAP ("" = no recording)
  std::string mcap_compression = "zstd";  // --mcap-compression: zstd | lz4 | none
  std::string memory_limit;  // --memory-limit SIZE ("" = UBOT_MEMORY_LIMIT or half the memory)
  std::optional<std::string> live;  // --live [HOST:]PORT: the live page and Foxglove server
  std::string live_token;           // --live-token / UBOT_LIVE_TOKEN ("" = none)
  // --frames-format: where the recorded steps go: jsonl | parquet | jsonl,parquet
  std::string frames_format = "jsonl";
  std::string save_state;  // --save-state PATH: the running state after the last step
  std::string resume;      // --resume PATH: start from a state file of this world
};

// The load options of --seed and --memory-limit.
LoadOptions load_options(std::optional<std::uint64_t> seed, const std::string& memory_limit);

// Runs; returns the process exit code. Throws ubot::Error on bad input or I/O failure.
int run(const RunOptions& options);

}  // namespace ubot::app
