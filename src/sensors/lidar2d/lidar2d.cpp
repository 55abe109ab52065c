#include "ubot/sensors/lidar2d/lidar2d.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>

#include "ubot/core/angles.h"
#include "ubot/core/state_io.h"
#include "ubot/scene/scene.h"
#include "ubot/world/world.h"

namespace ubot {
namespace {

constexpr double kFullCircle = 2.0 * std::numbers::pi;

// One table per beam pattern in the process: a VectorEnv's thousand copies of a lidar share
// it instead of each holding its own (immutable, so sharing changes nothing but memory).
std::shared_ptr<const scene::FanTable> shared_fan_table(double angle_range, int number) {
  if (!std::isfinite(angle_range)) {  // not a map key; the table refuses it
    return std::make_shared<const scene::FanTable>(scan_angles(angle_range, number));
  }
  static std::mutex mutex;
  static std::map<std::pair<double, int>, std::weak_ptr<const scene::FanTable>> tables;
  const std::lock_guard<std::mutex> lock(mutex);
  std::weak_ptr<const scene::FanTable>& slot = tables[{angle_range, number}];
  std::shared_ptr<const scene::FanTable> table = slot.lock();
  if (!table) {
    table = std::make_shared<const scene::FanTable>(scan_angles(angle_range, number));
    slot = table;
  }
  return table;
}

}  // namespace

Lidar2d::Lidar2d(const SensorModel& model, const ObjectModel& owner, int index,
                 std::uint64_t world_seed)
    : Sensor(model, owner, index, world_seed),
      params_(std::get<Lidar2dModel>(model.params)),
      fan_(shared_fan_table(params_.angle_range, params_.number)) {
  const std::size_t n = fan_->size();
  scan_.ranges.assign(n, params_.range_max);
  scan_.valid.assign(n, 0);
  scan_.hit.assign(n, 0);
  scan_.intensities.assign(n, 0.0f);
  scan_.hit_object.assign(n, -1);
  scan_.hit_medium.assign(n, -1);
  if (params_.fmcw) scan_.radial_velocity.assign(n, 0.0);
  if (params_.has_velocity) scan_.velocity.assign(n, Eigen::Vector2d::Zero());
}

Lidar2d::Buffers& Lidar2d::buffers() {
  thread_local Buffers buffers;  // a sample runs start to end on one thread
  return buffers;
}

double Lidar2d::angle_increment() const {
  const std::size_t n = fan_->size();
  if (n < 2) return 0.0;
  if (is_full_circle(params_.angle_range)) return kFullCircle / n;
  return params_.angle_range / (n - 1);
}

SampleStatus Lidar2d::measure(const SensorContext& ctx) {
  const ObjectState& owner = ctx.world.object(object_id());
  // Sensor pose: the offset is in the body frame, about the object's state point.
  const double x = owner.state[0], y = owner.state[1], yaw = owner.state[2];
  const double c = std::cos(yaw), s = std::sin(yaw);
  const Eigen::Vector3d pose(c * params_.offset.x() - s * params_.offset.y() + x,
                             s * params_.offset.x() + c * params_.offset.y() + y,
                             wrap_to_pi(params_.offset.z() + yaw));
  scan_.origin = pose;
  scan_.z = ctx.world.base_z(object_id()) + params_.z;  // follows a trajectory
  cast(ctx, pose);
  cut_by_media(ctx, pose);
  fill_ranges();
  if (params_.fmcw) fill_radial_velocity(ctx, pose);
  if (params_.has_velocity) fill_hit_velocity(ctx);
  return SampleStatus::kValid;
}

void Lidar2d::cast(const SensorContext& ctx, const Eigen::Vector3d& pose) {
  Buffers& buf = buffers();
  const std::size_t n = fan_->size();
  buf.heading = scene::FanTable::heading(pose.z());
  buf.noisy_yaws = model().common.noise && params_.angle_std > 0.0;
  buf.have_yaws = false;
  buf.hits.resize(n);
  buf.hit_beams.resize((n + 63) / 64);
  buf.hits_dense = false;
  const Eigen::Vector3d origin(pose.x(), pose.y(), scan_.z);
  if (!buf.noisy_yaws) {
    ctx.scene.cast_fan_hits(origin, pose.z(), *fan_, params_.range_max, object_id(), buf.hits,
                            buf.hit_beams);
    return;
  }
  buf.yaws.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    buf.yaws[i] = pose.z() + fan_->angles()[i] + rng().gaussian(params_.angle_std);
  }
  buf.have_yaws = true;
  ctx.scene.cast_fan_hits(origin, buf.yaws, params_.range_max, object_id(), buf.hits,
                          buf.hit_beams);
}

