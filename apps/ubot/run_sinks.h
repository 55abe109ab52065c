#pragma once
// The sink only the command line has (the others are ubot/outputs/run_sinks.h).
#include <memory>

#include "ubot/sim/sink.h"

namespace ubot {
namespace ros2 {
class Bridge;
}
namespace app {

// Publishes through the ROS 2 bridge (which also gives the run its commands).
std::unique_ptr<Sink> ros2_sink(ros2::Bridge& bridge);

}  // namespace app
}  // namespace ubot
