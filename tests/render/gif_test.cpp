#include <gif_lib.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "palette.h"
#include "render_test_support.h"
#include "ubot/core/error.h"
#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

using internal::Palette;
using internal::Rgb;
using test_support::circle;
using test_support::kBlue;
using test_support::kRed;
using test_support::ScratchFile;
using test_support::ten_metre_world;

struct GifCloser {
  void operator()(GifFileType* gif) const { DGifCloseFile(gif, nullptr); }
};
using GifPtr = std::unique_ptr<GifFileType, GifCloser>;

GifPtr slurp(const std::string& path) {
  int error = 0;
  GifPtr gif(DGifOpenFileName(path.c_str(), &error));
  if (!gif || DGifSlurp(gif.get()) != GIF_OK) return nullptr;
  return gif;
}

bool has_loop_forever(const ExtensionBlock* blocks, int count) {
  for (int i = 0; i + 1 < count; ++i) {
    const ExtensionBlock& app = blocks[i];
    const ExtensionBlock& data = blocks[i + 1];
    if (app.Function == APPLICATION_EXT_FUNC_CODE && app.ByteCount == 11 &&
        std::memcmp(app.Bytes, "NETSCAPE2.0", 11) == 0 && data.ByteCount == 3 &&
        data.Bytes[0] == 1 && data.Bytes[1] == 0 && data.Bytes[2] == 0) {
      return true;
    }
  }
  return false;
}

// The screen after all frames, as palette indices (frames only ever cover earlier ones).
std::vector<GifByteType> composite(const GifFileType& gif) {
  std::vector<GifByteType> screen(static_cast<std::size_t>(gif.SWidth) * gif.SHeight, 0);
  for (int i = 0; i < gif.ImageCount; ++i) {
    const GifImageDesc& desc = gif.SavedImages[i].ImageDesc;
    for (int y = 0; y < desc.Height; ++y) {
      std::memcpy(&screen[static_cast<std::size_t>(desc.Top + y) * gif.SWidth + desc.Left],
                  gif.SavedImages[i].RasterBits + static_cast<std::ptrdiff_t>(y) * desc.Width,
                  static_cast<std::size_t>(desc.Width));
    }
  }
  return screen;
}

std::vector<GifByteType> expected_indices(const Drawing& drawing, ImageSize size) {
  const std::vector<std::uint8_t> rgba = render_rgba(drawing, size);
  std::vector<GifByteType> indices;
  for (std::size_t i = 0; i < rgba.size(); i += 4) {
    indices.push_back(Palette::instance().index_of(rgba[i], rgba[i + 1], rgba[i + 2]));
  }
  return indices;
}

Drawing frame_with_robot_at(double x) {
  Drawing drawing = ten_metre_world();
  drawing.objects = {circle(x, 5.0, 1.0, kRed)};
  return drawing;
}

TEST(GifWriter, ThreeFramesReadBack) {
  ScratchFile file("three.gif");
  {
    GifWriter writer(file.path(), {100, 80}, 0.1);
    for (double x : {2.0, 4.0, 6.0}) writer.add_frame(frame_with_robot_at(x));
    EXPECT_EQ(writer.frame_count(), 3);
    writer.close();
  }
  const GifPtr gif = slurp(file.path());
  ASSERT_TRUE(gif);
  EXPECT_EQ(gif->ImageCount, 3);
  EXPECT_EQ(gif->SWidth, 100);
  EXPECT_EQ(gif->SHeight, 80);
  ASSERT_NE(gif->SColorMap, nullptr);
  EXPECT_EQ(gif->SColorMap->ColorCount, 256);
  EXPECT_EQ(gif->SavedImages[0].ImageDesc.Width, 100);
  EXPECT_EQ(gif->SavedImages[0].ImageDesc.Height, 80);
  EXPECT_TRUE(has_loop_forever(gif->SavedImages[0].ExtensionBlocks,
                               gif->SavedImages[0].ExtensionBlockCount));
  for (int i = 0; i < 3; ++i) {
    GraphicsControlBlock control;
    ASSERT_EQ(DGifSavedExtensionToGCB(gif.get(), i, &control), GIF_OK);
    EXPECT_EQ(control.DelayTime, 10) << "frame " << i;
  }
  // 100 x 80 px for 10 m x 10 m: 8 px/m, 10 px margins left and right.
  const GifImageDesc& first = gif->SavedImages[0].ImageDesc;
  const auto colour_at = [&](int x, int y) {
    const GifByteType index = gif->SavedImages[0].RasterBits[y * first.Width + x];
    return gif->SColorMap->Colors[index];
  };
  const GifColorType centre = colour_at(10 + 16, 40);  // world (2, 5)
  EXPECT_GT(centre.Red, 230);
  EXPECT_LT(centre.Green, 30);
  EXPECT_LT(centre.Blue, 30);
  const GifColorType far = colour_at(80, 10);
  EXPECT_EQ(far.Red, 255);
  EXPECT_EQ(far.Green, 255);
  EXPECT_EQ(far.Blue, 255);
}