const std::vector<scene::RayHit>& Lidar2d::dense_hits() {
  Buffers& buf = buffers();
  if (!buf.hits_dense) {
    for (std::size_t i = 0; i < buf.hits.size(); ++i) {
      if (!(buf.hit_beams[i / 64] >> (i % 64) & 1)) buf.hits[i] = scene::RayHit{};
    }
    buf.hits_dense = true;
  }
  return buf.hits;
}

std::span<const double> Lidar2d::beam_yaws() {
  Buffers& buf = buffers();
  if (!buf.have_yaws) {
    const std::size_t n = fan_->size();
    buf.yaws.resize(n);
    for (std::size_t i = 0; i < n; ++i) buf.yaws[i] = buf.heading.yaw + fan_->angles()[i];
    buf.have_yaws = true;
  }
  return buf.yaws;
}

Eigen::Vector2d Lidar2d::beam_direction(std::size_t i) {
  const Buffers& buf = buffers();
  if (buf.noisy_yaws) return {std::cos(buf.yaws[i]), std::sin(buf.yaws[i])};
  return {fan_->dx(buf.heading, i), fan_->dy(buf.heading, i)};
}

void Lidar2d::cut_by_media(const SensorContext& ctx, const Eigen::Vector3d& pose) {
  Buffers& buf = buffers();
  const std::size_t n = fan_->size();
  const Eigen::Vector3d origin(pose.x(), pose.y(), scan_.z);
  buf.media = media::MediaView(ctx.media, model().common.smoke, origin, params_.range_max);
  if (buf.media.empty()) return;  // fill_ranges() then reads no cell
  // Both rewritten by fan_entry_distances.
  buf.media_distance.resize(n);
  buf.media_cell.resize(n);
  // Only smoke in front of the surface a beam hits can cut it.
  const std::vector<scene::RayHit>& hits = dense_hits();
  buf.surface_distance.resize(n);
  for (std::size_t i = 0; i < n; ++i) buf.surface_distance[i] = hits[i].distance;
  // How far the (possibly noisy) beam yaws stray from the nominal grid the culling works on.
  const std::span<const double> yaws = beam_yaws();
  const double first = pose.z() + angles()[0], step = angle_increment();
  double jitter = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    jitter = std::max(jitter, std::abs(yaws[i] - (first + static_cast<double>(i) * step)));
  }
  buf.media.fan_entry_distances({.origin = origin,
                                 .yaws = yaws,
                                 .first_yaw = first,
                                 .step = step,
                                 .jitter = jitter,
                                 .max_distance = params_.range_max,
                                 .limits = buf.surface_distance},
                                buf.media_distance, buf.media_cell);
}

Lidar2d::Reading Lidar2d::read_return(double distance, bool noisy) {
  const double range_min = params_.range_min, range_max = params_.range_max;
  if (distance < range_min) return {range_min, true, false};  // blind zone: blocked, unmeasured
  const double range = distance + (noisy ? rng().gaussian(params_.std) : 0.0);
  if (range > range_max) return {range_max, false, false};  // noise pushed it out: a miss
  return {std::max(range, range_min), true, true};
}

