// The per-robot `ros2:` section (SPEC §12): topics, command receiver and QoS for `--ros2` runs.
#include "object_reader.h"

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

Ros2Model read_ros2(const std::optional<Field>& field) {
  Ros2Model r;
  if (!field) return r;
  Mapping m(*field);
  r.enabled = m.boolean("enabled", r.enabled);
  r.namespace_override = m.string("namespace_override", "");
  r.topic_override = m.string("topic_override", "");
  r.command_timeout = m.non_negative("command_timeout", r.command_timeout);
  r.target = m.string("target", "");
  r.cmd_vel_stamped = m.boolean("cmd_vel_stamped", false);
  r.use_inf = m.boolean("use_inf", false);
  r.sensor_qos = read_qos(m.get("sensor_qos"));
  m.finish();
  return r;
}

}  // namespace ubot::config
