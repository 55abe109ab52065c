// ubot's random layouts have IR-SIM's distributions (issue 13 item 6): the robots' states and
// goals from `distribution: random` without a range (IR-SIM's default range: the world less a
// 0.5 m margin, offset included, headings in [-π, π], min_distance 1.0) and the centres of
// random polygons placed by `center_range`. ubot draws from its own seeded streams, so the
// numbers differ from IR-SIM's and their distributions are compared: for each quantity a
// two-sample Kolmogorov-Smirnov test against what IR-SIM (kPinnedIrsimVersion) drew for the same
// world (tests/data/irsim_random/layout_samples.json, make_layout_samples.py) must not reject at
// alpha = 0.001, and must reject the same samples shifted by 15 % of their range (the test can
// tell a misplaced range apart). Both sides are fixed by their seeds: deterministic.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "irsim_trace.h"
#include "ubot/config/load_world.h"

namespace ubot::irsim_parity {
namespace {

constexpr double kAlpha = 0.001;

std::string data_path(const char* file) {
  return std::string(UBOT_SOURCE_DIR) + "/tests/data/irsim_random/" + file;
}

// Asymptotic p-value of the two-sample Kolmogorov-Smirnov statistic max |F_a − F_b|
// (Numerical Recipes' form of the Kolmogorov distribution's tail).
double ks_p_value(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double d = 0.0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / static_cast<double>(a.size()) -
                             static_cast<double>(j) / static_cast<double>(b.size())));
  }
  const double n =
      static_cast<double>(a.size() * b.size()) / static_cast<double>(a.size() + b.size());
  const double lambda = (std::sqrt(n) + 0.12 + 0.11 / std::sqrt(n)) * d;
  double p = 0.0;
  for (int k = 1; k <= 100; ++k) {
    p += 2.0 * ((k % 2) ? 1.0 : -1.0) * std::exp(-2.0 * k * k * lambda * lambda);
  }
  return std::clamp(p, 0.0, 1.0);
}

struct Layout {
  std::vector<std::vector<double>> states, goals;  // the robots'
  std::vector<Eigen::Vector2d> centres;            // the random polygons' vertex means
};

Layout irsim_layout() {
  std::ifstream in(data_path("layout_samples.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["irsim_version"], kPinnedIrsimVersion);
  Layout l;
  l.states = j["states"].get<std::vector<std::vector<double>>>();
  l.goals = j["goals"].get<std::vector<std::vector<double>>>();
  for (const auto& c : j["polygon_centres"]) l.centres.emplace_back(c[0], c[1]);
  return l;
}

Layout ubot_layout() {
  const WorldModel model = load_world(data_path("random_layout_world.yaml"), {.seed = 0});
  Layout l;
  for (const ObjectModel& o : model.objects) {
    if (o.role == Role::kRobot) {
      l.states.push_back(o.state);
      l.goals.push_back(o.goals.at(0));
      continue;
    }
    Eigen::Vector2d sum = Eigen::Vector2d::Zero();
    for (const Eigen::Vector2d& v : o.shape.vertices) sum += v;
    l.centres.push_back(sum / static_cast<double>(o.shape.vertices.size()));
  }
  return l;
}

std::vector<double> component(const std::vector<std::vector<double>>& points, std::size_t i) {
  std::vector<double> out;
  for (const auto& p : points) out.push_back(p.at(i));
  return out;
}

std::vector<double> component(const std::vector<Eigen::Vector2d>& points, int i) {
  std::vector<double> out;
  for (const auto& p : points) out.push_back(p[i]);
  return out;
}

// Passes KS against IR-SIM's samples, and fails it when shifted by 15 % of their range.
void expect_same_distribution(const char* what, const std::vector<double>& ubot,
                              const std::vector<double>& irsim) {
  ASSERT_EQ(ubot.size(), irsim.size()) << what;
  const double p = ks_p_value(ubot, irsim);
  EXPECT_GE(p, kAlpha) << what << ": ubot's distribution differs from IR-SIM's";
  const auto [lo, hi] = std::minmax_element(irsim.begin(), irsim.end());
  std::vector<double> shifted = ubot;
  for (double& x : shifted) x += 0.15 * (*hi - *lo);
  const double p_shifted = ks_p_value(shifted, irsim);
  EXPECT_LT(p_shifted, kAlpha) << what << ": the test cannot tell a shifted range apart";
  std::cout << what << ": KS p = " << p << " (n = " << ubot.size()
            << "); shifted by 15 % of the range: p = " << p_shifted << "\n";
}

double nearest_neighbour(const std::vector<std::vector<double>>& points, std::size_t i) {
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (k != i)
      nearest =
          std::min(nearest, std::hypot(points[i][0] - points[k][0], points[i][1] - points[k][1]));
  }
  return nearest;
}

TEST(IrsimRandomLayout, KsTestRejectsADifferentDistribution) {
  // The statistic itself, on known samples: the same uniform grid passes, one shifted by 0.3
  // (D = 0.3 with n = 100: p = 2 exp(-2 (10.131 * 0.3)^2) ≈ 2e-8) fails.
  std::vector<double> a, b, c;
  for (int i = 0; i < 200; ++i) {
    a.push_back(i / 200.0);
    b.push_back((i + 0.5) / 200.0);
    c.push_back(i / 200.0 + 0.3);
  }
  EXPECT_GT(ks_p_value(a, b), 0.99);
  EXPECT_LT(ks_p_value(a, c), 1e-7);
}

TEST(IrsimRandomLayout, DefaultRangePlacementsAndGoalsHaveIrsimsDistributions) {
  const Layout ours = ubot_layout(), theirs = irsim_layout();
  ASSERT_EQ(theirs.states.size(), 600u);
  const char* names[] = {"x", "y", "heading"};
  for (std::size_t i = 0; i < 3; ++i) {
    expect_same_distribution((std::string("state ") + names[i]).c_str(), component(ours.states, i),
                             component(theirs.states, i));
    expect_same_distribution((std::string("goal ") + names[i]).c_str(), component(ours.goals, i),
                             component(theirs.goals, i));
  }
  // IR-SIM's default range: the world (offset [-5, 3], 60 x 40) less 0.5 m, and min_distance 1.
  for (const auto* points : {&ours.states, &ours.goals}) {
    for (std::size_t k = 0; k < points->size(); ++k) {
      const std::vector<double>& p = (*points)[k];
      EXPECT_GE(p[0], -4.5);
      EXPECT_LE(p[0], 54.5);
      EXPECT_GE(p[1], 3.5);
      EXPECT_LE(p[1], 42.5);
      EXPECT_GE(nearest_neighbour(*points, k), 1.0);
    }
  }
}

TEST(IrsimRandomLayout, CenterRangePolygonsHaveIrsimsCentres) {
  const Layout ours = ubot_layout(), theirs = irsim_layout();
  ASSERT_EQ(theirs.centres.size(), 1500u);
  expect_same_distribution("polygon centre x", component(ours.centres, 0),
                           component(theirs.centres, 0));
  expect_same_distribution("polygon centre y", component(ours.centres, 1),
                           component(theirs.centres, 1));
}

}  // namespace
}  // namespace ubot::irsim_parity
