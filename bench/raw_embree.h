#pragma once
// Raw Embree on ubot's 2D geometry, the baseline ubot's scans are measured against
// (bench/scene_bench.cpp, bench/fleet_rays.cpp): every polygon or polyline edge a plain quad,
// circles as 32-gon prisms, all in one float quad geometry, no filter and no user geometry, so
// nothing exact is computed. Horizontal fans from one origin, traced one ray at a time or in
// 16-wide packets; self-exclusion is the caller's tnear (start rays just outside the own body).
// In 3D (the `Raw3d` constructor, bench/camera_bench.cpp): each body's walls span its own
// z_min..z_max, closed shapes get top and bottom caps (fan-triangulated: convex shapes), and a
// ground quad stands for Scene::set_ground; general rays are traced one at a time, in 16-wide
// packets, or in packets of the device's native width.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "../src/scene/embree_api.h"
#include "../src/scene/embree_device.h"
#include "ubot/scene/scene.h"

namespace ubot::scene {

// RawEmbree's 3D form: walls and caps at each body's own heights, and the ground's height.
struct Raw3d {
  std::optional<double> ground_z;
};

class RawEmbree {
 public:
  RawEmbree(std::span<const BodyGeometry> bodies, const Raw3d& three_d) {
    device_ = internal::new_embree_device();  // honours UBOT_EMBREE_CONFIG
    scene_ = rtcNewScene(device_);
    std::vector<float> quads, triangles;
    auto put = [](std::vector<float>& v, double x, double y, double z) {
      v.insert(v.end(), {float(x), float(y), float(z)});
    };
    for (const BodyGeometry& g : bodies) {
      const std::vector<Eigen::Vector2d> ring = ring_of(g);
      const bool closed = g.kind != ShapeKind::kPolyline;
      const std::size_t n = ring.size();
      for (std::size_t k = 0; k + (closed ? 0 : 1) < n; ++k) {
        const Eigen::Vector2d &a = ring[k], &b = ring[(k + 1) % n];
        put(quads, a.x(), a.y(), g.z_min);
        put(quads, b.x(), b.y(), g.z_min);
        put(quads, b.x(), b.y(), g.z_max);
        put(quads, a.x(), a.y(), g.z_max);
      }
      if (!closed) continue;
      for (const double z : {g.z_min, g.z_max}) {
        for (std::size_t k = 1; k + 1 < n; ++k) {
          for (const std::size_t i : {std::size_t{0}, k, k + 1}) {
            put(triangles, ring[i].x(), ring[i].y(), z);
          }
        }
      }
    }
    if (three_d.ground_z) {
      constexpr double kHalf = 1.0e6;  // as Scene::set_ground's bounds
      const double z = *three_d.ground_z;
      for (const auto& [x, y] :
           {std::pair{-kHalf, -kHalf}, {kHalf, -kHalf}, {kHalf, kHalf}, {-kHalf, kHalf}}) {
        put(quads, x, y, z);
      }
    }
    quads_ = quads.size() / 12;
    attach(RTC_GEOMETRY_TYPE_QUAD, quads, 4);
    attach(RTC_GEOMETRY_TYPE_TRIANGLE, triangles, 3);
    rtcCommitScene(scene_);
  }

