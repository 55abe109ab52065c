#pragma once
// ROS 2 names (the "Topic and Service Names" design rules, as rcl/rmw validate them): a fully
// qualified topic starts with '/', its tokens are separated by single '/', contain only
// [A-Za-z0-9_], do not start with a digit, and the name does not end with '/'. DDS carries a
// topic /a/b as "rt/a/b".
#include <string>
#include <string_view>

namespace ubot::ros2 {

// One name token made valid: every character outside [A-Za-z0-9_] becomes '_', runs of '_'
// collapse to one, a leading digit gets a '_' in front. Empty in, empty out.
std::string sanitize_token(std::string_view token);

// The namespace of a robot, as "/seg/seg" or "" for the root namespace. `identity` is the robot's
// name (sanitised as one token; empty or all-invalid gives "robot"). A non-empty `override_ns`
// replaces it: leading and trailing '/' are ignored, each '/'-separated segment is sanitised
// (empty segments dropped), and "/" alone means the root namespace.
std::string resolve_namespace(std::string_view identity, std::string_view override_ns = {});

// The topic "<namespace>/<suffix>" (suffix e.g. "cmd_vel", or "lidar2d_1/scan"), or
// `topic_override` when it is non-empty (a missing leading '/' is added; it is not sanitised:
// an invalid override is reported by validate_topic).
std::string resolve_topic(std::string_view ns, std::string_view suffix,
                          std::string_view topic_override = {});

// Empty when `topic` is a valid fully qualified ROS 2 topic name, else why not.
std::string validate_topic(std::string_view topic);

// The DDS topic of a ROS topic: "/a/b" -> "rt/a/b".
std::string dds_topic(std::string_view ros_topic);

}  // namespace ubot::ros2
