#pragma once
// What an object's contact sensor reads after a step of `collision_mode: contact` (SPEC §9,
// IR-SIM's obj.contact): written by the world each step for every object, read by the contact2d
// sensor, frames.jsonl and the pictures.
#include <vector>

#include <Eigen/Core>

#include "ubot/core/time.h"

namespace ubot {

// The `other` of a contact with the grid map (`world.obstacle_map`), which is no object: the id
// a lidar ray reports when it hits the grid.
constexpr int kGridMapId = -1;

// One contact seen from the object's side.
struct ContactReport {
  int other = 0;                                     // the object touched, or kGridMapId
  Eigen::Vector2d point = Eigen::Vector2d::Zero();   // world frame, m
  Eigen::Vector2d normal = Eigen::Vector2d::Zero();  // unit, from `other` toward the object
  double depth = 0.0;                                // m of overlap
  double force = 0.0;                                // N along `normal` (step average)
};

struct ContactReading {
  bool in_contact = false;
  std::vector<int> partners;           // objects touched in the last step, ascending, each once
  std::vector<ContactReport> reports;  // in the solver's order (by partner)
  Eigen::Vector2d force = Eigen::Vector2d::Zero();  // N, net contact force (normal + friction)
  Nanos contact_time = 0;  // how long it has been touching something (0 while free)
  Nanos air_time = 0;      // how long it has been free (0 while touching)
  bool started = false;    // the last step began a contact episode
  bool ended = false;      // the last step ended one
};

}  // namespace ubot
