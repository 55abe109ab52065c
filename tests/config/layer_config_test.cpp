// LayerConfig<T>: how the WorldModel holds the configs of the layers above the sensors.
#include "ubot/config/layer_config.h"

#include <gtest/gtest.h>

#include "ubot/config/load_world.h"
#include "ubot/mapping/mapping_config.h"
#include "ubot/ros2/ros2_config.h"
#include "ubot/viz/plot_config.h"

namespace ubot {
namespace {

TEST(LayerConfig, EmptyReadsAsDefaultValue) {
  const ObjectModel object;  // built in code, never read from YAML
  EXPECT_TRUE(object.ros2->enabled);
  EXPECT_EQ(object.ros2->sensor_qos.depth, 10);
  EXPECT_TRUE(object.plot->show_goal);
  EXPECT_TRUE(WorldModel{}.maps->empty());
}

TEST(LayerConfig, HoldsItsValueAndCopiesShareIt) {
  Ros2Model ros2;
  ros2.namespace_override = "scout";
  ros2.sensor_qos.depth = 3;
  const LayerConfig<Ros2Model> a(ros2);
  const LayerConfig<Ros2Model> b = a;
  EXPECT_EQ(a->namespace_override, "scout");
  EXPECT_EQ((*b).sensor_qos.depth, 3);
  EXPECT_EQ(&a.get(), &b.get());  // immutable, so one value serves every copy
}

TEST(LayerConfig, LoadedWorldCarriesEachLayersSection) {
  const WorldModel m = load_world_from_string(
      "robot:\n"
      "  - shape: {name: circle, radius: 0.2}\n"
      "    plot: {show_goal: false}\n"
      "    ros2: {sensor_qos: {depth: 4}}\n"
      "obstacle:\n"
      "  - shape: {name: circle, radius: 0.2}\n",
      "w.yaml");
  EXPECT_FALSE(m.objects[0].plot->show_goal);
  EXPECT_EQ(m.objects[0].ros2->sensor_qos.depth, 4);
  EXPECT_FALSE(m.objects[1].plot->show_goal);  // an obstacle's default (IR-SIM)
}

}  // namespace
}  // namespace ubot
