#include "ubot/core/input_files.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "ubot/core/error.h"

namespace ubot {

std::filesystem::file_status input_file_status(const std::string& path, std::string_view missing) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) {
    throw Error(fmt::format("{}: {}", path, missing));
  }
  if (status.type() == std::filesystem::file_type::none) {  // status() itself failed
    if (ec == std::errc::too_many_symbolic_link_levels) {
      throw Error(fmt::format("{}: a loop of symbolic links (each link leads to another)", path));
    }
    throw Error(fmt::format("{}: cannot be looked at: {}", path, ec.message()));
  }
  return status;
}

}  // namespace ubot