TEST(GifWriter, LaterFramesStoreOnlyWhatChangedAndCompositeExactly) {
  ScratchFile file("delta.gif");
  const ImageSize size{120, 120};
  const std::vector<double> positions = {2.0, 2.0, 3.0, 7.5};
  {
    GifWriter writer(file.path(), size, 0.05);
    for (double x : positions) writer.add_frame(frame_with_robot_at(x));
  }  // the destructor closes
  const GifPtr gif = slurp(file.path());
  ASSERT_TRUE(gif);
  ASSERT_EQ(gif->ImageCount, 4);
  const GifImageDesc& unchanged = gif->SavedImages[1].ImageDesc;
  EXPECT_EQ(unchanged.Width * unchanged.Height, 1);
  const GifImageDesc& moved = gif->SavedImages[2].ImageDesc;
  EXPECT_LT(moved.Width, 60);  // covers the old and new disc only
  EXPECT_GT(moved.Width, 20);
  EXPECT_EQ(composite(*gif), expected_indices(frame_with_robot_at(positions.back()), size));
}

TEST(GifWriter, DelayIsClampedToTwoCentiseconds) {
  ScratchFile file("fast.gif");
  {
    GifWriter writer(file.path(), {20, 20}, 0.001);
    writer.add_frame(ten_metre_world());
  }
  const GifPtr gif = slurp(file.path());
  ASSERT_TRUE(gif);
  GraphicsControlBlock control;
  ASSERT_EQ(DGifSavedExtensionToGCB(gif.get(), 0, &control), GIF_OK);
  EXPECT_EQ(control.DelayTime, 2);
}

TEST(GifWriter, UnwritablePathThrowsNamingThePath) {
  const std::string path = "/nonexistent-ubot-dir/movie.gif";
  try {
    GifWriter writer(path, {20, 20}, 0.1);
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr(path));
  }
}

TEST(GifWriter, BadArgumentsAndUseAfterCloseThrow) {
  ScratchFile file("bad.gif");
  EXPECT_THROW(GifWriter(file.path(), {0, 20}, 0.1), Error);
  EXPECT_THROW(GifWriter(file.path(), {20, 20}, 0.0), Error);
  GifWriter writer(file.path(), {20, 20}, 0.1);
  writer.close();
  EXPECT_THROW(writer.add_frame(ten_metre_world()), Error);
  EXPECT_NO_THROW(writer.close());
}

// Writes frames of a busy 800 x 800 scene: a moving robot with a 360-beam scan, a trail and
// a FOV sector, plus static obstacles. UBOT_RENDER_GIF_FRAMES sets how many (default 20).
TEST(GifWriter, ManyLargeFrames) {
  const char* env = std::getenv("UBOT_RENDER_GIF_FRAMES");
  const int frames = env ? std::atoi(env) : 20;
  ScratchFile file("many.gif");
  const auto start = std::chrono::steady_clock::now();
  {
    GifWriter writer(file.path(), {800, 800}, 0.1);
    std::vector<Eigen::Vector2d> trail;
    for (int i = 0; i < frames; ++i) {
      Drawing drawing = ten_metre_world();
      const double t = 0.05 * i;
      const Eigen::Vector2d pos(5.0 + 3.0 * std::cos(t), 5.0 + 3.0 * std::sin(t));
      trail.push_back(pos);
      BeamsDrawing beams;
      beams.origin = pos;
      for (int k = 0; k < 360; ++k) {
        const double a = k * M_PI / 180.0;
        beams.end_points.push_back(pos + 2.5 * Eigen::Vector2d(std::cos(a), std::sin(a)));
        beams.hit.push_back(k % 3 == 0);
      }
      drawing.beams = {beams};
      for (int k = 0; k < 6; ++k) drawing.objects.push_back(circle(1.0 + 1.5 * k, 1.0, 0.4, kBlue));
      ObjectDrawing robot = circle(pos.x(), pos.y(), 0.3, kRed);
      robot.pose = Eigen::Vector3d(pos.x(), pos.y(), t + M_PI / 2.0);
      robot.trajectory = trail;
      robot.fov = 1.5;
      robot.fov_radius = 2.0;
      drawing.objects.push_back(robot);
      drawing.caption = "t = " + std::to_string(t);
      writer.add_frame(drawing);
    }
    writer.close();
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ GIF     ] " << frames << " frames of 800x800: " << ms / std::max(frames, 1)
            << " ms/frame\n";
  const GifPtr gif = slurp(file.path());
  ASSERT_TRUE(gif);
  EXPECT_EQ(gif->ImageCount, frames);
}

