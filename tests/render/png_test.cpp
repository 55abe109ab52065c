#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "render_test_support.h"
#include "ubot/core/error.h"
#include "ubot/render/drawing.h"

namespace ubot::render {
namespace {

using test_support::circle;
using test_support::is_reddish;
using test_support::is_white;
using test_support::kBlue;
using test_support::kGreen;
using test_support::kRed;
using test_support::kSmall;
using test_support::load_png;
using test_support::Picture;
using test_support::ScratchFile;
using test_support::ten_metre_world;

Picture render_via_png(const Drawing& drawing, ImageSize size = kSmall) {
  ScratchFile file("picture.png");
  write_png(drawing, size, file.path());
  return load_png(file.path());
}

TEST(WritePng, FilledCircleIsRedAtItsCentreAndWhiteFarAway) {
  Drawing drawing = ten_metre_world();
  drawing.objects.push_back(circle(2.0, 3.0, 1.0, kRed));
  const Picture picture = render_via_png(drawing);
  ASSERT_EQ(picture.width, 100);
  ASSERT_EQ(picture.height, 100);
  EXPECT_TRUE(is_reddish(picture.at(20, 70))) << picture.at(20, 70);
  EXPECT_TRUE(is_reddish(picture.at(26, 70))) << picture.at(26, 70);  // inside, 0.6 m right
  EXPECT_TRUE(is_white(picture.at(80, 20))) << picture.at(80, 20);
  EXPECT_TRUE(is_white(picture.at(35, 70))) << picture.at(35, 70);  // just outside, 1.5 m right
}

// The fog (IR-SIM's fog of map) hides the objects drawn before it and lies under the later ones;
// explored cells let the picture through.
TEST(WritePng, FogCoversEarlierObjectsOnlyWhereUnexplored) {
  Drawing drawing = ten_metre_world();
  FogDrawing fog;
  fog.cell_width = fog.cell_height = 5.0;
  fog.nx = fog.ny = 2;
  fog.fogged = {1, 1, 1, 0};  // cell (1, 1), the upper right quarter, explored
  drawing.fog = fog;
  drawing.objects = {circle(2.5, 2.5, 1.0, kRed), circle(7.5, 7.5, 1.0, kRed),
                     circle(7.5, 2.5, 1.0, kBlue)};
  drawing.objects_under_fog = 2;
  const Picture picture = render_via_png(drawing);
  auto is_fog = [](test_support::Rgb8 c) {  // (0.78, 0.78, 0.80) x 255, to a unit of rounding
    return std::abs(c.r - 199) <= 1 && std::abs(c.g - 199) <= 1 && std::abs(c.b - 204) <= 1;
  };
  EXPECT_TRUE(is_fog(picture.at(25, 75))) << picture.at(25, 75);      // first red disc: hidden
  EXPECT_TRUE(is_reddish(picture.at(75, 25))) << picture.at(75, 25);  // in the explored cell
  EXPECT_EQ(picture.at(75, 75).b, 255) << picture.at(75, 75);         // blue disc: over the fog
  EXPECT_TRUE(is_fog(picture.at(10, 40))) << picture.at(10, 40);      // fogged background
  EXPECT_TRUE(is_white(picture.at(90, 10))) << picture.at(90, 10);    // explored background
}

TEST(WritePng, YAxisPointsUp) {
  Drawing drawing = ten_metre_world();
  drawing.objects.push_back(circle(5.0, 9.0, 0.5, kRed));
  const Picture picture = render_via_png(drawing);
  EXPECT_TRUE(is_reddish(picture.at(50, 10))) << picture.at(50, 10);
  EXPECT_TRUE(is_white(picture.at(50, 90))) << picture.at(50, 90);
}

TEST(WritePng, BackgroundIsWhiteWithAGreyBorder) {
  const Picture picture = render_via_png(ten_metre_world());
  EXPECT_TRUE(is_white(picture.at(50, 50)));
  const test_support::Rgb8 border = picture.at(0, 50);
  EXPECT_FALSE(is_white(border)) << border;
  EXPECT_GT(border.r, 150) << border;  // light, not black
}

TEST(WritePng, PolylineIsNeverFilledButPolygonIs) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object;
  object.shape.kind = Shape::Kind::kPolyline;
  object.shape.vertices = {{2.0, 2.0}, {8.0, 2.0}, {8.0, 8.0}, {2.0, 8.0}, {2.0, 2.0}};
  object.fill = kRed;
  object.edge = kBlue;
  object.filled = true;
  object.line_width_px = 3.0;
  drawing.objects = {object};
  Picture picture = render_via_png(drawing);
  EXPECT_TRUE(is_white(picture.at(50, 50))) << picture.at(50, 50);
  const test_support::Rgb8 line = picture.at(50, 80);  // on the edge y = 2 m
  EXPECT_GT(line.b, 200) << line;
  EXPECT_LT(line.r, 60) << line;

