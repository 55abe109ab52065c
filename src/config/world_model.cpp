#include "ubot/config/world_model.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "ubot/core/random.h"

namespace ubot {

const char* role_name(Role role) { return role == Role::kRobot ? "robot" : "obstacle"; }

const char* shape_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kCircle:
      return "circle";
    case ShapeKind::kRectangle:
      return "rectangle";
    case ShapeKind::kPolygon:
      return "polygon";
    case ShapeKind::kLinestring:
      return "linestring";
  }
  return "?";
}

const char* solid_name(SolidKind kind) {
  switch (kind) {
    case SolidKind::kBox:
      return "box";
    case SolidKind::kSphere:
      return "sphere";
    case SolidKind::kCylinder:
      return "cylinder";
    case SolidKind::kMesh:
      return "mesh";
  }
  return "?";
}

double SolidModel::bottom() const {
  return kind == SolidKind::kMesh && mesh ? mesh->min().z() : 0.0;
}

double SolidModel::top() const {
  switch (kind) {
    case SolidKind::kBox:
      return size.z();
    case SolidKind::kSphere:
      return 2.0 * radius;
    case SolidKind::kCylinder:
      return height;
    case SolidKind::kMesh:
      return mesh ? mesh->max().z() : 0.0;
  }
  return 0.0;
}

const char* kinematics_name(KinematicsKind kind) {
  switch (kind) {
    case KinematicsKind::kNone:
      return "static";
    case KinematicsKind::kDiff:
      return "diff";
    case KinematicsKind::kOmni:
      return "omni";
    case KinematicsKind::kOmniAngular:
      return "omni_angular";
    case KinematicsKind::kAcker:
      return "acker";
  }
  return "?";
}

std::optional<KinematicsKind> kinematics_from_name(std::string_view name) {
  for (KinematicsKind kind : kKinematicsKinds) {
    if (name == kinematics_name(kind)) return kind;
  }
  return std::nullopt;
}

const char* collision_mode_name(CollisionMode mode) {
  switch (mode) {
    case CollisionMode::kStop:
      return "stop";
    case CollisionMode::kUnobstructed:
      return "unobstructed";
    case CollisionMode::kUnobstructedObstacles:
      return "unobstructed_obstacles";
    case CollisionMode::kReactive:
      return "reactive";
    case CollisionMode::kContact:
      return "contact";
  }
  return "?";
}

const char* SensorModel::type_name() const {
  return std::visit([](const auto& p) { return p.type_name(); }, params);
}

ShapeModel::Circle ShapeModel::bounding_circle() const {
  if (kind == ShapeKind::kCircle) return {center, radius};
  // The smallest enclosing circle of a vertex set (Welzl's algorithm, iterative form, which is
  // exact and fast for the handful of vertices shapes have).
  auto contains = [](const Circle& k, const Eigen::Vector2d& p) {
    return (p - k.center).norm() <= k.radius * (1.0 + 1e-12) + 1e-12;
  };
  auto from2 = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return Circle{(a + b) / 2.0, (a - b).norm() / 2.0};
  };
  auto from3 = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
    const Eigen::Vector2d ab = b - a, ac = c - a;
    const double d = 2.0 * (ab.x() * ac.y() - ab.y() * ac.x());
    if (std::abs(d) < 1e-300) {  // collinear: the widest pair
      Circle k = from2(a, b);
      for (const Circle& o : {from2(a, c), from2(b, c)}) k = o.radius > k.radius ? o : k;
      return k;
    }
    const Eigen::Vector2d u((ac.y() * ab.squaredNorm() - ab.y() * ac.squaredNorm()) / d,
                            (ab.x() * ac.squaredNorm() - ac.x() * ab.squaredNorm()) / d);
    return Circle{a + u, u.norm()};
  };
  if (vertices.empty()) return {};
  // Welzl's algorithm takes expected linear time only in a random order: in a polygon's own
  // order (the vertices of a circle, one after another) it is cubic, and 200 000 vertices took
  // 16 s (issue 27). Shapes past a handful of vertices are visited in a fixed pseudo-random
  // order, so the result is the same on every run and machine; the smallest circle is unique,
  // and below the threshold the order (and every bit of an existing world's result) is kept.
  constexpr std::size_t kShuffleAbove = 64;
  std::vector<Eigen::Vector2d> shuffled;
  if (vertices.size() > kShuffleAbove) {
    shuffled = vertices;
    Xoshiro256pp order(0x5eed'c1c1e);
    for (std::size_t i = shuffled.size() - 1; i > 0; --i) {
      std::swap(shuffled[i], shuffled[order() % (i + 1)]);
    }
  }
  const std::vector<Eigen::Vector2d>& p = shuffled.empty() ? vertices : shuffled;
  Circle k{p[0], 0.0};
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (contains(k, p[i])) continue;
    k = Circle{p[i], 0.0};
    for (std::size_t j = 0; j < i; ++j) {
      if (contains(k, p[j])) continue;
      k = from2(p[i], p[j]);
      for (std::size_t m = 0; m < j; ++m) {
        if (!contains(k, p[m])) k = from3(p[i], p[j], p[m]);
      }
    }
  }
  return k;
}

}  // namespace ubot
