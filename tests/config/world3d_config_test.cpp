// 3D world content and lidar3d in world files: shapes and their footprints, meshes (relative
// paths, scale, rotation, sharing), the ground, lidar3d keys, and precise errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numbers>

#include "lidar3d_presets.h"
#include "load_error.h"
#include "ubot/config/load_world.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
const std::string kMeshes = std::string(UBOT_SOURCE_DIR) + "/examples/meshes/";

WorldModel load(const std::string& yaml) { return load_world_from_string(yaml, "w.yaml"); }

std::string world3d_error(const std::string& yaml) {
  return testing_support::load_error(yaml, "w.yaml");
}

// A directory holding a world file and a mesh next to it.
std::filesystem::path fixture_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::create_directories(dir / "parts");
  return dir;
}

TEST(World3d, PrimitivesKeepTheirSolidAndAPlanarFootprint) {
  const WorldModel m = load(R"(
obstacle:
  - {shape: {name: box, size: [2, 1, 0.5]}, state: [1, 2, 0.3], z: 0.25}
  - {shape: {name: sphere, radius: 0.4}, state: [3, 3, 0]}
  - {shape: {name: cylinder, radius: 0.3, height: 1.5}, state: [5, 5, 0]}
  - {shape: {name: rectangle, length: 1, width: 1}, state: [0, 0, 0]}
)");
  const ShapeModel& box = m.objects[0].shape;
  ASSERT_TRUE(box.solid);
  EXPECT_EQ(box.solid->kind, SolidKind::kBox);
  EXPECT_EQ(box.kind, ShapeKind::kRectangle);
  EXPECT_EQ(box.vertices,
            (std::vector<Eigen::Vector2d>{{-1, -0.5}, {1, -0.5}, {1, 0.5}, {-1, 0.5}}));
  EXPECT_EQ(m.objects[0].height, 0.5);
  EXPECT_EQ(m.objects[0].z, 0.25);
  const ShapeModel& sphere = m.objects[1].shape;
  EXPECT_EQ(sphere.kind, ShapeKind::kCircle);
  EXPECT_EQ(sphere.radius, 0.4);
  EXPECT_EQ(sphere.solid->kind, SolidKind::kSphere);
  EXPECT_EQ(m.objects[1].height, 0.8);  // it rests on z: [z, z + 2 r]
  EXPECT_EQ(m.objects[2].shape.kind, ShapeKind::kCircle);
  EXPECT_EQ(m.objects[2].height, 1.5);
  EXPECT_FALSE(m.objects[3].shape.solid);
  EXPECT_FALSE(m.objects[3].height);  // 2D: reaches every scan plane
  EXPECT_FALSE(m.ground);
}

TEST(World3d, MeshesResolveRelativeToTheWorldFileAndAreScaledRotatedAndShared) {
  const std::filesystem::path dir = fixture_dir("world3d_mesh");
  std::filesystem::copy_file(kMeshes + "cube.obj", dir / "parts" / "cube.obj",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "w.yaml") << R"(
obstacle:
  - number: 2
    shape: {name: mesh, file: parts/cube.obj, scale: [2, 4, 1], rpy: [0, 0, 1.5707963267948966]}
    state: [[0, 0, 0], [5, 0, 0]]
  - shape: {name: mesh, file: parts/cube.obj}
    state: [9, 9, 0]
)";
  const WorldModel m = load_world((dir / "w.yaml").string());
  const SolidModel& s = *m.objects[0].shape.solid;
  EXPECT_EQ(s.kind, SolidKind::kMesh);
  EXPECT_EQ(s.file, "parts/cube.obj");
  EXPECT_EQ(s.path, (dir / "parts" / "cube.obj").lexically_normal().string());
  ASSERT_EQ(s.mesh->triangles.size(), 12u);  // 6 quads, triangulated
  // Scaled to 2 x 4 x 1, then turned by 90 degrees: 4 along x, 2 along y.
  EXPECT_TRUE(s.mesh->min().isApprox(Eigen::Vector3d(-2, -1, 0), 1e-12));
  EXPECT_TRUE(s.mesh->max().isApprox(Eigen::Vector3d(2, 1, 1), 1e-12));
  // Footprint: the convex hull of the vertices in the xy plane.
  const ShapeModel& f = m.objects[0].shape;
  EXPECT_EQ(f.kind, ShapeKind::kPolygon);
  ASSERT_EQ(f.vertices.size(), 4u);
  EXPECT_NEAR(f.bounding_radius(), std::sqrt(5.0), 1e-12);
  EXPECT_FALSE(m.objects[0].height);
  // One mesh per file and transform: the group shares it, the unscaled one differs.
  EXPECT_EQ(m.objects[1].shape.solid->mesh, s.mesh);
  EXPECT_NE(m.objects[2].shape.solid->mesh, s.mesh);
  EXPECT_TRUE(m.objects[2].shape.solid->mesh->max().isApprox(Eigen::Vector3d(0.5, 0.5, 1)));
}

