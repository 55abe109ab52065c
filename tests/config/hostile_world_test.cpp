// Hostile world files (issue 16): duplicate keys, and paths that are not regular files (a FIFO
// blocks, /dev/zero never ends; both hung `ubot validate` before the loader checked the type).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

using testing_support::load_error;

std::string file_error(const std::string& path) {
  try {
    load_world(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "loaded without error";
}

// A fresh directory for one test's files.
std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / (name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// w.yaml in `dir`: one obstacle, the mesh file `mesh` (a path relative to `dir`).
std::string write_mesh_world(const std::filesystem::path& dir, const std::string& mesh) {
  const std::filesystem::path world = dir / "w.yaml";
  std::ofstream(world) << "obstacle:\n  - {shape: {name: mesh, file: " << mesh << "}}\n";
  return world.string();
}

std::string mesh_world_error(const std::filesystem::path& dir, const std::string& mesh) {
  return file_error(write_mesh_world(dir, mesh));
}

// What mesh_world_error must give when the mesh `mesh` in `dir` is refused for `reason`.
std::string mesh_refused(const std::filesystem::path& dir, const std::string& mesh,
                         const std::string& reason) {
  return (dir / "w.yaml").string() + ":2:32: obstacle[0].shape.file: " + (dir / mesh).string() +
         ": " + reason;
}

TEST(DuplicateKeys, AreAnErrorNamingBothLines) {
  EXPECT_EQ(load_error("obstacle:\n  - shape:\n      name: circle\n      radius: 1\n"
                       "      radius: 2\n"),
            "bad.yaml:5:7: duplicate key 'radius' (first at line 4, column 7; YAML allows a key "
            "once per mapping)");
  EXPECT_EQ(load_error("world: {height: 10}\nrobot: []\nworld: {width: 5}\n"),
            "bad.yaml:3:1: duplicate key 'world' (first at line 1, column 1; YAML allows a key "
            "once per mapping)");
  EXPECT_EQ(load_error("obstacle:\n  - {shape: {name: circle, radius: 1, radius: 2}}\n"),
            "bad.yaml:2:39: duplicate key 'radius' (first at line 2, column 28; YAML allows a key "
            "once per mapping)");
}

// A mapping of more than 16 keys is checked through a hash of its key texts, not a search.
TEST(DuplicateKeys, AreFoundInLongMappingsToo) {
  std::string keys;
  for (int k = 0; k < 20; ++k) {
    keys += 'k';  // appended piece by piece: GCC 12 warns (-Wrestrict) on "k" + to_string(k)
    keys += std::to_string(k);
    keys += ": 1\n";
  }
  EXPECT_EQ(load_error(keys + "k3: 2\n"),
            "bad.yaml:21:1: duplicate key 'k3' (first at line 4, column 1; YAML allows a key "
            "once per mapping)");
  // A key that is a sequence has no text: it is no duplicate of the empty key, short or long.
  for (const std::string& before : {std::string(), keys}) {
    const std::string error = load_error(before + "? [a]\n: 1\n'': 2\n");
    EXPECT_EQ(error.find("duplicate"), std::string::npos) << error;
  }
}

TEST(DuplicateKeys, TheSameKeyInDifferentMappingsIsFine) {
  // Siblings, nesting, values equal to keys, and a mapping as a value between two keys.
  EXPECT_EQ(load_error("obstacle:\n  - shape: {name: circle, radius: 1}\n    state: [1, 1, 0]\n"
                       "  - shape: {name: circle, radius: 1}\n    state: [3, 3, 0]\n"
                       "world: {name: name, height: 10, width: 10}\n"),
            "loaded without error");
}

TEST(SecondDocument, IsAnErrorNamingWhereItStarts) {
  // Was ignored without a word (yaml-cpp's YAML::Load read the first document only).
  EXPECT_EQ(load_error("world: {height: 10}\n---\nrobot: []\n"),
            "bad.yaml:2:1: a second YAML document; a world file is one document");
  EXPECT_EQ(load_error("---\nworld: {height: 10}\n...\n---\n"),
            "bad.yaml:4:1: a second YAML document; a world file is one document");
  // One document, with its optional start and end markers, is fine.
  EXPECT_EQ(load_error("---\nworld: {height: 10}\n...\n"), "loaded without error");
  EXPECT_EQ(load_error("world: {height: 10}\n...\n# the end\n"), "loaded without error");
}

TEST(NonUtf8, InvalidBytesAreAnErrorNamingTheLineAndColumn) {
  // Was copied into frames.jsonl as it was, making the file invalid JSON.
  EXPECT_EQ(load_error("robot:\n  - name: r\xff"
                       "1\n"),
            "bad.yaml:2:12: invalid UTF-8 (byte 0xFF); a world file must be UTF-8 text");
  // A truncated sequence, an overlong '/', a UTF-16 surrogate, a code point past U+10FFFF.
  EXPECT_EQ(load_error("robot:\n  - name: \xc3\n"),
            "bad.yaml:2:11: invalid UTF-8 (byte 0xC3); a world file must be UTF-8 text");
  EXPECT_EQ(load_error("robot: [{name: \xc0\xaf}]\n"),
            "bad.yaml:1:16: invalid UTF-8 (byte 0xC0); a world file must be UTF-8 text");
  EXPECT_EQ(load_error("# \xed\xa0\x80\nrobot: []\n"),
            "bad.yaml:1:3: invalid UTF-8 (byte 0xED); a world file must be UTF-8 text");
  EXPECT_EQ(load_error("robot: []\n# \xf4\x90\x80\x80\n"),
            "bad.yaml:2:3: invalid UTF-8 (byte 0xF4); a world file must be UTF-8 text");
}

TEST(NonUtf8, ValidMultiByteNamesLoadAndColumnsCountCharacters) {
  EXPECT_EQ(load_error("robot:\n  - name: \xe6\x9c\xba\xe5\x99\xa8\xe4\xba\xba\n"),
            "loaded without error");                                         // 机器人
  EXPECT_EQ(load_error("\xef\xbb\xbfrobot: []\n"), "loaded without error");  // a BOM
  // Three characters of six bytes before the bad byte: column 14, not 17.
  EXPECT_EQ(load_error("robot:\n  - name: \xc3\xa9\xc3\xa9\xc3\xa9\xff\n"),
            "bad.yaml:2:14: invalid UTF-8 (byte 0xFF); a world file must be UTF-8 text");
}

TEST(Limits, EveryNumberStaysWithinAPlusMinusBillionButWholeNumbersHaveTheirOwnRanges) {
  EXPECT_EQ(load_error("obstacle:\n  - {shape: {name: circle, radius: 1.0000001e9}}\n"),
            "bad.yaml:2:36: obstacle[0].shape.radius: 1.0000001e9 is beyond the limit of ±1e9 for "
            "any number in a world");
  EXPECT_EQ(
      load_error("obstacle:\n  - {shape: {name: circle, radius: 1e9}, state: [-1e9, 1e9, 0]}\n"),
      "loaded without error");  // the limit itself is accepted
  EXPECT_EQ(load_error("world: {seed: 123456789012345}\n"), "loaded without error");
  EXPECT_EQ(load_error("robot:\n  - {vel_max: [.inf, .inf]}\n"), "loaded without error");
}

TEST(Limits, RatesAndRangesHaveTheirOwnCeilings) {
  EXPECT_EQ(load_error("robot:\n  - sensors: [{name: lidar2d, range_max: 1e6, update_rate_hz: "
                       "1e6}]\n"),
            "loaded without error");
  EXPECT_EQ(load_error("robot:\n  - sensors: [{name: imu, low_pass_cutoff_hz: 1000001}]\n"),
            "bad.yaml:2:47: robot[0].sensors[0].low_pass_cutoff_hz: must be at most 1e+06 Hz, got "
            "1000001");
  EXPECT_EQ(
      load_error("robot:\n  - sensors: [{name: rgb_camera, far_clip: 1e6, "
                 "preview_distance: 2e6}]\n"),
      "bad.yaml:2:67: robot[0].sensors[0].preview_distance: must be at most 1e+06 m, got 2e6");
}

TEST(NonRegularFiles, DevZeroIsRefusedNotReadForever) {
  EXPECT_EQ(file_error("/dev/zero"),
            "/dev/zero: not a regular file (a device, FIFO or socket), not a world file");
}

TEST(NonRegularFiles, AFifoWorldIsRefusedNotWaitedOn) {
  const std::string fifo = (fresh_dir("fifo_world") / "world.yaml").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(file_error(fifo),
            fifo + ": not a regular file (a device, FIFO or socket), not a world file");
}

TEST(NonRegularFiles, AFifoMeshIsRefusedNamingIt) {
  const std::filesystem::path dir = fresh_dir("fifo_mesh");
  ASSERT_EQ(mkfifo((dir / "part.obj").c_str(), 0600), 0);
  EXPECT_EQ(mesh_world_error(dir, "part.obj"),
            mesh_refused(dir, "part.obj",
                         "not a regular file (a directory, device or FIFO), not a mesh"));
}

TEST(NonRegularFiles, AFifoMaterialNextToAnObjIsSkippedNotWaitedOn) {
  // assimp opens the .mtl an .obj names: a FIFO there blocked the loader for ever.
  const std::filesystem::path dir = fresh_dir("fifo_mtl");
  ASSERT_EQ(mkfifo((dir / "m.mtl").c_str(), 0600), 0);
  std::ofstream(dir / "tri.obj") << "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const WorldModel m = load_world(write_mesh_world(dir, "tri.obj"));
  ASSERT_EQ(m.objects.size(), 1u);
  EXPECT_EQ(m.objects[0].shape.solid->mesh->triangles.size(), 1u);
}

TEST(SymbolicLinkLoops, AreSaidSoNotTakenForAMissingFile) {
  const std::filesystem::path dir = fresh_dir("link_loop");
  std::filesystem::create_symlink(dir / "b.yaml", dir / "a.yaml");
  std::filesystem::create_symlink(dir / "a.yaml", dir / "b.yaml");
  EXPECT_EQ(file_error((dir / "a.yaml").string()),
            (dir / "a.yaml").string() + ": a loop of symbolic links (each link leads to another)");
  std::filesystem::create_symlink("part.obj", dir / "part.obj");  // a link to itself
  EXPECT_EQ(mesh_world_error(dir, "part.obj"),
            mesh_refused(dir, "part.obj", "a loop of symbolic links (each link leads to another)"));
  // A missing file is still "not found".
  EXPECT_EQ(file_error((dir / "none.yaml").string()),
            (dir / "none.yaml").string() + ": file not found");
}

TEST(HostileMesh, VerticesBeyondTheLimitOfAWorldAreRefused) {
  // Vertices at 3e38 passed `validate`; `run` stopped in the scene ("ray 0 starts too far out"),
  // naming no file.
  const std::filesystem::path dir = fresh_dir("mesh_far");
  std::ofstream(dir / "far.obj") << "v 3e38 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n";
  EXPECT_EQ(mesh_world_error(dir, "far.obj"),
            mesh_refused(dir, "far.obj",
                         "a vertex at (3e+38, 0, 0) once scaled, beyond the limit of ±1e9 m for "
                         "any position in a world"));
  // The limit holds for the placed mesh: 1e8 scaled by 100 is 1e10.
  std::ofstream(dir / "near.obj") << "v 1e8 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n";
  std::ofstream(dir / "w.yaml")
      << "obstacle:\n  - {shape: {name: mesh, file: near.obj, scale: 100}}\n";
  EXPECT_EQ(file_error((dir / "w.yaml").string()),
            mesh_refused(dir, "near.obj",
                         "a vertex at (1e+10, 0, 0) once scaled, beyond the limit of ±1e9 m for "
                         "any position in a world"));
  std::ofstream(dir / "w.yaml")
      << "obstacle:\n  - {shape: {name: mesh, file: near.obj, scale: 10}}\n";
  EXPECT_EQ(file_error((dir / "w.yaml").string()), "loaded without error");
}

// Fuzzing found a PLY file (a header broken by 0xFF bytes) on which Debian's assimp 5.2 crashed
// with SIGSEGV; ubot checks a PLY header itself before assimp sees the file.
TEST(HostileMesh, ThePlyThatCrashedAssimpIsRefusedWithAMessage) {
  const std::filesystem::path dir = fresh_dir("assimp_ply_crash");
  std::filesystem::copy_file(UBOT_SOURCE_DIR "/tests/config/data/assimp-5.2-ply-segv.ply",
                             dir / "crash.ply");
  EXPECT_EQ(
      mesh_world_error(dir, "crash.ply"),
      mesh_refused(dir, "crash.ply", "not a valid PLY mesh: a header byte 0xFF that is not text"));
}

TEST(HostileMesh, PlyElementsThatDoNotFitTheFileAreRefused) {
  const std::filesystem::path dir = fresh_dir("ply_counts");
  std::ofstream(dir / "big.ply", std::ios::binary)
      << "ply\nformat binary_little_endian 1.0\nelement vertex 1000000\nproperty float x\n"
         "property float y\nproperty float z\nelement face 1\nproperty list uchar int "
         "vertex_indices\nend_header\n"
      << std::string(40, '\0');
  EXPECT_EQ(
      mesh_world_error(dir, "big.ply"),
      mesh_refused(dir, "big.ply",
                   "not a valid PLY mesh: its elements need at least 12000001 bytes, the file "
                   "has 40 after the header"));
}

TEST(HostileMesh, AWellFormedPlyMeshStillLoads) {
  const std::filesystem::path dir = fresh_dir("ply_ok");
  std::ofstream(dir / "tri.ply") << "ply\nformat ascii 1.0\ncomment a triangle\nelement vertex 3\n"
                                    "property float x\nproperty float y\nproperty float z\n"
                                    "element face 1\nproperty list uchar int vertex_indices\n"
                                    "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  const WorldModel m = load_world(write_mesh_world(dir, "tri.ply"));
  ASSERT_EQ(m.objects.size(), 1u);
  EXPECT_EQ(m.objects[0].shape.solid->mesh->triangles.size(), 1u);
}

// Found by fuzz_mesh: a binary PLY whose first face is an empty list (the tetrahedron seed with
// a byte inserted in its vertices). Assimp's triangulation asserted on it and aborted `ubot
// validate` (SIGABRT); ubot now checks the imported faces before assimp post-processes them.
TEST(HostileMesh, APlyFaceWithoutVerticesIsRefusedNotAborted) {
  const std::filesystem::path dir = fresh_dir("ply_empty_face");
  std::filesystem::copy_file(UBOT_SOURCE_DIR "/tests/config/data/assimp-5.2-ply-empty-face.ply",
                             dir / "empty.ply");
  EXPECT_EQ(mesh_world_error(dir, "empty.ply"),
            mesh_refused(dir, "empty.ply", "face 0 of mesh 0 has no vertex"));
  // The same in ascii: a face line "0".
  std::ofstream(dir / "ascii.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                      "property float y\nproperty float z\nelement face 2\n"
                                      "property list uchar int vertex_indices\nend_header\n"
                                      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n0\n";
  EXPECT_EQ(mesh_world_error(dir, "ascii.ply"),
            mesh_refused(dir, "ascii.ply", "face 1 of mesh 0 has no vertex"));
}

TEST(HostileMesh, APlyFaceListLongerThanTheFileIsRefusedBeforeAssimpAllocatesIt) {
  // A 150-byte file: assimp took 12.7 GB for the list's 2147483647 items, then was killed.
  const std::filesystem::path dir = fresh_dir("ply_long_face");
  std::ofstream(dir / "long.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                     "property float y\nproperty float z\nelement face 1\n"
                                     "property list uchar int vertex_indices\nend_header\n"
                                     "0 0 0\n1 0 0\n0 1 0\n2147483647 0 1 2\n";
  EXPECT_EQ(mesh_world_error(dir, "long.ply"),
            mesh_refused(dir, "long.ply",
                         "not a valid PLY mesh: element 'face' record 0 property 'vertex_indices' "
                         "is a list of 2147483647 items, more than the 7 bytes left in the file "
                         "can hold"));
}

TEST(HostileMesh, APlyWithTwoElementsOfOneNameIsRefusedBeforeAssimpOverrunsItsArrays) {
  // Found by fuzz_mesh: assimp sized its vertices from the first 'vertex' element (3) and
  // wrote the second one's 5 past their end.
  const std::filesystem::path dir = fresh_dir("ply_two_vertex");
  std::ofstream(dir / "two.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                    "property float y\nproperty float z\nelement face 1\n"
                                    "property list uchar int vertex_indices\nelement vertex 5\n"
                                    "property float x\nproperty float y\nproperty float z\n"
                                    "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n0 0 0\n1 0 0\n"
                                    "0 1 0\n1 1 0\n1 1 1\n";
  EXPECT_EQ(mesh_world_error(dir, "two.ply"),
            mesh_refused(dir, "two.ply",
                         "not a valid PLY mesh: header line 9: a second element 'vertex' (the "
                         "first is at line 3); a mesh has one element of each name"));
}

// The PLY seeds of fuzz_mesh (tests/fuzz/corpus/mesh: a first byte picking the extension, then
// the file) are meshes that load: ascii quads, binary little-endian with colours, binary
// big-endian doubles, all through the shared header check and assimp.
TEST(HostileMesh, PlyMeshesOfEveryFormatLoad) {
  const std::filesystem::path dir = fresh_dir("ply_formats");
  const struct {
    const char* seed;
    std::size_t vertices, triangles;
  } seeds[] = {{"cube_ply_ascii", 8, 12}, {"pyramid_ply_le", 5, 6}, {"tetra_ply_be", 4, 4}};
  for (const auto& s : seeds) {
    std::ifstream in(std::string(UBOT_SOURCE_DIR "/tests/fuzz/corpus/mesh/") + s.seed,
                     std::ios::binary);
    ASSERT_EQ(in.get(), 2) << s.seed;  // the fuzzer's byte for ".ply"
    const std::string name = std::string(s.seed) + ".ply";
    std::ofstream(dir / name, std::ios::binary) << in.rdbuf();
    const WorldModel m = load_world(write_mesh_world(dir, name));
    ASSERT_EQ(m.objects.size(), 1u) << s.seed;
    EXPECT_EQ(m.objects[0].shape.solid->mesh->vertices.size(), s.vertices) << s.seed;
    EXPECT_EQ(m.objects[0].shape.solid->mesh->triangles.size(), s.triangles) << s.seed;
  }
}

// The shared reader's errors name the header line, behind the mesh's own prefix.
TEST(HostileMesh, APlyHeaderErrorNamesItsLine) {
  const std::filesystem::path dir = fresh_dir("ply_line");
  std::ofstream(dir / "t.ply") << "ply\nformat ascii 1.0\nelement vertex 3\nproperty int64 x\n"
                                  "end_header\n0\n0\n0\n";
  EXPECT_EQ(
      mesh_world_error(dir, "t.ply"),
      mesh_refused(dir, "t.ply", "not a valid PLY mesh: header line 4: unknown PLY type 'int64'"));
}

}  // namespace
}  // namespace ubot
