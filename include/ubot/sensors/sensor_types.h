#pragma once
// The one list of sensor types. Every sink reaches a sensor's concrete type through
// visit_sensor() (a std::variant of pointers, one per type listed here), so a sink that forgets a
// type does not compile: adding a sensor type is one X(...) line here plus the type's own files
// (docs/architecture.md, "Adding a sensor type").
#include <variant>

// X(class): the sensor classes, in the order of their variant alternatives.
#define UBOT_SENSOR_TYPES(X) \
  X(Lidar2d)                 \
  X(Imu)                     \
  X(Lidar3d)                 \
  X(Camera)

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
