// The mesh loader entry (read_mesh_file) on arbitrary bytes. The first byte picks the file
// type the bytes are saved as (assimp chooses its importer by extension and content); the rest
// is the file. A mesh or a ubot::Error, nothing else. OBJ, STL and PLY: Debian's assimp 5.2
// crashed inside its own PLY importer on a malformed header; ubot checks a PLY header with the
// shared reader (ubot/core/ply_header.h) before assimp reads the file (regression test:
// HostileMesh in tests/config/hostile_world_test.cpp), and this target fuzzes what passes that
// check, ascii and binary PLY bodies included, through assimp.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

#include "mesh_reader.h"
#include "ubot/core/error.h"

namespace {

const char* const kExtensions[] = {".obj", ".stl", ".ply"};

std::string scratch_path(const char* extension) {
  return "/tmp/ubot-fuzz-mesh-" + std::to_string(getpid()) + extension;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string path = scratch_path(kExtensions[data[0] % std::size(kExtensions)]);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    ubot::config::read_mesh_file(path);
  } catch (const ubot::Error&) {
  }
  unlink(path.c_str());
  return 0;
}
