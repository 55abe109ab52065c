// The shared PLY header reader: what it reads from valid ascii and binary headers, byte counts
// computed by hand, and the exact message of each malformed header it refuses.
#include "ubot/core/ply_header.h"

#include <gtest/gtest.h>

#include <string>

#include "support/error_of.h"
#include "ubot/core/error.h"

namespace ubot {
namespace {

using testing_support::error_of;

std::string header_error(const std::string& text) {
  return error_of([&] { read_ply_header(text, "f.ply"); });
}

// The error of check_ply_body_size for `text` followed by `body_bytes` bytes.
std::string body_error(const std::string& text, std::uint64_t body_bytes) {
  const PlyHeader h = read_ply_header(text, "f.ply");
  return error_of([&] { check_ply_body_size(h, body_bytes); });
}

const std::string kAsciiMesh =
    "ply\nformat ascii 1.0\ncomment a triangle\nobj_info made by hand\nelement vertex 3\n"
    "property float x\nproperty float y\nproperty float z\nelement face 1\n"
    "property list uchar int vertex_indices\nend_header\n";

TEST(PlyHeader, ReadsAnAsciiMeshHeader) {
  const PlyHeader h = read_ply_header(kAsciiMesh + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "m.ply");
  EXPECT_EQ(h.source, "m.ply");
  EXPECT_EQ(h.format, PlyFormat::kAscii);
  EXPECT_EQ(h.version, "1.0");
  EXPECT_EQ(h.format_line, 2);
  EXPECT_EQ(h.body_offset, kAsciiMesh.size());
  ASSERT_EQ(h.lines.size(), 11u);
  EXPECT_EQ(h.lines[2], "comment a triangle");
  EXPECT_EQ(h.lines[10], "end_header");
  ASSERT_EQ(h.elements.size(), 2u);
  const PlyElement& v = h.elements[0];
  EXPECT_EQ(v.name, "vertex");
  EXPECT_EQ(v.count, 3u);
  EXPECT_EQ(v.line, 5);
  ASSERT_EQ(v.properties.size(), 3u);
  EXPECT_EQ(v.properties[2].name, "z");
  EXPECT_EQ(v.properties[2].line, 8);
  EXPECT_EQ(v.properties[2].type.kind, 'F');
  EXPECT_EQ(v.properties[2].type.size, 4);
  EXPECT_FALSE(v.has_list());
  const PlyElement& f = h.elements[1];
  EXPECT_EQ(f.name, "face");
  ASSERT_EQ(f.properties.size(), 1u);
  EXPECT_TRUE(f.properties[0].is_list);
  EXPECT_EQ(f.properties[0].count_type.kind, 'U');
  EXPECT_EQ(f.properties[0].count_type.size, 1);
  EXPECT_EQ(f.properties[0].type.kind, 'I');
  EXPECT_EQ(f.properties[0].type.size, 4);
  EXPECT_TRUE(f.has_list());
  // ascii: no fixed record size; at least one character a value (3 x 3 + 1 x 1 = 10 bytes).
  EXPECT_EQ(ply_record_bytes(h, v), std::nullopt);
  EXPECT_EQ(ply_least_element_bytes(h, v), 9u);
  EXPECT_EQ(ply_least_element_bytes(h, f), 1u);
  EXPECT_EQ(body_error(kAsciiMesh, 10), "no error");
  EXPECT_EQ(body_error(kAsciiMesh, 9),
            "f.ply: its elements need at least 10 bytes, the file has 9 after the header");
}

TEST(PlyHeader, ReadsABinaryCloudHeaderWithCrLfLineEnds) {
  const std::string text =
      "ply\r\nformat binary_little_endian 1.0\r\nelement vertex 100\r\nproperty double x\r\n"
      "property double y\r\nproperty double z\r\nproperty ushort intensity\r\nend_header\r\n";
  const PlyHeader h = read_ply_header(text, "c.ply");
  EXPECT_EQ(h.format, PlyFormat::kBinaryLittleEndian);
  EXPECT_EQ(h.body_offset, text.size());
  EXPECT_EQ(h.lines[1], "format binary_little_endian 1.0");
  const PlyElement& v = h.elements.at(0);
  EXPECT_EQ(ply_record_bytes(h, v), 8u + 8 + 8 + 2);
  EXPECT_EQ(ply_least_element_bytes(h, v), 2600u);
  EXPECT_EQ(body_error(text, 2600), "no error");
  EXPECT_EQ(body_error(text, 2599),
            "f.ply: its elements need at least 2600 bytes, the file has 2599 after the header");
  EXPECT_NO_THROW(require_scalar_properties(h, v));
}

TEST(PlyHeader, BigEndianListsCountTheirLengthOnly) {
  const std::string text =
      "ply\nformat binary_big_endian 1.0\nelement vertex 2\nproperty float32 x\n"
      "property uint8 flag\n\nelement face 3\nproperty list ushort uint32 vertex_indices\n"
      "property int16 material\nend_header\n";
  const PlyHeader h = read_ply_header(text, "f.ply");
  EXPECT_EQ(h.format, PlyFormat::kBinaryBigEndian);
  ASSERT_EQ(h.elements.size(), 2u);  // the blank line 6 is passed over
  EXPECT_EQ(h.elements[1].line, 7);
  EXPECT_EQ(ply_record_bytes(h, h.elements[0]), 5u);
  EXPECT_EQ(ply_record_bytes(h, h.elements[1]), std::nullopt);
  // 2 x (4 + 1) + 3 x (2 + 2): an empty list is a length and nothing else.
  EXPECT_EQ(body_error(text, 22), "no error");
  EXPECT_EQ(body_error(text, 21),
            "f.ply: its elements need at least 22 bytes, the file has 21 after the header");
}

TEST(PlyHeader, KnowsBothSpellingsOfEveryType) {
  const struct {
    const char* names[2];
    char kind;
    int size;
  } types[] = {{{"char", "int8"}, 'I', 1},     {{"uchar", "uint8"}, 'U', 1},
               {{"short", "int16"}, 'I', 2},   {{"ushort", "uint16"}, 'U', 2},
               {{"int", "int32"}, 'I', 4},     {{"uint", "uint32"}, 'U', 4},
               {{"float", "float32"}, 'F', 4}, {{"double", "float64"}, 'F', 8}};
  for (const auto& t : types) {
    for (const char* name : t.names) {
      const std::optional<PlyType> type = ply_type(name);
      ASSERT_TRUE(type) << name;
      EXPECT_EQ(type->kind, t.kind) << name;
      EXPECT_EQ(type->size, t.size) << name;
    }
  }
  EXPECT_EQ(ply_type("int64"), std::nullopt);
  EXPECT_EQ(ply_type("list"), std::nullopt);
  EXPECT_STREQ(ply_format_name(PlyFormat::kBinaryBigEndian), "binary_big_endian");
}

TEST(PlyHeader, AHeaderWithoutEndHeaderIsTruncated) {
  const std::string text = "ply\nformat ascii 1.0\nelement vertex 0\n";
  EXPECT_EQ(header_error(text), "f.ply: truncated header: no 'end_header' line in the first " +
                                    std::to_string(text.size()) + " bytes");
  // end_header without its line end: the body's offset is unknown.
  EXPECT_EQ(header_error(text + "end_header"),
            "f.ply: truncated header: no 'end_header' line in the first " +
                std::to_string(text.size() + 10) + " bytes");
  // Only the first 64 KiB are searched.
  const std::string longer =
      "ply\nformat ascii 1.0\ncomment " + std::string(70000, 'a') + "\nend_header\n";
  EXPECT_EQ(header_error(longer),
            "f.ply: truncated header: no 'end_header' line in the first 65536 bytes");
}

TEST(PlyHeader, AFileNotStartingWithPlyIsRefused) {
  const std::string why = "f.ply: not a PLY file: it does not start with the line 'ply' (offset 0)";
  EXPECT_EQ(header_error(""), why);
  EXPECT_EQ(header_error("ply"), why);
  EXPECT_EQ(header_error("plx\nformat ascii 1.0\nend_header\n"), why);
  EXPECT_EQ(header_error("ply 1\nformat ascii 1.0\nend_header\n"), why);
}

TEST(PlyHeader, FormatLinesAreChecked) {
  EXPECT_EQ(header_error("ply\nformat binary_middle_endian 1.0\nend_header\n"),
            "f.ply: header line 2: unknown format 'binary_middle_endian' (ascii, "
            "binary_little_endian or binary_big_endian)");
  EXPECT_EQ(header_error("ply\nformat ascii 2.0\nend_header\n"),
            "f.ply: header line 2: PLY version '2.0' is not supported (1.0 only)");
  EXPECT_EQ(header_error("ply\nformat ascii\nend_header\n"),
            "f.ply: header line 2: expected 'format FORMAT 1.0'");
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\ncomment x\nformat ascii 1.0\nend_header\n"),
            "f.ply: header line 4: a second 'format' line (the first: line 2)");
  EXPECT_EQ(header_error("ply\nelement vertex 0\nend_header\n"),
            "f.ply: no 'format' line in the header");
}

TEST(PlyHeader, BadCountsAreRefused) {
  for (const std::string count : {"-1", "12abc", "0x10", "18446744073709551616", "1.5"}) {
    EXPECT_EQ(header_error("ply\nformat ascii 1.0\nelement vertex " + count + "\nend_header\n"),
              "f.ply: header line 3: expected a count, got '" + count + "'");
  }
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\nelement vertex\nend_header\n"),
            "f.ply: header line 3: expected 'element NAME COUNT'");
  // The largest count is read as it is.
  const PlyHeader h = read_ply_header(
      "ply\nformat ascii 1.0\nelement v 18446744073709551615\nproperty uchar a\nend_header\n",
      "f.ply");
  EXPECT_EQ(h.elements.at(0).count, 18446744073709551615u);
}

