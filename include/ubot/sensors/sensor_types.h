#pragma once
// The one list of sensor types: registering a type is its X(...) line here. Each type lives in
// its own folder (docs/architecture.md, "Adding a sensor type"): include/ubot/sensors/<type>/
// holds its class `T`, its parameters `TModel` (<type>_model.h) and the declarations of its sink
// pieces (<type>_sinks.h); src/sensors/<type>/ their definitions, which CMake compiles into the
// library each piece belongs to by its file name (src/CMakeLists.txt).
//
// From this list come SensorModel::params (a std::variant of every TModel), the reader of each
// `type:` name (TModel::kTypeNames), make_sensor (TModel -> T) and SensorRef, which every sink
// visits with one overload per type: a sink that does not have a type's overload does not
// compile.
#include <variant>

// X(class): the sensor classes, in the order of their variant alternatives. The order also
// orders the `type:` names a YAML error lists, and the first type's first name is the default
// `type:` (IR-SIM's lidar2d).
#define UBOT_SENSOR_TYPES(X) \
  X(Lidar2d)                 \
  X(Lidar3d)                 \
  X(Imu)                     \
  X(Camera)                  \
  X(Contact2d)

namespace ubot {

#define UBOT_DECLARE_SENSOR_CLASS(T) class T;
UBOT_SENSOR_TYPES(UBOT_DECLARE_SENSOR_CLASS)
#undef UBOT_DECLARE_SENSOR_CLASS

namespace detail {
// std::variant<const T*...> of every T after the first (the list below starts with a `void`
// so that each X(...) line can add ", T").
template <class Void, class... T>
using SensorRefOf = std::variant<const T*...>;
}  // namespace detail

// A sensor as its concrete type (never null). Sensor::ref() returns it: no cast anywhere.
#define UBOT_SENSOR_POINTER(T) , T
using SensorRef = detail::SensorRefOf<void UBOT_SENSOR_TYPES(UBOT_SENSOR_POINTER)>;
#undef UBOT_SENSOR_POINTER

class Sensor;
// Calls f(const T&) with the sensor as its concrete type T; f must accept every listed type.
template <class F>
decltype(auto) visit_sensor(const Sensor& sensor, F&& f);

// Overload set for visit_sensor: visit_sensor(s, Overloaded{[](const Lidar2d&) {...}, ...}).
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace ubot
