#include "background_writer.h"

#include "direct_output.h"

namespace ubot {
namespace {

// Below this a buffer is written on the caller's thread (a hand-over costs a few µs of wake-ups;
// a write this small costs about as much).
constexpr std::size_t kBackgroundBytes = 256 * 1024;

}  // namespace

void BackgroundWriter::write(std::string& buffer) {
  worker_.wait();  // the previous buffer is in the file: pending_ is free, the file is ours
  if (buffer.size() < kBackgroundBytes) {
    file_.append(buffer.data(), buffer.size());
    buffer.clear();
    return;
  }
  pending_.swap(buffer);
  buffer.clear();  // the earlier buffer's capacity, for the producer's next one
  worker_.submit([this] { file_.append(pending_.data(), pending_.size()); });
}

}  // namespace ubot