void Lidar2d::fill_ranges() {
  if (!buffers().media.empty()) {
    fill_ranges_in_media();
    return;
  }
  const Buffers& buf = buffers();
  const bool noisy = model().common.noise && params_.std > 0.0;
  // Raw pointers: the valid / hit stores are uint8_t, which may alias anything, so through the
  // vectors the compiler would reload every data pointer each beam.
  const std::size_t n = fan_->size();
  const scene::RayHit* hits = buf.hits.data();
  double* ranges = scan_.ranges.data();
  std::uint8_t* hit_out = scan_.hit.data();
  std::uint8_t* valid_out = scan_.valid.data();
  float* intensities = scan_.intensities.data();
  int* hit_object = scan_.hit_object.data();
  std::fill_n(ranges, n, params_.range_max);
  std::fill_n(hit_out, n, 0);
  std::fill_n(valid_out, n, 0);
  std::fill_n(intensities, n, 0.0f);
  std::fill_n(hit_object, n, -1);
  std::fill(scan_.hit_medium.begin(), scan_.hit_medium.end(), -1);
  // The hits in beam order, so that the noise is drawn as the dense loop draws it.
  for (std::size_t w = 0; w < buf.hit_beams.size(); ++w) {
    for (std::uint64_t bits = buf.hit_beams[w]; bits != 0; bits &= bits - 1) {
      const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      const Reading r = read_return(hits[i].distance, noisy);
      ranges[i] = r.range;
      hit_out[i] = r.hit;
      valid_out[i] = r.valid;
      intensities[i] = r.valid ? 1.0f : 0.0f;
      hit_object[i] = r.hit ? hits[i].user_id : -1;
    }
  }
}

void Lidar2d::fill_ranges_in_media() {
  const Buffers& buf = buffers();
  const bool noisy = model().common.noise && params_.std > 0.0;
  const std::size_t n = fan_->size();
  const scene::RayHit* hits = dense_hits().data();
  const double* media_distance = buf.media_distance.data();
  const int* media_cell = buf.media_cell.data();
  double* ranges = scan_.ranges.data();
  std::uint8_t* hit_out = scan_.hit.data();
  std::uint8_t* valid_out = scan_.valid.data();
  float* intensities = scan_.intensities.data();
  int* hit_object = scan_.hit_object.data();
  int* hit_medium = scan_.hit_medium.data();
  for (std::size_t i = 0; i < n; ++i) {
    const scene::RayHit& h = hits[i];
    // A medium entered no farther than the surface wins (smoke in front of a wall, or at it).
    const bool medium = media_cell[i] >= 0 && media_distance[i] <= h.distance;
    const Reading r = medium || h.hit()
                          ? read_return(medium ? media_distance[i] : h.distance, noisy)
                          : Reading{params_.range_max, false, false};
    ranges[i] = r.range;
    hit_out[i] = r.hit;
    valid_out[i] = r.valid;
    intensities[i] = r.valid && !medium ? 1.0f : 0.0f;
    hit_object[i] = r.hit && !medium ? h.user_id : -1;
    hit_medium[i] = r.hit && medium ? buf.media.cells()[media_cell[i]].snapshot : -1;
  }
}

void Lidar2d::fill_radial_velocity(const SensorContext& ctx, const Eigen::Vector3d& pose) {
  const Buffers& buf = buffers();
  // Velocity of a point p rigidly attached to object id: v + w x (p - position).
  auto point_velocity = [&](int id, const Eigen::Vector2d& p) {
    const ObjectState& s = ctx.world.object(id);
    const Eigen::Vector2d v = ctx.world.velocity_xy(id);
    const double w = ctx.world.angular_velocity(id);
    const Eigen::Vector2d r = p - Eigen::Vector2d(s.state[0], s.state[1]);
    return Eigen::Vector2d(v.x() - w * r.y(), v.y() + w * r.x());
  };
  const Eigen::Vector2d origin(pose.x(), pose.y());
  const Eigen::Vector2d v_sensor = point_velocity(object_id(), origin);
  // IR-SIM adds velocity noise whenever velocity_noise_std > 0, whatever `noise` says.
  const bool noisy = params_.velocity_noise_std > 0.0;
  for (std::size_t i = 0; i < angles().size(); ++i) {
    if (!scan_.valid[i]) {
      scan_.radial_velocity[i] = 0.0;
      continue;
    }
    const Eigen::Vector2d dir = beam_direction(i);
    Eigen::Vector2d v_rel;
    if (scan_.hit_medium[i] >= 0) {
      // A medium moves as its cell says (still smoke: 0), like a surface of that velocity.
      const media::MediaView::Cell& c = buf.media.cells()[buf.media_cell[i]];
      v_rel = ctx.media[c.snapshot].cells[c.index].velocity.head<2>();
    } else {
      v_rel = point_velocity(scan_.hit_object[i], origin + scan_.ranges[i] * dir);
    }
    if (!params_.motion_compensate) v_rel -= v_sensor;
    scan_.radial_velocity[i] =
        v_rel.dot(dir) + (noisy ? rng().gaussian(params_.velocity_noise_std) : 0.0);
  }
}