TEST(World3d, StlMeshesLoad) {
  const WorldModel m =
      load("obstacle:\n  - {shape: {name: mesh, file: " + kMeshes + "pyramid.stl}}\n");
  const TriangleMesh& mesh = *m.objects[0].shape.solid->mesh;
  EXPECT_EQ(mesh.triangles.size(), 6u);
  EXPECT_EQ(mesh.vertices.size(), 5u);  // identical STL corners joined
  EXPECT_EQ(mesh.max().z(), 1.5);
  EXPECT_EQ(m.objects[0].shape.vertices.size(), 4u);
}

TEST(World3d, Ground) {
  EXPECT_EQ(load("ground: {z: -0.5}\n").ground, -0.5);
  EXPECT_EQ(load("ground: true\n").ground, 0.0);
  EXPECT_FALSE(load("ground: false\n").ground);
}

TEST(World3d, LightAndGroundColour) {
  const Lighting defaults = load("ground: true\n").lighting;
  EXPECT_EQ(defaults.direction, Eigen::Vector3d(-0.5, 0.3, 0.8).normalized());
  EXPECT_EQ(defaults.ambient, 0.45);
  EXPECT_EQ(defaults.diffuse, 0.55);
  const WorldModel m = load(
      "ground: {z: 0, color: '#336699'}\n"
      "light: {direction: [0, 0, 2], ambient: 0.2, diffuse: 0.7, sky: [0.1, 0.2, 0.3]}\n");
  EXPECT_EQ(m.lighting.direction, Eigen::Vector3d(0, 0, 1));
  EXPECT_EQ(m.lighting.ambient, 0.2);
  EXPECT_EQ(m.lighting.diffuse, 0.7);
  EXPECT_EQ(m.lighting.sky, (std::array<double, 3>{0.1, 0.2, 0.3}));
  EXPECT_EQ(m.lighting.ground, (std::array<double, 3>{0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0}));
  EXPECT_EQ(load("light: {sky: white}\n").lighting.sky, (std::array<double, 3>{1, 1, 1}));
  // Each bad value names its key.
  EXPECT_NE(world3d_error("light: {direction: [0, 0, 0]}\n").find("light.direction"),
            std::string::npos);
  EXPECT_NE(world3d_error("light: {ambient: 1.5}\n").find("light.ambient"), std::string::npos);
  EXPECT_NE(world3d_error("light: {sky: [0.1, 0.2]}\n").find("light.sky"), std::string::npos);
  EXPECT_NE(world3d_error("light: {sky: notacolour}\n").find("light.sky"), std::string::npos);
  EXPECT_NE(world3d_error("ground: {color: [0, 0, 2]}\n").find("ground.color[2]"),
            std::string::npos);
  EXPECT_NE(world3d_error("light: {diffuze: 0.5}\n").find("diffuse"), std::string::npos);
  EXPECT_NE(world3d_error("light: 3\n").find("light"), std::string::npos);
}

