// world.obstacle_map: the image threshold, placement, mdownsample, the perlin generator and ROS
// map_server maps, and the messages for bad input (docs/grid-maps.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "grid_test_util.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/render/image_png.h"

namespace ubot {
namespace {

using grid_test::TempDir;
using ::testing::HasSubstr;

std::string load_error(const std::string& path) {
  try {
    load_world(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "loaded without error";
}

std::string world_with_map(const std::string& map, const std::string& extra = "") {
  return "world:\n  width: 8\n  height: 4\n  offset: [1, -2]\n  obstacle_map: " + map + "\n" +
         extra;
}

// IR-SIM's rule for one RGB pixel: 100 (1 - (0.2989 r + 0.5870 g + 0.1140 b)), samples / 255.
double irsim_occupancy(int r, int g, int b) {
  auto unit = [](int v) { return static_cast<double>(static_cast<float>(v) / 255.0f); };
  return 100.0 * (1.0 - (unit(r) * 0.2989 + unit(g) * 0.5870 + unit(b) * 0.1140));
}

TEST(GridImage, RgbaPngUsesIrsimGreyWeightsThresholdAndFlip) {
  TempDir dir("rgba");
  // 4 x 2 pixels, top row first: grey 127 | grey 128 | red | green; blue | white | black | grey
  // 128 with alpha 0 (alpha is ignored).
  const std::vector<std::array<int, 4>> px = {
      {127, 127, 127, 255}, {128, 128, 128, 255}, {255, 0, 0, 255}, {0, 255, 0, 255},
      {0, 0, 255, 255},     {255, 255, 255, 255}, {0, 0, 0, 255},   {128, 128, 128, 0}};
  std::vector<std::uint8_t> rgba;
  for (const auto& p : px) rgba.insert(rgba.end(), p.begin(), p.end());
  render::write_png_rgba8(dir.file("map.png"), 4, 2, rgba);
  const WorldModel m = load_world(dir.write("w.yaml", world_with_map("map.png")));
  ASSERT_TRUE(m.grid);
  const GridMap& g = *m.grid;
  EXPECT_EQ(g.nx, 4);
  EXPECT_EQ(g.ny, 2);
  // Stretched over the 8 x 4 world from its offset: 2 m cells.
  EXPECT_EQ(g.origin, Eigen::Vector2d(1, -2));
  EXPECT_EQ(g.cell, Eigen::Vector2d(2, 2));
  // Image row 0 is the world's top row j = 1.
  for (int k = 0; k < 8; ++k) {
    const int i = k % 4, j = 1 - k / 4;
    EXPECT_NEAR(g.value(i, j), irsim_occupancy(px[k][0], px[k][1], px[k][2]), 1e-4) << k;
  }
  const std::vector<bool> occupied = {true, false, true, false, true, false, true, false};
  for (int k = 0; k < 8; ++k) EXPECT_EQ(g.occupied(k % 4, 1 - k / 4), occupied[k]) << k;
}

TEST(GridImage, PgmBinaryAndAsciiAndMdownsample) {
  TempDir dir("pgm");
  // 16-bit P5, 3 x 1: 32767 (< half: occupied), 32768 (free), 0.
  const std::string p5 = std::string("P5\n# comment\n3 1\n65535\n") + "\x7f\xff" +
                         std::string("\x80\x00", 2) + std::string("\x00\x00", 2);
  dir.write("a.pgm", p5);
  const WorldModel a = load_world(dir.write("a.yaml", world_with_map("a.pgm")));
  EXPECT_TRUE(a.grid->occupied(0, 0));
  EXPECT_FALSE(a.grid->occupied(1, 0));
  EXPECT_FLOAT_EQ(a.grid->value(2, 0), 100.0f);
  // P2 4 x 3, every other cell kept by mdownsample 2: columns 0, 2 of rows 2 and 0 (bottom up).
  dir.write("b.pgm", "P2\n4 3\n9\n0 9 9 9\n9 0 9 9\n9 9 0 9\n");
  const WorldModel b =
      load_world(dir.write("b.yaml", world_with_map("b.pgm", "  mdownsample: 2\n")));
  ASSERT_EQ(b.grid->nx, 2);
  ASSERT_EQ(b.grid->ny, 2);
  EXPECT_EQ(b.grid->cell, Eigen::Vector2d(4, 2));  // cell size from the world after downsampling
  EXPECT_FALSE(b.grid->occupied(0, 0));            // image (row 2, col 0)
  EXPECT_TRUE(b.grid->occupied(1, 0));             // image (row 2, col 2)
  EXPECT_TRUE(b.grid->occupied(0, 1));             // image (row 0, col 0)
  EXPECT_FALSE(b.grid->occupied(1, 1));            // image (row 0, col 2)
}

TEST(GridImage, BadImagesNameTheFieldAndTheFileLine) {
  TempDir dir("bad");
  EXPECT_THAT(load_error(dir.write("w.yaml", world_with_map("missing.png"))),
              HasSubstr("w.yaml:5:17: world.obstacle_map: file 'missing.png' not found"));
  dir.write("t.pgm", "P5\n4 4\n255\nabc");
  EXPECT_THAT(load_error(dir.write("t.yaml", world_with_map("t.pgm"))),
              HasSubstr("t.pgm:3: PGM: the raster is truncated (3 of 16 bytes)"));
  dir.write("h.pgm", "P2\n4\n# c\nx 3\n");
  EXPECT_THAT(load_error(dir.write("h.yaml", world_with_map("h.pgm"))),
              HasSubstr("h.pgm:4: PGM: expected the height"));
  dir.write("n.png", "not an image");
  EXPECT_THAT(load_error(dir.write("n.yaml", world_with_map("n.png"))),
              HasSubstr("n.png: not a PNG or PGM (P2/P5) image"));
  EXPECT_THAT(load_error(dir.write("m.yaml", world_with_map("a.pgm", "  mdownsample: 0\n"))),
              HasSubstr("world.mdownsample: must be a whole number >= 1, got 0"));
}

std::string perlin(const std::string& params) {
  return "{name: perlin, resolution: 0.1, " + params + "}";
}

TEST(GridPerlin, SizeFillAndSeeding) {
  TempDir dir("perlin");
  auto grid_of = [&](const std::string& params, std::uint64_t seed) {
    LoadOptions o;
    o.seed = seed;
    return load_world(dir.write("p.yaml", world_with_map(perlin(params))), o).grid;
  };
  const auto a = grid_of("complexity: 0.12, fill: 0.32, seed: 48", 0);
  // Cells = world size / resolution (IR-SIM's rounding), stretched over the world.
  EXPECT_EQ(a->nx, 80);
  EXPECT_EQ(a->ny, 40);
  EXPECT_EQ(a->cell, Eigen::Vector2d(0.1, 0.1));
  // Occupied: the cells above the value at rank (1 - fill) n, i.e. n - 1 - rank of 3200 cells
  // (all distinct noise values): 3200 - 1 - 2176 = 1023.
  EXPECT_EQ(a->occupied_count(), 1023u);
  EXPECT_EQ(grid_of("complexity: 0.12, fill: 0.32, seed: 48", 0)->occupancy, a->occupancy);
  // The world seed and the spec's seed both change the map (the spec's is mixed in).
  EXPECT_NE(grid_of("complexity: 0.12, fill: 0.32, seed: 48", 1)->occupancy, a->occupancy);
  EXPECT_NE(grid_of("complexity: 0.12, fill: 0.32, seed: 49", 0)->occupancy, a->occupancy);
  EXPECT_NE(grid_of("complexity: 0.12, fill: 0.32", 0)->occupancy, a->occupancy);
  EXPECT_EQ(grid_of("fill: 0", 0)->occupied_count(), 0u);
  EXPECT_EQ(grid_of("fill: 1", 0)->occupied_count(), 3199u);  // all but the maximum
}

TEST(GridPerlin, BadSpecs) {
  TempDir dir("perlin_bad");
  auto error_of = [&](const std::string& map) {
    return load_error(dir.write("p.yaml", world_with_map(map)));
  };
  EXPECT_THAT(error_of("{name: perlin, fill: 0.3}"),
              HasSubstr("world.obstacle_map: missing required key 'resolution'"));
  EXPECT_THAT(error_of(perlin("fractal: 0")), HasSubstr("obstacle_map.fractal: must be in 1..30"));
  EXPECT_THAT(error_of(perlin("attenuation: 0")), HasSubstr("obstacle_map.attenuation"));
  EXPECT_THAT(error_of(perlin("fill: 1.5")), HasSubstr("obstacle_map.fill"));
  EXPECT_THAT(error_of(perlin("complexty: 0.1")), HasSubstr("did you mean 'complexity'"));
  EXPECT_THAT(error_of("{name: voronoi}"), HasSubstr("world.obstacle_map.name"));
}

// A 4 x 2 PGM with shades 0, 51, 102, 153 (top row) and 204, 255, 0, 255 for map_server tests.
void write_map_image(const TempDir& dir) {
  dir.write("m.pgm", "P2\n4 2\n255\n0 51 102 153\n204 255 0 255\n");
}

std::string map_yaml(const std::string& changes) {
  return "image: m.pgm\nresolution: 0.5\norigin: [-1.0, 2.0, 0.0]\n" + changes;
}

TEST(GridMapServer, TrinaryScaleNegateAndPlacement) {
  TempDir dir("ros");
  write_map_image(dir);
  dir.write("m.yaml", map_yaml("negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n"));
  const WorldModel m = load_world(dir.write("w.yaml", world_with_map("m.yaml")));
  const GridMap& g = *m.grid;
  // Placed by the map's own origin and resolution, not stretched over the world.
  EXPECT_EQ(g.origin, Eigen::Vector2d(-1.0, 2.0));
  EXPECT_EQ(g.cell, Eigen::Vector2d(0.5, 0.5));
  // occ = 1 - shade / 255: 1, 0.8, 0.6, 0.4 (top row) -> occupied, occupied, unknown, unknown;
  // 0.2, 0, 1, 0 -> unknown (0.2 >= 0.196), free, occupied, free.
  const std::vector<float> top = {100, 100, 50, 50}, bottom = {50, 0, 100, 0};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(g.value(i, 1), top[i]) << i;
    EXPECT_EQ(g.value(i, 0), bottom[i]) << i;
  }
  EXPECT_FALSE(g.occupied(2, 1));  // unknown is no obstacle
  // negate: occ = shade / 255; scale: unknown cells get 1 + 98 (occ - free) / (occ_t - free).
  dir.write("m.yaml", map_yaml("negate: 1\noccupied_thresh: 0.65\nfree_thresh: 0.196\n"
                               "mode: scale\n"));
  const GridMap n = *load_world(dir.file("w.yaml")).grid;
  EXPECT_EQ(n.value(0, 1), 0.0f);
  const double occ = static_cast<double>(51.0f / 255.0f);  // samples / 255 in single precision
  EXPECT_EQ(n.value(1, 1), static_cast<float>(1.0 + 98.0 * (occ - 0.196) / (0.65 - 0.196)));
  EXPECT_EQ(n.value(1, 0), 100.0f);
}

TEST(GridMapServer, BadFilesNameTheMapFileLineAndKey) {
  TempDir dir("ros_bad");
  write_map_image(dir);
  const std::string world = dir.write("w.yaml", world_with_map("m.yaml"));
  auto error_of = [&](const std::string& yaml) {
    dir.write("m.yaml", yaml);
    return load_error(world);
  };
  const std::string good_thresh = "occupied_thresh: 0.65\nfree_thresh: 0.196\n";
  EXPECT_THAT(error_of(map_yaml(good_thresh)), HasSubstr("missing required key 'negate'"));
  EXPECT_THAT(error_of(map_yaml("negate: 0\noccupied_thresh: 0.65\n")),
              HasSubstr("missing required key 'free_thresh'"));
  EXPECT_THAT(error_of(map_yaml("negate: 0\noccupied_thresh: 0.2\nfree_thresh: 0.3\n")),
              HasSubstr("m.yaml:6:14: free_thresh: free_thresh (0.3) must be below "
                        "occupied_thresh (0.2)"));
  EXPECT_THAT(error_of(map_yaml("negate: 0\noccupied_thresh: 1.65\nfree_thresh: 0.1\n")),
              HasSubstr("m.yaml:5:18: occupied_thresh:"));
  EXPECT_THAT(
      error_of("image: m.pgm\nresolution: -0.5\norigin: [0, 0, 0]\nnegate: 0\n" + good_thresh),
      HasSubstr("m.yaml:2:13: resolution:"));
  EXPECT_THAT(
      error_of("image: m.pgm\nresolution: 0.5\norigin: [0, 0, 0.3]\nnegate: 0\n" + good_thresh),
      HasSubstr("m.yaml:3:9: origin: a rotated map (yaw != 0) is not supported"));
  EXPECT_THAT(error_of("image: m.pgm\nresolution: 0.5\norigin: [0, 0]\nnegate: 0\n" + good_thresh),
              HasSubstr("m.yaml:3:9: origin:"));
  EXPECT_THAT(
      error_of("image: gone.pgm\nresolution: 0.5\norigin: [0, 0, 0]\nnegate: 0\n" + good_thresh),
      HasSubstr("m.yaml:1:8: image: image 'gone.pgm' not found"));
  EXPECT_THAT(error_of(map_yaml("negate: 0\n" + good_thresh + "mode: raw\n")),
              HasSubstr("m.yaml:7:7: mode: mode 'raw'"));
  EXPECT_THAT(error_of(map_yaml("negate: 2\n" + good_thresh)), HasSubstr("m.yaml:4:9: negate:"));
  EXPECT_THAT(error_of(map_yaml("negate: 0\n" + good_thresh + "origin_x: 1\n")),
              HasSubstr("unknown key 'origin_x'"));
}

}  // namespace
}  // namespace ubot
