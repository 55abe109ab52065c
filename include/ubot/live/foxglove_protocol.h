#pragma once
// The Foxglove WebSocket protocol v1 (foxglove/ws-protocol, docs/spec.md; subprotocols
// `foxglove.websocket.v1` and `foxglove.sdk.v1`) as values: what a client may send, parsed and
// checked, and what the server sends, written. No sockets here (live_server.h owns those), so
// the parser is a pure function the unit tests and the fuzz target call directly.
//
// A client frame that is not valid (not JSON, no `op`, an unknown op, a field of the wrong type,
// a binary frame too short or of an unknown opcode) is a ProtocolError whose message names the
// op and the field; the server answers it with a status message and goes on.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ubot::live {

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The subprotocols a server accepts, in order of preference.
inline constexpr std::array<std::string_view, 2> kSubprotocols = {"foxglove.websocket.v1",
                                                                  "foxglove.sdk.v1"};

// ---- client -> server (JSON text frames) ---------------------------------------------------

struct Subscription {
  std::uint32_t id;          // chosen by the client
  std::uint32_t channel_id;  // a server channel
};
struct SubscribeOp {
  std::vector<Subscription> subscriptions;
};
struct UnsubscribeOp {
  std::vector<std::uint32_t> subscription_ids;
};
struct ClientChannel {
  std::uint32_t id = 0;  // chosen by the client
  std::string topic;
  std::string encoding;  // one of the server's supportedEncodings
  std::string schema_name;
  std::string schema;  // optional
  std::string schema_encoding;
};
struct ClientAdvertiseOp {
  std::vector<ClientChannel> channels;
};
struct ClientUnadvertiseOp {
  std::vector<std::uint32_t> channel_ids;
};
// A parameter as setParameters carries it; `value` is its JSON text ("" = unset).
struct ParameterValue {
  std::string name;
  std::string value_json;
};
struct GetParametersOp {
  std::vector<std::string> names;  // empty: all
  std::string id;
};
struct SetParametersOp {
  std::vector<ParameterValue> parameters;
  std::string id;
};
struct SubscribeParameterUpdatesOp {
  std::vector<std::string> names;
  bool subscribe = true;  // false: unsubscribeParameterUpdates
};

using ClientTextOp =
    std::variant<SubscribeOp, UnsubscribeOp, ClientAdvertiseOp, ClientUnadvertiseOp,
                 GetParametersOp, SetParametersOp, SubscribeParameterUpdatesOp>;

// One JSON text frame of a client. ProtocolError when it is not one the protocol defines (ops
// of capabilities this server does not have — services, connection graph, assets — included:
// the error says which capability is missing).
ClientTextOp parse_client_text(std::string_view text);

// ---- client -> server (binary frames) ------------------------------------------------------

// Client Message Data (opcode 0x01): a message on a channel the client advertised. `payload`
// points into the frame given to the parser.
struct ClientMessageData {
  std::uint32_t channel_id;
  std::span<const std::uint8_t> payload;
};
// Playback Control Request (opcode 0x03, capability `playbackControl`; Foxglove SDK's
// PlaybackControlRequest): play or pause, at a speed, optionally from a seek time. Little endian:
// command u8, speed f32, had_seek u8, seek_time u64 (ns), request_id_len u32, request_id.
enum class PlaybackCommand : std::uint8_t { kPlay = 0, kPause = 1 };
struct PlaybackControlRequest {
  PlaybackCommand command = PlaybackCommand::kPlay;
  float speed = 1.0f;
  std::optional<std::uint64_t> seek_ns;
  std::string request_id;
};
using ClientBinaryOp = std::variant<ClientMessageData, PlaybackControlRequest>;
ClientBinaryOp parse_client_binary(std::span<const std::uint8_t> frame);

// ---- server -> client ----------------------------------------------------------------------

struct ServerChannel {
  std::uint32_t id = 0;
  std::string topic;
  std::string encoding;  // "cdr", "json"
  std::string schema_name;
  std::string schema;
  std::string schema_encoding;  // "ros2msg", "jsonschema"
};

enum class StatusLevel { kInfo = 0, kWarning = 1, kError = 2 };

// The log time a server plays back (ns): serverInfo's dataStartTime / dataEndTime, which the
// `playbackControl` capability requires.
struct TimeRange {
  std::uint64_t start = 0, end = 0;
};

struct ServerInfo {
  std::string name;
  std::vector<std::string> capabilities;
  std::vector<std::string> supported_encodings;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::string session_id;
  std::optional<TimeRange> data_range;
};

std::string server_info_json(const ServerInfo& info);
std::string advertise_json(std::span<const ServerChannel> channels);
std::string unadvertise_json(std::span<const std::uint32_t> channel_ids);
std::string status_json(StatusLevel level, std::string_view message);
// parameterValues: each value is JSON text already.
std::string parameter_values_json(std::span<const ParameterValue> parameters, std::string_view id);

// The 13 bytes before a Message Data payload: opcode 0x01, subscription id, timestamp (ns), LE.
std::array<std::uint8_t, 13> message_data_header(std::uint32_t subscription_id,
                                                 std::uint64_t timestamp_ns);
// A Time frame: opcode 0x02, timestamp (ns), LE.
std::array<std::uint8_t, 9> time_frame(std::uint64_t timestamp_ns);

// Playback State (opcode 0x05, capability `playbackControl`): the answer to a Playback Control
// Request (with its request_id) and the news of any other change (request_id empty). Little
// endian: opcode, status u8, current_time u64 (ns), speed f32, did_seek u8, request_id_len u32,
// request_id.
enum class PlaybackStatus : std::uint8_t { kPlaying = 0, kPaused = 1, kBuffering = 2, kEnded = 3 };
struct PlaybackState {
  PlaybackStatus status = PlaybackStatus::kPaused;
  std::uint64_t current_ns = 0;
  float speed = 1.0f;
  bool did_seek = false;
  std::string request_id;
};
std::string playback_state_frame(const PlaybackState& state);

}  // namespace ubot::live
