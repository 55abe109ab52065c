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
    throw Error(ErrorLocation(path), missing);
  }
  if (status.type() == std::filesystem::file_type::none) {  // status() itself failed
    if (ec == std::errc::too_many_symbolic_link_levels) {
      throw Error(ErrorLocation(path), "a loop of symbolic links (each link leads to another)");
    }
    throw Error(ErrorLocation(path), fmt::format("cannot be looked at: {}", ec.message()));
  }
  return status;
}

}  // namespace ubot
