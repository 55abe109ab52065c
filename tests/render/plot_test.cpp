// Line plots: tick placement, series drawn where their values say, gaps, PNG output.
#include "ubot/render/plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "render_test_support.h"
#include "ubot/core/error.h"

namespace ubot::render {
namespace {

using test_support::kBlue;
using test_support::kGreen;
using test_support::kRed;
using test_support::load_png;
using test_support::Picture;
using test_support::read_bytes;
using test_support::Rgb8;
using test_support::ScratchFile;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Plot, NiceTicks) {
  EXPECT_EQ(nice_ticks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(nice_ticks(-0.05, 1.05, 5), (std::vector<double>{0, 0.2, 0.4, 3 * 0.2, 0.8, 1}));
  EXPECT_FALSE(std::signbit(nice_ticks(-0.05, 1.05, 5)[0]));  // 0, not -0
  EXPECT_EQ(nice_ticks(0.013, 0.094, 4), (std::vector<double>{0.02, 0.04, 0.06, 0.08}));
  EXPECT_EQ(nice_ticks(-7, 3, 2), (std::vector<double>{-5, 0}));
  const auto big = nice_ticks(9.2, 9.91, 5);
  ASSERT_FALSE(big.empty());
  EXPECT_GE(big.front(), 9.2);
  EXPECT_LE(big.back(), 9.91);
  EXPECT_TRUE(nice_ticks(1, 1, 5).empty());
  EXPECT_TRUE(nice_ticks(0, kNaN, 5).empty());
}

Picture to_picture(const std::vector<std::uint8_t>& rgba, ImageSize size) {
  return {size.width_px, size.height_px, rgba};
}

// The pixel is clearly of the colour's dominant channel (anti-aliased edges included).
bool near_colour(Rgb8 c, const Color& want) {
  const int v[3] = {c.r, c.g, c.b};
  const double w[3] = {want.r, want.g, want.b};
  const int k = static_cast<int>(std::max_element(w, w + 3) - w);
  return v[k] - std::max(v[(k + 1) % 3], v[(k + 2) % 3]) > 60;
}

// Rows of column x whose pixel has the colour.
std::vector<int> rows_with(const Picture& p, int x, const Color& c) {
  std::vector<int> rows;
  for (int y = 0; y < p.height; ++y) {
    if (near_colour(p.at(x, y), c)) rows.push_back(y);
  }
  return rows;
}

TEST(Plot, SeriesAreDrawnAtTheirValuesWithGapsWhereThereIsNoData) {
  Plot plot;
  plot.title = "test";
  plot.x_label = "time [s]";
  plot.panels.resize(2);
  plot.panels[0].series = {{"low", kRed, {0, 10}, {0, 0}}, {"high", kBlue, {0, 10}, {1, 1}}};
  // Green: valid from 0 to 4, nothing between 4 and 6, valid again from 6 to 10.
  plot.panels[1].series = {{"gappy", kGreen, {0, 2, 4, 5, 6, 8, 10}, {2, 2, 2, kNaN, 2, 2, 2}}};
  const ImageSize size{400, 300};
  const Picture p = to_picture(render_plot_rgba(plot, size), size);
  // In the top panel the high series lies above the low one, both across the width.
  for (int x : {120, 200, 350}) {
    const auto red = rows_with(p, x, kRed), blue = rows_with(p, x, kBlue);
    ASSERT_FALSE(red.empty()) << x;
    ASSERT_FALSE(blue.empty()) << x;
    EXPECT_LT(blue.back(), red.front()) << x;
    EXPECT_LT(red.back() - red.front(), 4) << "a thin line";
    EXPECT_LT(red.back(), p.height / 2) << "in the top panel";
  }
  // The bottom panel's series: present over valid stretches, absent in the gap (x in (4, 6)).
  const double left = 72, right = 400 - 16;  // the plot's frame margins
  auto column = [&](double x) { return static_cast<int>(left + x / 10 * (right - left)); };
  for (double x : {1.0, 3.0, 7.0, 9.0}) EXPECT_FALSE(rows_with(p, column(x), kGreen).empty()) << x;
  for (double x : {4.6, 5.0, 5.4}) EXPECT_TRUE(rows_with(p, column(x), kGreen).empty()) << x;
}

// A series of many more samples than pixel columns is drawn through each column's first,
// lowest, highest and last sample: a one-sample spike and a gap still show, and a smooth curve
// looks as it does drawn from few samples.
TEST(Plot, AMillionSamplesKeepTheirSpikesGapsAndShape) {
  const int n = 1'000'000;
  std::vector<double> x(n), y(n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = 10.0 * i / (n - 1);
    if (x[i] > 4.5 && x[i] < 5.5) y[i] = kNaN;
  }
  y[123'456] = 1.0;   // at x = 1.23
  y[876'543] = -1.0;  // at x = 8.77
  Plot plot;
  plot.panels.push_back({"", {{"spiky", kRed, x, y}}});
  const ImageSize size{400, 300};
  const Picture p = to_picture(render_plot_rgba(plot, size), size);
  const double left = 72, right = 400 - 16;
  auto column = [&](double v) { return static_cast<int>(left + v / 10 * (right - left)); };
  const auto flat = rows_with(p, column(3.0), kRed);
  ASSERT_FALSE(flat.empty());
  const auto up = rows_with(p, column(10.0 * 123'456 / (n - 1)), kRed);
  const auto down = rows_with(p, column(10.0 * 876'543 / (n - 1)), kRed);
  ASSERT_FALSE(up.empty());
  ASSERT_FALSE(down.empty());
  EXPECT_LT(up.front(), flat.front() - 50) << "the upward spike is drawn";
  EXPECT_GT(down.back(), flat.back() + 50) << "the downward spike is drawn";
  for (double v : {4.7, 5.0, 5.3}) EXPECT_TRUE(rows_with(p, column(v), kRed).empty()) << v;

  // A sine from a million samples and from a thousand (drawn sample by sample): the same rows.
  auto sine = [](int m) {
    PlotSeries s{"sine", kBlue, std::vector<double>(m), std::vector<double>(m)};
    for (int i = 0; i < m; ++i) {
      s.x[i] = 10.0 * i / (m - 1);
      s.y[i] = std::sin(s.x[i]);
    }
    return s;
  };
  Plot dense, sparse;
  dense.panels.push_back({"", {sine(n)}});
  sparse.panels.push_back({"", {sine(1000)}});
  const Picture d = to_picture(render_plot_rgba(dense, size), size);
  const Picture s = to_picture(render_plot_rgba(sparse, size), size);
  for (int c = column(0.05); c <= column(9.95); ++c) {
    const auto a = rows_with(d, c, kBlue), b = rows_with(s, c, kBlue);
    ASSERT_FALSE(a.empty()) << c;
    ASSERT_FALSE(b.empty()) << c;
    EXPECT_NEAR(a.front(), b.front(), 1) << c;
    EXPECT_NEAR(a.back(), b.back(), 1) << c;
  }
}

TEST(Plot, WritesAPng) {
  Plot plot;
  plot.title = "imu";
  plot.panels.push_back({"w [rad/s]", {{"wx", kRed, {0, 1, 2}, {0.1, -0.2, 0.3}}}});
  ScratchFile file("plot.png");
  write_plot_png(plot, {320, 200}, file.path());
  const auto bytes = read_bytes(file.path());
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "\x89PNG\r\n\x1a\n");
  const Picture p = load_png(file.path());
  EXPECT_EQ(p.width, 320);
  EXPECT_EQ(p.height, 200);
  // An empty plot (no samples yet) still renders.
  write_plot_png(Plot{}, {100, 80}, file.path());
  EXPECT_THROW(write_plot_png(plot, {320, 200}, "/nonexistent/dir/plot.png"), Error);
  EXPECT_THROW(write_plot_png(plot, {0, 200}, file.path()), Error);
}

}  // namespace
}  // namespace ubot::render
