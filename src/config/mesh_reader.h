#pragma once
// Triangle meshes of `mesh` shapes, read with Assimp (OBJ, STL, PLY, DAE, ... by content).
#include <memory>
#include <string>

#include "ubot/core/triangle_mesh.h"

namespace ubot::config {

// The triangles of every mesh in the file, with the file's node transforms applied and polygons
// triangulated (points and lines are left out). Throws ubot::Error "<path>: <reason>" when the
// file cannot be read, is not a mesh Assimp knows, or holds no triangle.
std::shared_ptr<TriangleMesh> read_mesh_file(const std::string& path);

}  // namespace ubot::config
