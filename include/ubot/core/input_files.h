#pragma once
// What every reader of a user's file (world, mesh, map cloud) checks before it opens one.
#include <filesystem>
#include <string>
#include <string_view>

namespace ubot {

// std::filesystem::status(path), following symbolic links. A path that does not exist is an
// Error "PATH: `missing`"; one that cannot be looked at says why (a loop of symbolic links, a
// folder without search permission) instead of passing for a missing file.
std::filesystem::file_status input_file_status(const std::string& path, std::string_view missing);

}  // namespace ubot
