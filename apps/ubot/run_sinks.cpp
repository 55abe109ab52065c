#include "run_sinks.h"

#include "ubot/ros2/bridge.h"

namespace ubot::app {
namespace {

class Ros2Sink final : public Sink {
 public:
  explicit Ros2Sink(ros2::Bridge& bridge) : bridge_(bridge) {}
  void on_start(const Simulation& sim) override { bridge_.publish(sim); }
  void on_step(const Simulation& sim, const StepInfo&) override { bridge_.publish(sim); }
  void on_finish(const Simulation&) override { bridge_.shutdown(); }

 private:
  ros2::Bridge& bridge_;
};

}  // namespace

std::unique_ptr<Sink> ros2_sink(ros2::Bridge& bridge) { return std::make_unique<Ros2Sink>(bridge); }

}  // namespace ubot::app