void Lidar2d::fill_hit_velocity(const SensorContext& ctx) {
  const std::vector<scene::RayHit>& hits = dense_hits();
  // IR-SIM assigns a velocity to every beam whose ray met an object, whatever noise then did to
  // its range; a beam cut by a medium met no object.
  for (std::size_t i = 0; i < angles().size(); ++i) {
    const scene::RayHit& h = hits[i];
    const int id = h.hit() && scan_.hit_medium[i] < 0 ? h.user_id : -1;
    scan_.velocity[i] = id >= 0 ? ctx.world.velocity_xy(id) : Eigen::Vector2d::Zero();
  }
}

double Lidar2d::range(std::size_t i, bool* hit) const {
  if (hit) *hit = scan_.hit[i];
  return scan_.ranges[i];
}

std::vector<Eigen::Vector2d> Lidar2d::points() const {
  std::vector<Eigen::Vector2d> points;
  for (std::size_t i = 0; i < angles().size(); ++i) {
    if (scan_.valid[i]) {
      points.emplace_back(scan_.ranges[i] * std::cos(angles()[i]),
                          scan_.ranges[i] * std::sin(angles()[i]));
    }
  }
  return points;
}

LaserScanMessage Lidar2d::to_message(bool use_inf) const {
  LaserScanMessage m;
  m.angle_min = static_cast<float>(angles().front());
  m.angle_max = static_cast<float>(angles().back());
  m.angle_increment = static_cast<float>(angle_increment());
  m.scan_time = static_cast<float>(params_.scan_time);
  m.time_increment = angles().size() > 1
                         ? static_cast<float>(params_.scan_time * params_.angle_range /
                                              kFullCircle / angles().size())
                         : 0.0f;
  m.range_min = static_cast<float>(params_.range_min);
  m.range_max = static_cast<float>(params_.range_max);
  m.ranges.resize(angles().size());
  for (std::size_t i = 0; i < angles().size(); ++i) {
    double r = scan_.ranges[i];
    if (use_inf && !scan_.valid[i]) {
      r = scan_.hit[i] ? -std::numeric_limits<double>::infinity()
                       : std::numeric_limits<double>::infinity();
    }
    m.ranges[i] = static_cast<float>(r);
  }
  m.intensities = scan_.intensities;
  return m;
}

void Lidar2d::io_own_state(StateIo& s) {
  LaserScan& l = scan_;
  s.value(l.origin);
  s.value(l.z);
  s.same_size(l.ranges, "beams");
  s.same_size(l.valid, "beams");
  s.same_size(l.hit, "beams");
  s.same_size(l.intensities, "beams");
  s.same_size(l.hit_object, "beams");
  s.same_size(l.hit_medium, "beams");
  if (s.reading()) {
    for (const int id : l.hit_object) {
      if (id < -1 || id >= s.object_count) s.fail("a beam hit an object this world lacks");
    }
    for (const int m : l.hit_medium) {
      if (m < -1 || m >= s.media_count) s.fail("a beam names a medium this step lacks");
    }
  }
  s.same_size(l.radial_velocity, "radial velocities");
  s.same_size(l.velocity, "beam velocities");
}
}  // namespace ubot
