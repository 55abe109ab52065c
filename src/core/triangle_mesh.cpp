#include "ubot/core/triangle_mesh.h"

#include <algorithm>

namespace ubot {

Eigen::Vector3d TriangleMesh::min() const {
  if (vertices.empty()) return Eigen::Vector3d::Zero();
  Eigen::Vector3d m = vertices.front();
  for (const Eigen::Vector3d& v : vertices) m = m.cwiseMin(v);
  return m;
}

Eigen::Vector3d TriangleMesh::max() const {
  if (vertices.empty()) return Eigen::Vector3d::Zero();
  Eigen::Vector3d m = vertices.front();
  for (const Eigen::Vector3d& v : vertices) m = m.cwiseMax(v);
  return m;
}

std::vector<Eigen::Vector2d> xy_convex_hull(const std::vector<Eigen::Vector3d>& points) {
  std::vector<Eigen::Vector2d> p;
  p.reserve(points.size());
  for (const Eigen::Vector3d& v : points) p.emplace_back(v.x(), v.y());
  std::sort(p.begin(), p.end(), [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 3) return p;
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  std::vector<Eigen::Vector2d> hull(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {  // lower hull
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0.0) --k;
    hull[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {  // upper hull
    while (k >= lower && cross(hull[k - 2], hull[k - 1], p[i]) <= 0.0) --k;
    hull[k++] = p[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

}  // namespace ubot
