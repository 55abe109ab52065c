#include "ubot/config/yaml_document.h"

#include <fmt/format.h>
#include <yaml.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "ubot/core/error.h"

namespace ubot::config {
namespace {

// Where libyaml's 0-based `mark` is in file `name`, as an Error says it.
ErrorLocation mark_in(const std::string& name, const yaml_mark_t& mark) {
  return {name, static_cast<std::int64_t>(mark.line) + 1,
          static_cast<std::int64_t>(mark.column) + 1};
}

}  // namespace

// Builds a YamlDocument from libyaml's events. Containers are built without recursion (a
// deeply nested hostile file cannot overflow the stack): the children of the open containers
// wait in one `pending_` array and move into the document's children_ when their container ends.
class YamlBuilder {
 public:
  YamlBuilder(YamlDocument& doc, const std::string& name) : doc_(doc), name_(name) {}

  // Feeds one event; false once the first document is complete.
  bool handle(const yaml_event_t& e) {
    switch (e.type) {
      case YAML_SCALAR_EVENT:
        add_scalar(e);
        break;
      case YAML_ALIAS_EVENT:
        add_alias(e);
        break;
      case YAML_SEQUENCE_START_EVENT:
        open(YamlKind::kSequence, e, e.data.sequence_start.anchor);
        break;
      case YAML_MAPPING_START_EVENT:
        open(YamlKind::kMap, e, e.data.mapping_start.anchor);
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        close();
        break;
      case YAML_DOCUMENT_END_EVENT:
      case YAML_STREAM_END_EVENT:
        return false;  // the first document is complete (a second one is refused)
      default:
        break;
    }
    return true;
  }

 private:
  struct Open {
    std::uint32_t node;
    std::size_t first_pending;  // its children start at pending_[first_pending]
    bool key_next = true;       // mapping: the next complete node is a key (else a value)
    // A mapping's scalar keys once it has many (a linear scan is quicker for the usual few).
    std::unique_ptr<std::unordered_map<std::string_view, std::uint32_t>> keys;
  };
  static constexpr std::size_t kLinearKeys = 16;
  static constexpr std::size_t kMaxDepth = 256;
  // Names, numbers, paths and colours are short: 1 MiB is far beyond any of them.
  static constexpr std::size_t kMaxScalarBytes = 1 << 20;

  ErrorLocation at(const yaml_mark_t& mark) const { return mark_in(name_, mark); }

  // The key path of the node the next event adds ("robot[0].name"; a key adds its mapping's),
  // from the open containers: a mapping's last pending child is the key whose value is open, a
  // sequence's pending children count the items before.
  std::string key_path_here() const {
    std::string path;
    for (std::size_t i = 0; i < open_.size(); ++i) {
      const Open& o = open_[i];
      const std::size_t end = i + 1 < open_.size() ? open_[i + 1].first_pending : pending_.size();
      if (doc_.nodes_[o.node].kind == YamlKind::kSequence) {
        path += fmt::format("[{}]", end - o.first_pending);
      } else if (!o.key_next && end > o.first_pending) {
        const std::uint32_t key = pending_[end - 1];
        const std::string_view text =
            doc_.nodes_[key].kind == YamlKind::kScalar ? doc_.scalar(key) : "?";
        if (!path.empty()) path += '.';
        path += text;
      }
    }
    return path;
  }

  std::uint32_t new_node(YamlKind kind, const yaml_event_t& e) {
    if (doc_.nodes_.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
      throw Error(ErrorLocation(name_), "too many YAML nodes");
    }
    YamlNode n;
    n.kind = kind;
    n.line = static_cast<std::uint32_t>(e.start_mark.line);
    n.column = static_cast<std::uint32_t>(e.start_mark.column);
    doc_.nodes_.push_back(n);
    return static_cast<std::uint32_t>(doc_.nodes_.size() - 1);
  }

  // yaml-cpp's null: a plain, untagged "~", "null", "Null", "NULL" or nothing.
  static bool is_null(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    if (s.style != YAML_PLAIN_SCALAR_STYLE || s.tag != nullptr) return false;
    const std::string_view v(reinterpret_cast<const char*>(s.value), s.length);
    return v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL";
  }

