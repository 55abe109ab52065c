#pragma once
// `ubot map stats|probe|convert`: inspecting point-cloud files (LAS, PLY, PCD).
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace ubot::app {

struct MapOptions {
  CLI::App* stats = nullptr;
  CLI::App* probe = nullptr;
  CLI::App* convert = nullptr;
  std::string file;    // stats / probe input
  std::string output;  // convert output
  double x = 0, y = 0, z = 0, half = 0;
  std::size_t samples = 10;  // probe: sample points printed
  bool json = false;         // machine-readable output
  int las_point_format = 0;  // convert: 6, 7 or 0 = auto
};

// Adds the `map` subcommand group to `app`; `options` receives the parsed values.
CLI::App* add_map_commands(CLI::App& app, MapOptions& options);
// Runs the parsed map command; returns the exit code. Bad files throw ubot::Error.
int run_map_command(const MapOptions& options);

}  // namespace ubot::app
