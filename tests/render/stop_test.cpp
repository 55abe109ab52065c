// A stop (ubot/core/stop.h) while pictures are being made: once the finishing budget is spent,
// write_png gives up (ubot::Stopped) leaving no file under any name, and a GIF frame is
// abandoned without touching run.gif, which close() still ends validly with the frames so far.
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "render_test_support.h"
#include "ubot/core/stop.h"
#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

using test_support::circle;
using test_support::kRed;
using test_support::kSmall;
using test_support::ScratchFile;

bool exists(const std::string& path) { return std::filesystem::exists(path); }

int gif_frames_in(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (!gif) return -1;
  const int frames = DGifSlurp(gif) == GIF_OK ? gif->ImageCount : -1;
  DGifCloseFile(gif, nullptr);
  return frames;
}

TEST(Stop, PicturesGiveUpOnlyOnceTheFinishingBudgetIsSpent) {
  clear_stop();
  ScratchFile png("world.png"), animation("run.gif");
  Drawing d = test_support::ten_metre_world();
  d.objects.push_back(circle(5.0, 5.0, 1.0, kRed));
  GifWriter gif(animation.path(), kSmall, 0.1);
  gif.add_frame(d);
  // A stop requested: the finishing work goes on while its budget lasts.
  request_stop(SIGINT);
  d.objects[0].shape.center = {3.0, 3.0};
  gif.add_frame(d);
  write_png(d, kSmall, png.path());
  EXPECT_TRUE(exists(png.path()));
  std::filesystem::remove(png.path());
  while (!finish_budget_spent()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // Spent: the picture is abandoned while it is encoded, and neither it nor its .part remains.
  try {
    write_png(d, kSmall, png.path());
    ADD_FAILURE() << "write_png did not stop";
  } catch (const Stopped& stopped) {
    EXPECT_EQ(stopped.signal, SIGINT);
  }
  EXPECT_FALSE(exists(png.path()));
  EXPECT_FALSE(exists(png.path() + ".part"));
  // The frame is abandoned; run.gif keeps its two frames and its trailer.
  d.objects[0].shape.center = {7.0, 7.0};
  EXPECT_THROW(gif.add_frame(d), Stopped);
  EXPECT_EQ(gif.frame_count(), 2);
  gif.close();
  clear_stop();
  EXPECT_FALSE(exists(animation.path() + ".part"));
  EXPECT_EQ(gif_frames_in(animation.path()), 2);
}

}  // namespace
}  // namespace ubot::render