  explicit RawEmbree(std::span<const BodyGeometry> bodies) {
    device_ = internal::new_embree_device();  // honours UBOT_EMBREE_CONFIG
    scene_ = rtcNewScene(device_);
    std::vector<float> v;
    auto wall = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
      for (const auto& [p, z] : {std::pair{a, -1e4}, {b, -1e4}, {b, 1e4}, {a, 1e4}}) {
        v.insert(v.end(), {float(p.x()), float(p.y()), float(z)});
      }
    };
    for (const BodyGeometry& g : bodies) {
      std::vector<Eigen::Vector2d> ring = g.vertices;
      if (g.kind == ShapeKind::kCircle) {
        for (int k = 0; k < 32; ++k) {
          const double a = 2 * std::numbers::pi * k / 32;
          ring.push_back(g.center + g.radius * Eigen::Vector2d(std::cos(a), std::sin(a)));
        }
      }
      const bool closed = g.kind != ShapeKind::kPolyline;
      const std::size_t n = ring.size();
      for (std::size_t k = 0; k + (closed ? 0 : 1) < n; ++k) wall(ring[k], ring[(k + 1) % n]);
    }
    quads_ = v.size() / 12;
    RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_QUAD);
    auto* vb = static_cast<float*>(
        rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, 4 * quads_));
    std::copy(v.begin(), v.end(), vb);
    auto* ib = static_cast<unsigned*>(
        rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT4, 16, quads_));
    for (unsigned i = 0; i < 4 * quads_; ++i) ib[i] = i;
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene_, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene_);
  }
  ~RawEmbree() {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }
  RawEmbree(const RawEmbree&) = delete;
  RawEmbree& operator=(const RawEmbree&) = delete;

  std::size_t quads() const { return quads_; }

  // Returns the number of hits (to keep the work observable).
  int fan1(const Eigen::Vector2d& o, std::span<const double> yaws, float tnear, float tfar) const {
    internal::rtc::QueryContext ctx;
    internal::rtc::init(&ctx);
    const auto flags = internal::rtc::kIncoherent;
    int hits = 0;
    for (double yaw : yaws) {
      RTCRayHit rh{};
      rh.ray = {
          float(o.x()), float(o.y()), 0, tnear, float(std::cos(yaw)), float(std::sin(yaw)), 0, 0,
          tfar,         ~0u,          0, 0};
      rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
      internal::rtc::intersect1(scene_, &ctx, flags, &rh);
      hits += rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

  int fan16(const Eigen::Vector2d& o, std::span<const double> yaws, float tnear, float tfar) const {
    internal::rtc::QueryContext ctx;
    internal::rtc::init(&ctx);
    const auto flags = internal::rtc::kCoherent;
    int hits = 0;
    for (std::size_t base = 0; base < yaws.size(); base += 16) {
      alignas(64) RTCRayHit16 rh;
      alignas(64) int valid[16];
      for (int i = 0; i < 16; ++i) {
        valid[i] = base + i < yaws.size() ? -1 : 0;
        const double yaw = valid[i] ? yaws[base + i] : 0.0;
        rh.ray.org_x[i] = float(o.x());
        rh.ray.org_y[i] = float(o.y());
        rh.ray.org_z[i] = 0;
        rh.ray.dir_x[i] = float(std::cos(yaw));
        rh.ray.dir_y[i] = float(std::sin(yaw));
        rh.ray.dir_z[i] = 0;
        rh.ray.tnear[i] = tnear;
        // Unused lanes inactive for every ISA: without 16-wide kernels Embree ignores `valid`.
        rh.ray.tfar[i] = valid[i] ? tfar : -std::numeric_limits<float>::infinity();
        rh.ray.time[i] = 0;
        rh.ray.mask[i] = ~0u;
        rh.ray.id[i] = i;
        rh.ray.flags[i] = 0;
        rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
      }
      internal::rtc::intersect16(valid, scene_, &ctx, flags, &rh);
      for (int i = 0; i < 16; ++i) hits += valid[i] && rh.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

  // General rays (3D), one at a time: the number of hits.
  int rays1(std::span<const Ray> rays) const {
    internal::rtc::QueryContext ctx;
    internal::rtc::init(&ctx);
    int hits = 0;
    for (const Ray& r : rays) {
      RTCRayHit rh{};
      rh.ray = {float(r.origin.x()),
                float(r.origin.y()),
                float(r.origin.z()),
                0.0f,
                float(r.direction.x()),
                float(r.direction.y()),
                float(r.direction.z()),
                0.0f,
                float(r.max_distance),
                ~0u,
                0,
                0};
      rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
      internal::rtc::intersect1(scene_, &ctx, internal::rtc::kCoherent, &rh);
      hits += rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

  // General rays in coherent packets of `width` consecutive rays (4, 8 or 16; 0: the device's
  // native width): the number of hits.
  int packets(std::span<const Ray> rays, int width = 16) const {
    if (width == 0) width = internal::native_packet_width(device_);
    internal::rtc::QueryContext ctx;
    internal::rtc::init(&ctx);
    int hits = 0;
    alignas(64) RTCRayHit16 rh;
    alignas(64) int valid[16];
    for (std::size_t base = 0; base < rays.size(); base += width) {
      for (int i = 0; i < width; ++i) {
        valid[i] = base + i < rays.size() ? -1 : 0;
        const Ray& r = rays[valid[i] ? base + i : base];
        rh.ray.org_x[i] = float(r.origin.x());
        rh.ray.org_y[i] = float(r.origin.y());
        rh.ray.org_z[i] = float(r.origin.z());
        rh.ray.dir_x[i] = float(r.direction.x());
        rh.ray.dir_y[i] = float(r.direction.y());
        rh.ray.dir_z[i] = float(r.direction.z());
        rh.ray.tnear[i] = 0;
        rh.ray.tfar[i] = valid[i] ? float(r.max_distance) : -std::numeric_limits<float>::infinity();
        rh.ray.time[i] = 0;
        rh.ray.mask[i] = ~0u;
        rh.ray.id[i] = i;
        rh.ray.flags[i] = 0;
        rh.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
      }
      hits += trace(valid, &rh, width);
    }
    return hits;
  }

 private:
  // Traces the first `width` lanes of `rh` (an RTCRayHit16 laid out for that width: the
  // RTCRayHit4 / 8 structs are the same fields, `width` floats each).
  int trace(const int* valid, RTCRayHit16* rh, int width) const {
    internal::rtc::QueryContext ctx;
    internal::rtc::init(&ctx);
    const auto flags = internal::rtc::kCoherent;
    int hits = 0;
    if (width == 16) {
      internal::rtc::intersect16(valid, scene_, &ctx, flags, rh);
      for (int i = 0; i < 16; ++i) hits += valid[i] && rh->hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
      return hits;
    }
    // Repack into the narrower layout.
    alignas(64) RTCRayHit8 p8;
    alignas(32) RTCRayHit4 p4;
    auto pack = [&](auto& p) {
      for (int i = 0; i < width; ++i) {
        p.ray.org_x[i] = rh->ray.org_x[i];
        p.ray.org_y[i] = rh->ray.org_y[i];
        p.ray.org_z[i] = rh->ray.org_z[i];
        p.ray.dir_x[i] = rh->ray.dir_x[i];
        p.ray.dir_y[i] = rh->ray.dir_y[i];
        p.ray.dir_z[i] = rh->ray.dir_z[i];
        p.ray.tnear[i] = rh->ray.tnear[i];
        p.ray.tfar[i] = rh->ray.tfar[i];
        p.ray.time[i] = 0;
        p.ray.mask[i] = ~0u;
        p.ray.id[i] = i;
        p.ray.flags[i] = 0;
        p.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
      }
    };
    if (width == 8) {
      pack(p8);
      internal::rtc::intersect8(valid, scene_, &ctx, flags, &p8);
      for (int i = 0; i < 8; ++i) hits += valid[i] && p8.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
    } else {
      pack(p4);
      internal::rtc::intersect4(valid, scene_, &ctx, flags, &p4);
      for (int i = 0; i < 4; ++i) hits += valid[i] && p4.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID;
    }
    return hits;
  }

  static std::vector<Eigen::Vector2d> ring_of(const BodyGeometry& g) {
    std::vector<Eigen::Vector2d> ring = g.vertices;
    if (g.kind == ShapeKind::kCircle) {
      for (int k = 0; k < 32; ++k) {
        const double a = 2 * std::numbers::pi * k / 32;
        ring.push_back(g.center + g.radius * Eigen::Vector2d(std::cos(a), std::sin(a)));
      }
    }
    return ring;
  }

  void attach(RTCGeometryType type, const std::vector<float>& v, unsigned corners) {
    const std::size_t prims = v.size() / (3 * corners);
    if (prims == 0) return;
    RTCGeometry g = rtcNewGeometry(device_, type);
    auto* vb = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0,
                                                           RTC_FORMAT_FLOAT3, 12, corners * prims));
    std::copy(v.begin(), v.end(), vb);
    auto* ib = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
        g, RTC_BUFFER_TYPE_INDEX, 0, corners == 4 ? RTC_FORMAT_UINT4 : RTC_FORMAT_UINT3,
        4 * corners, prims));
    for (unsigned i = 0; i < corners * prims; ++i) ib[i] = i;
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene_, g);
    rtcReleaseGeometry(g);
  }

  RTCDevice device_;
  RTCScene scene_;
  std::size_t quads_ = 0;
};

}  // namespace ubot::scene
