#pragma once
// A parsed YAML document kept compactly: every node is 20 bytes in one array, every scalar's text
// in one string, every container's children in one index array. yaml-cpp's node tree took about
// 60 bytes of memory per byte of a world (3.2 GB for 50 MB of obstacles, issue 16); this takes a
// few, proportional to the nodes. Parsed with libyaml's event API (the parser PyYAML, and so
// IR-SIM, uses), which also reads about 8x faster than yaml-cpp's.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ubot::config {

struct YamlMark {
  int line = -1;  // 0-based; -1: no position (a value made up by the reader)
  int column = -1;
};

enum class YamlKind : std::uint8_t { kNull, kScalar, kSequence, kMap };

struct YamlNode {
  YamlKind kind = YamlKind::kNull;
  // A scalar written plain and untagged: YAML 1.1 resolves those to booleans, numbers or null
  // as PyYAML does (ubot.irsim's env.config); a quoted or tagged one is a string.
  bool plain = false;
  std::uint32_t line = 0, column = 0;  // 0-based
  // Scalar: its text in scalars_ [begin, begin + size). Sequence: children_ [begin, begin +
  // size). Mapping: `size` pairs (key, value) in children_ [begin, begin + 2 size).
  std::uint32_t begin = 0, size = 0;
};

class YamlDocument {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  // Parses `text`, one document. Malformed YAML, a second document and duplicate keys are
  // ubot::Error "name:line:col: ..."; an empty document has root() == kNone. `progress` (if set)
  // hears the bytes parsed now and then.
  static std::shared_ptr<const YamlDocument> parse(
      std::string_view text, const std::string& name,
      const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = nullptr);

  std::uint32_t root() const { return root_; }
  const YamlNode& node(std::uint32_t id) const { return nodes_[id]; }
  YamlMark mark(std::uint32_t id) const {
    return {static_cast<int>(nodes_[id].line), static_cast<int>(nodes_[id].column)};
  }
  // A scalar's text ("" for any other node).
  std::string_view scalar(std::uint32_t id) const;
  // The sequence's element `index`, or kNone (out of range, or not a sequence).
  std::uint32_t item(std::uint32_t sequence, std::size_t index) const;
  // The value of the mapping's scalar key `key`, or kNone.
  std::uint32_t find(std::uint32_t map, std::string_view key) const;
  // A mapping's keys and values, alternating (empty for other nodes).
  std::span<const std::uint32_t> pairs(std::uint32_t map) const;

  std::size_t node_count() const { return nodes_.size(); }
  // Bytes held (capacity of the three arrays), for the linear-scaling test and estimates.
  std::size_t bytes() const;

 private:
  friend class YamlBuilder;
  std::vector<YamlNode> nodes_;
  std::vector<std::uint32_t> children_;
  std::string scalars_;
  std::uint32_t root_ = kNone;
};

}  // namespace ubot::config
