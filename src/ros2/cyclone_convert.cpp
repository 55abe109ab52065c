#include "cyclone_convert.h"

#include <algorithm>
#include <string>

namespace ubot::ros2::cyclone {
namespace {

char* c_str(const std::string& s) { return const_cast<char*>(s.c_str()); }
std::string from_c_str(const char* s) { return s ? std::string(s) : std::string(); }

template <class Seq, class T>
void view(const std::vector<T>& v, Seq& seq) {
  seq._maximum = seq._length = static_cast<uint32_t>(v.size());
  seq._buffer = const_cast<T*>(v.data());
  seq._release = false;
}
template <class Seq, class T>
void copy(const Seq& seq, std::vector<T>& v) {
  v.assign(seq._buffer, seq._buffer + seq._length);
}
template <std::size_t N>
void copy(const double (&in)[N], std::array<double, N>& out) {
  std::copy(in, in + N, out.begin());
}
template <std::size_t N>
void copy(const std::array<double, N>& in, double (&out)[N]) {
  std::copy(in.begin(), in.end(), out);
}

void to_c(const Time& in, builtin_interfaces_msg_dds__Time_& out) {
  out.sec = in.sec;
  out.nanosec = in.nanosec;
}
void from_c(const builtin_interfaces_msg_dds__Time_& in, Time& out) {
  out.sec = in.sec;
  out.nanosec = in.nanosec;
}
void to_c(const Header& in, std_msgs_msg_dds__Header_& out) {
  to_c(in.stamp, out.stamp);
  out.frame_id = c_str(in.frame_id);
}
void from_c(const std_msgs_msg_dds__Header_& in, Header& out) {
  from_c(in.stamp, out.stamp);
  out.frame_id = from_c_str(in.frame_id);
}

template <class A, class B>
void xyz(const A& in, B& out) {
  out.x = in.x;
  out.y = in.y;
  out.z = in.z;
}
template <class A, class B>
void xyzw(const A& in, B& out) {
  xyz(in, out);
  out.w = in.w;
}

void to_c(const Twist& in, geometry_msgs_msg_dds__Twist_& out) {
  xyz(in.linear, out.linear);
  xyz(in.angular, out.angular);
}
void to_c(const TransformStamped& in, geometry_msgs_msg_dds__TransformStamped_& out) {
  to_c(in.header, out.header);
  out.child_frame_id = c_str(in.child_frame_id);
  xyz(in.transform.translation, out.transform.translation);
  xyzw(in.transform.rotation, out.transform.rotation);
}
void from_c(const geometry_msgs_msg_dds__TransformStamped_& in, TransformStamped& out) {
  from_c(in.header, out.header);
  out.child_frame_id = from_c_str(in.child_frame_id);
  xyz(in.transform.translation, out.transform.translation);
  xyzw(in.transform.rotation, out.transform.rotation);
}

}  // namespace

void to_c(const Clock& in, rosgraph_msgs_msg_dds__Clock_& out, Scratch&) {
  to_c(in.clock, out.clock);
}
void from_c(const rosgraph_msgs_msg_dds__Clock_& in, Clock& out) { from_c(in.clock, out.clock); }

void to_c(const Twist& in, geometry_msgs_msg_dds__Twist_& out, Scratch&) { to_c(in, out); }
void from_c(const geometry_msgs_msg_dds__Twist_& in, Twist& out) {
  xyz(in.linear, out.linear);
  xyz(in.angular, out.angular);
}

void to_c(const TwistStamped& in, geometry_msgs_msg_dds__TwistStamped_& out, Scratch&) {
  to_c(in.header, out.header);
  to_c(in.twist, out.twist);
}
void from_c(const geometry_msgs_msg_dds__TwistStamped_& in, TwistStamped& out) {
  from_c(in.header, out.header);
  from_c(in.twist, out.twist);
}

void to_c(const TFMessage& in, tf2_msgs_msg_dds__TFMessage_& out, Scratch& scratch) {
  scratch.transforms.resize(in.transforms.size());
  for (std::size_t i = 0; i < in.transforms.size(); ++i) {
    to_c(in.transforms[i], scratch.transforms[i]);
  }
  view(scratch.transforms, out.transforms);
}
void from_c(const tf2_msgs_msg_dds__TFMessage_& in, TFMessage& out) {
  out.transforms.resize(in.transforms._length);
  for (std::size_t i = 0; i < out.transforms.size(); ++i) {
    from_c(in.transforms._buffer[i], out.transforms[i]);
  }
}

void to_c(const Odometry& in, nav_msgs_msg_dds__Odometry_& out, Scratch&) {
  to_c(in.header, out.header);
  out.child_frame_id = c_str(in.child_frame_id);
  xyz(in.pose.pose.position, out.pose.pose.position);
  xyzw(in.pose.pose.orientation, out.pose.pose.orientation);
  copy(in.pose.covariance, out.pose.covariance);
  to_c(in.twist.twist, out.twist.twist);
  copy(in.twist.covariance, out.twist.covariance);
}
void to_c(const OccupancyGrid& in, nav_msgs_msg_dds__OccupancyGrid_& out, Scratch&) {
  to_c(in.header, out.header);
  to_c(in.info.map_load_time, out.info.map_load_time);
  out.info.resolution = in.info.resolution;
  out.info.width = in.info.width;
  out.info.height = in.info.height;
  xyz(in.info.origin.position, out.info.origin.position);
  xyzw(in.info.origin.orientation, out.info.origin.orientation);
  view(in.data, out.data);
}
void from_c(const nav_msgs_msg_dds__OccupancyGrid_& in, OccupancyGrid& out) {
  from_c(in.header, out.header);
  from_c(in.info.map_load_time, out.info.map_load_time);
  out.info.resolution = in.info.resolution;
  out.info.width = in.info.width;
  out.info.height = in.info.height;
  xyz(in.info.origin.position, out.info.origin.position);
  xyzw(in.info.origin.orientation, out.info.origin.orientation);
  copy(in.data, out.data);
}

void from_c(const nav_msgs_msg_dds__Odometry_& in, Odometry& out) {
  from_c(in.header, out.header);
  out.child_frame_id = from_c_str(in.child_frame_id);
  xyz(in.pose.pose.position, out.pose.pose.position);
  xyzw(in.pose.pose.orientation, out.pose.pose.orientation);
  copy(in.pose.covariance, out.pose.covariance);
  from_c(in.twist.twist, out.twist.twist);
  copy(in.twist.covariance, out.twist.covariance);
}

void to_c(const LaserScan& in, sensor_msgs_msg_dds__LaserScan_& out, Scratch&) {
  to_c(in.header, out.header);
  out.angle_min = in.angle_min;
  out.angle_max = in.angle_max;
  out.angle_increment = in.angle_increment;
  out.time_increment = in.time_increment;
  out.scan_time = in.scan_time;
  out.range_min = in.range_min;
  out.range_max = in.range_max;
  view(in.ranges, out.ranges);
  view(in.intensities, out.intensities);
}
void from_c(const sensor_msgs_msg_dds__LaserScan_& in, LaserScan& out) {
  from_c(in.header, out.header);
  out.angle_min = in.angle_min;
  out.angle_max = in.angle_max;
  out.angle_increment = in.angle_increment;
  out.time_increment = in.time_increment;
  out.scan_time = in.scan_time;
  out.range_min = in.range_min;
  out.range_max = in.range_max;
  copy(in.ranges, out.ranges);
  copy(in.intensities, out.intensities);
}

void to_c(const PointCloud2& in, sensor_msgs_msg_dds__PointCloud2_& out, Scratch& scratch) {
  to_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  scratch.fields.resize(in.fields.size());
  for (std::size_t i = 0; i < in.fields.size(); ++i) {
    scratch.fields[i] = {c_str(in.fields[i].name), in.fields[i].offset, in.fields[i].datatype,
                         in.fields[i].count};
  }
  view(scratch.fields, out.fields);
  out.is_bigendian = in.is_bigendian;
  out.point_step = in.point_step;
  out.row_step = in.row_step;
  view(in.data, out.data);
  out.is_dense = in.is_dense;
}
void from_c(const sensor_msgs_msg_dds__PointCloud2_& in, PointCloud2& out) {
  from_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  out.fields.clear();
  for (uint32_t i = 0; i < in.fields._length; ++i) {
    const auto& f = in.fields._buffer[i];
    out.fields.push_back({from_c_str(f.name), f.offset, f.datatype, f.count});
  }
  out.is_bigendian = in.is_bigendian;
  out.point_step = in.point_step;
  out.row_step = in.row_step;
  copy(in.data, out.data);
  out.is_dense = in.is_dense;
}

void to_c(const Imu& in, sensor_msgs_msg_dds__Imu_& out, Scratch&) {
  to_c(in.header, out.header);
  xyzw(in.orientation, out.orientation);
  copy(in.orientation_covariance, out.orientation_covariance);
  xyz(in.angular_velocity, out.angular_velocity);
  copy(in.angular_velocity_covariance, out.angular_velocity_covariance);
  xyz(in.linear_acceleration, out.linear_acceleration);
  copy(in.linear_acceleration_covariance, out.linear_acceleration_covariance);
}
void from_c(const sensor_msgs_msg_dds__Imu_& in, Imu& out) {
  from_c(in.header, out.header);
  xyzw(in.orientation, out.orientation);
  copy(in.orientation_covariance, out.orientation_covariance);
  xyz(in.angular_velocity, out.angular_velocity);
  copy(in.angular_velocity_covariance, out.angular_velocity_covariance);
  xyz(in.linear_acceleration, out.linear_acceleration);
  copy(in.linear_acceleration_covariance, out.linear_acceleration_covariance);
}

void to_c(const Image& in, sensor_msgs_msg_dds__Image_& out, Scratch&) {
  to_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  out.encoding = c_str(in.encoding);
  out.is_bigendian = in.is_bigendian;
  out.step = in.step;
  view(in.data, out.data);
}
void from_c(const sensor_msgs_msg_dds__Image_& in, Image& out) {
  from_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  out.encoding = from_c_str(in.encoding);
  out.is_bigendian = in.is_bigendian;
  out.step = in.step;
  copy(in.data, out.data);
}

void to_c(const CameraInfo& in, sensor_msgs_msg_dds__CameraInfo_& out, Scratch&) {
  to_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  out.distortion_model = c_str(in.distortion_model);
  view(in.d, out.d);
  copy(in.k, out.k);
  copy(in.r, out.r);
  copy(in.p, out.p);
  out.binning_x = in.binning_x;
  out.binning_y = in.binning_y;
  out.roi = {in.roi.x_offset, in.roi.y_offset, in.roi.height, in.roi.width, in.roi.do_rectify};
}
void from_c(const sensor_msgs_msg_dds__CameraInfo_& in, CameraInfo& out) {
  from_c(in.header, out.header);
  out.height = in.height;
  out.width = in.width;
  out.distortion_model = from_c_str(in.distortion_model);
  copy(in.d, out.d);
  copy(in.k, out.k);
  copy(in.r, out.r);
  copy(in.p, out.p);
  out.binning_x = in.binning_x;
  out.binning_y = in.binning_y;
  out.roi = {in.roi.x_offset, in.roi.y_offset, in.roi.height, in.roi.width, in.roi.do_rectify};
}

}  // namespace ubot::ros2::cyclone

