#pragma once
// Raw pixel buffers to PNG files (libpng): camera images. 8-bit RGBA and 16-bit grey
// (depth images in millimetres). Rows top to bottom. Deterministic: the same pixels give the
// same bytes (no time chunk).
#include <cstdint>
#include <span>
#include <string>

namespace ubot::render {

// `rgba`: width x height x 4 bytes. Throws ubot::Error when the file cannot be written.
void write_png_rgba8(const std::string& path, int width, int height,
                     std::span<const std::uint8_t> rgba);
// `gray`: width x height samples, written as 16-bit big-endian grey.
void write_png_gray16(const std::string& path, int width, int height,
                      std::span<const std::uint16_t> gray);

}  // namespace ubot::render
