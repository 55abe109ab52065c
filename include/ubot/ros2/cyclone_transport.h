#pragma once
// The CycloneDDS (0.10, C API) transport, with ROS 2's DDS conventions (as rmw_cyclonedds):
// topic "rt/<name>", type "<pkg>::msg::dds_::<T>_" (final, keyless, XCDR1 little-endian), each
// endpoint's USER_DATA "typehash=RIHS01_<hash>;" (REP 2011), participant USER_DATA "enclave=/;",
// domain from ROS_DOMAIN_ID. CycloneDDS reads its configuration from CYCLONEDDS_URI (e.g.
// config/cyclonedds-loopback.xml keeps all traffic on 127.0.0.1).
#include <memory>
#include <optional>

#include "ubot/ros2/transport.h"

namespace ubot::ros2 {

struct CycloneOptions {
  std::optional<int> domain_id;  // unset: ROS_DOMAIN_ID, else 0
};

// ROS_DOMAIN_ID from the environment (0 when unset or empty); ubot::Error when it is not an
// integer in [0, 232].
int ros_domain_id_from_env();

// Creates the DDS participant; ubot::Error if CycloneDDS cannot start (bad CYCLONEDDS_URI, ...).
std::unique_ptr<Transport> make_cyclone_transport(const CycloneOptions& options = {});

}  // namespace ubot::ros2