  drawing.objects[0].shape.kind = Shape::Kind::kPolygon;
  picture = render_via_png(drawing);
  EXPECT_TRUE(is_reddish(picture.at(50, 50))) << picture.at(50, 50);
}

TEST(WritePng, UnfilledPolygonKeepsItsInsideWhite) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object;
  object.shape.kind = Shape::Kind::kPolygon;
  object.shape.vertices = {{2.0, 2.0}, {8.0, 2.0}, {8.0, 8.0}, {2.0, 8.0}};
  object.filled = false;
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing);
  EXPECT_TRUE(is_white(picture.at(50, 50)));
  EXPECT_FALSE(is_white(picture.at(50, 20)));  // closing edge y = 8 m is drawn
  EXPECT_FALSE(is_white(picture.at(20, 50)));  // closing edge x = 2 m is drawn
}

int count_white_along_row(const Picture& picture, int y, int x0, int x1) {
  int white = 0;
  for (int x = x0; x < x1; ++x) white += is_white(picture.at(x, y)) ? 1 : 0;
  return white;
}

TEST(WritePng, DashedOutlineHasGaps) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object;
  object.shape.kind = Shape::Kind::kPolygon;
  object.shape.vertices = {{2.0, 2.0}, {8.0, 2.0}, {8.0, 8.0}, {2.0, 8.0}};
  object.filled = false;
  object.line_width_px = 2.0;
  drawing.objects = {object};
  // The top edge y = 8 m is pixel row 20, covering rows 19 and 20 at 2 px wide.
  EXPECT_EQ(count_white_along_row(render_via_png(drawing), 20, 25, 75), 0);
  drawing.objects[0].dashed = true;
  EXPECT_GT(count_white_along_row(render_via_png(drawing), 20, 25, 75), 5);
}

TEST(WritePng, BeamsDrawAlongTheSegment) {
  Drawing drawing = ten_metre_world();
  BeamsDrawing beams;
  beams.origin = {1.0, 1.5};
  beams.end_points = {{9.0, 1.5}};
  beams.hit = {1};
  beams.color = kBlue;
  beams.line_width_px = 3.0;
  drawing.beams = {beams};
  const Picture picture = render_via_png(drawing);
  for (int x = 15; x <= 85; x += 10) {
    const test_support::Rgb8 c = picture.at(x, 85);
    EXPECT_TRUE(c.b > 200 && c.r < 60) << "x=" << x << " " << c;
  }
  EXPECT_TRUE(is_white(picture.at(50, 50)));
  EXPECT_TRUE(is_white(picture.at(95, 85)));  // past the end point and its hit mark
}

