#include "type_description.h"

#include <fmt/format.h>

#include <map>

#include "ubot/core/error.h"

namespace ubot::ros2::types {
namespace {

// The official message definitions, field by field, in declaration order.
const std::map<std::string, Individual, std::less<>>& individual_types() {
  static const auto* types = [] {
    const std::vector<Individual> list = {
#include "ubot/ros2/gen/type_table.inc"
    };
    auto* m = new std::map<std::string, Individual, std::less<>>;
    for (const Individual& t : list) m->emplace(t.name, t);
    return m;
  }();
  return *types;
}

}  // namespace

const Individual& find_type(std::string_view name) {
  const auto& types = individual_types();
  const auto it = types.find(name);
  if (it == types.end()) throw Error(fmt::format("no type description for '{}'", name));
  return it->second;
}

std::set<std::string> referenced_types(std::string_view name) {
  std::set<std::string> referenced;
  std::vector<std::string> queue;
  for (const Field& f : find_type(name).fields) {
    if (*f.nested) queue.emplace_back(f.nested);
  }
  while (!queue.empty()) {
    const std::string next = queue.back();
    queue.pop_back();
    if (!referenced.insert(next).second) continue;
    for (const Field& f : find_type(next).fields) {
      if (*f.nested) queue.emplace_back(f.nested);
    }
  }
  return referenced;
}

}  // namespace ubot::ros2::types
