// The fixed GIF palette. Filling the table does not search all 256 entries for each of its
// 262144 cells: the cube is a separable grid and the distance a weighted sum over channels, so
// the nearest cube entry is per-channel rounding; only the 40 extra entries are searched.
#include "palette.h"

#include <algorithm>
#include <cmath>

namespace ubot::render::internal {
namespace {

constexpr int kCubeLevels = 6;
constexpr int kCubeStep = 51;  // 255 / (kCubeLevels - 1)
constexpr int kCubeSize = kCubeLevels * kCubeLevels * kCubeLevels;
constexpr int kTintLevels[] = {226, 241, 255};
constexpr int kTints = 24;  // 3^3 combinations less the 3 greys
constexpr int kExtraGreys = Palette::kSize - kCubeSize - kTints;
static_assert(kExtraGreys == 16);
constexpr int kWeightR = 3, kWeightG = 4, kWeightB = 2;

int cube_level(int value) { return (value + kCubeStep / 2) / kCubeStep; }

}  // namespace

const Palette& Palette::instance() {
  static const Palette* const palette = new Palette();
  return *palette;
}

int Palette::distance(Rgb a, Rgb b) {
  const int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return kWeightR * dr * dr + kWeightG * dg * dg + kWeightB * db * db;
}

std::uint8_t Palette::nearest_exhaustive(Rgb color) const {
  int best = 0;
  for (int i = 1; i < kSize; ++i) {
    if (distance(color, colors_[i]) < distance(color, colors_[best])) best = i;
  }
  return static_cast<std::uint8_t>(best);
}

Palette::Palette() : lut_(std::size_t{1} << (3 * kLutBits)) {
  for (int i = 0; i < kCubeSize; ++i) {
    colors_[i] = {static_cast<std::uint8_t>(i / 36 * kCubeStep),
                  static_cast<std::uint8_t>(i / 6 % 6 * kCubeStep),
                  static_cast<std::uint8_t>(i % 6 * kCubeStep)};
  }
  int next = kCubeSize;
  for (int r : kTintLevels) {
    for (int g : kTintLevels) {
      for (int b : kTintLevels) {
        if (r == g && g == b) continue;
        colors_[next++] = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                           static_cast<std::uint8_t>(b)};
      }
    }
  }
  for (int k = 0; k < kExtraGreys; ++k) {
    const auto level = static_cast<std::uint8_t>(std::lround(255.0 * (k + 1) / (kExtraGreys + 1)));
    colors_[next++] = {level, level, level};
  }
  constexpr int kShift = 8 - kLutBits;
  constexpr int kCells = 1 << kLutBits;
  // Each cell stands for the colours whose top bits match; use the middle of that range.
  const auto centre = [](int cell) {
    return static_cast<std::uint8_t>((cell << kShift) | (1 << (kShift - 1)));
  };
  std::size_t at = 0;
  for (int r = 0; r < kCells; ++r) {
    for (int g = 0; g < kCells; ++g) {
      for (int b = 0; b < kCells; ++b) lut_[at++] = nearest({centre(r), centre(g), centre(b)});
    }
  }
}

std::uint8_t Palette::nearest(Rgb color) const {
  const int cube = 36 * cube_level(color.r) + 6 * cube_level(color.g) + cube_level(color.b);
  int best = cube;
  for (int i = kCubeSize; i < kSize; ++i) {
    if (distance(color, colors_[i]) < distance(color, colors_[best])) best = i;
  }
  return static_cast<std::uint8_t>(best);
}

}  // namespace ubot::render::internal
