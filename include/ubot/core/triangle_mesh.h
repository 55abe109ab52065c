#pragma once
// A triangle mesh in its own frame (metres): what a world file's `mesh` shape loads and what the
// scene ray-casts. Plain data, shared (immutable) between the world model and the scene.
#include <array>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace ubot {

struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // indices into vertices

  // Axis-aligned bounds of the vertices (min, max); both zero for an empty mesh.
  Eigen::Vector3d min() const;
  Eigen::Vector3d max() const;
};

// Convex hull of the vertices projected on the xy plane, counter-clockwise, without collinear
// points (Andrew's monotone chain). Fewer than 3 points when the projection has no area.
std::vector<Eigen::Vector2d> xy_convex_hull(const std::vector<Eigen::Vector3d>& points);

}  // namespace ubot
