#pragma once
// Splitting a line of a text header (PLY, PCD, map metadata) into its words.
#include <string>
#include <string_view>
#include <vector>

namespace ubot {

// The words of `line`: the runs of characters between white space (std::isspace).
std::vector<std::string> split_words(std::string_view line);

}  // namespace ubot
