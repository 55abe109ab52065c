#pragma once
// Internal: the GIF writer's fixed 256-colour palette and its nearest-colour lookup table.
// A fixed palette (not one per frame) makes frames cheap to encode, keeps colours stable from
// frame to frame (no flicker) and makes the output depend only on the pixels.
#include <array>
#include <cstdint>
#include <vector>

namespace ubot::render::internal {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

// Entries 0..215: the 6x6x6 colour cube (levels 0, 51, ..., 255; index 36 r + 6 g + b).
// Entries 216..239: 24 pale tints (channels from 226, 241, 255, not all equal). Translucent
// overlays on white (FOV sectors, goal markers) are pale; without these they would all fall to
// greys and lose their hue. Entries 240..255: 16 greys between the cube's six, for
// anti-aliased edges and text.
class Palette {
 public:
  static constexpr int kSize = 256;
  static constexpr int kLutBits = 6;  // per channel: 2^18 entries, 256 KiB

  // Built once per process (thread-safe) and never freed.
  static const Palette& instance();

  const std::array<Rgb, kSize>& colors() const { return colors_; }
  // Index of the nearest palette colour to (r, g, b), up to the table's 6-bit quantisation.
  std::uint8_t index_of(std::uint8_t r, std::uint8_t g, std::uint8_t b) const {
    constexpr int kShift = 8 - kLutBits;
    return lut_[(static_cast<std::size_t>(r >> kShift) << (2 * kLutBits)) |
                (static_cast<std::size_t>(g >> kShift) << kLutBits) | (b >> kShift)];
  }

  // The distance used to pick the nearest colour (weighted squared RGB distance; green counts
  // most and blue least, roughly as the eye does). Exposed for tests.
  static int distance(Rgb a, Rgb b);
  // Nearest entry by exhaustive search: slow, the reference the table is checked against.
  std::uint8_t nearest_exhaustive(Rgb color) const;
  // Nearest entry, ties to the cube entry and then to the lowest extra index: the rule the table
  // is filled by (a test checks every cell against it).
  std::uint8_t nearest(Rgb color) const;

 private:
  Palette();

  std::array<Rgb, kSize> colors_;
  std::vector<std::uint8_t> lut_;
};

}  // namespace ubot::render::internal
