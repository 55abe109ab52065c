#pragma once
// A robot's `ros2:` section (SPEC §12; used by `ubot run --ros2` and by the MCAP recorder's
// offered QoS), as the WorldModel holds it (ObjectModel::ros2). Depends on nothing but the
// standard library, so the config layer reads it and nothing below the ROS 2 layer sees it.
#include <cstdint>
#include <string>

namespace ubot {

struct Ros2QosModel {
  bool reliable = true;          // RELIABLE (false: BEST_EFFORT)
  bool transient_local = false;  // TRANSIENT_LOCAL (false: VOLATILE)
  int depth = 10;                // KEEP_LAST depth
};

// A robot's `ros2:` section.
struct Ros2Model {
  bool enabled = true;             // publish its topics and receive its cmd_vel
  std::string namespace_override;  // "" = the robot's name (sanitised); "/" = root
  std::string topic_override;      // "" = /<namespace>/cmd_vel
  double command_timeout = 0.5;    // simulation seconds; 0 disables
  bool auto_start = true;          // subscribe to cmd_vel at the start of the run
  std::string target;              // object driven by cmd_vel; "" = the robot itself
  bool cmd_vel_stamped = false;    // geometry_msgs/TwistStamped instead of Twist
  bool use_inf = false;            // LaserScan ranges per REP 117 (+inf / -inf)
  Ros2QosModel sensor_qos;         // QoS of its sensor, odometry topics
  // Where the receiver is declared, for load errors: "file:line:col" and key path of
  // `ros2.target`, else of the `ros2` section, else of the robot's entry; and its file, line
  // and column apart (0: unknown), the location the error carries.
  std::string declared_at;
  std::string declared_path;
  std::string declared_file;
  std::int64_t declared_line = 0;
  std::int64_t declared_column = 0;
};

}  // namespace ubot