namespace ubot::ros2::cyclone {
namespace {

template <class Seq, class T>
void view_structs(std::vector<T>& v, Seq& seq) {
  seq._maximum = seq._length = static_cast<uint32_t>(v.size());
  seq._buffer = v.data();
  seq._release = false;
}

std_msgs_msg_dds__ColorRGBA_ to_c(const ColorRGBA& c) { return {c.r, c.g, c.b, c.a}; }
ColorRGBA from_c(const std_msgs_msg_dds__ColorRGBA_& c) { return {c.r, c.g, c.b, c.a}; }

// The C elements of one marker's sequences of structs, alive while its view is.
struct MarkerScratch {
  std::vector<geometry_msgs_msg_dds__Point_>& points;
  std::vector<std_msgs_msg_dds__ColorRGBA_>& colors;
  std::vector<visualization_msgs_msg_dds__UVCoordinate_>& uvs;
};

void to_c(const Marker& in, visualization_msgs_msg_dds__Marker_& out, const MarkerScratch& s) {
  auto& points = s.points;
  auto& colors = s.colors;
  out = {};
  to_c(in.header, out.header);
  out.ns = c_str(in.ns);
  out.id = in.id;
  out.type = in.type;
  out.action = in.action;
  xyz(in.pose.position, out.pose.position);
  xyzw(in.pose.orientation, out.pose.orientation);
  xyz(in.scale, out.scale);
  out.color = to_c(in.color);
  out.lifetime = {in.lifetime.sec, in.lifetime.nanosec};
  out.frame_locked = in.frame_locked;
  points.clear();
  for (const Point& p : in.points) points.push_back({p.x, p.y, p.z});
  view_structs(points, out.points);
  colors.clear();
  for (const ColorRGBA& c : in.colors) colors.push_back(to_c(c));
  view_structs(colors, out.colors);
  out.texture_resource = c_str(in.texture_resource);
  to_c(in.texture.header, out.texture.header);
  out.texture.format = c_str(in.texture.format);
  view(in.texture.data, out.texture.data);
  s.uvs.clear();
  for (const UVCoordinate& uv : in.uv_coordinates) s.uvs.push_back({uv.u, uv.v});
  view_structs(s.uvs, out.uv_coordinates);
  out.text = c_str(in.text);
  out.mesh_resource = c_str(in.mesh_resource);
  out.mesh_file.filename = c_str(in.mesh_file.filename);
  view(in.mesh_file.data, out.mesh_file.data);
  out.mesh_use_embedded_materials = in.mesh_use_embedded_materials;
}

void from_c(const visualization_msgs_msg_dds__Marker_& in, Marker& out) {
  from_c(in.header, out.header);
  out.ns = from_c_str(in.ns);
  out.id = in.id;
  out.type = in.type;
  out.action = in.action;
  xyz(in.pose.position, out.pose.position);
  xyzw(in.pose.orientation, out.pose.orientation);
  xyz(in.scale, out.scale);
  out.color = from_c(in.color);
  out.lifetime = {in.lifetime.sec, in.lifetime.nanosec};
  out.frame_locked = in.frame_locked;
  out.points.clear();
  for (uint32_t i = 0; i < in.points._length; ++i) {
    const auto& p = in.points._buffer[i];
    out.points.push_back({p.x, p.y, p.z});
  }
  out.colors.clear();
  for (uint32_t i = 0; i < in.colors._length; ++i)
    out.colors.push_back(from_c(in.colors._buffer[i]));
  out.texture_resource = from_c_str(in.texture_resource);
  from_c(in.texture.header, out.texture.header);
  out.texture.format = from_c_str(in.texture.format);
  copy(in.texture.data, out.texture.data);
  out.uv_coordinates.clear();
  for (uint32_t i = 0; i < in.uv_coordinates._length; ++i) {
    out.uv_coordinates.push_back({in.uv_coordinates._buffer[i].u, in.uv_coordinates._buffer[i].v});
  }
  out.text = from_c_str(in.text);
  out.mesh_resource = from_c_str(in.mesh_resource);
  out.mesh_file.filename = from_c_str(in.mesh_file.filename);
  copy(in.mesh_file.data, out.mesh_file.data);
  out.mesh_use_embedded_materials = in.mesh_use_embedded_materials;
}

}  // namespace

void to_c(const MarkerArray& in, visualization_msgs_msg_dds__MarkerArray_& out, Scratch& scratch) {
  const std::size_t n = in.markers.size();
  scratch.markers.resize(n);
  scratch.marker_points.resize(n);
  scratch.marker_colors.resize(n);
  scratch.marker_uvs.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    to_c(in.markers[i], scratch.markers[i],
         {scratch.marker_points[i], scratch.marker_colors[i], scratch.marker_uvs[i]});
  }
  view_structs(scratch.markers, out.markers);
}

void from_c(const visualization_msgs_msg_dds__MarkerArray_& in, MarkerArray& out) {
  out.markers.resize(in.markers._length);
  for (uint32_t i = 0; i < in.markers._length; ++i) from_c(in.markers._buffer[i], out.markers[i]);
}

}  // namespace ubot::ros2::cyclone
