// The latest sample of each sensor type as a Python object (docs/python.md, "Sensors"). Array
// attributes are read-only numpy views of the sensor's own output: no copy, valid until the
// next step / reset / restore (.copy() keeps one); derived arrays (points of a 2D scan, ranges
// of a 3D sweep, IMU samples) are copies. A sample object always reads its sensor's latest
// output. A new sensor type is one more Overloaded alternative in sensor_sample (the build fails
// without it) and its class here.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>

#include "bindings.h"
#include "errors.h"
#include "ubot/sensors/registered_sensors.h"

namespace py = pybind11;

namespace ubot::python {
namespace {

// What every sample class holds: its simulation and sensor.
struct SampleRef {
  std::shared_ptr<SimHandle> sim;
  std::size_t index = 0;
  const Sensor& sensor() const { return *sim->sim().sensors()[index]; }
  template <class T>
  const T& as() const {
    return *sensor_if<T>(sensor());
  }
  py::object base() const { return sim->owner(); }
};
struct Lidar2dSample : SampleRef {};
struct Lidar3dSample : SampleRef {};
struct CameraSample : SampleRef {};
struct ImuSampleRef : SampleRef {};
struct Contact2dSample : SampleRef {};

template <class T>
py::array view_of(const SampleRef& s, const std::vector<T>& v) {
  return readonly_view(py::dtype::of<T>(), {static_cast<py::ssize_t>(v.size())}, v.data(),
                       s.base());
}

py::array_t<double> vector3(const Eigen::Vector3d& v) { return to_array({v.x(), v.y(), v.z()}); }
py::array_t<double> quaternion_xyzw(const Eigen::Quaterniond& q) {
  return to_array({q.x(), q.y(), q.z(), q.w()});
}

// The header fields every sample class has.
template <class C>
void header_fields(C& c) {
  using Ref = typename C::type;
  c.def_property_readonly(
       "name", [](const Ref& s) { return s.sensor().model().common.name; }, "Sensor name.")
      .def_property_readonly(
          "type", [](const Ref& s) { return std::string(s.sensor().model().type_name()); })
      .def_property_readonly("frame_id", [](const Ref& s) { return s.sensor().header().frame_id; })
      .def_property_readonly("sequence", [](const Ref& s) { return s.sensor().header().sequence; })
      .def_property_readonly(
          "stamp", [](const Ref& s) { return nanos_to_seconds(s.sensor().header().stamp); },
          "Simulation time of the sample, s.")
      .def_property_readonly("stamp_ns", [](const Ref& s) { return s.sensor().header().stamp; })
      .def_property_readonly(
          "status",
          [](const Ref& s) { return std::string(sample_status_name(s.sensor().header().status)); },
          "'Valid', 'WarmingUp', 'InvalidDeltaTime', 'TeleportDetected' or 'Disabled'.")
      .def_property_readonly("is_valid", [](const Ref& s) { return s.sensor().header().valid; });
}

void bind_lidar2d(py::module_& m) {
  py::class_<Lidar2dSample> c(m, "Lidar2dSample", "The latest scan of a lidar2d / fmcw_lidar2d.");
  header_fields(c);
  c.def_property_readonly(
       "ranges", [](const Lidar2dSample& s) { return view_of(s, s.as<Lidar2d>().scan().ranges); })
      .def_property_readonly("valid",
                             [](const Lidar2dSample& s) {
                               const auto& v = s.as<Lidar2d>().scan().valid;
                               return readonly_view(py::dtype::of<bool>(),
                                                    {static_cast<py::ssize_t>(v.size())}, v.data(),
                                                    s.base());
                             })
      .def_property_readonly(
          "angles", [](const Lidar2dSample& s) { return view_of(s, s.as<Lidar2d>().angles()); })
      .def_property_readonly(
          "intensities",
          [](const Lidar2dSample& s) { return view_of(s, s.as<Lidar2d>().scan().intensities); })
      .def_property_readonly(
          "hit_object",
          [](const Lidar2dSample& s) { return view_of(s, s.as<Lidar2d>().scan().hit_object); })
      .def_property_readonly(
          "velocities",
          [](const Lidar2dSample& s) { return view_of(s, s.as<Lidar2d>().scan().radial_velocity); },
          "fmcw_lidar2d: radial velocity per beam (m/s, positive away); empty otherwise.")
      .def_property_readonly(
          "points",
          [](const Lidar2dSample& s) {
            const std::vector<Eigen::Vector2d> p = s.as<Lidar2d>().points();
            py::array_t<double> a({static_cast<py::ssize_t>(p.size()), py::ssize_t{2}});
            std::memcpy(a.mutable_data(), p.data(), p.size() * sizeof(Eigen::Vector2d));
            return a;
          },
          "(n_valid, 2) sensor-frame points of the valid beams (a copy).")
      .def_property_readonly(
          "range_min", [](const Lidar2dSample& s) { return s.as<Lidar2d>().params().range_min; })
      .def_property_readonly(
          "range_max", [](const Lidar2dSample& s) { return s.as<Lidar2d>().params().range_max; })
      .def_property_readonly(
          "angle_min", [](const Lidar2dSample& s) { return s.as<Lidar2d>().angles().front(); })
      .def_property_readonly("angle_max",
                             [](const Lidar2dSample& s) { return s.as<Lidar2d>().angles().back(); })
      .def_property_readonly(
          "angle_increment",
          [](const Lidar2dSample& s) { return s.as<Lidar2d>().angle_increment(); })
      .def_property_readonly(
          "origin", [](const Lidar2dSample& s) { return vector3(s.as<Lidar2d>().scan().origin); },
          "Sensor pose in the world: x, y, yaw.")
      .def_property_readonly("z", [](const Lidar2dSample& s) { return s.as<Lidar2d>().scan().z; });
}

void bind_lidar3d(py::module_& m) {
  py::class_<Lidar3dSample> c(m, "Lidar3dSample", "The latest sweep of a lidar3d (valid returns).");
  header_fields(c);
  // A field of the 24-byte XYZIRT records, strided.
  auto field = [](const Lidar3dSample& s, const py::dtype& dt, std::size_t offset, int columns) {
    const auto& p = s.as<Lidar3d>().sweep().points;
    const auto n = static_cast<py::ssize_t>(p.size());
    const char* data = p.empty() ? nullptr : reinterpret_cast<const char*>(p.data()) + offset;
    std::vector<py::ssize_t> shape{n}, strides{sizeof(LidarPoint)};
    if (columns > 1) {
      shape.push_back(columns);
      strides.push_back(dt.itemsize());
    }
    py::array a(dt, shape, strides, data, s.base());
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return a;
  };
  c.def_property_readonly(
       "points", [field](const Lidar3dSample& s) { return field(s, py::dtype::of<float>(), 0, 3); },
       "(n, 3) float32 x, y, z in the sensor frame (of each column's firing time).")
      .def_property_readonly("intensity",
                             [field](const Lidar3dSample& s) {
                               return field(s, py::dtype::of<float>(),
                                            offsetof(LidarPoint, intensity), 1);
                             })
      .def_property_readonly("ring",
                             [field](const Lidar3dSample& s) {
                               return field(s, py::dtype::of<std::uint16_t>(),
                                            offsetof(LidarPoint, ring), 1);
                             })
      .def_property_readonly("time",
                             [field](const Lidar3dSample& s) {
                               return field(s, py::dtype::of<float>(), offsetof(LidarPoint, time),
                                            1);
                             })
      .def_property_readonly(
          "points_world",
          [](const Lidar3dSample& s) {
            const auto& p = s.as<Lidar3d>().sweep().points_world;
            return readonly_view(py::dtype::of<double>(), {static_cast<py::ssize_t>(p.size()), 3},
                                 p.data(), s.base());
          },
          "(n, 3) float64 the same points in the world frame.")
      .def_property_readonly(
          "hit_object",
          [](const Lidar3dSample& s) { return view_of(s, s.as<Lidar3d>().sweep().hit_object); })
      .def_property_readonly(
          "ranges",
          [](const Lidar3dSample& s) {
            const auto& p = s.as<Lidar3d>().sweep().points;
            py::array_t<double> a(static_cast<py::ssize_t>(p.size()));
            double* out = a.mutable_data();
            for (std::size_t i = 0; i < p.size(); ++i) {
              out[i] = std::sqrt(double{p[i].x} * p[i].x + double{p[i].y} * p[i].y +
                                 double{p[i].z} * p[i].z);
            }
            return a;
          },
          "(n,) distance of each point from the sensor (a copy).")
      .def_property_readonly(
          "position",
          [](const Lidar3dSample& s) { return vector3(s.as<Lidar3d>().sweep().pose.position); })
      .def_property_readonly("orientation", [](const Lidar3dSample& s) {
        return quaternion_xyzw(s.as<Lidar3d>().sweep().pose.orientation);
      });
}

void bind_camera(py::module_& m) {
  py::class_<CameraSample> c(m, "CameraSample", "The latest image of a depth_camera / rgb_camera.");
  header_fields(c);
  c.def_property_readonly(
       "image",
       [](const CameraSample& s) -> py::object {
         const CameraImage& im = s.as<Camera>().image();
         const auto pixels =
             static_cast<std::size_t>(im.width) * static_cast<std::size_t>(im.height);
         if (s.as<Camera>().params().depth || s.sensor().header().disabled() ||
             im.rgba.size() != 4 * pixels) {
           return py::none();
         }
         return readonly_view(py::dtype::of<std::uint8_t>(), {im.height, im.width, 4},
                              im.rgba.data(), s.base());
       },
       "rgb_camera: (H, W, 4) uint8 RGBA; None for a depth camera or before the first sample.")
      .def_property_readonly(
          "depth",
          [](const CameraSample& s) -> py::object {
            const CameraImage& im = s.as<Camera>().image();
            const auto pixels =
                static_cast<std::size_t>(im.width) * static_cast<std::size_t>(im.height);
            if (!s.as<Camera>().params().depth || s.sensor().header().disabled() ||
                im.depth.size() != pixels) {
              return py::none();
            }
            return readonly_view(py::dtype::of<float>(), {im.height, im.width}, im.depth.data(),
                                 s.base());
          },
          "depth_camera: (H, W) float32 metres along the optical axis, 0 = no data; None for "
          "an rgb camera or before the first sample.")
      .def_property_readonly("width",
                             [](const CameraSample& s) { return s.as<Camera>().params().width; })
      .def_property_readonly("height",
                             [](const CameraSample& s) { return s.as<Camera>().params().height; })
      .def_property_readonly(
          "medium_pixels",
          [](const CameraSample& s) { return s.as<Camera>().image().medium_pixels; })
      .def_property_readonly(
          "position",
          [](const CameraSample& s) { return vector3(s.as<Camera>().image().pose.position); })
      .def_property_readonly("orientation", [](const CameraSample& s) {
        return quaternion_xyzw(s.as<Camera>().image().pose.orientation);
      });
}

py::dict imu_reading(const FrameHeader& h, const ImuSample& d) {
  py::dict out;
  out["stamp"] = nanos_to_seconds(h.stamp);
  out["sequence"] = h.sequence;
  out["status"] = std::string(sample_status_name(h.status));
  out["linear_acceleration"] = vector3(d.linear_acceleration);
  out["angular_velocity"] = vector3(d.angular_velocity);
  out["orientation"] = quaternion_xyzw(d.orientation);
  return out;
}

void bind_imu(py::module_& m) {
  py::class_<ImuSampleRef> c(m, "ImuSample",
                             "The latest sample of an IMU and those of the last step.");
  header_fields(c);
  c.def_property_readonly(
       "samples",
       [](const ImuSampleRef& s) {
         py::list out;
         for (const ImuReading& r : s.as<Imu>().step_samples())
           out.append(imu_reading(r.header, r.data));
         return out;
       },
       "Every sample of the last step, in time order: dicts with stamp, sequence, status, "
       "linear_acceleration (3,), angular_velocity (3,), orientation (4,) x, y, z, w.")
      .def_property_readonly(
          "linear_acceleration",
          [](const ImuSampleRef& s) { return vector3(s.as<Imu>().data().linear_acceleration); })
      .def_property_readonly(
          "angular_velocity",
          [](const ImuSampleRef& s) { return vector3(s.as<Imu>().data().angular_velocity); })
      .def_property_readonly("orientation", [](const ImuSampleRef& s) {
        return quaternion_xyzw(s.as<Imu>().data().orientation);
      });
}

// The reading is a small value: a copy (ubot.ContactReading, contacts.cpp), like Object.contact.
void bind_contact2d(py::module_& m) {
  py::class_<Contact2dSample> c(m, "Contact2dSample",
                                "The latest sample of a contact2d: its object's contact reading.");
  header_fields(c);
  c.def_property_readonly(
       "contact", [](const Contact2dSample& s) { return s.as<Contact2d>().reading(); },
       "ubot.ContactReading of the last step (a copy).")
      .def_property_readonly(
          "force_scale",
          [](const Contact2dSample& s) { return s.as<Contact2d>().params().force_scale; })
      .def_property_readonly(
          "color", [](const Contact2dSample& s) { return s.as<Contact2d>().params().color; });
}

}  // namespace

py::object sensor_sample(const std::shared_ptr<SimHandle>& sim, int id, const std::string& name) {
  const std::size_t index = sim->sensor_index(id, name);
  const SampleRef ref{sim, index};
  return visit_sensor(*sim->sim().sensors()[index],
                      Overloaded{
                          [&](const Lidar2d&) { return py::cast(Lidar2dSample{ref}); },
                          [&](const Lidar3d&) { return py::cast(Lidar3dSample{ref}); },
                          [&](const Imu&) { return py::cast(ImuSampleRef{ref}); },
                          [&](const Camera&) { return py::cast(CameraSample{ref}); },
                          [&](const Contact2d&) { return py::cast(Contact2dSample{ref}); },
                      });
}

void bind_sensors(py::module_& m) {
  bind_lidar2d(m);
  bind_lidar3d(m);
  bind_camera(m);
  bind_imu(m);
  bind_contact2d(m);
}

}  // namespace ubot::python