TEST(Lidar3dConfig, KeysDefaultsAndPresetOverrides) {
  const WorldModel m = load(R"(
robot:
  - sensors:
      - {name: lidar3d}
      - {name: lidar3d, preset: OS1-64, rotation_rate_hz: 20, update_rate_hz: 5,
         motion_distortion: true, offset: [0.1, 0, 0.8], rpy: [0, 0.1, 0], noise: true,
         smoke_density_threshold: 0.2}
)");
  const SensorModel& a = m.objects[0].sensors[0];
  EXPECT_EQ(a.common.name, "lidar3d_0");
  EXPECT_EQ(std::string(a.type_name()), "lidar3d");
  const auto& l = std::get<Lidar3dModel>(a.params);
  EXPECT_EQ(l.preset, "");
  EXPECT_EQ(l.vertical_angles, config::lidar3d_preset("VLP-16")->vertical_angles);
  EXPECT_EQ(l.number, 1800);
  EXPECT_EQ(l.range_max, 100.0);
  EXPECT_EQ(a.common.update_rate_hz, 10.0);  // one sample per sweep
  EXPECT_FALSE(l.motion_distortion);
  const SensorModel& b = m.objects[0].sensors[1];
  const auto& o = std::get<Lidar3dModel>(b.params);
  EXPECT_EQ(b.common.name, "lidar3d_1");
  EXPECT_EQ(o.preset, "OS1-64");
  EXPECT_EQ(o.vertical_angles.size(), 64u);
  EXPECT_NEAR(o.vertical_angles.front(), -22.5 * kDeg, 1e-15);
  EXPECT_EQ(o.rotation_rate_hz, 20.0);
  EXPECT_EQ(b.common.update_rate_hz, 5.0);
  EXPECT_TRUE(o.motion_distortion);
  EXPECT_EQ(o.offset, Eigen::Vector3d(0.1, 0, 0.8));
  EXPECT_EQ(o.rpy, Eigen::Vector3d(0, 0.1, 0));
  EXPECT_TRUE(b.common.noise);
  EXPECT_EQ(b.common.smoke.smoke_density_threshold, 0.2);
  // The lidar is a scanner for mapping selectors and gives the object its default FOV.
  EXPECT_EQ(*m.objects[0].fov, l.angle_range);
  EXPECT_EQ(*m.objects[0].fov_radius, 100.0);
}

