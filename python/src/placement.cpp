// ubot._core._place_randomly and the vector core's `randomize` (ubot/sim/random_placement.h):
// the spec as ubot._learning.resets.check_randomize gives it, names made ids here.
#include "placement.h"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "errors.h"
#include "ubot/core/error.h"
#include "ubot/sim/random_placement.h"
#include "ubot/world/world.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

int id_named(const WorldModel& world, const std::string& name) {
  for (std::size_t id = 0; id < world.objects.size(); ++id) {
    if (world.objects[id].name == name) return static_cast<int>(id);
  }
  throw_value_error(fmt::format("randomize: no object named {}", quote_value(name)));
}

std::vector<int> ids_of(const WorldModel& world, const py::dict& spec, const char* key) {
  std::vector<int> ids;
  if (!spec.contains(key)) return ids;
  for (const auto& name : spec[key]) ids.push_back(id_named(world, py::cast<std::string>(name)));
  return ids;
}

}  // namespace

PlacementSpec placement_spec(const WorldModel& world, const py::dict& spec) {
  PlacementSpec p;
  p.obstacles = ids_of(world, spec, "obstacles");
  p.robots = ids_of(world, spec, "robots");
  p.goals = ids_of(world, spec, "goals");
  const auto region = py::cast<std::vector<double>>(spec["region"]);
  if (region.size() != 4)
    throw_value_error("randomize: region must be [x_min, x_max, y_min, y_max]");
  p.x_min = region[0];
  p.x_max = region[1];
  p.y_min = region[2];
  p.y_max = region[3];
  p.margin = py::cast<double>(spec["margin"]);
  p.min_goal_distance = py::cast<double>(spec["min_goal_distance"]);
  p.yaw = py::cast<bool>(spec["yaw"]);
  p.tries = py::cast<int>(spec["tries"]);
  return p;
}

void place_or_raise(Simulation& sim, const PlacementSpec& spec, std::uint64_t seed,
                    const std::string& who) {
  try {
    place_randomly(sim, spec, seed);
  } catch (const Error& e) {
    throw py::value_error(who + e.what());  // no GIL needed: set when it reaches Python
  }
}

void bind_placement(py::module_& m) {
  m.def(
      "_place_randomly",
      [](const std::shared_ptr<SimHandle>& h, const py::dict& spec, std::uint64_t seed) {
        place_or_raise(h->sim(), placement_spec(h->sim().world().model(), spec), seed, "");
      },
      py::arg("sim"), py::arg("spec"), py::arg("seed"),
      "Places the objects of a checked randomize spec (ubot._learning.resets.check_randomize) "
      "with draws from `seed` (ubot/sim/random_placement.h); ValueError when one finds no place.");
}

}  // namespace ubot::python
