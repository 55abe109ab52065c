// check_ply_list_lengths: list lengths read from ascii and binary bodies, refused when they
// cannot fit in the bytes left (assimp allocated a 2147483647-item face list: 12 GB).
#include <gtest/gtest.h>

#include <string>

#include "support/error_of.h"
#include "ubot/core/ply_header.h"

namespace ubot {
namespace {

using testing_support::error_of;

// The error of check_ply_list_lengths on `file` (a header, then its body).
std::string lists_error(const std::string& file) {
  const PlyHeader h = read_ply_header(file, "f.ply");
  return error_of([&] { check_ply_list_lengths(h, std::string_view(file).substr(h.body_offset)); });
}

std::string mesh_header(const char* format, std::uint64_t faces, const char* count_type = "uchar") {
  return std::string("ply\nformat ") + format + " 1.0\nelement vertex 3\nproperty float x\n" +
         "property float y\nproperty float z\nelement face " + std::to_string(faces) +
         "\nproperty list " + count_type + " int vertex_indices\nend_header\n";
}

TEST(PlyLists, AsciiListsThatFitAreTaken) {
  EXPECT_EQ(lists_error(mesh_header("ascii", 2) + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n4 0 1 2 0\n"),
            "no error");
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\r\n\t0 +1 0 \n0\n\n"),
            "no error");  // an empty list, a CR, a tab, a '+', a blank line after the last record
}

TEST(PlyLists, AnAsciiListLongerThanTheFileIsRefused) {
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n2147483647 0 1 2\n"),
            "f.ply: element 'face' record 0 property 'vertex_indices' is a list of 2147483647 "
            "items, more than the 7 bytes left in the file can hold");
  // Within the bytes, but the values run out.
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n      \n"),
            "f.ply: line 4 of the body ends inside element 'face' record 0 property "
            "'vertex_indices'; an ASCII PLY mesh has one record a line");
}

// Assimp reads a record from its line; a walk that read values across lines parted ways with
// it, and a list length it never saw (a 522-byte file found by fuzz_mesh) took assimp 20 GB.
TEST(PlyLists, AsciiRecordsAreOneALineOfNumbers) {
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0 1 0 0 0 1 0 0"),
            "f.ply: line 1 of the body has values after element 'vertex' record 0's last "
            "property; an ASCII PLY mesh has one record a line");
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n\n1 0 0\n0 1 0\n3 0 1 2\n"),
            "f.ply: line 2 of the body is blank, where element 'vertex' record 1 was due");
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n4 0 2\xdc"
                                                  "3 1\n"),
            "f.ply: line 4 of the body: element 'face' record 0 property 'vertex_indices' is "
            "'2\xdc"
            "3', not a number");
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2 8888888888888\n"),
            "f.ply: line 4 of the body has values after element 'face' record 0's last property; "
            "an ASCII PLY mesh has one record a line");
}

TEST(PlyLists, AsciiLengthsMustBeWholeNumbers) {
  for (const char* length : {"-1", "3.0", "x", "99999999999999999999999"}) {
    EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n" + length + " 0 1 2\n"),
              std::string("f.ply: element 'face' record 0 property 'vertex_indices' has a list "
                          "length '") +
                  length + "' that is not a whole number");
  }
}

TEST(PlyLists, AsciiRecordsCutShortAreRefused) {
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1\n"),
            "f.ply: line 3 of the body ends inside element 'vertex' record 2 property 'z'; an "
            "ASCII PLY mesh has one record a line");
  EXPECT_EQ(lists_error(mesh_header("ascii", 1) + "0 0 0\n1 0 0\n0 1 0\n"),
            "f.ply: the file ends before element 'face' record 0");
}

std::string vertices_le() { return std::string(36, '\0'); }  // 3 vertices of 3 floats

TEST(PlyLists, BinaryListsAreReadInTheirByteOrder) {
  // A triangle: length 3 (uchar), then 3 ints.
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 1) + vertices_le() + '\3' +
                        std::string(12, '\0')),
            "no error");
  // A ushort length of 3: 03 00 little-endian, 00 03 big-endian.
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 1, "ushort") + vertices_le() +
                        std::string("\3\0", 2) + std::string(12, '\0')),
            "no error");
  EXPECT_EQ(lists_error(mesh_header("binary_big_endian", 1, "ushort") + vertices_le() +
                        std::string("\0\3", 2) + std::string(12, '\0')),
            "no error");
  // Read in the other order, 00 03 is 768 items.
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 1, "ushort") + vertices_le() +
                        std::string("\0\3", 2) + std::string(12, '\0')),
            "f.ply: element 'face' record 0 property 'vertex_indices' is a list of 768 items of 4 "
            "bytes, more than the 12 bytes left in the file");
}

TEST(PlyLists, ABinaryListLongerThanTheFileIsRefused) {
  // int length 2147483647 (7f ff ff ff little-endian: ff ff ff 7f).
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 1, "int") + vertices_le() +
                        "\xff\xff\xff\x7f" + std::string(12, '\0')),
            "f.ply: element 'face' record 0 property 'vertex_indices' is a list of 2147483647 "
            "items of 4 bytes, more than the 12 bytes left in the file");
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 1, "int") + vertices_le() +
                        "\xff\xff\xff\xff" + std::string(12, '\0')),
            "f.ply: element 'face' record 0 property 'vertex_indices' has a negative list length");
  // The file ends inside the second record's length.
  EXPECT_EQ(lists_error(mesh_header("binary_little_endian", 2, "int") + vertices_le() +
                        std::string("\0\0\0\0\0\0", 6)),
            "f.ply: the file ends inside element 'face' record 1 property 'vertex_indices'");
}

}  // namespace
}  // namespace ubot
