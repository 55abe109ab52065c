#pragma once
// SHA-256 of a byte string (sha256.cpp says why ubot has its own).
#include <array>
#include <string_view>

namespace ubot::ros2 {

std::array<unsigned char, 32> sha256(std::string_view data);

}  // namespace ubot::ros2
