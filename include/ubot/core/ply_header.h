#pragma once
// The header of a PLY file (the text from `ply` to `end_header` before the body), read by one
// reader for the whole project: the point-cloud reader (mapping: read_ply_bytes) and the check a
// PLY mesh passes before assimp reads it (config: read_mesh_file). It checks every header line
// and, in check_ply_body_size, that the declared elements fit in the bytes after the header, so
// that no caller trusts a count from the file; check_ply_list_lengths reads the body's list
// lengths only.
//
// Lines it takes (one word apart; a line may end in "\r\n"):
//   ply                                                   the first line
//   format ascii|binary_little_endian|binary_big_endian 1.0   exactly once
//   element NAME COUNT                                    COUNT a decimal uint64
//   property TYPE NAME                                    TYPE: see ply_type
//   property list COUNT_TYPE ITEM_TYPE NAME               COUNT_TYPE an integer type
//   comment ... / obj_info ...                            kept in `lines` only
//   end_header                                            the last line
// Blank lines are passed over. Errors are ubot::Error "SOURCE: header line N: ..." (line 1 is
// `ply`), SOURCE being what the caller names the file by.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ubot {

enum class PlyFormat { kAscii, kBinaryLittleEndian, kBinaryBigEndian };
// The word of the format line: "ascii", "binary_little_endian", "binary_big_endian".
const char* ply_format_name(PlyFormat format);

// A scalar type: how its bits read and its size.
struct PlyType {
  char kind = 'F';  // 'F' float, 'I' signed integer, 'U' unsigned integer
  int size = 4;     // bytes: 1, 2, 4 or 8
};
// The type a header names, in either spelling (char/int8, uchar/uint8, short/int16,
// ushort/uint16, int/int32, uint/uint32, float/float32, double/float64); nullopt if unknown.
std::optional<PlyType> ply_type(std::string_view name);

struct PlyProperty {
  std::string name;
  PlyType type;          // the value's type, or a list's item type
  bool is_list = false;  // `property list COUNT_TYPE ITEM_TYPE NAME`
  PlyType count_type;    // the type of a list's length (is_list only)
  int line = 0;          // its header line
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;  // records
  int line = 0;             // its header line
  std::vector<PlyProperty> properties;
  bool has_list() const;
};

struct PlyHeader {
  std::string source;  // how errors name the file (the `source` given to read_ply_header)
  PlyFormat format = PlyFormat::kAscii;
  std::string version;  // "1.0"
  int format_line = 0;
  std::vector<PlyElement> elements;  // in file order; a file may have none
  std::vector<std::string> lines;    // every header line, `ply` to `end_header`, without line end
  std::size_t body_offset = 0;       // the header's bytes, line ends included: the body's offset
  // "SOURCE: header line N: what" (N the line, `ply` being 1).
  std::string error_at(int line, std::string_view what) const;
};

// A header longer than this is refused (ubot's own are a few hundred bytes).
inline constexpr std::size_t kMaxPlyHeaderBytes = std::size_t{1} << 16;

// Reads the header at the start of `bytes` (the file, or at least its first kMaxPlyHeaderBytes
// bytes). `source` starts every error message: the path, or the path and what the file was to be
// ("m.ply: not a valid PLY mesh"). Besides syntax, it refuses a second format line, a property
// outside an element, two properties of one name in an element, a list whose length type is not
// an integer and an element with records but no property (it would take no bytes: any count
// would fit). With kPrintableAscii it also refuses a header byte that is not printable ASCII (a
// tab or UTF-8 included): what a file handed to assimp needs, as assimp 5.2 crashed on one.
// ubot's own readers take kAny: words are then split at any whitespace.
enum class PlyHeaderBytes { kPrintableAscii, kAny };
PlyHeader read_ply_header(std::string_view bytes, const std::string& source,
                          PlyHeaderBytes allowed = PlyHeaderBytes::kPrintableAscii);

// The bytes one record of `element` takes when that is fixed (a binary format, no list), else
// nullopt.
std::optional<std::uint64_t> ply_record_bytes(const PlyHeader& header, const PlyElement& element);

// The fewest bytes the body of `element` can take, or nullopt above 2^64 - 1: binary records
// count each scalar's size and a list its length only (it may be empty); ascii records count one
// character a value.
std::optional<std::uint64_t> ply_least_element_bytes(const PlyHeader& header,
                                                     const PlyElement& element);

// Throws unless all the elements can fit in the `body_bytes` after the header: "SOURCE: its
// elements need at least N bytes, the file has M after the header", or "SOURCE: header line N:
// element 'E' declares C records of at least S bytes: with the elements before it, more than
// 2^64 bytes" when a product or the sum would wrap around (it is computed without wrapping).
void check_ply_body_size(const PlyHeader& header, std::uint64_t body_bytes);

// Walks the records of `body` (the bytes after the header) reading only the lengths of lists,
// and throws when a list cannot fit in the bytes left ("SOURCE: element 'face' record 0
// property 'vertex_indices' is a list of 2147483647 items, more than the 130 bytes left in the
// file can hold"), a length is negative or not a whole number, or the file ends inside a record:
// a reader that trusts a length allocates it first (assimp: 12 GB for a 150-byte file). Linear
// in the body's size; run check_ply_body_size first, so that the counts of records are bounded.
void check_ply_list_lengths(const PlyHeader& header, std::string_view body);

// Throws unless every property of `element` is a scalar: for callers that read fixed-size
// records ("SOURCE: header line N: vertex property 'property list ...' is not supported (lists
// are not)").
void require_scalar_properties(const PlyHeader& header, const PlyElement& element);

}  // namespace ubot
