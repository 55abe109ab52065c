// The camera type's ROS 2 piece (compiled into the ros2_msgs library): sensor_msgs/Image and
// CameraInfo on <ns>/<camera>/image_raw and camera_info, and its optical frame.
#include "ubot/ros2/message_producer.h"
#include "ubot/ros2/sensor_messages.h"
#include "ubot/ros2/sim_messages.h"
#include "ubot/sensors/camera/camera.h"
#include "ubot/sensors/camera/camera_sinks.h"

namespace ubot::ros2 {

std::vector<int> sensor_topics(const TopicNamer& topics, const Camera&) {
  return {topics.camera("image_raw", MessageKind::kImage),
          topics.camera("camera_info", MessageKind::kCameraInfo)};
}

void sensor_messages(const SensorMessageContext& c, const Camera& camera) {
  MessageBuffers& b = c.buffers;
  camera_image(camera, b.image_data);
  to_image(b.image_data, b.image);
  c.consume({c.topics[0], c.now, &b.image});
  const CameraInfo info = to_camera_info(b.image.header, camera_intrinsics(camera));
  c.consume({c.topics[1], c.now, &info});
}

Transform sensor_mount(const Camera& camera) {
  return mount_transform(camera.params().offset, camera.params().rpy);
}

void add_child_frames(TFMessage& tf, const Camera& camera) {
  tf.transforms.push_back(optical_transform(camera));
}

}  // namespace ubot::ros2
