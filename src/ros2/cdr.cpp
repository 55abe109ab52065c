#include "ubot/ros2/cdr.h"

#include <cstring>
#include <string>

namespace ubot::ros2 {
namespace {

constexpr std::size_t kEncapsulation = 4;  // 00 01 00 00: CDR_LE, options 0

// Appends XCDR1 little-endian values; alignment is relative to the payload (after the
// encapsulation header). x86-64 and aarch64 are little-endian, so values are copied as they are.
class CdrWriter {
 public:
  explicit CdrWriter(std::vector<std::uint8_t>& out) : out_(out) {
    out_.assign({0x00, 0x01, 0x00, 0x00});
  }

  template <class T>
  void put(T value) {
    align(sizeof(T));
    append(&value, sizeof(T));
  }
  void put(bool value) { put<std::uint8_t>(value ? 1 : 0); }
  void put(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size() + 1));
    append(s.data(), s.size());
    out_.push_back(0);
  }
  // A sequence of primitives: count, then the elements in one copy.
  template <class T>
  void put_sequence(const std::vector<T>& v) {
    put(static_cast<std::uint32_t>(v.size()));
    put_array(v.data(), v.size());
  }
  template <class T>
  void put_array(const T* data, std::size_t n) {
    if (n == 0) return;
    align(sizeof(T));
    append(data, n * sizeof(T));
  }
  template <class T, std::size_t N>
  void put(const std::array<T, N>& a) {
    put_array(a.data(), N);
  }

 private:
  void align(std::size_t n) {
    const std::size_t offset = out_.size() - kEncapsulation;
    out_.resize(out_.size() + (n - offset % n) % n, 0);
  }
  void append(const void* data, std::size_t n) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out_.insert(out_.end(), bytes, bytes + n);
  }

  std::vector<std::uint8_t>& out_;
};

void put(CdrWriter& w, const Time& t) {
  w.put(t.sec);
  w.put(t.nanosec);
}
void put(CdrWriter& w, const Header& h) {
  put(w, h.stamp);
  w.put(h.frame_id);
}
template <class V>  // Vector3, Point
void put_xyz(CdrWriter& w, const V& v) {
  w.put(v.x);
  w.put(v.y);
  w.put(v.z);
}
void put(CdrWriter& w, const Quaternion& q) {
  put_xyz(w, q);
  w.put(q.w);
}
void put(CdrWriter& w, const Twist& t) {
  put_xyz(w, t.linear);
  put_xyz(w, t.angular);
}
void put(CdrWriter& w, const TransformStamped& t) {
  put(w, t.header);
  w.put(t.child_frame_id);
  put_xyz(w, t.transform.translation);
  put(w, t.transform.rotation);
}
void put(CdrWriter& w, const PointField& f) {
  w.put(f.name);
  w.put(f.offset);
  w.put(f.datatype);
  w.put(f.count);
}
void put(CdrWriter& w, const RegionOfInterest& r) {
  w.put(r.x_offset);
  w.put(r.y_offset);
  w.put(r.height);
  w.put(r.width);
  w.put(r.do_rectify);
}

void put(CdrWriter& w, const Pose& p) {
  put_xyz(w, p.position);
  put(w, p.orientation);
}
void put(CdrWriter& w, const ColorRGBA& c) {
  for (float f : {c.r, c.g, c.b, c.a}) w.put(f);
}
void put(CdrWriter& w, const Marker& m) {
  put(w, m.header);
  w.put(m.ns);
  w.put(m.id);
  w.put(m.type);
  w.put(m.action);
  put(w, m.pose);
  put_xyz(w, m.scale);
  put(w, m.color);
  w.put(m.lifetime.sec);
  w.put(m.lifetime.nanosec);
  w.put(m.frame_locked);
  w.put(static_cast<std::uint32_t>(m.points.size()));
  for (const Point& p : m.points) put_xyz(w, p);
  w.put(static_cast<std::uint32_t>(m.colors.size()));
  for (const ColorRGBA& c : m.colors) put(w, c);
  w.put(m.texture_resource);
  put(w, m.texture.header);
  w.put(m.texture.format);
  w.put_sequence(m.texture.data);
  w.put(static_cast<std::uint32_t>(m.uv_coordinates.size()));
  for (const UVCoordinate& uv : m.uv_coordinates) {
    w.put(uv.u);
    w.put(uv.v);
  }
  w.put(m.text);
  w.put(m.mesh_resource);
  w.put(m.mesh_file.filename);
  w.put_sequence(m.mesh_file.data);
  w.put(m.mesh_use_embedded_materials);
}

}  // namespace

void serialize_cdr(const MarkerArray& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  w.put(static_cast<std::uint32_t>(m.markers.size()));
  for (const Marker& marker : m.markers) put(w, marker);
}

void serialize_cdr(const Clock& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.clock);
}

void serialize_cdr(const TFMessage& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  w.put(static_cast<std::uint32_t>(m.transforms.size()));
  for (const TransformStamped& t : m.transforms) put(w, t);
}

