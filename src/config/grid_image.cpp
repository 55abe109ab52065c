// PNG and PGM grey images for grid maps (grid_image.h).
#include "grid_image.h"

#include <fmt/format.h>
#include <png.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

#include "ubot/core/error.h"

namespace ubot::config {
namespace {

// IR-SIM's rgb2gray weights (its image_map_generator), applied in double precision.
double weighted_grey(double r, double g, double b) { return r * 0.2989 + g * 0.5870 + b * 0.1140; }

// matplotlib's imread divides each sample by its maximum in single precision.
double unit_sample(unsigned value, unsigned max_value) {
  return static_cast<double>(static_cast<float>(value) / static_cast<float>(max_value));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

[[noreturn]] void png_fail(png_structp png, png_const_charp message) {
  *static_cast<std::string*>(png_get_error_ptr(png)) = message;
  png_longjmp(png, 1);
}

void png_warn(png_structp, png_const_charp) {}

// Samples of one decoded PNG: rows top to bottom, `channels` per pixel, 8 or 16 bits.
struct PngPixels {
  int width = 0, height = 0, channels = 0, bits = 8;
  std::vector<unsigned> samples;
};

PngPixels decode_png(const std::string& path, std::FILE* file) {
  std::string error;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, png_fail, png_warn);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) throw Error(path + ": cannot decode PNG (out of memory)");
  PngPixels out;
  std::vector<png_byte> bytes;
  std::vector<png_bytep> rows;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    throw Error(fmt::format("{}: not a readable PNG image: {}", path, error));
  }
  png_init_io(png, file);
  png_read_info(png, info);
  // Palettes become RGB(A), 1/2/4-bit grey becomes 8-bit (scaled), tRNS becomes alpha.
  png_set_expand(png);
  png_read_update_info(png, info);
  out.width = static_cast<int>(png_get_image_width(png, info));
  out.height = static_cast<int>(png_get_image_height(png, info));
  out.channels = png_get_channels(png, info);
  out.bits = png_get_bit_depth(png, info);
  const std::size_t stride = png_get_rowbytes(png, info);
  bytes.resize(stride * static_cast<std::size_t>(out.height));
  rows.resize(static_cast<std::size_t>(out.height));
  for (int r = 0; r < out.height; ++r) rows[r] = bytes.data() + stride * r;
  png_read_image(png, rows.data());
  png_destroy_read_struct(&png, &info, nullptr);
  const std::size_t n = static_cast<std::size_t>(out.width) * out.height * out.channels;
  out.samples.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.samples[k] = out.bits == 16 ? (unsigned{bytes[2 * k]} << 8) | bytes[2 * k + 1] : bytes[k];
  }
  return out;
}

GreyImage read_png(const std::string& path, ColorToGrey rule) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw Error(path + ": cannot open the image");
  const PngPixels px = decode_png(path, file.get());
  const unsigned max_value = px.bits == 16 ? 65535u : 255u;
  GreyImage image{px.width, px.height, {}};
  image.grey.resize(static_cast<std::size_t>(px.width) * px.height);
  for (std::size_t p = 0; p < image.grey.size(); ++p) {
    const unsigned* s = &px.samples[p * px.channels];
    const double v = unit_sample(s[0], max_value);
    if (px.channels == 1) {
      image.grey[p] = v;
    } else if (rule == ColorToGrey::kChannelMean) {
      image.grey[p] = px.channels == 2
                          ? v
                          : (v + unit_sample(s[1], max_value) + unit_sample(s[2], max_value)) / 3.0;
    } else {
      // Grey + alpha goes through RGBA, as matplotlib converts it.
      image.grey[p] = px.channels == 2 ? weighted_grey(v, v, v)
                                       : weighted_grey(v, unit_sample(s[1], max_value),
                                                       unit_sample(s[2], max_value));
    }
  }
  return image;
}

// PGM header tokens, skipping whitespace and '#' comments, counting lines for messages.
class PgmHeader {
 public:
  PgmHeader(const std::string& path, const std::string& bytes) : path_(path), bytes_(bytes) {}

  unsigned number(const char* what, unsigned min_value, unsigned max_value) {
    skip_space();
    const int line = line_;
    std::size_t end = pos_;
    while (end < bytes_.size() && std::isdigit(static_cast<unsigned char>(bytes_[end]))) ++end;
    if (end == pos_ || end - pos_ > 9) fail(line, fmt::format("expected the {}", what));
    const unsigned long v = std::stoul(bytes_.substr(pos_, end - pos_));
    if (v < min_value || v > max_value) {
      fail(line, fmt::format("{} {} is outside {}..{}", what, v, min_value, max_value));
    }
    pos_ = end;
    return static_cast<unsigned>(v);
  }
  // After maxval exactly one whitespace byte separates the header from binary samples.
  std::size_t raster_start() const { return pos_ + 1; }
  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t pos) { pos_ = pos; }
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw Error({path_, line, 0}, "PGM: " + message);
  }
  int line() const { return line_; }

 private:
  void skip_space() {
    while (pos_ < bytes_.size()) {
      const char c = bytes_[pos_];
      if (c == '#') {
        while (pos_ < bytes_.size() && bytes_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        if (c == '\n') ++line_;
        ++pos_;
      } else {
        break;
      }
    }
  }
  const std::string& path_;
  const std::string& bytes_;
  std::size_t pos_ = 2;
  int line_ = 1;
};

GreyImage read_pgm(const std::string& path, const std::string& bytes) {
  const bool binary = bytes[1] == '5';
  PgmHeader header(path, bytes);
  constexpr unsigned kMaxSide = 1u << 16;
  GreyImage image;
  image.width = static_cast<int>(header.number("width", 1, kMaxSide));
  image.height = static_cast<int>(header.number("height", 1, kMaxSide));
  const unsigned max_value = header.number("maxval", 1, 65535);
  const std::size_t n = static_cast<std::size_t>(image.width) * image.height;
  image.grey.resize(n);
  if (binary) {
    const std::size_t sample_bytes = max_value > 255 ? 2 : 1;
    const std::size_t start = header.raster_start();
    if (bytes.size() < start + n * sample_bytes) {
      header.fail(header.line(),
                  fmt::format("the raster is truncated ({} of {} bytes)",
                              bytes.size() > start ? bytes.size() - start : 0, n * sample_bytes));
    }
    for (std::size_t p = 0; p < n; ++p) {
      const auto* s = reinterpret_cast<const unsigned char*>(&bytes[start + p * sample_bytes]);
      const unsigned v = sample_bytes == 2 ? (unsigned{s[0]} << 8) | s[1] : s[0];
      if (v > max_value) header.fail(header.line(), fmt::format("sample {} exceeds maxval", p));
      image.grey[p] = unit_sample(v, max_value);
    }
  } else {
    for (std::size_t p = 0; p < n; ++p) {
      image.grey[p] = unit_sample(header.number("sample", 0, max_value), max_value);
    }
  }
  return image;
}

}  // namespace

GreyImage read_grey_image(const std::string& path, ColorToGrey rule) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the image");
  std::string head(8, '\0');
  in.read(head.data(), 8);
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.size() == 8 && png_sig_cmp(reinterpret_cast<png_const_bytep>(head.data()), 0, 8) == 0) {
    return read_png(path, rule);
  }
  if (head.size() >= 2 && head[0] == 'P' && (head[1] == '2' || head[1] == '5')) {
    in.seekg(0);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return read_pgm(path, bytes);
  }
  throw Error(path + ": not a PNG or PGM (P2/P5) image");
}

}  // namespace ubot::config
