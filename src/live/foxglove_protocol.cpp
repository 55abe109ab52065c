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

// nlohmann reads a non-negative whole number as number_unsigned, a negative one as
// number_integer and anything with a fraction or exponent as number_float.
std::uint32_t uint32_of(const json& v, std::string_view op, std::string_view name) {
  if (!v.is_number_unsigned() ||
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

std::uint32_t uint32_field(const json& j, std::string_view op, const char* name) {
  return uint32_of(field(j, op, name), op, name);
}

std::string string_field(const json& j, std::string_view op, const char* name) {
  return string_of(field(j, op, name), op, name);
}

// An optional field: "" when absent or null.
std::string optional_string(const json& j, std::string_view op, const char* name) {
  const auto it = j.find(name);
  if (it == j.end() || it->is_null()) return "";
  return string_of(*it, op, name);
}

const json& array_field(const json& j, std::string_view op, const char* name) {
  const json& a = field(j, op, name);
  if (!a.is_array()) fail(op, fmt::format("'{}' must be an array", name));
  return a;
}

// Each element of the array field `name` through `read` (the element, with its name for errors).
template <class T, class Read>
std::vector<T> array_of(const json& j, std::string_view op, const char* name, Read read) {
  std::vector<T> out;
  for (const json& v : array_field(j, op, name)) out.push_back(read(v, op, name));
  return out;
}

// The same for an array of objects (`what`: "subscription", "channel", ... for errors).
template <class T, class Read>
std::vector<T> objects_of(const json& j, std::string_view op, const char* name, const char* what,
                          Read read) {
  return array_of<T>(j, op, name, [&](const json& v, std::string_view, std::string_view) {
    if (!v.is_object()) fail(op, fmt::format("each {} must be an object", what));
    return read(v);
  });
}

// An optional array of names: empty (= all) when absent or null.
std::vector<std::string> names_of(const json& j, std::string_view op) {
  const auto it = j.find("parameterNames");
  if (it == j.end() || it->is_null()) return {};
  return array_of<std::string>(j, op, "parameterNames", string_of);
}

SubscribeOp subscribe(const json& j) {
  constexpr std::string_view op = "subscribe";
  return {objects_of<Subscription>(j, op, "subscriptions", "subscription", [&](const json& s) {
    return Subscription{uint32_field(s, op, "id"), uint32_field(s, op, "channelId")};
  })};
}

ClientAdvertiseOp client_advertise(const json& j) {
  constexpr std::string_view op = "advertise";
  return {objects_of<ClientChannel>(j, op, "channels", "channel", [&](const json& c) {
    return ClientChannel{.id = uint32_field(c, op, "id"),
                         .topic = string_field(c, op, "topic"),
                         .encoding = string_field(c, op, "encoding"),
                         .schema_name = string_field(c, op, "schemaName"),
                         .schema = optional_string(c, op, "schema"),
                         .schema_encoding = optional_string(c, op, "schemaEncoding")};
  })};
}

SetParametersOp set_parameters(const json& j) {
  constexpr std::string_view op = "setParameters";
  SetParametersOp out;
  out.parameters = objects_of<ParameterValue>(j, op, "parameters", "parameter", [&](const json& p) {
    const auto value = p.find("value");
    return ParameterValue{string_field(p, op, "name"), value == p.end() ? "" : value->dump()};
  });
  out.id = optional_string(j, op, "id");
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
  if (op == "unsubscribe") {
    return UnsubscribeOp{array_of<std::uint32_t>(j, op, "subscriptionIds", uint32_of)};
  }
  if (op == "advertise") return client_advertise(j);
  if (op == "unadvertise") {
    return ClientUnadvertiseOp{array_of<std::uint32_t>(j, op, "channelIds", uint32_of)};
  }
  if (op == "getParameters") {
    return GetParametersOp{names_of(j, op), optional_string(j, op, "id")};
  }
  if (op == "setParameters") return set_parameters(j);
  if (op == "subscribeParameterUpdates" || op == "unsubscribeParameterUpdates") {
    return SubscribeParameterUpdatesOp{names_of(j, op), op == "subscribeParameterUpdates"};
  }
  if (op == "subscribeConnectionGraph" || op == "unsubscribeConnectionGraph") {
    fail(op, "this server does not have the 'connectionGraph' capability");
  }
  if (op == "fetchAsset") fail(op, "this server does not have the 'assets' capability");
  throw ProtocolError(fmt::format("unknown op '{}'", op.substr(0, 64)));
}

namespace {

// Little-endian reads from a binary frame whose size was checked.
std::uint64_t get_le(std::span<const std::uint8_t> frame, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(frame[at + i]) << (8 * i);
  return v;
}

PlaybackControlRequest parse_playback_control(std::span<const std::uint8_t> frame) {
  constexpr std::string_view op = "playback control request";
  constexpr std::size_t kFixed = 1 + 1 + 4 + 1 + 8 + 4;  // opcode .. request_id_len
  if (frame.size() < kFixed) {
    fail(op,
         fmt::format("{} bytes, fewer than the {} before its request id", frame.size(), kFixed));
  }
  PlaybackControlRequest r;
  if (frame[1] > 1) fail(op, fmt::format("command {} is neither play (0) nor pause (1)", frame[1]));
  r.command = static_cast<PlaybackCommand>(frame[1]);
  const auto speed_bits = static_cast<std::uint32_t>(get_le(frame, 2, 4));
  std::memcpy(&r.speed, &speed_bits, sizeof r.speed);
  if (frame[6] != 0) r.seek_ns = get_le(frame, 7, 8);  // had_seek: any non-zero byte, as the SDK
  const std::uint64_t id_size = get_le(frame, 15, 4);
  if (id_size > frame.size() - kFixed) {
    fail(op, fmt::format("its request id is said to have {} bytes, and only {} follow", id_size,
                         frame.size() - kFixed));
  }
  r.request_id.assign(reinterpret_cast<const char*>(frame.data() + kFixed), id_size);
  return r;
}

}  // namespace

ClientBinaryOp parse_client_binary(std::span<const std::uint8_t> frame) {
  if (frame.empty()) throw ProtocolError("an empty binary message");
  const std::uint8_t opcode = frame[0];
  if (opcode == 0x02) {
    throw ProtocolError(
        "service call request: this server does not have the 'services' "
        "capability");
  }
  if (opcode == 0x03) return parse_playback_control(frame);
  if (opcode != 0x01) throw ProtocolError(fmt::format("unknown binary opcode 0x{:02x}", opcode));
  if (frame.size() < 5) {
    throw ProtocolError(fmt::format(
        "client message data: {} bytes, fewer than the 5 of opcode and channel id", frame.size()));
  }
  return ClientMessageData{static_cast<std::uint32_t>(get_le(frame, 1, 4)), frame.subspan(5)};
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
  w.key("sessionId").value(info.session_id);
  if (info.data_range) {
    // {sec, nsec}: a u64 of nanoseconds would lose precision as a JSON number.
    const auto time = [&w](std::string_view key, std::uint64_t ns) {
      w.key(key).begin_object().key("sec").value(ns / 1000000000u);
      w.key("nsec").value(ns % 1000000000u).end_object();
    };
    time("dataStartTime", info.data_range->start);
    time("dataEndTime", info.data_range->end);
  }
  w.end_object();
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

std::string playback_state_frame(const PlaybackState& state) {
  std::string out(1 + 1 + 8 + 4 + 1 + 4, '\0');
  const auto put = [&out](std::size_t at, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out[at + i] = static_cast<char>(v >> (8 * i));
  };
  std::uint32_t speed_bits = 0;
  std::memcpy(&speed_bits, &state.speed, sizeof speed_bits);
  put(0, 0x05, 1);
  put(1, static_cast<std::uint8_t>(state.status), 1);
  put(2, state.current_ns, 8);
  put(10, speed_bits, 4);
  put(14, state.did_seek ? 1 : 0, 1);
  put(15, state.request_id.size(), 4);
  return out + state.request_id;
}

}  // namespace ubot::live