TEST(WritePng, PerBeamColoursAreUsed) {
  Drawing drawing = ten_metre_world();
  BeamsDrawing beams;
  beams.origin = {5.0, 5.0};
  beams.end_points = {{9.0, 5.0}, {1.0, 5.0}};
  beams.beam_colors = {kRed, kBlue};
  beams.line_width_px = 3.0;
  drawing.beams = {beams};
  const Picture picture = render_via_png(drawing);
  EXPECT_TRUE(is_reddish(picture.at(75, 50))) << picture.at(75, 50);
  EXPECT_GT(picture.at(25, 50).b, 200) << picture.at(25, 50);
  EXPECT_LT(picture.at(25, 50).r, 60) << picture.at(25, 50);
}

TEST(WritePng, FovSectorColoursInsideTheWedgeOnly) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object = circle(5.0, 5.0, 0.1, kRed);
  object.pose = Eigen::Vector3d(5.0, 5.0, M_PI / 2.0);  // facing +y (up in the picture)
  object.arrow_length = 0.3;
  object.fov = M_PI / 2.0;
  object.fov_radius = 4.0;
  object.fov_color = kGreen;
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing);
  const test_support::Rgb8 ahead = picture.at(50, 25);  // world (5, 7.5): straight ahead
  EXPECT_TRUE(ahead.g > 200 && ahead.r < 60 && ahead.b < 60) << ahead;
  EXPECT_TRUE(is_white(picture.at(50, 75))) << picture.at(50, 75);  // behind
  EXPECT_TRUE(is_white(picture.at(75, 50))) << picture.at(75, 50);  // 90 degrees off to the right
  EXPECT_TRUE(is_white(picture.at(50, 5))) << picture.at(50, 5);    // ahead, beyond fov_radius
}

// A highlight is a band 3..5 px outside the shape (default gap and width), drawn over the
// objects without covering the shape itself. The circle: centre pixel (50, 50), radius 10 px.
TEST(WritePng, HighlightIsABandClearOfTheShape) {
  Drawing drawing = ten_metre_world();
  drawing.objects.push_back(circle(5.0, 5.0, 1.0, kBlue));
  const Picture plain = render_via_png(drawing);
  drawing.highlights.push_back({.shape = drawing.objects[0].shape, .color = kRed});
  ObjectDrawing square;
  square.shape.kind = Shape::Kind::kPolygon;
  square.shape.vertices = {{1, 1}, {3, 1}, {3, 3}, {1, 3}};  // pixels x 10..30, y 70..90
  square.fill = kBlue;
  square.edge = kBlue;
  drawing.objects.push_back(square);
  drawing.highlights.push_back({.shape = square.shape, .color = kRed});
  const Picture picture = render_via_png(drawing);
  // Circle: pixels 63 and 64 span 13..15 px from the centre (the band), 61 the gap, 67 beyond.
  EXPECT_TRUE(is_white(plain.at(63, 50))) << plain.at(63, 50);
  EXPECT_TRUE(is_reddish(picture.at(63, 50))) << picture.at(63, 50);
  EXPECT_TRUE(is_reddish(picture.at(64, 50))) << picture.at(64, 50);
  EXPECT_TRUE(is_reddish(picture.at(50, 36))) << picture.at(50, 36);  // above: 13..14 px
  EXPECT_TRUE(is_white(picture.at(61, 50))) << picture.at(61, 50);
  EXPECT_TRUE(is_white(picture.at(67, 50))) << picture.at(67, 50);
  EXPECT_GT(picture.at(50, 50).b, 200) << picture.at(50, 50);  // the shape itself stays blue
  EXPECT_GT(picture.at(58, 50).b, 200) << picture.at(58, 50);
  // Square: its top edge is pixel row 70; rows 65 and 66 lie in the band, 68 in the gap.
  EXPECT_TRUE(is_reddish(picture.at(20, 66))) << picture.at(20, 66);
  EXPECT_TRUE(is_reddish(picture.at(20, 65))) << picture.at(20, 65);
  EXPECT_TRUE(is_white(picture.at(20, 68))) << picture.at(20, 68);
  EXPECT_TRUE(is_white(picture.at(20, 63))) << picture.at(20, 63);
  EXPECT_TRUE(is_reddish(picture.at(33, 80))) << picture.at(33, 80);  // right edge at column 30
  EXPECT_GT(picture.at(20, 80).b, 200) << picture.at(20, 80);
}

