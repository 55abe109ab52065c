#include "ubot/ros2/names.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace ubot::ros2 {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find(sep, start), s.size());
    parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

}  // namespace

std::string sanitize_token(std::string_view token) {
  std::string out;
  // A leading digit is not allowed: prefix '_' (reserved up front; GCC 12 misreads insert(0)).
  if (!token.empty() && std::isdigit(static_cast<unsigned char>(token.front()))) out += '_';
  for (char c : token) {
    const char v = name_char(c) ? c : '_';
    if (v == '_' && !out.empty() && out.back() == '_') continue;
    out += v;
  }
  if (out == "_") return "";
  return out;
}

std::string resolve_namespace(std::string_view identity, std::string_view override_ns) {
  if (override_ns.empty()) {
    const std::string token = sanitize_token(identity);
    return fmt::format("/{}", token.empty() ? "robot" : token);
  }
  std::string ns;
  for (std::string_view segment : split(override_ns, '/')) {
    const std::string token = sanitize_token(segment);
    if (!token.empty()) ns += fmt::format("/{}", token);
  }
  return ns;  // "" = root
}

std::string resolve_topic(std::string_view ns, std::string_view suffix,
                          std::string_view topic_override) {
  if (!topic_override.empty()) {
    if (topic_override.front() == '/') return std::string(topic_override);
    return fmt::format("/{}", topic_override);
  }
  return fmt::format("{}/{}", ns, suffix);
}

std::string validate_topic(std::string_view topic) {
  if (topic.empty()) return "topic name is empty";
  if (topic.front() != '/') return fmt::format("topic '{}' does not start with '/'", topic);
  if (topic.size() > 1 && topic.back() == '/') {
    return fmt::format("topic '{}' ends with '/'", topic);
  }
  if (topic == "/") return "topic '/' has no name";
  for (std::string_view token : split(topic.substr(1), '/')) {
    if (token.empty()) return fmt::format("topic '{}' contains '//'", topic);
    if (std::isdigit(static_cast<unsigned char>(token.front()))) {
      return fmt::format("topic '{}': token '{}' starts with a digit", topic, token);
    }
    for (char c : token) {
      if (!name_char(c)) {
        return fmt::format("topic '{}': character '{}' is not allowed (only A-Z, a-z, 0-9, _, /)",
                           topic, c);
      }
    }
  }
  return "";
}

std::string dds_topic(std::string_view ros_topic) { return fmt::format("rt{}", ros_topic); }

}  // namespace ubot::ros2