void serialize_cdr(const Odometry& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  w.put(m.child_frame_id);
  put_xyz(w, m.pose.pose.position);
  put(w, m.pose.pose.orientation);
  w.put(m.pose.covariance);
  put(w, m.twist.twist);
  w.put(m.twist.covariance);
}

void serialize_cdr(const OccupancyGrid& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  put(w, m.info.map_load_time);
  w.put(m.info.resolution);
  w.put(m.info.width);
  w.put(m.info.height);
  put(w, m.info.origin);
  w.put_sequence(m.data);
}

void serialize_cdr(const Twist& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m);
}

void serialize_cdr(const TwistStamped& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  put(w, m.twist);
}

void serialize_cdr(const LaserScan& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  for (float f : {m.angle_min, m.angle_max, m.angle_increment, m.time_increment, m.scan_time,
                  m.range_min, m.range_max}) {
    w.put(f);
  }
  w.put_sequence(m.ranges);
  w.put_sequence(m.intensities);
}

void serialize_cdr(const PointCloud2& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  w.put(m.height);
  w.put(m.width);
  w.put(static_cast<std::uint32_t>(m.fields.size()));
  for (const PointField& f : m.fields) put(w, f);
  w.put(m.is_bigendian);
  w.put(m.point_step);
  w.put(m.row_step);
  w.put_sequence(m.data);
  w.put(m.is_dense);
}

void serialize_cdr(const Imu& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  put(w, m.orientation);
  w.put(m.orientation_covariance);
  put_xyz(w, m.angular_velocity);
  w.put(m.angular_velocity_covariance);
  put_xyz(w, m.linear_acceleration);
  w.put(m.linear_acceleration_covariance);
}

void serialize_cdr(const Image& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  w.put(m.height);
  w.put(m.width);
  w.put(m.encoding);
  w.put(m.is_bigendian);
  w.put(m.step);
  w.put_sequence(m.data);
}

void serialize_cdr(const CameraInfo& m, std::vector<std::uint8_t>& out) {
  CdrWriter w(out);
  put(w, m.header);
  w.put(m.height);
  w.put(m.width);
  w.put(m.distortion_model);
  w.put_sequence(m.d);
  w.put(m.k);
  w.put(m.r);
  w.put(m.p);
  w.put(m.binning_x);
  w.put(m.binning_y);
  put(w, m.roi);
}

void serialize_cdr(MessageKind kind, const void* message, std::vector<std::uint8_t>& out) {
  switch (kind) {
#define UBOT_ROS2_SERIALIZE_KIND(T, pkg)                 \
  case MessageKind::k##T:                                \
    serialize_cdr(*static_cast<const T*>(message), out); \
    return;
    UBOT_ROS2_MESSAGE_TYPES(UBOT_ROS2_SERIALIZE_KIND)
#undef UBOT_ROS2_SERIALIZE_KIND
  }
}

}  // namespace ubot::ros2

namespace ubot::ros2 {
namespace {

// Reads what CdrWriter writes, checking every length against the bytes there are.
class CdrReader {
 public:
  explicit CdrReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::string start() {
    if (bytes_.size() < kEncapsulation) return "fewer than 4 bytes (no CDR encapsulation header)";
    if (bytes_[0] != 0x00 || (bytes_[1] != 0x01 && bytes_[1] != 0x03)) {
      return "not little-endian CDR (encapsulation header must be 00 01 or 00 03)";
    }
    at_ = kEncapsulation;
    return "";
  }
  template <class T>
  bool get(T& value) {
    align(sizeof(T));
    if (at_ + sizeof(T) > bytes_.size()) return false;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool get(std::string& s) {
    std::uint32_t size = 0;
    if (!get(size) || size == 0 || size > bytes_.size() - at_) return false;
    s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), size - 1);
    at_ += size;
    return true;
  }

 private:
  void align(std::size_t n) {
    const std::size_t offset = at_ - kEncapsulation;
    at_ += (n - offset % n) % n;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

bool get(CdrReader& r, Vector3& v) { return r.get(v.x) && r.get(v.y) && r.get(v.z); }
bool get(CdrReader& r, Twist& t) { return get(r, t.linear) && get(r, t.angular); }

}  // namespace

std::string deserialize_cdr(std::span<const std::uint8_t> bytes, Twist& out) {
  CdrReader r(bytes);
  if (std::string e = r.start(); !e.empty()) return e;
  if (!get(r, out)) return "geometry_msgs/msg/Twist: the message ends early (48 bytes expected)";
  return "";
}

std::string deserialize_cdr(std::span<const std::uint8_t> bytes, TwistStamped& out) {
  CdrReader r(bytes);
  if (std::string e = r.start(); !e.empty()) return e;
  if (!r.get(out.header.stamp.sec) || !r.get(out.header.stamp.nanosec) ||
      !r.get(out.header.frame_id) || !get(r, out.twist)) {
    return "geometry_msgs/msg/TwistStamped: the message ends early or its frame_id runs past it";
  }
  return "";
}

}  // namespace ubot::ros2