  void add_scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    if (s.length > kMaxScalarBytes) {
      // Refused before it is copied into the document (issue 51: a 25 MB name was read, copied
      // and carried through the loader before an error named it).
      ErrorLocation where = at(e.start_mark);
      where.key_path = key_path_here();
      throw Error(where, fmt::format("a value {} is beyond the 1 MiB a value in a world may have",
                                     quote_value(std::string_view(
                                         reinterpret_cast<const char*>(s.value), s.length))));
    }
    const std::uint32_t id = new_node(is_null(e) ? YamlKind::kNull : YamlKind::kScalar, e);
    doc_.nodes_[id].plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.tag == nullptr;
    if (doc_.nodes_[id].kind == YamlKind::kScalar) {
      doc_.nodes_[id].begin = static_cast<std::uint32_t>(doc_.scalars_.size());
      doc_.nodes_[id].size = static_cast<std::uint32_t>(s.length);
      doc_.scalars_.append(reinterpret_cast<const char*>(s.value), s.length);
    }
    remember_anchor(s.anchor, id);
    add_child(id);
  }

  void add_alias(const yaml_event_t& e) {
    const std::string anchor(reinterpret_cast<const char*>(e.data.alias.anchor));
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {  // libyaml leaves unknown anchors to the loader
      throw Error(at(e.start_mark), fmt::format("unknown anchor {}", quote_value(anchor)));
    }
    // A container may not hold itself (a loop no reader could finish).
    for (const Open& o : open_) {
      if (o.node == it->second) {
        throw Error(at(e.start_mark), fmt::format("alias '*{}' inside its own anchor", anchor));
      }
    }
    add_child(it->second);  // the same node, as yaml-cpp's aliases share theirs
  }

  void open(YamlKind kind, const yaml_event_t& e, const yaml_char_t* anchor) {
    // libyaml checks every pending simple key at each token, O(depth) a token: a million '['
    // took minutes. No world nests more than a handful of levels.
    if (open_.size() >= kMaxDepth) {
      throw Error(at(e.start_mark), fmt::format("YAML nested deeper than {} levels", kMaxDepth));
    }
    const std::uint32_t id = new_node(kind, e);
    remember_anchor(anchor, id);
    open_.push_back({id, pending_.size(), true, nullptr});
  }

  void close() {
    const Open o = std::move(open_.back());
    open_.pop_back();
    const std::size_t count = pending_.size() - o.first_pending;
    YamlNode& n = doc_.nodes_[o.node];
    n.begin = static_cast<std::uint32_t>(doc_.children_.size());
    n.size = static_cast<std::uint32_t>(n.kind == YamlKind::kMap ? count / 2 : count);
    doc_.children_.insert(doc_.children_.end(), pending_.begin() + o.first_pending, pending_.end());
    pending_.resize(o.first_pending);
    add_child(o.node);
  }

  void add_child(std::uint32_t id) {
    if (open_.empty()) {
      doc_.root_ = id;
      return;
    }
    Open& o = open_.back();
    if (doc_.nodes_[o.node].kind == YamlKind::kMap) {
      if (o.key_next && doc_.nodes_[id].kind == YamlKind::kScalar) check_new_key(o, id);
      o.key_next = !o.key_next;
    }
    pending_.push_back(id);
  }

  // YAML forbids a key twice in one mapping (yaml-cpp kept one of them silently): the error
  // names both places.
  void check_new_key(Open& o, std::uint32_t key) {
    const std::string_view text = doc_.scalar(key);
    std::uint32_t previous = YamlDocument::kNone;
    const std::size_t keys = (pending_.size() - o.first_pending + 1) / 2;
    if (!o.keys && keys < kLinearKeys) {
      for (std::size_t k = o.first_pending; k < pending_.size(); k += 2) {
        if (doc_.nodes_[pending_[k]].kind == YamlKind::kScalar &&
            doc_.scalar(pending_[k]) == text) {
          previous = pending_[k];
        }
      }
    } else {
      if (!o.keys) {
        o.keys = std::make_unique<std::unordered_map<std::string_view, std::uint32_t>>();
        for (std::size_t k = o.first_pending; k < pending_.size(); k += 2) {
          // Scalar keys only, as in the linear search (a mapping or sequence key is no text).
          if (doc_.nodes_[pending_[k]].kind == YamlKind::kScalar) {
            o.keys->emplace(stable(pending_[k]), pending_[k]);
          }
        }
      }
      const auto [it, inserted] = o.keys->emplace(stable(key), key);
      if (!inserted) previous = it->second;
    }
    if (previous == YamlDocument::kNone) return;
    const YamlNode& a = doc_.nodes_[previous];
    const YamlNode& b = doc_.nodes_[key];
    throw Error({name_, b.line + 1, b.column + 1},
                fmt::format("duplicate key {} (first at line {}, column {}; YAML allows a key "
                            "once per mapping)",
                            quote_value(text), a.line + 1, a.column + 1));
  }