TEST(World3dErrors, EveryCaseHasAPreciseMessage) {
  const std::string sensor = "robot:\n  - sensors:\n      - {name: lidar3d, ";
  const struct {
    std::string yaml, message;
  } cases[] = {
      {sensor + "preset: VLP16}\n",
       "w.yaml:3:33: robot[0].sensors[0].preset: unknown lidar3d preset 'VLP16' (known: VLP-16, "
       "VLP-32C, OS1-32, OS1-64, OS1-128, OS1-16-Gen1, OS1-64-Gen1); did you mean 'VLP-16'?"},
      {sensor + "vertical_angles: [0.1], channels: 4}\n",
       "w.yaml:3:59: robot[0].sensors[0].channels: give either vertical angles or channels / "
       "vertical_fov"},
      {sensor + "vertical_angles: [0.1], vertical_angles_deg: [3]}\n",
       "w.yaml:3:70: robot[0].sensors[0].vertical_angles_deg: give either vertical_angles or "
       "vertical_angles_deg, not both"},
      {sensor + "vertical_angles_deg: [0, 90]}\n",
       "w.yaml:3:50: robot[0].sensors[0].vertical_angles_deg[1]: a channel's vertical angle must "
       "lie strictly between -90 and 90 degrees"},
      {sensor + "channels: 4, vertical_fov: [0.2, -0.2]}\n",
       "w.yaml:3:52: robot[0].sensors[0].vertical_fov: expected [min, max] with min < max (min = "
       "max only for one channel)"},
      {sensor + "channels: 0}\n",
       "w.yaml:3:35: robot[0].sensors[0].channels: must be 1 to 1024 channels, got 0"},
      {sensor + "number: 0}\n",
       "w.yaml:3:33: robot[0].sensors[0].number: must give 1 to 100000 columns, got 0"},
      {sensor + "number: 10, horizontal_resolution: 0.1}\n",
       "w.yaml:3:60: robot[0].sensors[0].horizontal_resolution: give either number or a "
       "horizontal resolution"},
      {sensor + "update_rate_hz: 20}\n",
       "w.yaml:3:41: robot[0].sensors[0].update_rate_hz: must not exceed rotation_rate_hz (10): a "
       "sweep takes 1/10 s"},
      {sensor + "range_min: 5, range_max: 2}\n",
       "w.yaml:3:36: robot[0].sensors[0].range_min: range_min (5) must not exceed range_max (2)"},
      {sensor + "offset: [0, 0]}\n",
       "w.yaml:3:33: robot[0].sensors[0].offset: expected 3 numbers, got 2"},
      {sensor + "channels: 1024, number: 100000}\n",
       "w.yaml:3:9: robot[0].sensors[0]: 1024 channels x 100000 columns is more than 10 million "
       "rays"},
      {"obstacle:\n  - {shape: {name: box, size: [1, 1]}}\n",
       "w.yaml:2:31: obstacle[0].shape.size: expected 3 numbers, got 2"},
      {"obstacle:\n  - {shape: {name: box, size: [1, 1, 1]}, height: 2}\n",
       "w.yaml:2:51: obstacle[0].height: does not apply to a box shape (its size gives its "
       "height)"},
      {"obstacle:\n  - {shape: {name: sphere}}\n",
       "w.yaml:2:13: obstacle[0].shape: missing required key 'radius'"},
      {"obstacle:\n  - {shape: {name: cylinder, radius: 1, wheelbase: 1, height: 1}}\n",
       "w.yaml:2:52: obstacle[0].shape.wheelbase: applies to circle and rectangle shapes, not to a "
       "cylinder"},
      {"obstacle:\n  - {shape: {name: mesh, file: nothere.obj}}\n",
       "w.yaml:2:32: obstacle[0].shape.file: nothere.obj: no such mesh file"},
      {"obstacle:\n  - {shape: {name: mesh, file: " + kMeshes + "cube.obj, scale: 0}}\n",
       "w.yaml:2:" + std::to_string(49 + kMeshes.size()) +
           ": obstacle[0].shape.scale: must be greater than 0, got 0"},
      {"ground: {height: 1}\n", "w.yaml:1:10: ground.height: unknown key 'height'"},
      {"ground: maybe\n", "w.yaml:1:9: ground: expected true or false, got 'maybe'"},
  };
  for (const auto& c : cases) EXPECT_EQ(world3d_error(c.yaml), c.message) << c.yaml;
}

TEST(World3dErrors, BrokenMeshFilesNameTheFileAndTheKey) {
  const std::filesystem::path dir = fixture_dir("world3d_bad_mesh");
  std::ofstream(dir / "parts" / "bad.stl") << "solid nothing useful\n  not a facet\n";
  std::ofstream(dir / "parts" / "points.obj") << "v 0 0 0\nv 1 0 0\np 1 2\n";
  for (const auto& [file, reason] : {std::pair{"parts/bad.stl", "cannot read the mesh: "},
                                     std::pair{"parts/points.obj", "the file holds no triangle"}}) {
    std::ofstream(dir / "w.yaml") << "obstacle:\n  - {shape: {name: mesh, file: " << file << "}}\n";
    try {
      load_world((dir / "w.yaml").string());
      ADD_FAILURE() << file;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find((dir / "w.yaml").string() + ":2:32: obstacle[0].shape.file: " +
                             (dir / file).lexically_normal().string() + ": " + reason),
                0u)
          << message;
    }
  }
}

}  // namespace
}  // namespace ubot
