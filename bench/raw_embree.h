#pragma once
// Raw Embree on ubot's 2D geometry, the baseline ubot's scans are measured against
// (bench/scene_bench.cpp, bench/fleet_rays.cpp): every polygon or polyline edge a plain quad,
// circles as 32-gon prisms, all in one float quad geometry, no filter and no user geometry, so
// nothing exact is computed. Horizontal fans from one origin, traced one ray at a time or in
// 16-wide packets; self-exclusion is the caller's tnear (start rays just outside the own body).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "../src/scene/embree_api.h"
#include "../src/scene/embree_device.h"
#include "ubot/scene/scene.h"

namespace ubot::scene {

class RawEmbree {
 public:
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

 private:
  RTCDevice device_;
  RTCScene scene_;
  std::size_t quads_ = 0;
};

}  // namespace ubot::scene