  // A key's text that outlives scalars_ growing: one copy per distinct key text of the mappings
  // long enough to be hashed, kept until the parse ends.
  std::string_view stable(std::uint32_t key) { return *key_texts_.emplace(doc_.scalar(key)).first; }

  void remember_anchor(const yaml_char_t* anchor, std::uint32_t id) {
    if (anchor != nullptr) anchors_[reinterpret_cast<const char*>(anchor)] = id;
  }

  YamlDocument& doc_;
  const std::string& name_;
  std::vector<Open> open_;
  std::vector<std::uint32_t> pending_;
  std::unordered_map<std::string, std::uint32_t> anchors_;
  std::unordered_set<std::string> key_texts_;
};

namespace {

[[noreturn]] void throw_parse_error(const yaml_parser_t& p, const std::string& name) {
  const std::string problem = p.problem != nullptr ? p.problem : "invalid YAML";
  const std::string context = p.context != nullptr
                                  ? fmt::format(" ({} at line {}, column {})", p.context,
                                                p.context_mark.line + 1, p.context_mark.column + 1)
                                  : "";
  throw Error(mark_in(name, p.problem_mark), fmt::format("malformed YAML: {}{}", problem, context));
}

struct Parser {
  yaml_parser_t p;
  Parser() { yaml_parser_initialize(&p); }
  ~Parser() { yaml_parser_delete(&p); }
};

struct Event {
  yaml_event_t e;
  ~Event() { yaml_event_delete(&e); }
};

// After the first document, only the stream's end may follow: a world is one document, and a
// second one (after '---') would be ignored without a word, as yaml-cpp's YAML::Load did.
void refuse_a_second_document(yaml_parser_t& p, const std::string& name) {
  Event next;
  if (yaml_parser_parse(&p, &next.e) == 0) throw_parse_error(p, name);
  if (next.e.type == YAML_DOCUMENT_START_EVENT) {
    throw Error(mark_in(name, next.e.start_mark),
                "a second YAML document; a world file is one document");
  }
}

}  // namespace

std::shared_ptr<const YamlDocument> YamlDocument::parse(
    std::string_view text, const std::string& name,
    const std::function<void(std::uint64_t done, std::uint64_t total)>& progress) {
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw Error(ErrorLocation(name),
                fmt::format("{} bytes is beyond the 4 GB a world file may have", text.size()));
  }
  auto doc = std::make_shared<YamlDocument>();
  Parser parser;
  yaml_parser_set_input_string(&parser.p, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  YamlBuilder builder(*doc, name);
  for (std::uint64_t events = 1;; ++events) {
    if (progress && events % 65536 == 0) progress(parser.p.mark.index, text.size());
    Event event;
    if (yaml_parser_parse(&parser.p, &event.e) == 0) throw_parse_error(parser.p, name);
    if (!builder.handle(event.e)) {
      if (event.e.type == YAML_DOCUMENT_END_EVENT) refuse_a_second_document(parser.p, name);
      break;
    }
  }
  doc->nodes_.shrink_to_fit();
  doc->children_.shrink_to_fit();
  doc->scalars_.shrink_to_fit();
  return doc;
}

std::string_view YamlDocument::scalar(std::uint32_t id) const {
  const YamlNode& n = nodes_[id];
  if (n.kind != YamlKind::kScalar) return {};
  return std::string_view(scalars_).substr(n.begin, n.size);
}

std::uint32_t YamlDocument::item(std::uint32_t sequence, std::size_t index) const {
  const YamlNode& n = nodes_[sequence];
  if (n.kind != YamlKind::kSequence || index >= n.size) return kNone;
  return children_[n.begin + index];
}

std::uint32_t YamlDocument::find(std::uint32_t map, std::string_view key) const {
  const std::span<const std::uint32_t> p = pairs(map);
  for (std::size_t k = 0; k + 1 < p.size(); k += 2) {
    if (nodes_[p[k]].kind == YamlKind::kScalar && scalar(p[k]) == key) return p[k + 1];
  }
  return kNone;
}

std::span<const std::uint32_t> YamlDocument::pairs(std::uint32_t map) const {
  const YamlNode& n = nodes_[map];
  if (n.kind != YamlKind::kMap) return {};
  return std::span<const std::uint32_t>(children_).subspan(n.begin, 2 * std::size_t{n.size});
}

std::size_t YamlDocument::bytes() const {
  return nodes_.capacity() * sizeof(YamlNode) + children_.capacity() * sizeof(std::uint32_t) +
         scalars_.capacity();
}

}  // namespace ubot::config