TEST(PlyHeader, CountTimesSizeThatOverflowsIsRefusedWithoutWrappingAround) {
  // 2^61 records of 24 bytes are 3 x 2^64 bytes: wrapped around, that is 0 bytes.
  const std::string one =
      "ply\nformat binary_little_endian 1.0\nelement vertex 2305843009213693952\n"
      "property double x\nproperty double y\nproperty double z\nelement face 0\nend_header\n";
  const PlyHeader h = read_ply_header(one, "f.ply");
  EXPECT_EQ(ply_record_bytes(h, h.elements[0]), 24u);
  EXPECT_EQ(ply_least_element_bytes(h, h.elements[0]), std::nullopt);
  EXPECT_EQ(body_error(one, 24),
            "f.ply: header line 3: element 'vertex' declares 2305843009213693952 records of at "
            "least 24 bytes: with the elements before it, more than 2^64 bytes");
  // Each element fits in 64 bits (2^60 x 8 = 2^63 bytes), their sum does not.
  const std::string sum =
      "ply\nformat binary_little_endian 1.0\nelement a 1152921504606846976\n"
      "property double x\nelement b 1152921504606846976\nproperty float64 y\nend_header\n";
  const PlyHeader s = read_ply_header(sum, "f.ply");
  EXPECT_EQ(ply_least_element_bytes(s, s.elements[1]), std::uint64_t{1} << 63);
  EXPECT_EQ(body_error(sum, 1000),
            "f.ply: header line 5: element 'b' declares 1152921504606846976 records of at least "
            "8 bytes: with the elements before it, more than 2^64 bytes");
}

