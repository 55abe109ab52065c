#include "mesh_reader.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <assimp/DefaultIOSystem.h>
#include <algorithm>
#include <assimp/Importer.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "ubot/core/error.h"
#include "ubot/core/input_files.h"
#include "ubot/core/ply_header.h"

namespace ubot::config {

namespace {

bool is_regular(const char* path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

// The files a mesh refers to (an .obj's .mtl, a .gltf's buffers) are opened by assimp: only
// regular files, so that a FIFO or a device among them cannot block or never end.
class RegularFilesOnly : public Assimp::DefaultIOSystem {
 public:
  bool Exists(const char* file) const override { return is_regular(file); }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    return is_regular(file) ? DefaultIOSystem::Open(file, mode) : nullptr;
  }
};

// A .ply name, or a file starting with "ply" (assimp also picks its importer by content).
bool looks_like_ply(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".ply") return true;
  char magic[3] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, 3) && std::string_view(magic, 3) == "ply";
}

// Debian's assimp 5.2 crashes (SIGSEGV) inside its PLY importer on a malformed header
// (tests/config/data/assimp-5.2-ply-segv.ply): a .ply mesh is only handed to assimp once its
// header passes the shared PLY header reader (text only, known formats and types) and its
// elements fit in the bytes after it (a list counts its length only, the least it can take).
// Then its list lengths are checked against the bytes left: assimp allocates a face list's
// length before it reads it (a 150-byte file with one of 2147483647 items took 12 GB).
// Assimp's PLY importer sizes its vertex and face arrays from the first element of each name
// and writes a second one's records past their end (found by fuzz_mesh: a heap overflow that
// valgrind shows as an invalid write and ASan later as a corrupt heap). A mesh has one element
// of each name; a repeated one is refused.
void refuse_repeated_elements(const PlyHeader& header, const std::string& source) {
  for (std::size_t i = 0; i < header.elements.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (header.elements[j].name == header.elements[i].name) {
        throw Error(fmt::format(
            "{}: header line {}: a second element '{}' (the first is at line "
            "{}); a mesh has one element of each name",
            source, header.elements[i].line, header.elements[i].name, header.elements[j].line));
      }
    }
  }
}

void check_ply_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kMaxPlyHeaderBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const std::string source = path + ": not a valid PLY mesh";
  const PlyHeader header = read_ply_header(head, source);
  refuse_repeated_elements(header, source);
  std::error_code ec;
  const std::uint64_t file = std::filesystem::file_size(path, ec);
  check_ply_body_size(header, file > header.body_offset ? file - header.body_offset : 0);
  if (std::any_of(header.elements.begin(), header.elements.end(),
                  [](const PlyElement& e) { return e.has_list(); })) {
    std::string body(
        static_cast<std::size_t>(file - std::min<std::uint64_t>(file, header.body_offset)), '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(header.body_offset));
    in.read(body.data(), static_cast<std::streamsize>(body.size()));
    body.resize(static_cast<std::size_t>(in.gcount()));
    check_ply_list_lengths(header, body);
  }
}

// Assimp's post-processing trusts the importer's faces, and its validation step checks a
// face's index count only once the scene has primitive types, after it runs: a face without an
// index (a PLY list of length 0) reached the triangulation, whose assertion aborted the process
// (found by fuzz_mesh; tests/config/data/assimp-5.2-ply-empty-face.ply).
void check_faces(const aiScene& scene, const std::string& path) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      if (mesh.mFaces[f].mNumIndices == 0) {
        throw Error(fmt::format("{}: face {} of mesh {} has no vertex", path, f, m));
      }
    }
  }
}

}  // namespace

std::shared_ptr<TriangleMesh> read_mesh_file(const std::string& path) {
  const std::filesystem::file_status status = input_file_status(path, "no such mesh file");
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(
        fmt::format("{}: not a regular file (a directory, device or FIFO), not a mesh", path));
  }
  if (looks_like_ply(path)) check_ply_header(path);
  Assimp::Importer importer;
  importer.SetIOHandler(new RegularFilesOnly);  // the importer owns and deletes it
  // Imported first, post-processed once its faces are checked (what ReadFile with all the flags
  // does, in the same order, with the check in between).
  const aiScene* scene = importer.ReadFile(path, aiProcess_ValidateDataStructure);
  if (scene != nullptr) {
    check_faces(*scene, path);
    scene = importer.ApplyPostProcessing(aiProcess_DropNormals | aiProcess_Triangulate |
                                         aiProcess_JoinIdenticalVertices |
                                         aiProcess_PreTransformVertices | aiProcess_SortByPType);
  }
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
