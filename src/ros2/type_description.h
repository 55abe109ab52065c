#pragma once
// The ROS 2 message definitions ubot speaks, field by field, in the model of rosidl's type
// descriptions (type_description_interfaces): the one table from which the REP 2011 type hashes
// (type_hash.cpp) and the .msg schema text of MCAP recordings (message_definition.cpp) derive,
// generated from src/ros2/idl/*.idl (generate_messages.py).
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ubot::ros2::types {

// type_description_interfaces/msg/FieldType ids. Arrays add 48, unbounded sequences 144.
enum TypeId : int {
  kNested = 1,
  kInt8 = 2,
  kUint8 = 3,
  kInt16 = 4,
  kUint16 = 5,
  kInt32 = 6,
  kUint32 = 7,
  kInt64 = 8,
  kUint64 = 9,
  kFloat = 10,
  kDouble = 11,
  kBool = 15,
  kString = 17,
};
constexpr int kArray = 48;
constexpr int kSequence = 144;

struct Field {
  const char* name;
  int type_id;
  int capacity = 0;  // fixed array size
  const char* nested = "";
};

struct Individual {
  const char* name;
  std::vector<Field> fields;
};

// The description of a type by its ROS name ("sensor_msgs/msg/LaserScan"). Known: every message
// of messages.h, the types they reference, and std_msgs/msg/String. ubot::Error otherwise.
const Individual& find_type(std::string_view name);

// Every type reachable from `name` through nested fields (itself excluded), sorted by name
// (std::set order = Python's sorted() for ASCII names).
std::set<std::string> referenced_types(std::string_view name);

}  // namespace ubot::ros2::types
