// The per-robot `ros2:` section (SPEC §12): topics, command receiver and QoS for `--ros2` runs.
#include "ros2_reader.h"

#include <fmt/format.h>

#include <map>

#include "object_reader.h"
#include "ubot/core/error.h"
#include "ubot/ros2/ros2_config.h"

namespace ubot::config {
namespace {

Ros2QosModel read_qos(const std::optional<Field>& field) {
  Ros2QosModel q;
  if (!field) return q;
  Mapping m(*field);
  if (auto f = m.get("reliability")) {
    q.reliable = f->as_choice({"reliable", "best_effort"}) == "reliable";
  }
  if (auto f = m.get("durability")) {
    q.transient_local = f->as_choice({"volatile", "transient_local"}) == "transient_local";
  }
  if (auto f = m.get("depth")) {
    const std::int64_t depth = f->as_integer();
    if (depth < 1 || depth > 100000) f->fail("must be an integer in [1, 100000]");
    q.depth = static_cast<int>(depth);
  }
  m.finish();
  return q;
}

}  // namespace

LayerConfig<Ros2Model> read_ros2(const std::optional<Field>& field) {
  Ros2Model r;
  if (!field) return r;
  Mapping m(*field);
  r.enabled = m.boolean("enabled", r.enabled);
  r.namespace_override = m.string("namespace_override", "");
  r.topic_override = m.string("topic_override", "");
  r.command_timeout = m.non_negative("command_timeout", r.command_timeout);
  r.auto_start = m.boolean("auto_start", r.auto_start);
  const auto target = m.get("target");
  if (target) r.target = target->as_string();
  const Field& declared = target ? *target : *field;
  set_declared(r, declared);
  r.cmd_vel_stamped = m.boolean("cmd_vel_stamped", false);
  r.use_inf = m.boolean("use_inf", false);
  r.sensor_qos = read_qos(m.get("sensor_qos"));
  m.finish();
  return r;
}

void set_declared(Ros2Model& r, const Field& field) {
  const ErrorLocation where = field.where();
  r.declared_at = field.location();
  r.declared_path = field.path();
  r.declared_file = where.file;
  r.declared_line = where.line;
  r.declared_column = where.column;
}

void check_command_targets(const std::vector<ObjectModel>& objects) {
  std::map<std::string, const ObjectModel*> driver_of;  // target name -> first receiver's robot
  for (const ObjectModel& o : objects) {
    if (o.role != Role::kRobot || !o.ros2->enabled) continue;
    const std::string& target = o.ros2->target.empty() ? o.name : o.ros2->target;
    const auto [it, first] = driver_of.emplace(target, &o);
    if (first) continue;
    const Ros2Model& earlier = *it->second->ros2;
    const Ros2Model& r = *o.ros2;
    throw Error({r.declared_file, r.declared_line, r.declared_column, r.declared_path},
                fmt::format("the cmd_vel receivers of {} and of {} ({}: {}) both drive {}; an "
                            "object takes commands from one receiver (give one of them another "
                            "ros2.target, or ros2.enabled: false)",
                            o.name, it->second->name, earlier.declared_at, earlier.declared_path,
                            quote_value(target)));
  }
}

}  // namespace ubot::config