TEST(WritePng, HeadingArrowPointsAlongTheHeading) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object = circle(5.0, 5.0, 0.5, Color{1.0, 1.0, 1.0, 1.0});
  object.edge = kBlue;
  object.line_width_px = 2.0;
  object.pose = Eigen::Vector3d(5.0, 5.0, M_PI);  // facing -x (left)
  object.arrow_length = 3.0;
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing);
  const test_support::Rgb8 shaft = picture.at(30, 50);  // world (3, 5): on the arrow
  EXPECT_TRUE(shaft.b > 150 && shaft.r < 150) << shaft;
  EXPECT_TRUE(is_white(picture.at(70, 50))) << picture.at(70, 50);  // the opposite side
}

TEST(WritePng, GoalMarkerIsATranslucentDiscInTheFillColour) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object = circle(2.0, 2.0, 0.5, kBlue);
  object.goal = Eigen::Vector3d(8.0, 8.0, 0.0);
  object.goal_radius = 0.8;
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing);
  const test_support::Rgb8 goal = picture.at(80, 24);  // inside the marker, off its heading tick
  EXPECT_FALSE(is_white(goal)) << goal;
  EXPECT_GT(goal.b, goal.r + 40) << goal;
  EXPECT_GT(goal.r, 80) << goal;  // translucent over white, not the solid fill
}

TEST(WritePng, TrajectoryIsDrawnUnderTheObject) {
  Drawing drawing = ten_metre_world();
  ObjectDrawing object = circle(8.0, 5.0, 0.5, kRed);
  object.trajectory = {{1.0, 5.0}, {4.0, 5.0}, {8.0, 5.0}};
  object.trajectory_color = kBlue;
  object.line_width_px = 3.0;
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing);
  EXPECT_GT(picture.at(25, 50).b, 200) << picture.at(25, 50);
  EXPECT_LT(picture.at(25, 50).r, 60) << picture.at(25, 50);
  EXPECT_TRUE(is_reddish(picture.at(80, 50))) << picture.at(80, 50);  // object on top
}

TEST(WritePng, DiscsLieUnderObjects) {
  Drawing drawing = ten_metre_world();
  drawing.discs = {DiscDrawing{{5.0, 5.0}, 2.0, kBlue}};
  drawing.objects = {circle(5.0, 5.0, 0.5, kRed)};
  const Picture picture = render_via_png(drawing);
  EXPECT_TRUE(is_reddish(picture.at(50, 50))) << picture.at(50, 50);
  EXPECT_GT(picture.at(65, 50).b, 200) << picture.at(65, 50);
}

TEST(WritePng, CaptionAndLabelsAreDrawn) {
  Drawing drawing = ten_metre_world();
  drawing.caption = "t = 3.20 s \xff\xfe (bad UTF-8 must not stop the drawing)";
  ObjectDrawing object = circle(5.0, 5.0, 0.5, kRed);
  object.label = "robot \xc3\xa9\xc3";
  drawing.objects = {object};
  const Picture picture = render_via_png(drawing, {400, 400});
  int dark = 0;
  for (int y = 0; y < 30; ++y) {
    for (int x = 0; x < 200; ++x) dark += picture.at(x, y).r < 100 ? 1 : 0;
  }
  EXPECT_GT(dark, 20);
  EXPECT_TRUE(is_reddish(picture.at(200, 200)));  // drawing went on after the text
}