TEST(Palette, TableGivesTheNearestEntry) {
  const Palette& palette = Palette::instance();
  for (int r = 0; r < 256; r += 5) {
    for (int g = 0; g < 256; g += 7) {
      for (int b = 0; b < 256; b += 3) {
        const Rgb colour{static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                         static_cast<std::uint8_t>(b)};
        // The table quantises to 6 bits a channel; compare against the cell's centre.
        const Rgb centre{static_cast<std::uint8_t>((r & ~3) | 2),
                         static_cast<std::uint8_t>((g & ~3) | 2),
                         static_cast<std::uint8_t>((b & ~3) | 2)};
        const Rgb found = palette.colors()[palette.index_of(colour.r, colour.g, colour.b)];
        const Rgb best = palette.colors()[palette.nearest_exhaustive(centre)];
        ASSERT_EQ(Palette::distance(centre, found), Palette::distance(centre, best))
            << r << "," << g << "," << b;
      }
    }
  }
}

TEST(Palette, EveryCellIsTheEntryTheNearestRuleGives) {
  // The table is filled cube first, then each extra entry over the cells it can be nearer to;
  // every one of its 2^18 cells must be the index nearest() picks for the cell's centre (ties
  // included: GIFs stay byte-identical).
  const Palette& palette = Palette::instance();
  constexpr int kCells = 1 << Palette::kLutBits;
  constexpr int kShift = 8 - Palette::kLutBits;
  for (int r = 0; r < kCells; ++r) {
    for (int g = 0; g < kCells; ++g) {
      for (int b = 0; b < kCells; ++b) {
        const Rgb centre{static_cast<std::uint8_t>((r << kShift) | 2),
                         static_cast<std::uint8_t>((g << kShift) | 2),
                         static_cast<std::uint8_t>((b << kShift) | 2)};
        ASSERT_EQ(palette.index_of(centre.r, centre.g, centre.b), palette.nearest(centre))
            << r << "," << g << "," << b;
      }
    }
  }
}

TEST(Palette, PaletteColoursMapBackCloseToThemselves) {
  const Palette& palette = Palette::instance();
  for (const Rgb& colour : palette.colors()) {
    const Rgb found = palette.colors()[palette.index_of(colour.r, colour.g, colour.b)];
    EXPECT_LE(std::abs(found.r - colour.r), 3);
    EXPECT_LE(std::abs(found.g - colour.g), 3);
    EXPECT_LE(std::abs(found.b - colour.b), 3);
  }
  const Rgb white = palette.colors()[palette.index_of(255, 255, 255)];
  EXPECT_EQ(white.r + white.g + white.b, 3 * 255);
}

TEST(Palette, PaleOverlaysKeepTheirHue) {
  const Palette& palette = Palette::instance();
  // The default FOV colour (light sky blue at alpha 0.25) over white, and a pale red.
  const Rgb sky = palette.colors()[palette.index_of(225, 243, 250)];
  EXPECT_GT(sky.b, sky.r) << int{sky.r} << "," << int{sky.g} << "," << int{sky.b};
  const Rgb pink = palette.colors()[palette.index_of(255, 220, 220)];
  EXPECT_GT(pink.r, pink.b) << int{pink.r} << "," << int{pink.g} << "," << int{pink.b};
}

}  // namespace
}  // namespace ubot::render
