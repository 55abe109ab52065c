// Hostile point-cloud files (issue 16, item 1): headers whose counts, sizes and offsets lie. Each
// case crashed or read outside the file before the readers checked it; now each is a ubot::Error
// naming the file and what is wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "support/error_of.h"
#include "ubot/core/error.h"
#include "ubot/mapping/point_cloud_io.h"

namespace ubot::mapping {
namespace {

std::vector<char> bytes(const std::string& header, std::size_t data_bytes) {
  std::vector<char> b(header.begin(), header.end());
  b.resize(b.size() + data_bytes, '\0');
  return b;
}

std::string pcd_header(const std::string& fields, const std::string& sizes,
                       const std::string& types, const std::string& counts, int points) {
  return "# .PCD v0.7\nVERSION 0.7\nFIELDS " + fields + "\nSIZE " + sizes + "\nTYPE " + types +
         "\nCOUNT " + counts + "\nWIDTH " + std::to_string(points) +
         "\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS " + std::to_string(points) +
         "\nDATA binary\n";
}

// The bytes write_las makes for `cloud`.
std::vector<char> las_bytes(const PointCloud& cloud, const CloudWriteOptions& options) {
  const std::string path = ::testing::TempDir() + "/hostile_written.las";
  write_las(path, cloud, options);
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

using testing_support::error_of;

void expect_error(const std::string& e, const std::string& needle) {
  EXPECT_NE(e.find("hostile.pcd"), std::string::npos) << e;
  EXPECT_NE(e.find(needle), std::string::npos) << e;
}

TEST(HostilePcd, CountTimesSizeThatWrapsAroundIsRefused) {
  // pad: 2^60 x 8 bytes puts x at byte 2^63; x: another 2^63 bytes wraps the record size to 0,
  // so y and z make a 16-byte record and x's offset points 8 EiB past each record. The old reader
  // accepted this header and dereferenced that offset (SIGSEGV in `ubot map stats`).
  const std::string h = pcd_header("pad x y z", "8 8 8 8", "F F F F",
                                   "1152921504606846976 1152921504606846976 1 1", 1);
  const std::string e = error_of([&] { read_pcd_bytes(bytes(h, 16), "hostile.pcd"); });
  expect_error(e, "field 'pad': COUNT 1152921504606846976 x SIZE 8 is too large");
}

TEST(HostilePcd, AFieldThatEndsOutsideTheRecordIsRefused) {
  // x has COUNT 0: its offset is the end of the 16-byte record, so reading its 8 bytes ran past
  // the last record, outside the file.
  const std::string h = pcd_header("y z x", "8 8 8", "F F F", "1 1 0", 1);
  expect_error(error_of([&] { read_pcd_bytes(bytes(h, 16), "hostile.pcd"); }),
               "field 'x': COUNT 0 x SIZE 8 is empty");
}

TEST(HostilePcd, PackedRgbMustBeFourBytes) {
  // A 1-byte 'rgb' at the end of a 13-byte record: the packed-colour read took 4 bytes.
  const std::string h = pcd_header("x y z rgb", "4 4 4 1", "F F F U", "1 1 1 1", 2);
  expect_error(error_of([&] { read_pcd_bytes(bytes(h, 26), "hostile.pcd"); }),
               "field 'rgb' must be 4 bytes");
}

TEST(HostilePcd, AHugePointCountIsRefusedWithoutAllocating) {
  const std::string h = pcd_header("x y z", "8 8 8", "F F F", "1 1 1", 0);
  std::string huge = h;
  huge.replace(huge.find("POINTS 0"), 8, "POINTS 768614336404564651");  // x 24 wraps past 2^64
  expect_error(error_of([&] { read_pcd_bytes(bytes(huge, 24), "hostile.pcd"); }),
               "POINTS says 768614336404564651 points of 24 bytes, but 24 bytes");
}

TEST(HostilePcd, ANanIntensityReadsAsZero) {
  // Found by fuzz_pcd: converting NaN to uint16 is undefined behaviour (UBSan report).
  const std::string h = pcd_header("x y z intensity", "4 4 4 4", "F F F F", "1 1 1 1", 1);
  std::vector<char> b = bytes(h, 16);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&b[h.size() + 12], &nan, 4);
  const LoadedCloud c = read_pcd_bytes(b, "nan.pcd");
  ASSERT_EQ(c.cloud.points.size(), 1u);
  EXPECT_EQ(c.cloud.points[0].intensity, 0);
}

TEST(HostilePly, AVertexCountThatWrapsAroundIsRefused) {
  // 2^61 vertices x 24 bytes is 3 x 2^64: the vertex block's size used to wrap to 0 bytes.
  const std::string h =
      "ply\nformat binary_little_endian 1.0\nelement vertex 2305843009213693952\n"
      "property double x\nproperty double y\nproperty double z\nelement face 0\nend_header\n";
  const std::string e = error_of([&] { read_ply_bytes(bytes(h, 24), "hostile.ply"); });
  EXPECT_NE(e.find("hostile.ply"), std::string::npos) << e;
  EXPECT_NE(e.find("says 2305843009213693952 points of 24 bytes, but 24 bytes"), std::string::npos)
      << e;
}

TEST(HostilePly, ElementsAfterTheVerticesMustFitTheRestOfTheFile) {
  // Two float vertices (24 bytes), then 2 faces of at least one byte each (their list lengths).
  const std::string h =
      "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\n"
      "property float y\nproperty float z\nelement face 2\n"
      "property list uchar int vertex_indices\nend_header\n";
  EXPECT_EQ(read_ply_bytes(bytes(h, 24 + 2), "faces.ply").cloud.points.size(), 2u);
  EXPECT_EQ(error_of([&] { read_ply_bytes(bytes(h, 24 + 1), "hostile.ply"); }),
            "hostile.ply: its elements need at least 26 bytes, the file has 25 after the header");
}

TEST(HostilePly, NegativeIntegersStillSignExtend) {
  // The sign extension of small signed fields no longer shifts a signed value (UBSan-clean).
  const std::string h =
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\n"
      "property char x\nproperty short y\nproperty int z\nend_header\n";
  std::vector<char> b(h.begin(), h.end());
  for (char c : {'\xfe', '\xfd', '\xff', '\xfc', '\xff', '\xff', '\xff'}) b.push_back(c);
  const LoadedCloud c = read_ply_bytes(b, "signed.ply");
  ASSERT_EQ(c.cloud.points.size(), 1u);
  EXPECT_EQ(c.cloud.points[0].position, Eigen::Vector3d(-2, -3, -4));
}

TEST(HostilePly, ANegativeByteColourReadsAsZero) {
  // Found by fuzz_ply in CI: a signed 1-byte channel below 0 went straight to uint16 (UBSan).
  const std::string h =
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
      "property float y\nproperty float z\nproperty char red\nproperty uchar green\n"
      "property char blue\nend_header\n";
  std::vector<char> b = bytes(h, 12);
  for (char c : {'\xff', '\xff', '\x7f'}) b.push_back(c);
  const LoadedCloud c = read_ply_bytes(b, "colour.ply");
  ASSERT_EQ(c.cloud.points.size(), 1u);
  EXPECT_TRUE(c.cloud.has_color);
  EXPECT_EQ(c.cloud.points[0].rgb[0], 0);
  EXPECT_EQ(c.cloud.points[0].rgb[1], 65535);
  EXPECT_EQ(c.cloud.points[0].rgb[2], 127 * 257);
}

TEST(HostileLas, AVlrRunningPastTheEndOfTheFileIsRefused) {
  // Found by fuzz_las: the VLR check compared with the point data offset, which may itself lie
  // past the end of the file; the metadata VLR was then copied from beyond the buffer.
  PointCloud cloud;
  cloud.points.resize(1);
  CloudWriteOptions options;
  options.map = MapMetadata{};
  const std::string path = "hostile.las";
  std::vector<char> b = las_bytes(cloud, options);
  const std::string description = "ubot map metadata";
  const auto at = std::search(b.begin(), b.end(), description.begin(), description.end());
  ASSERT_NE(at, b.end());
  const std::size_t vlr = static_cast<std::size_t>(at - b.begin()) - 22;
  const std::uint16_t length = 65535;
  std::memcpy(&b[vlr + 20], &length, 2);
  const std::uint32_t point_offset = static_cast<std::uint32_t>(vlr + 54 + length);
  std::memcpy(&b[96], &point_offset, 4);
  const std::string e = error_of([&] { read_las_bytes(b, path); });
  EXPECT_NE(e.find("hostile.las: truncated: VLR 1 (65535 bytes) needs 65535 byte(s)"),
            std::string::npos)
      << e;
}

TEST(HostileFiles, NonRegularFilesAreRefusedNamingThePath) {
  // /dev/zero never ends: reading it as a map would never finish.
  const std::string e = error_of([] { read_cloud("/dev/zero.las"); });
  EXPECT_NE(e.find("/dev/zero.las"), std::string::npos) << e;
  const std::string z = error_of([] { read_las("/dev/zero"); });
  EXPECT_NE(z.find("/dev/zero: not a regular file"), std::string::npos) << z;
}

TEST(HostileFiles, ASymbolicLinkLoopIsSaidSo) {
  const std::string link = testing::TempDir() + "/loop_" + std::to_string(::getpid()) + ".las";
  std::filesystem::remove(link);
  std::filesystem::create_symlink(link, link);  // a link to itself
  EXPECT_EQ(error_of([&] { read_las(link); }),
            link + ": a loop of symbolic links (each link leads to another)");
  std::filesystem::remove(link);
}

}  // namespace
}  // namespace ubot::mapping
