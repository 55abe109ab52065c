// GifWriter: frames painted with Cairo, mapped to the fixed palette through its lookup table and
// written at once, so memory stays at a few frame buffers however long the animation. After
// the first frame only the rectangle that changed is stored (the rest is kept from the frame
// before), which makes typical simulation frames small and fast to compress.
//
// giflib encodes into memory and each frame reaches the file only once whole: a frame abandoned
// after a stop (ubot::Stopped, thrown while painting, mapping or compressing it) leaves the
// file as it was, and close() still ends it with the trailer, so run.gif holds every frame
// finished so far.
#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "painter.h"
#include "palette.h"
#include "ubot/core/error.h"
#include "ubot/core/output_files.h"
#include "ubot/core/stop.h"
#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

// Browsers replace delays under 2 centiseconds by their default (about 10 cs).
constexpr int kMinDelayCs = 2;
constexpr int kMaxDelayCs = 65535;
constexpr int kMaxGifSidePx = 65535;

struct Rect {
  int left = 0, top = 0, width = 0, height = 0;
};

std::string gif_error(int code) {
  const char* text = GifErrorString(code);
  return text ? text : "giflib error " + std::to_string(code);
}

int delay_centiseconds(double frame_seconds, const std::string& context) {
  if (!std::isfinite(frame_seconds) || frame_seconds <= 0.0) {
    throw Error(context + ": frame_seconds must be positive, got " + std::to_string(frame_seconds));
  }
  const double cs = std::round(frame_seconds * 100.0);
  return static_cast<int>(std::clamp(cs, double{kMinDelayCs}, double{kMaxDelayCs}));
}

}  // namespace

struct GifWriter::Impl {
  std::string path;     // written as path.part until closed
  std::string context;  // names the path in every error message
  ImageSize size;
  int delay_cs = 0;
  GifFileType* gif = nullptr;
  int fd = -1;
  std::vector<GifByteType> pending;  // giflib's output since the last whole frame
  bool abandoned = false;            // a frame was cut short: giflib is mid-image
  internal::SurfacePtr surface;
  std::vector<GifPixelType> indices, previous;
  int frames = 0;

  static int output(GifFileType* file, const GifByteType* bytes, int length);
  void flush();
  void fail(const std::string& reason);
  void open(const std::string& path);
  void write_header();
  void write_loop_extension();
  void map_pixels();
  Rect changed_rect() const;
  void write_frame(Rect rect);
  void check(int result);
  void close();
};

int GifWriter::Impl::output(GifFileType* file, const GifByteType* bytes, int length) {
  auto& impl = *static_cast<Impl*>(file->UserData);
  impl.pending.insert(impl.pending.end(), bytes, bytes + length);
  return length;
}

