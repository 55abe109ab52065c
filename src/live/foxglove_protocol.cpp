#include "ubot/live/foxglove_protocol.h"

#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "ubot/core/json_writer.h"

namespace ubot::live {
namespace {

using nlohmann::json;

[[noreturn]] void fail(std::string_view op, std::string_view what) {
  throw ProtocolError(fmt::format("{}: {}", op, what));
}

const json& field(const json& j, std::string_view op, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) fail(op, fmt::format("missing field '{}'", name));
  return *it;
}

std::uint32_t uint32_of(const json& v, std::string_view op, std::string_view name) {
  if (!v.is_number_integer() ||
      (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
      v.get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max()) {
    fail(op, fmt::format("'{}' must be a whole number in [0, 2^32), got {}", name,
                         v.dump(-1, ' ', true).substr(0, 40)));
  }
  return static_cast<std::uint32_t>(v.get<std::uint64_t>());
}

std::string string_of(const json& v, std::string_view op, std::string_view name) {
  if (!v.is_string()) fail(op, fmt::format("'{}' must be a string", name));
  return v.get<std::string>();
}

const json& array_field(const json& j, std::string_view op, const char* name) {
  const json& a = field(j, op, name);
  if (!a.is_array()) fail(op, fmt::format("'{}' must be an array", name));
  return a;
}

std::vector<std::uint32_t> uint32_array(const json& j, std::string_view op, const char* name) {
  std::vector<std::uint32_t> out;
  for (const json& v : array_field(j, op, name)) out.push_back(uint32_of(v, op, name));
  return out;
}

std::vector<std::string> string_array(const json& j, std::string_view op, const char* name) {
  std::vector<std::string> out;
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return out;  // optional: empty means "all"
  if (!it->is_array()) fail(op, fmt::format("'{}' must be an array", name));
  for (const json& v : *it) out.push_back(string_of(v, op, name));
  return out;
}

std::string optional_string(const json& j, std::string_view op, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return "";
  return string_of(*it, op, name);
}

SubscribeOp subscribe(const json& j) {
  SubscribeOp out;
  for (const json& s : array_field(j, "subscribe", "subscriptions")) {
    if (!s.is_object()) fail("subscribe", "each subscription must be an object");
    out.subscriptions.push_back(
        {uint32_of(field(s, "subscribe", "id"), "subscribe", "id"),
         uint32_of(field(s, "subscribe", "channelId"), "subscribe", "channelId")});
  }
  return out;
}

ClientAdvertiseOp client_advertise(const json& j) {
  ClientAdvertiseOp out;
  for (const json& c : array_field(j, "advertise", "channels")) {
    if (!c.is_object()) fail("advertise", "each channel must be an object");
    ClientChannel ch;
    ch.id = uint32_of(field(c, "advertise", "id"), "advertise", "id");
    ch.topic = string_of(field(c, "advertise", "topic"), "advertise", "topic");
    ch.encoding = string_of(field(c, "advertise", "encoding"), "advertise", "encoding");
    ch.schema_name = string_of(field(c, "advertise", "schemaName"), "advertise", "schemaName");
    ch.schema = optional_string(c, "advertise", "schema");
    ch.schema_encoding = optional_string(c, "advertise", "schemaEncoding");
    out.channels.push_back(std::move(ch));
  }
  return out;
}

SetParametersOp set_parameters(const json& j) {
  SetParametersOp out;
  for (const json& p : array_field(j, "setParameters", "parameters")) {
    if (!p.is_object()) fail("setParameters", "each parameter must be an object");
    ParameterValue v;
    v.name = string_of(field(p, "setParameters", "name"), "setParameters", "name");
    if (const auto it = p.find("value"); it != p.end()) v.value_json = it->dump();
    out.parameters.push_back(std::move(v));
  }
  out.id = optional_string(j, "setParameters", "id");
  return out;
}

}  // namespace

ClientTextOp parse_client_text(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ProtocolError("not a JSON text");
  if (!j.is_object()) throw ProtocolError("a text message must be a JSON object");
  const auto op_it = j.find("op");
  if (op_it == j.end() || !op_it->is_string()) {
    throw ProtocolError("a text message needs a string field 'op'");
  }
  const std::string& op = op_it->get_ref<const std::string&>();
  if (op == "subscribe") return subscribe(j);
  if (op == "unsubscribe") return UnsubscribeOp{uint32_array(j, op, "subscriptionIds")};
  if (op == "advertise") return client_advertise(j);
  if (op == "unadvertise") return ClientUnadvertiseOp{uint32_array(j, op, "channelIds")};
  if (op == "getParameters") {
    return GetParametersOp{string_array(j, op, "parameterNames"), optional_string(j, op, "id")};
  }
  if (op == "setParameters") return set_parameters(j);
  if (op == "subscribeParameterUpdates" || op == "unsubscribeParameterUpdates") {
    return SubscribeParameterUpdatesOp{string_array(j, op, "parameterNames"),
                                       op == "subscribeParameterUpdates"};
  }
  if (op == "subscribeConnectionGraph" || op == "unsubscribeConnectionGraph") {
    fail(op, "this server does not have the 'connectionGraph' capability");
  }
  if (op == "fetchAsset") fail(op, "this server does not have the 'assets' capability");
  throw ProtocolError(fmt::format("unknown op '{}'", op.substr(0, 64)));
}

ClientMessageData parse_client_binary(std::span<const std::uint8_t> frame) {
  if (frame.empty()) throw ProtocolError("an empty binary message");
  const std::uint8_t opcode = frame[0];
  if (opcode == 0x02) {
    throw ProtocolError(
        "service call request: this server does not have the 'services' "
        "capability");
  }
  if (opcode != 0x01) throw ProtocolError(fmt::format("unknown binary opcode 0x{:02x}", opcode));
  if (frame.size() < 5) {
    throw ProtocolError(fmt::format(
        "client message data: {} bytes, fewer than the 5 of opcode and channel id", frame.size()));
  }
  const std::uint32_t channel =
      static_cast<std::uint32_t>(frame[1]) | static_cast<std::uint32_t>(frame[2]) << 8 |
      static_cast<std::uint32_t>(frame[3]) << 16 | static_cast<std::uint32_t>(frame[4]) << 24;
  return {channel, frame.subspan(5)};
}

namespace {

void string_list(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.key(key).begin_array();
  for (const std::string& s : items) w.value(s);
  w.end_array();
}

template <std::size_t N>
void put_le(std::array<std::uint8_t, N>& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace

std::string server_info_json(const ServerInfo& info) {
  JsonWriter w;
  w.begin_object().key("op").value("serverInfo").key("name").value(info.name);
  string_list(w, "capabilities", info.capabilities);
  string_list(w, "supportedEncodings", info.supported_encodings);
  w.key("metadata").begin_object();
  for (const auto& [k, v] : info.metadata) w.key(k).value(v);
  w.end_object();
  w.key("sessionId").value(info.session_id).end_object();
  return std::move(w.str());
}

std::string advertise_json(std::span<const ServerChannel> channels) {
  JsonWriter w;
  w.begin_object().key("op").value("advertise").key("channels").begin_array();
  for (const ServerChannel& c : channels) {
    w.begin_object()
        .key("id")
        .value(static_cast<std::uint64_t>(c.id))
        .key("topic")
        .value(c.topic)
        .key("encoding")
        .value(c.encoding)
        .key("schemaName")
        .value(c.schema_name)
        .key("schema")
        .value(c.schema);
    if (!c.schema_encoding.empty()) w.key("schemaEncoding").value(c.schema_encoding);
    w.end_object();
  }
  w.end_array().end_object();
  return std::move(w.str());
}

std::string unadvertise_json(std::span<const std::uint32_t> channel_ids) {
  JsonWriter w;
  w.begin_object().key("op").value("unadvertise").key("channelIds").begin_array();
  for (const std::uint32_t id : channel_ids) w.value(static_cast<std::uint64_t>(id));
  w.end_array().end_object();
  return std::move(w.str());
}

std::string status_json(StatusLevel level, std::string_view message) {
  JsonWriter w;
  w.begin_object()
      .key("op")
      .value("status")
      .key("level")
      .value(static_cast<int>(level))
      .key("message")
      .value(message)
      .end_object();
  return std::move(w.str());
}

std::string parameter_values_json(std::span<const ParameterValue> parameters, std::string_view id) {
  // The values are JSON already: written between the writer's pieces.
  std::string out = R"({"op":"parameterValues","parameters":[)";
  bool first = true;
  for (const ParameterValue& p : parameters) {
    if (!first) out += ',';
    first = false;
    JsonWriter name;
    name.value(p.name);
    out += R"({"name":)" + name.str();
    if (!p.value_json.empty()) out += R"(,"value":)" + p.value_json;
    out += '}';
  }
  out += ']';
  if (!id.empty()) {
    JsonWriter v;
    v.value(id);
    out += R"(,"id":)" + v.str();
  }
  out += '}';
  return out;
}

std::array<std::uint8_t, 13> message_data_header(std::uint32_t subscription_id,
                                                 std::uint64_t timestamp_ns) {
  std::array<std::uint8_t, 13> out{};
  out[0] = 0x01;
  put_le(out, 1, subscription_id, 4);
  put_le(out, 5, timestamp_ns, 8);
  return out;
}

std::array<std::uint8_t, 9> time_frame(std::uint64_t timestamp_ns) {
  std::array<std::uint8_t, 9> out{};
  out[0] = 0x02;
  put_le(out, 1, timestamp_ns, 8);
  return out;
}

}  // namespace ubot::live
