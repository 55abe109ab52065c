#pragma once
// Loading IR-SIM-compatible world files (SPEC §1). Strict: unknown keys, wrong types,
// out-of-range values and unknown names fail with "file:line:column: key.path: message".
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ubot/config/world_model.h"
#include "ubot/config/yaml_document.h"

namespace ubot {

// Told how far a load is: `stage` "parsing" (done / total bytes of the file) or "objects" (done /
// total objects read). Called often (each object): a display throttles itself.
using LoadProgress =
    std::function<void(std::string_view stage, std::uint64_t done, std::uint64_t total)>;

struct LoadOptions {
  // Overrides the world's seed (YAML world.seed, else 0). Random placement derives from it.
  std::optional<std::uint64_t> seed = std::nullopt;
  // The memory the world's estimate may reach (bytes); unset: UBOT_MEMORY_LIMIT, else half of
  // the machine's memory (docs/worlds.md, "Limits").
  // (A default member initializer: `{.seed = 5}` stays warning-free.)
  std::optional<std::uint64_t> memory_limit = std::nullopt;
  LoadProgress progress = nullptr;  // `ubot --progress`; null: none
  // Overrides the world's `world.step_mode` (IR-SIM's irsim.make(step_mode=...)); unset: the
  // file's, else internal.
  std::optional<StepMode> step_mode = std::nullopt;
  // Behaviours (per object and group) that nobody has registered when the world is built are
  // left to the host, which commands those objects itself (ubot.irsim: IR-SIM scripts register
  // theirs after irsim.make): such an object has no velocity of its own, such a group no group
  // command. Unset: building such a world is an error at the name.
  bool host_behaviors = false;
  // Hears the parsed document once the world has been read from it (ubot.irsim builds IR-SIM's
  // env.config from it, so a world file is parsed once); null: nobody.
  std::function<void(const config::YamlDocument& document)> on_document = nullptr;
};

// A size as `--memory-limit` and UBOT_MEMORY_LIMIT take it: bytes, or a number with K, M, G or T
// (powers of 1024; "1.5G"). An ubot::Error naming `what` otherwise.
std::uint64_t parse_size(const std::string& text, const std::string& what);

// Throws an ubot::Error when `copies` simulations of `world` (a VectorEnv's envs) would need more
// memory than `limit` (unset: UBOT_MEMORY_LIMIT, else half of the machine's memory), by the
// estimate the loader checks one world against; `who` starts the message ("VectorEnv").
void check_memory_for_copies(const WorldModel& world, std::uint64_t copies, const std::string& who,
                             std::optional<std::uint64_t> limit = std::nullopt);

// Throws an ubot::Error when `count` items of `bytes_each` (a medium provider's cells) would need
// more memory than `limit` (unset: UBOT_MEMORY_LIMIT, else half of the machine's memory), before
// they are allocated; `what` names them ("medium provider: 10000000 cells").
void check_memory_for_items(std::uint64_t count, std::uint64_t bytes_each, const std::string& what,
                            std::optional<std::uint64_t> limit = std::nullopt);

// Reads a world file; throws ubot::Error with file, line, column and key path on bad input.
WorldModel load_world(const std::string& path, const LoadOptions& options = {});

// Same, from YAML text; `name` stands in for the file name in messages.
WorldModel load_world_from_string(const std::string& yaml, const std::string& name,
                                  const LoadOptions& options = {});

// A map of every lidar in the world with default settings (what `ubot run --map` enables when
// the world has no `mapping:` section).
MappingModel default_mapping(const WorldModel& world);

}  // namespace ubot