// Appends what giflib wrote since the last call to the file.
void GifWriter::Impl::flush() {
  std::size_t done = 0;
  while (done < pending.size()) {
    const ssize_t n = ::write(fd, pending.data() + done, pending.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  pending.clear();
}

// Frees giflib's state, closes and removes the partial file, throws.
void GifWriter::Impl::fail(const std::string& reason) {
  if (gif) EGifCloseFile(gif, nullptr);
  gif = nullptr;
  if (fd >= 0) ::close(fd);
  fd = -1;
  discard_output(path);
  throw Error(context + ": write failed: " + reason);
}

void GifWriter::Impl::open(const std::string& path) {
  // Opened here rather than by EGifOpenFileName, which creates the file 0600 whatever the umask:
  // the animation gets the permissions every other output gets (0666 less the umask).
  fd = ::open(partial_path_for_writing(path).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
              0666);
  if (fd < 0) throw Error(context + ": cannot open for writing: " + std::strerror(errno));
  int error = 0;
  gif = EGifOpen(this, &Impl::output, &error);
  if (!gif) {
    ::close(fd);
    fd = -1;
    discard_output(path);
    throw Error(context + ": cannot open for writing: " + gif_error(error));
  }
}

// Throws when a giflib call failed.
void GifWriter::Impl::check(int result) {
  if (result != GIF_ERROR) return;
  fail(gif_error(gif->Error));
}

void GifWriter::Impl::write_header() {
  const auto& colors = internal::Palette::instance().colors();
  GifColorType map_colors[internal::Palette::kSize];
  for (int i = 0; i < internal::Palette::kSize; ++i) {
    map_colors[i] = {colors[i].r, colors[i].g, colors[i].b};
  }
  ColorMapObject* map = GifMakeMapObject(internal::Palette::kSize, map_colors);
  EGifSetGifVersion(gif, true);  // GIF89a: needed for the delay and loop extensions
  const int result = EGifPutScreenDesc(gif, size.width_px, size.height_px, 8, 0, map);
  GifFreeMapObject(map);  // giflib keeps its own copy
  check(result);
  write_loop_extension();
}

// The Netscape application extension with a loop count of 0: play forever.
void GifWriter::Impl::write_loop_extension() {
  static const GifByteType kApplication[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoopForever[] = {0x01, 0x00, 0x00};
  check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE));
  check(EGifPutExtensionBlock(gif, sizeof(kApplication), kApplication));
  check(EGifPutExtensionBlock(gif, sizeof(kLoopForever), kLoopForever));
  check(EGifPutExtensionTrailer(gif));
  flush();
}

void GifWriter::Impl::map_pixels() {
  const internal::Palette& palette = internal::Palette::instance();
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  GifPixelType* out = indices.data();
  for (int y = 0; y < size.height_px; ++y) {
    if (y % 64 == 0 && finish_budget_spent()) throw Stopped{stop_requested()};
    // The background is opaque white, so every pixel is opaque: no unpremultiplying needed.
    const auto* row = reinterpret_cast<const std::uint32_t*>(data + std::ptrdiff_t{y} * stride);
    for (int x = 0; x < size.width_px; ++x) {
      const std::uint32_t argb = row[x];
      *out++ = palette.index_of((argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF);
    }
  }
}

Rect GifWriter::Impl::changed_rect() const {
  const int w = size.width_px, h = size.height_px;
  if (frames == 0) return {0, 0, w, h};
  int left = w, right = -1, top = h, bottom = -1;
  for (int y = 0; y < h; ++y) {
    const GifPixelType* now = indices.data() + std::ptrdiff_t{y} * w;
    const GifPixelType* before = previous.data() + std::ptrdiff_t{y} * w;
    if (std::memcmp(now, before, static_cast<std::size_t>(w)) == 0) continue;
    int first = 0, last = w - 1;
    while (now[first] == before[first]) ++first;
    while (now[last] == before[last]) --last;
    left = std::min(left, first);
    right = std::max(right, last);
    top = std::min(top, y);
    bottom = y;
  }
  // An unchanged frame still needs an image to carry its delay: one pixel, redrawn as it was.
  if (bottom < 0) return {0, 0, 1, 1};
  return {left, top, right - left + 1, bottom - top + 1};
}

void GifWriter::Impl::write_frame(Rect rect) {
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;  // later frames draw over this one
  control.UserInputFlag = false;
  control.DelayTime = delay_cs;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const int length = EGifGCBToExtension(&control, extension);
  check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, length, extension));
  check(EGifPutImageDesc(gif, rect.left, rect.top, rect.width, rect.height, false, nullptr));
  for (int y = rect.top; y < rect.top + rect.height; ++y) {
    if ((y - rect.top) % 64 == 0 && finish_budget_spent()) throw Stopped{stop_requested()};
    GifPixelType* line = indices.data() + std::ptrdiff_t{y} * size.width_px + rect.left;
    check(EGifPutLine(gif, line, rect.width));
  }
}

void GifWriter::Impl::close() {
  surface.reset();
  indices = {};
  previous = {};
  if (!gif) return;
  int error = 0;
  // The trailer goes into `pending` (after what is left of an abandoned frame: nothing).
  const int result = EGifCloseFile(gif, &error);  // frees gif even when it fails
  gif = nullptr;
  if (result == GIF_ERROR) fail("closing failed: " + gif_error(error));
  flush();
  const int closed = ::close(fd);
  fd = -1;
  if (closed != 0) {
    discard_output(path);
    throw Error(context + ": closing failed: " + std::strerror(errno));
  }
  publish_output(path);
}

GifWriter::GifWriter(const std::string& path, ImageSize size, double frame_seconds)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->context = "GIF '" + path + "'";
  internal::check_size(size, impl_->context);
  if (size.width_px > kMaxGifSidePx || size.height_px > kMaxGifSidePx) {
    throw Error(impl_->context + ": picture too large for GIF");
  }
  impl_->size = size;
  impl_->delay_cs = delay_centiseconds(frame_seconds, impl_->context);
  impl_->surface = internal::make_surface(size, impl_->context);
  const std::size_t pixels = static_cast<std::size_t>(size.width_px) * size.height_px;
  impl_->indices.resize(pixels);
  impl_->previous.resize(pixels);
  impl_->open(path);
  impl_->write_header();
}

GifWriter::~GifWriter() {
  try {
    impl_->close();
  } catch (const Error&) {
    // Destructors cannot report; callers who care call close() themselves.
  }
}

void GifWriter::add_frame(const Drawing& drawing) {
  Impl& impl = *impl_;
  if (!impl.gif) throw Error(impl.context + ": add_frame after close");
  if (impl.abandoned) throw Stopped{stop_requested()};
  internal::check_world(drawing, impl.context);
  internal::paint(impl.surface.get(), drawing, impl.context);
  impl.map_pixels();
  try {
    impl.write_frame(impl.changed_rect());
  } catch (const Stopped&) {
    // Nothing of this frame reaches the file; giflib is left mid-image, so no frame follows.
    impl.pending.clear();
    impl.abandoned = true;
    throw;
  }
  impl.flush();
  std::swap(impl.indices, impl.previous);
  ++impl.frames;
}

void GifWriter::close() { impl_->close(); }

int GifWriter::frame_count() const { return impl_->frames; }

}  // namespace ubot::render
