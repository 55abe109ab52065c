#pragma once
// LayerConfig<T>: how the WorldModel holds the section of a layer above the sensors (the ROS 2
// bridge, the pictures, the maps, the media). T is declared beside its layer
// (ubot/ros2/ros2_config.h, ubot/viz/plot_config.h, ...) and only forward-declared in
// world_model.h, so changing, say, a ROS 2 QoS field recompiles what reads ROS 2 settings, not
// the world, the scene and every sensor.
//
// It behaves like an immutable T: copies share one value (the model never changes after
// loading), and an empty LayerConfig (an ObjectModel built in code) reads as T{}. Reading it
// needs T's header; holding, copying and destroying it do not.
#include <memory>
#include <utility>

namespace ubot {

template <class T>
class LayerConfig {
 public:
  LayerConfig() = default;
  LayerConfig(T value) : value_(std::make_shared<const T>(std::move(value))) {}  // NOLINT

  const T& get() const { return value_ ? *value_ : default_value(); }
  const T& operator*() const { return get(); }
  const T* operator->() const { return &get(); }

 private:
  static const T& default_value() {
    static const T value{};
    return value;
  }
  std::shared_ptr<const T> value_;
};

}  // namespace ubot