TEST(WritePng, WorldIsCentredWhenTheAspectDiffers) {
  Drawing drawing = ten_metre_world();
  drawing.objects = {circle(0.5, 5.0, 0.4, kRed)};
  const Picture picture = render_via_png(drawing, {200, 100});  // 10 px/m, 50 px margins
  EXPECT_TRUE(is_reddish(picture.at(55, 50))) << picture.at(55, 50);
  EXPECT_TRUE(is_reddish(picture.at(55, 47))) << picture.at(55, 47);  // round, not stretched
  EXPECT_TRUE(is_white(picture.at(20, 50))) << picture.at(20, 50);
}

TEST(WritePng, NonFiniteGeometryIsSkipped) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Drawing drawing = ten_metre_world();
  ObjectDrawing object = circle(nan, 5.0, 1.0, kRed);
  object.pose = Eigen::Vector3d(nan, 1.0, 0.0);
  object.trajectory = {{1.0, 1.0}, {nan, 2.0}, {3.0, 3.0}};
  object.fov = 1.0;
  object.fov_radius = 2.0;
  drawing.objects = {object, circle(5.0, 5.0, 1e12, kRed)};
  BeamsDrawing beams;
  beams.end_points = {{nan, 0.0}, {1e300, 1.0}};
  beams.hit = {1, 1};
  drawing.beams = {beams};
  EXPECT_NO_THROW(render_via_png(drawing));
}

TEST(WritePng, RenderRgbaMatchesTheFile) {
  Drawing drawing = ten_metre_world();
  drawing.objects = {circle(3.0, 3.0, 1.5, Color{0.2, 0.4, 0.6, 0.5})};
  const Picture picture = render_via_png(drawing);
  EXPECT_EQ(render_rgba(drawing, kSmall), picture.rgba);
}

TEST(WritePng, SameDrawingGivesIdenticalBytes) {
  Drawing drawing = ten_metre_world();
  drawing.caption = "determinism";
  ObjectDrawing object = circle(3.0, 4.0, 1.0, kRed);
  object.pose = Eigen::Vector3d(3.0, 4.0, 0.3);
  object.fov = 1.2;
  object.fov_radius = 3.0;
  object.label = "a";
  drawing.objects = {object};
  ScratchFile first("first.png"), second("second.png");
  write_png(drawing, {300, 300}, first.path());
  write_png(drawing, {300, 300}, second.path());
  const std::vector<char> bytes = test_support::read_bytes(first.path());
  EXPECT_GT(bytes.size(), 100u);
  EXPECT_EQ(bytes, test_support::read_bytes(second.path()));
}

TEST(WritePng, UnwritablePathThrowsNamingThePath) {
  const std::string path = "/nonexistent-ubot-dir/picture.png";
  try {
    write_png(ten_metre_world(), kSmall, path);
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr(path));
  }
}

TEST(WritePng, EmptyWorldRectangleThrows) {
  ScratchFile file("never.png");
  Drawing drawing = ten_metre_world();
  drawing.width = 0.0;
  EXPECT_THROW(write_png(drawing, kSmall, file.path()), Error);
  EXPECT_THROW(write_png(ten_metre_world(), {0, 10}, file.path()), Error);
}

TEST(FitImage, LongerSideGetsTheMaximum) {
  Drawing drawing = ten_metre_world();
  drawing.width = 20.0;
  ImageSize size = fit_image(drawing, 800);
  EXPECT_EQ(size.width_px, 800);
  EXPECT_EQ(size.height_px, 400);
  drawing.width = 5.0;
  size = fit_image(drawing, 800);
  EXPECT_EQ(size.width_px, 400);
  EXPECT_EQ(size.height_px, 800);
  drawing.width = 1e-6;
  size = fit_image(drawing, 800);
  EXPECT_EQ(size.width_px, 1);
  EXPECT_EQ(size.height_px, 800);
  size = fit_image(ten_metre_world(), 0);
  EXPECT_EQ(size.width_px, 1);
  EXPECT_EQ(size.height_px, 1);
}

}  // namespace
}  // namespace ubot::render
