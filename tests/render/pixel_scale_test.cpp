// Pictures at any size (issue 44): what is under a pixel is painted at pixel scale, exactly and
// cheaply: an object as a dot of its fill, its trail as a 1 px line, a small FOV sector as the
// pixels whose centres it holds, the ring around a tiny detected object as pixels.
#include <gtest/gtest.h>

#include <cmath>

#include "render_test_support.h"
#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

using test_support::circle;
using test_support::kBlue;
using test_support::kRed;
using test_support::kSmall;
using test_support::Rgb8;

// A 1000 m x 1000 m world on 100 x 100 px (0.1 px/m): world (x, y) is pixel (x / 10, 100 - y / 10).
Drawing kilometre_world() {
  Drawing drawing;
  drawing.width = 1000.0;
  drawing.height = 1000.0;
  return drawing;
}

Rgb8 at(const std::vector<std::uint8_t>& rgba, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * kSmall.width_px + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2]};
}

bool same(Rgb8 a, Rgb8 b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
const Rgb8 kWhite{255, 255, 255};

TEST(PixelScale, AnObjectUnderAPixelIsADotOfItsFill) {
  Drawing d = kilometre_world();
  // 4 m wide: 0.4 px. Cairo would paint a faint grey smudge of its outline; the dot is red.
  ObjectDrawing tiny = circle(505.0, 505.0, 2.0, kRed);
  tiny.edge = {0.0, 0.0, 0.0, 1.0};
  d.objects.push_back(tiny);
  const std::vector<std::uint8_t> rgba = render_rgba(d, kSmall);
  EXPECT_TRUE(same(at(rgba, 50, 49), Rgb8{255, 0, 0})) << at(rgba, 50, 49);
  for (const auto& [x, y] : {std::pair{49, 49}, {51, 49}, {50, 48}, {50, 50}}) {
    EXPECT_TRUE(same(at(rgba, x, y), kWhite)) << x << ", " << y << ": " << at(rgba, x, y);
  }
  // Unfilled: a dot of its outline's colour. Same drawing, same bytes.
  d.objects[0].filled = false;
  const std::vector<std::uint8_t> outline = render_rgba(d, kSmall);
  EXPECT_TRUE(same(at(outline, 50, 49), Rgb8{0, 0, 0})) << at(outline, 50, 49);
  EXPECT_EQ(outline, render_rgba(d, kSmall));
}

TEST(PixelScale, ATinyObjectsTrailIsAOnePixelLine) {
  Drawing d = kilometre_world();
  ObjectDrawing tiny = circle(905.0, 505.0, 2.0, kRed);
  tiny.trajectory = {{105.0, 505.0}, {505.0, 505.0}, {505.0, 505.0}, {905.0, 505.0}};
  tiny.trajectory_color = {0.0, 1.0, 0.0, 0.7};
  d.objects.push_back(tiny);
  const std::vector<std::uint8_t> rgba = render_rgba(d, kSmall);
  // 0.7 green over white, each pixel once (the repeated point adds nothing): (76, 255, 76).
  for (int x = 10; x < 90; ++x) {
    EXPECT_TRUE(same(at(rgba, x, 49), Rgb8{76, 255, 76})) << x << ": " << at(rgba, x, 49);
    EXPECT_TRUE(same(at(rgba, x, 48), kWhite)) << x;
    EXPECT_TRUE(same(at(rgba, x, 50), kWhite)) << x;
  }
  EXPECT_TRUE(same(at(rgba, 90, 49), Rgb8{255, 0, 0}));  // the dot over its trail's end
}

TEST(PixelScale, ASmallSectorIsThePixelsWhoseCentresItHolds) {
  Drawing d = kilometre_world();
  ObjectDrawing tiny = circle(505.0, 505.0, 2.0, kRed);
  tiny.pose = Eigen::Vector3d(505.0, 505.0, 0.0);  // facing +x (east, right)
  tiny.arrow_length = 1.0;                         // 0.1 px: no arrow
  tiny.fov = M_PI / 2.0;
  tiny.fov_radius = 65.0;  // 6.5 px
  tiny.fov_color = {0.0, 0.0, 1.0, 0.5};
  d.objects.push_back(tiny);
  const std::vector<std::uint8_t> rgba = render_rgba(d, kSmall);
  // Apex at pixel (50.5, 49.5). Inside, 3 and 5 px east: the fill (0.5 blue over white).
  EXPECT_TRUE(same(at(rgba, 53, 49), Rgb8{127, 127, 255})) << at(rgba, 53, 49);
  EXPECT_TRUE(same(at(rgba, 55, 49), Rgb8{127, 127, 255})) << at(rgba, 55, 49);
  // 6 px east, next to a pixel outside: fill and rim (the fill at twice its alpha): blue.
  EXPECT_TRUE(same(at(rgba, 56, 49), Rgb8{0, 0, 255})) << at(rgba, 56, 49);
  // Behind the apex, beside it, and past the radius: untouched.
  for (const auto& [x, y] : {std::pair{47, 49}, {50, 44}, {50, 54}, {57, 49}}) {
    EXPECT_TRUE(same(at(rgba, x, y), kWhite)) << x << ", " << y << ": " << at(rgba, x, y);
  }
  EXPECT_TRUE(same(at(rgba, 50, 49), Rgb8{255, 0, 0}));  // the dot over its sector's apex
}

TEST(PixelScale, TheRingAroundATinyDetectedObjectIsPixels) {
  Drawing d = kilometre_world();
  d.objects.push_back(circle(505.0, 505.0, 2.0, kRed));
  HighlightDrawing ring;
  ring.shape = d.objects[0].shape;
  ring.color = kBlue;  // gap 3 px, 2 px wide: centres 3.2 .. 5.2 px from (50.5, 49.5)
  d.highlights.push_back(ring);
  const std::vector<std::uint8_t> rgba = render_rgba(d, kSmall);
  EXPECT_TRUE(same(at(rgba, 54, 49), Rgb8{0, 0, 255})) << at(rgba, 54, 49);
  EXPECT_TRUE(same(at(rgba, 46, 49), Rgb8{0, 0, 255})) << at(rgba, 46, 49);
  EXPECT_TRUE(same(at(rgba, 50, 45), Rgb8{0, 0, 255})) << at(rgba, 50, 45);
  EXPECT_TRUE(same(at(rgba, 52, 49), kWhite)) << at(rgba, 52, 49);  // the gap
  EXPECT_TRUE(same(at(rgba, 56, 49), kWhite)) << at(rgba, 56, 49);  // outside
  EXPECT_TRUE(same(at(rgba, 50, 49), Rgb8{255, 0, 0}));
}

TEST(PixelScale, ObjectsOfAPixelOrMoreAreStillCairos) {
  // 10 px/m: a 0.12 m object is 1.2 px wide, anti-aliased (its pixel's corners stay white).
  Drawing d = test_support::ten_metre_world();
  d.objects.push_back(circle(5.05, 4.95, 0.06, kRed));
  d.objects[0].edge.a = 0.0;  // no outline: the disc alone
  const std::vector<std::uint8_t> rgba = render_rgba(d, kSmall);
  EXPECT_FALSE(same(at(rgba, 50, 50), Rgb8{255, 0, 0})) << at(rgba, 50, 50);
  EXPECT_FALSE(same(at(rgba, 50, 50), kWhite));
}

}  // namespace
}  // namespace ubot::render