TEST(PlyHeader, ATruncatedBinaryBodyIsRefused) {
  const std::string text =
      "ply\nformat binary_little_endian 1.0\nelement vertex 10\nproperty float x\n"
      "property float y\nproperty float z\nend_header\n";
  EXPECT_EQ(body_error(text, 120), "no error");
  EXPECT_EQ(body_error(text, 119),
            "f.ply: its elements need at least 120 bytes, the file has 119 after the header");
  EXPECT_EQ(body_error(text, 0),
            "f.ply: its elements need at least 120 bytes, the file has 0 after the header");
}

TEST(PlyHeader, AListInAnElementTheCallerReadsAsRecordsIsRefused) {
  const PlyHeader h = read_ply_header(
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
      "property list uchar float normals\nend_header\n",
      "f.ply");
  EXPECT_EQ(error_of([&] { require_scalar_properties(h, h.elements[0]); }),
            "f.ply: header line 5: vertex property 'property list uchar float normals' is not "
            "supported (lists are not)");
}

TEST(PlyHeader, PropertyLinesAreChecked) {
  const std::string start = "ply\nformat ascii 1.0\nelement vertex 1\n";
  EXPECT_EQ(header_error(start + "property int64 x\nend_header\n"),
            "f.ply: header line 4: unknown PLY type 'int64'");
  EXPECT_EQ(header_error(start + "property float\nend_header\n"),
            "f.ply: header line 4: expected 'property TYPE NAME' or 'property list COUNT_TYPE "
            "ITEM_TYPE NAME'");
  EXPECT_EQ(header_error(start + "property list uchar x\nend_header\n"),
            "f.ply: header line 4: expected 'property TYPE NAME' or 'property list COUNT_TYPE "
            "ITEM_TYPE NAME'");
  EXPECT_EQ(header_error(start + "property list float uchar x\nend_header\n"),
            "f.ply: header line 4: a list's length type must be an integer type, not 'float'");
  EXPECT_EQ(header_error(start + "property float x\nproperty double x\nend_header\n"),
            "f.ply: header line 5: element 'vertex' already has a property 'x' (line 4)");
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\nproperty float x\nend_header\n"),
            "f.ply: header line 3: a property before any 'element' line");
}

