// LAS / PLY / PCD: header fields pinned to the LAS 1.4 R15 layout, round trips that keep world
// positions, LAS 1.2 formats 0-3, and clear errors for broken files.
#include <gtest/gtest.h>

#include <cstring>

#include "support/error_of.h"
#include "test_support.h"
#include "ubot/core/error.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::mapping {
namespace {

using test::get;
using test::read_bytes;
using test::set;
using test::TempDir;
using test::write_bytes;

PointCloud sample_cloud(const Eigen::Vector3d& near, bool color) {
  PointCloud c;
  c.has_color = color;
  for (int i = 0; i < 100; ++i) {
    MapPoint p;
    p.position = near + Eigen::Vector3d(0.0137 * i, -0.291 * i, 0.0041 * i * i);
    p.intensity = static_cast<std::uint16_t>(i * 650);
    if (color) p.rgb = {static_cast<std::uint16_t>(i * 600), 257, 65535};
    c.points.push_back(p);
  }
  return c;
}

using testing_support::error_of;

TEST(Las, Writes14HeaderFormat6WithTheSpecsLayout) {
  TempDir dir;
  const PointCloud cloud = sample_cloud({10000.25, -10000.5, 3.0}, false);
  write_las(dir.file("a.las"), cloud, {});
  const std::vector<char> b = read_bytes(dir.file("a.las"));
  EXPECT_EQ(std::string(b.data(), 4), "LASF");
  EXPECT_EQ(get<std::uint16_t>(b, 6) & 16, 16);  // WKT bit, required for formats 6-10
  EXPECT_EQ(get<std::uint8_t>(b, 24), 1);
  EXPECT_EQ(get<std::uint8_t>(b, 25), 4);
  EXPECT_EQ(get<std::uint16_t>(b, 94), 375);
  const std::uint32_t point_offset = get<std::uint32_t>(b, 96);
  EXPECT_EQ(get<std::uint8_t>(b, 104), 6);
  EXPECT_EQ(get<std::uint16_t>(b, 105), 30);
  EXPECT_EQ(get<std::uint32_t>(b, 107), 0u);  // legacy count is 0 for formats >= 6
  EXPECT_EQ(get<double>(b, 131), 0.001);
  // Offset near the data: the minimum floored to whole metres.
  EXPECT_EQ(get<double>(b, 155), 10000.0);
  EXPECT_EQ(get<double>(b, 163), std::floor(-10000.5 - 0.291 * 99));
  EXPECT_EQ(get<double>(b, 171), 3.0);
  EXPECT_EQ(get<std::uint64_t>(b, 247), 100u);
  EXPECT_EQ(get<std::uint64_t>(b, 255), 100u);  // all first returns
  EXPECT_EQ(b.size(), point_offset + 100u * 30u);
  // Header bounds: max x at 179, min x at 187, ...
  EXPECT_NEAR(get<double>(b, 179), 10000.25 + 0.0137 * 99, 5e-4);
  EXPECT_NEAR(get<double>(b, 187), 10000.25, 5e-4);
  EXPECT_NEAR(get<double>(b, 195), -10000.5, 5e-4);
  EXPECT_NEAR(get<double>(b, 203), -10000.5 - 0.291 * 99, 5e-4);
  // First record: X Y Z as int32 units, intensity, return 1 of 1.
  EXPECT_EQ(get<std::int32_t>(b, point_offset), 250);
  EXPECT_EQ(get<std::int32_t>(b, point_offset + 8), 0);
  EXPECT_EQ(get<std::uint8_t>(b, point_offset + 14), 0x11);
  EXPECT_EQ(get<std::uint16_t>(b, point_offset + 12 + 30), 650);
}

TEST(Las, RoundTripKeepsWorldPositionsWithinHalfTheScale) {
  TempDir dir;
  for (const bool color : {false, true}) {
    const PointCloud cloud = sample_cloud({-10000.123456, 10000.987654, -2.5}, color);
    write_las(dir.file("rt.las"), cloud, {});
    const LoadedCloud back = read_las(dir.file("rt.las"));
    EXPECT_EQ(back.info.las_point_format, color ? 7 : 6);
    EXPECT_EQ(read_bytes(dir.file("rt.las")).size(),
              get<std::uint32_t>(read_bytes(dir.file("rt.las")), 96) + 100u * (color ? 36 : 30));
    ASSERT_EQ(back.cloud.points.size(), cloud.points.size());
    EXPECT_EQ(back.cloud.has_color, color);
    for (std::size_t i = 0; i < cloud.points.size(); ++i) {
      EXPECT_LE((back.cloud.points[i].position - cloud.points[i].position).cwiseAbs().maxCoeff(),
                0.0005 + 1e-9);
      EXPECT_EQ(back.cloud.points[i].intensity, cloud.points[i].intensity);
      if (color) {
        EXPECT_EQ(back.cloud.points[i].rgb, cloud.points[i].rgb);
      }
    }
  }
}

TEST(Las, RefusesCoordinatesThatDoNotFitInt32) {
  TempDir dir;
  PointCloud c;
  c.points = {{{0, 0, 0}, 0, {}}, {{3e6, 0, 0}, 0, {}}};  // 3000 km at 1 mm
  EXPECT_NE(error_of([&] { write_las(dir.file("far.las"), c, {}); }).find("32-bit"),
            std::string::npos);
}

// A hand-written LAS 1.2 file of format f (0-3) with two points, independent of our writer.
std::vector<char> las12(int format) {
  const int lengths[] = {20, 28, 26, 34};
  const int length = lengths[format];
  std::vector<char> b(227 + 2 * length, 0);
  std::memcpy(b.data(), "LASF", 4);
  set<std::uint8_t>(b, 24, 1);
  set<std::uint8_t>(b, 25, 2);
  set<std::uint16_t>(b, 94, 227);
  set<std::uint32_t>(b, 96, 227);
  set<std::uint8_t>(b, 104, static_cast<std::uint8_t>(format));
  set<std::uint16_t>(b, 105, static_cast<std::uint16_t>(length));
  set<std::uint32_t>(b, 107, 2);
  for (int k = 0; k < 3; ++k) {
    set<double>(b, 131 + 8 * k, 0.01);
    set<double>(b, 155 + 8 * k, 1000.0 * (k + 1));
  }
  for (int i = 0; i < 2; ++i) {
    const std::size_t r = 227 + i * length;
    set<std::int32_t>(b, r, 100 + i);
    set<std::int32_t>(b, r + 4, -200 - i);
    set<std::int32_t>(b, r + 8, 300);
    set<std::uint16_t>(b, r + 12, static_cast<std::uint16_t>(40 + i));
    if (format == 2) set<std::uint16_t>(b, r + 20, 1234);
    if (format == 3) set<std::uint16_t>(b, r + 28, 4321);
  }
  return b;
}

TEST(Las, Reads12Formats0To3) {
  TempDir dir;
  for (int format = 0; format < 4; ++format) {
    write_bytes(dir.file("old.las"), las12(format));
    const LoadedCloud c = read_las(dir.file("old.las"));
    ASSERT_EQ(c.cloud.points.size(), 2u) << format;
    EXPECT_EQ(c.info.version, "1.2");
    EXPECT_EQ(c.info.las_point_format, format);
    EXPECT_NEAR(c.cloud.points[1].position.x(), 1000 + 1.01, 1e-9);
    EXPECT_NEAR(c.cloud.points[1].position.y(), 2000 - 2.01, 1e-9);
    EXPECT_NEAR(c.cloud.points[1].position.z(), 3000 + 3.00, 1e-9);
    EXPECT_EQ(c.cloud.points[1].intensity, 41);
    EXPECT_EQ(c.cloud.has_color, format >= 2);
    if (format >= 2) {
      EXPECT_EQ(c.cloud.points[0].rgb[0], format == 2 ? 1234 : 4321);
    }
  }
}

TEST(Las, BrokenFilesGiveErrorsNamingTheFileAndTheField) {
  TempDir dir;
  const std::string path = dir.file("bad.las");
  write_las(path, sample_cloud({1, 2, 3}, false), {});
  const std::vector<char> good = read_bytes(path);
  auto expect = [&](std::vector<char> bytes, const std::string& needle) {
    write_bytes(path, bytes);
    const std::string e = error_of([&] { read_las(path); });
    EXPECT_NE(e.find(path), std::string::npos) << e;
    EXPECT_NE(e.find(needle), std::string::npos) << e;
  };
  std::vector<char> b = good;
  b[0] = 'X';
  expect(b, "signature at offset 0 is 'XASF'");
  expect(std::vector<char>(good.begin(), good.begin() + 100), "truncated");
  expect(std::vector<char>(good.begin(), good.end() - 7), "(offset 247)");
  b = good;
  set<std::uint64_t>(b, 247, 101);  // lying count: more points than the file holds
  expect(b, "point count 101 (offset 247)");
  b = good;
  set<std::uint64_t>(b, 247, 99);  // fewer: 30 bytes nobody accounts for
  expect(b, "wrong count");
  b = good;
  set<std::uint16_t>(b, 105, 20);  // record too short for format 6
  expect(b, "record length 20 (offset 105) is too small for point format 6");
  b = good;
  set<std::uint16_t>(b, 105, 31);  // wrong size: records no longer fill the data
  expect(b, "does not match");
  b = good;
  set<std::uint8_t>(b, 104, 4);
  expect(b, "point data format 4 (offset 104)");
  b = good;
  set<std::uint8_t>(b, 25, 5);
  expect(b, "unsupported LAS version 1.5");
  b = good;
  set<std::uint32_t>(b, 107, 5);  // legacy count disagrees
  expect(b, "legacy point count 5 (offset 107)");
  b = good;
  set<double>(b, 131, 0.0);
  expect(b, "scale factor");
  b = good;
  set<std::uint32_t>(b, 96, 10);
  expect(b, "offset to point data 10 at offset 96");
  expect({}, "truncated");
  EXPECT_NE(error_of([&] { read_las(dir.file("missing.las")); }).find("file not found"),
            std::string::npos);
}

TEST(PlyPcd, RoundTripsAreExactInDoublePrecisionFarFromTheOrigin) {
  TempDir dir;
  for (const bool color : {false, true}) {
    const PointCloud cloud = sample_cloud({123456.789012, -98765.4321, 10.5}, color);
    for (const std::string name : {"c.ply", "c.pcd"}) {
      write_cloud(dir.file(name), cloud);
      const LoadedCloud back = read_cloud(dir.file(name));
      ASSERT_EQ(back.cloud.points.size(), cloud.points.size()) << name;
      EXPECT_EQ(back.cloud.has_color, color);
      for (std::size_t i = 0; i < cloud.points.size(); ++i) {
        EXPECT_EQ(back.cloud.points[i].position, cloud.points[i].position) << name;
        EXPECT_EQ(back.cloud.points[i].intensity, cloud.points[i].intensity) << name;
        if (color && name == "c.ply") {
          EXPECT_EQ(back.cloud.points[i].rgb, cloud.points[i].rgb);
        }
        if (color && name == "c.pcd") {
          EXPECT_EQ(back.cloud.points[i].rgb[0], (cloud.points[i].rgb[0] >> 8) * 257);
        }
      }
    }
  }
}

TEST(PlyPcd, ReadsFloatCoordinatesFromOtherWriters) {
  TempDir dir;
  std::string ply =
      "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\n"
      "property float y\nproperty float z\nproperty uchar red\nproperty uchar green\n"
      "property uchar blue\nelement face 0\nproperty list uchar int vertex_indices\n"
      "end_header\n";
  std::vector<char> b(ply.begin(), ply.end());
  for (int i = 0; i < 2; ++i) {
    for (float v : {1.5f + i, -2.25f, 3.0f}) {
      b.insert(b.end(), reinterpret_cast<char*>(&v), reinterpret_cast<char*>(&v) + 4);
    }
    for (unsigned char c : {255, 0, 128}) b.push_back(static_cast<char>(c));
  }
  write_bytes(dir.file("f.ply"), b);
  const LoadedCloud c = read_cloud(dir.file("f.ply"));
  ASSERT_EQ(c.cloud.points.size(), 2u);
  EXPECT_EQ(c.cloud.points[1].position, Eigen::Vector3d(2.5, -2.25, 3.0));
  EXPECT_EQ(c.cloud.points[0].rgb, (std::array<std::uint16_t, 3>{65535, 0, 128 * 257}));
}

TEST(PlyPcd, BrokenFilesGiveClearErrors) {
  TempDir dir;
  const PointCloud cloud = sample_cloud({0, 0, 0}, false);
  for (const std::string name : {"b.ply", "b.pcd"}) {
    const std::string path = dir.file(name);
    write_cloud(path, cloud);
    const std::vector<char> good = read_bytes(path);
    write_bytes(path, std::vector<char>(good.begin(), good.end() - 5));
    std::string e = error_of([&] { read_cloud(path); });
    EXPECT_NE(e.find("truncated file or wrong count"), std::string::npos) << e;
    EXPECT_NE(e.find(path), std::string::npos) << e;
    std::string text(good.begin(), good.end());
    const std::string count = name == "b.ply" ? "vertex 100" : "POINTS 100";
    text.replace(text.find(count), count.size(), name == "b.ply" ? "vertex 900" : "POINTS 900");
    write_bytes(path, std::vector<char>(text.begin(), text.end()));
    e = error_of([&] { read_cloud(path); });
    EXPECT_NE(e.find("900 points"), std::string::npos) << e;
    write_bytes(path, std::vector<char>(good.begin(), good.begin() + 20));
    e = error_of([&] { read_cloud(path); });
    EXPECT_NE(e.find("truncated header"), std::string::npos) << e;
  }
  write_bytes(dir.file("x.ply"), {'p', 'l', 'x', '\n'});
  EXPECT_NE(error_of([&] { read_cloud(dir.file("x.ply")); }).find("not a PLY file"),
            std::string::npos);
  std::string ascii = "ply\nformat ascii 1.0\nelement vertex 0\nend_header\n";
  write_bytes(dir.file("a.ply"), std::vector<char>(ascii.begin(), ascii.end()));
  EXPECT_NE(error_of([&] { read_cloud(dir.file("a.ply")); }).find("format 'ascii'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_cloud(dir.file("map.xyz")); }).find("unknown point-cloud format"),
            std::string::npos);
}

TEST(Metadata, RoundTripsThroughText) {
  const MapMetadata m{
      .resolution = 0.05, .policy = DedupPolicy::kBrighter, .origin = {10000.5, -3.25, 0.1}};
  const auto back = parse_metadata(metadata_text(m));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->resolution, 0.05);
  EXPECT_EQ(back->policy, DedupPolicy::kBrighter);
  EXPECT_EQ(back->origin, m.origin);
  EXPECT_FALSE(parse_metadata("ubot_map resolution=x policy=first origin=0,0,0"));
  EXPECT_FALSE(parse_metadata("something else"));
}

}  // namespace
}  // namespace ubot::mapping
