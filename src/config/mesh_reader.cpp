#include "mesh_reader.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "ubot/core/error.h"

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

// Bytes of a PLY scalar type (both spellings), 0 for an unknown one.
std::uint64_t ply_type_size(const std::string& type) {
  static const std::map<std::string, std::uint64_t> sizes = {
      {"char", 1},   {"int8", 1},    {"uchar", 1},  {"uint8", 1},  {"short", 2}, {"int16", 2},
      {"ushort", 2}, {"uint16", 2},  {"int", 4},    {"int32", 4},  {"uint", 4},  {"uint32", 4},
      {"float", 4},  {"float32", 4}, {"double", 8}, {"float64", 8}};
  const auto it = sizes.find(type);
  return it == sizes.end() ? 0 : it->second;
}

// Debian's assimp 5.2 crashes (SIGSEGV) inside its PLY importer on a malformed header
// (tests/config/data/assimp-5.2-ply-segv.ply): a .ply mesh is only handed to assimp once its
// header is well-formed text ending in `end_header` and its elements fit in the bytes after it
// (a list counts its count only, the least it can take).
void check_ply_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const auto fail = [&](const std::string& why) {
    throw Error(fmt::format("{}: not a valid PLY mesh: {}", path, why));
  };
  constexpr std::size_t kMaxHeader = 1 << 16;
  std::string line;
  std::size_t header_bytes = 0;
  bool binary = false, ended = false;
  std::uint64_t element_count = 0;
  std::uint64_t least_body = 0;  // bytes the elements need at least (binary), or lines (ascii)
  for (int n = 0; std::getline(in, line); ++n) {
    header_bytes += line.size() + 1;
    if (header_bytes > kMaxHeader) fail("no end_header in its first 64 KiB");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (const char c : line) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte > 0x7e) {
        fail(fmt::format("a header byte 0x{:02X} that is not text", static_cast<unsigned>(byte)));
      }
    }
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (n == 0) {
      if (line != "ply") fail("it does not start with 'ply'");
      continue;
    }
    if (word == "end_header") {
      ended = true;
      break;
    }
    if (word == "format") {
      std::string format;
      words >> format;
      if (format != "ascii" && format != "binary_little_endian" && format != "binary_big_endian") {
        fail(fmt::format("unknown format '{}'", format));
      }
      binary = format != "ascii";
    } else if (word == "element") {
      std::string name;
      std::uint64_t count = 0;
      if (!(words >> name >> count) || count > (std::uint64_t{1} << 32)) {
        fail(fmt::format("bad element line '{}'", line));
      }
      if (!binary) least_body += count;  // a line each at least
      element_count = count;
    } else if (word == "property") {
      std::string type, count_type;
      words >> type;
      const bool list = type == "list";
      if (list) words >> count_type >> type;
      const std::uint64_t size = ply_type_size(list ? count_type : type);
      if (size == 0 || ply_type_size(type) == 0) fail(fmt::format("bad property line '{}'", line));
      if (binary) least_body += element_count * size;
    } else if (word != "comment" && word != "obj_info") {
      fail(fmt::format("unknown header line '{}'", line));
    }
  }
  if (!ended) fail("no end_header line");
  std::error_code ec;
  const std::uint64_t file = std::filesystem::file_size(path, ec);
  const std::uint64_t body = file > header_bytes ? file - header_bytes : 0;
  if (least_body > body) {
    fail(fmt::format("its elements need at least {} bytes, the file has {} after the header",
                     least_body, body));
  }
}

}  // namespace

std::shared_ptr<TriangleMesh> read_mesh_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw Error(fmt::format("{}: no such mesh file", path));
  if (!std::filesystem::is_regular_file(status)) {
    throw Error(
        fmt::format("{}: not a regular file (a directory, device or FIFO), not a mesh", path));
  }
  if (looks_like_ply(path)) check_ply_header(path);
  Assimp::Importer importer;
  importer.SetIOHandler(new RegularFilesOnly);  // the importer owns and deletes it
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