TEST(PlyHeader, AnElementWithRecordsButNoPropertyIsRefused) {
  // Its records would take no bytes, so any count would pass the size check.
  EXPECT_EQ(header_error("ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\n"
                         "element face 0\nend_header\n"),
            "f.ply: header line 3: element 'vertex' has 1000000000000 records but no property");
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\nelement face 0\nelement edge 2\nend_header\n"),
            "f.ply: header line 4: element 'edge' has 2 records but no property");
}

TEST(PlyHeader, OtherLinesAndBytesAreRefused) {
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\nvertex 3\nend_header\n"),
            "f.ply: header line 3: unexpected 'vertex'");
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\nend_header now\n"),
            "f.ply: header line 3: expected 'end_header' alone on its line");
  EXPECT_EQ(header_error("ply\nformat ascii 1.0\ncomment caf\xc3\xa9\nend_header\n"),
            "f.ply: a header byte 0xC3 that is not text");
  EXPECT_EQ(header_error("ply\nformat\tascii 1.0\nend_header\n"),
            "f.ply: a header byte 0x09 that is not text");
}

// ubot's own readers (point clouds) take any bytes: a tab separates words, UTF-8 stays text.
TEST(PlyHeader, AnyBytesAreTakenWhenTheCallerAllowsThem) {
  const PlyHeader h = read_ply_header(
      "ply\nformat\tbinary_little_endian 1.0\ncomment caf\xc3\xa9\nelement vertex 2\n"
      "property float x\nend_header\n",
      "f.ply", PlyHeaderBytes::kAny);
  EXPECT_EQ(h.format, PlyFormat::kBinaryLittleEndian);
  ASSERT_EQ(h.elements.size(), 1u);
  EXPECT_EQ(h.elements[0].count, 2u);
  EXPECT_EQ(h.lines[2], "comment caf\xc3\xa9");
}

}  // namespace
}  // namespace ubot
