// The fixed GIF palette. Filling the table does not search all 256 entries for each of its
// 262144 cells: the cube is a separable grid and the distance a weighted sum over channels, so
// the nearest cube entry is per-channel rounding; only the 40 extra entries are searched.
#include "palette.h"

#include <algorithm>
#include <cmath>
#include <utility>

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
  // Every cell starts at its cube entry (per-channel rounding)...
  std::size_t at = 0;
  for (int r = 0; r < kCells; ++r) {
    for (int g = 0; g < kCells; ++g) {
      for (int b = 0; b < kCells; ++b) {
        lut_[at++] = static_cast<std::uint8_t>(36 * cube_level(centre(r)) +
                                               6 * cube_level(centre(g)) + cube_level(centre(b)));
      }
    }
  }
  // ...then each extra entry, in index order, takes the cells it is strictly nearer to, as
  // nearest() does. A colour is at most 25 a channel from its cube entry (distance 9 x 625), so
  // an extra can only win within that distance: a box of about 22 x 19 x 27 cells around it,
  // not all 262144 (the table took 90 ms, at the start of every --render run; now about 4).
  constexpr int kMaxCubeDistance = (kWeightR + kWeightG + kWeightB) * 25 * 25;
  const auto reach = [](int weight) {
    return static_cast<int>(std::ceil(std::sqrt(double{kMaxCubeDistance} / weight)));
  };
  const int reach_r = reach(kWeightR), reach_g = reach(kWeightG), reach_b = reach(kWeightB);
  const auto cells = [](int value, int half) {
    return std::pair{std::max(0, value - half) >> kShift, std::min(255, value + half) >> kShift};
  };
  for (int i = kCubeSize; i < kSize; ++i) {
    const Rgb e = colors_[i];
    const auto [r0, r1] = cells(e.r, reach_r);
    const auto [g0, g1] = cells(e.g, reach_g);
    const auto [b0, b1] = cells(e.b, reach_b);
    for (int r = r0; r <= r1; ++r) {
      for (int g = g0; g <= g1; ++g) {
        for (int b = b0; b <= b1; ++b) {
          const Rgb c{centre(r), centre(g), centre(b)};
          std::uint8_t& best = lut_[(std::size_t(r) << (2 * kLutBits)) | (g << kLutBits) | b];
          if (distance(c, e) < distance(c, colors_[best])) best = static_cast<std::uint8_t>(i);
        }
      }
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
