#include "mesh_reader.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <filesystem>

#include "ubot/core/error.h"

namespace ubot::config {

std::shared_ptr<TriangleMesh> read_mesh_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw Error(fmt::format("{}: no such mesh file", path));
  }
  Assimp::Importer importer;
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_DropNormals | aiProcess_Triangulate |
                                  aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices |
                                  aiProcess_SortByPType | aiProcess_ValidateDataStructure);
  if (scene == nullptr) {
    throw Error(fmt::format("{}: cannot read the mesh: {}", path, importer.GetErrorString()));
  }
  auto mesh = std::make_shared<TriangleMesh>();
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& in = *scene->mMeshes[m];
    const auto base = static_cast<std::uint32_t>(mesh->vertices.size());
    for (unsigned v = 0; v < in.mNumVertices; ++v) {
      const aiVector3D& p = in.mVertices[v];
      mesh->vertices.emplace_back(p.x, p.y, p.z);
      if (!mesh->vertices.back().allFinite()) {
        throw Error(fmt::format("{}: vertex {} of mesh {} is not finite", path, v, m));
      }
    }
    for (unsigned f = 0; f < in.mNumFaces; ++f) {
      const aiFace& face = in.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      mesh->triangles.push_back(
          {base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
    }
  }
  if (mesh->triangles.empty()) throw Error(fmt::format("{}: the file holds no triangle", path));
  return mesh;
}

}  // namespace ubot::config
