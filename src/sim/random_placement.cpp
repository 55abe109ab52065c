// Seeded random placement at a reset (ubot/sim/random_placement.h).
#include "ubot/sim/random_placement.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <functional>
#include <numbers>

#include "ubot/core/error.h"
#include "ubot/core/random.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

class Placer {
 public:
  Placer(Simulation& sim, const PlacementSpec& spec, std::uint64_t seed)
      : sim_(sim), spec_(spec), rng_(seed) {}

  // A free pose for object `id` that `ok` accepts, set as its state; an Error otherwise (the
  // object back where it was).
  std::array<double, 3> place(int id, bool yaw,
                              const std::function<bool(const std::array<double, 3>&)>& ok) {
    const ObjectState& s = sim_.world().object(id);
    const std::array<double, 3> keep{s.state[0], s.state[1], s.state[2]};
    for (int attempt = 0; attempt < spec_.tries; ++attempt) {
      const std::array<double, 3> pose = draw(id, yaw);
      sim_.teleport(id, pose);
      const double clear = sim_.world().clearance(id);  // inf: nothing it can collide with
      if (clear >= spec_.margin && ok(pose)) return pose;
    }
    sim_.teleport(id, keep);
    throw Error(fmt::format(
        "randomize: no free place for {} in {} tries (region [{}, {}, {}, {}], margin {} m)",
        name(id), spec_.tries, spec_.x_min, spec_.x_max, spec_.y_min, spec_.y_max, spec_.margin));
  }

  const std::string& name(int id) const { return sim_.world().object_model(id).name; }

 private:
  std::array<double, 3> draw(int id, bool yaw) {
    // Kept inside the region by its bounding circle (a circle's own radius).
    const double r = sim_.world().object_model(id).shape.bounding_radius();
    if (spec_.x_max - spec_.x_min <= 2.0 * r || spec_.y_max - spec_.y_min <= 2.0 * r) {
      throw Error(
          fmt::format("randomize: {} (radius {} m) does not fit in the region "
                      "[{}, {}, {}, {}]",
                      name(id), r, spec_.x_min, spec_.x_max, spec_.y_min, spec_.y_max));
    }
    const double heading =
        yaw ? rng_.uniform(-std::numbers::pi, std::numbers::pi) : sim_.world().object(id).state[2];
    const double x = rng_.uniform(spec_.x_min + r, spec_.x_max - r);
    const double y = rng_.uniform(spec_.y_min + r, spec_.y_max - r);
    return {x, y, heading};
  }

  Simulation& sim_;
  const PlacementSpec& spec_;
  RandomStream rng_;
};

}  // namespace

void place_randomly(Simulation& sim, const PlacementSpec& spec, std::uint64_t seed) {
  Placer placer(sim, spec, seed);
  const auto anywhere = [](const std::array<double, 3>&) { return true; };
  for (const int id : spec.obstacles) placer.place(id, spec.yaw, anywhere);
  for (const int id : spec.robots) placer.place(id, spec.yaw, anywhere);
  std::vector<std::array<double, 3>> goals;
  for (const int id : spec.goals) {
    const ObjectState& s = sim.world().object(id);
    const std::array<double, 3> start{s.state[0], s.state[1], s.state[2]};
    const double r = sim.world().object_model(id).shape.bounding_radius();
    const auto far = [&](const std::array<double, 3>& p) {
      if (std::hypot(p[0] - start[0], p[1] - start[1]) < spec.min_goal_distance) return false;
      for (const auto& g : goals) {
        if (std::hypot(p[0] - g[0], p[1] - g[1]) < 2.0 * r + spec.margin) return false;
      }
      return true;
    };
    // The robot stands on the goal to test it against the obstacles, then goes back.
    goals.push_back(placer.place(id, false, far));
    sim.teleport(id, start);
    sim.set_goals(id, {{goals.back()[0], goals.back()[1], 0.0}});
  }
}

}  // namespace ubot
