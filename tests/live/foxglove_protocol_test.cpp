// The Foxglove protocol's frames, parsed and written (src/live/foxglove_protocol.cpp), and the
// Twist a client publishes, decoded (deserialize_cdr): what the spec says, and the errors that
// name what is wrong.
#include "ubot/live/foxglove_protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "ubot/ros2/cdr.h"

namespace ubot::live {
namespace {

using ::testing::HasSubstr;

std::string error_of(std::string_view text) {
  try {
    parse_client_text(text);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

std::string binary_error_of(std::vector<std::uint8_t> frame) {
  try {
    parse_client_binary(frame);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(FoxgloveProtocol, ParsesSubscribeAndUnsubscribe) {
  const auto op = std::get<SubscribeOp>(parse_client_text(
      R"({"op":"subscribe","subscriptions":[{"id":0,"channelId":3},{"id":4294967295,"channelId":5}]})"));
  ASSERT_EQ(op.subscriptions.size(), 2u);
  EXPECT_EQ(op.subscriptions[0].channel_id, 3u);
  EXPECT_EQ(op.subscriptions[1].id, 4294967295u);
  const auto un =
      std::get<UnsubscribeOp>(parse_client_text(R"({"op":"unsubscribe","subscriptionIds":[0,1]})"));
  EXPECT_EQ(un.subscription_ids, (std::vector<std::uint32_t>{0, 1}));
}

TEST(FoxgloveProtocol, ParsesClientAdvertiseWithOptionalSchema) {
  const auto op = std::get<ClientAdvertiseOp>(parse_client_text(
      R"({"op":"advertise","channels":[{"id":2,"topic":"/r/cmd_vel","encoding":"cdr",)"
      R"("schemaName":"geometry_msgs/msg/Twist"},{"id":3,"topic":"t","encoding":"json",)"
      R"("schemaName":"X","schema":"{}","schemaEncoding":"jsonschema"}]})"));
  ASSERT_EQ(op.channels.size(), 2u);
  EXPECT_EQ(op.channels[0].topic, "/r/cmd_vel");
  EXPECT_EQ(op.channels[0].schema, "");
  EXPECT_EQ(op.channels[1].schema_encoding, "jsonschema");
}

TEST(FoxgloveProtocol, ParsesParameterOps) {
  const auto set = std::get<SetParametersOp>(parse_client_text(
      R"({"op":"setParameters","parameters":[{"name":"/ubot/speed","value":2.5},{"name":"/u"}],"id":"r1"})"));
  ASSERT_EQ(set.parameters.size(), 2u);
  EXPECT_EQ(set.parameters[0].value_json, "2.5");
  EXPECT_EQ(set.parameters[1].value_json, "");  // unset
  EXPECT_EQ(set.id, "r1");
  const auto get = std::get<GetParametersOp>(parse_client_text(R"({"op":"getParameters"})"));
  EXPECT_TRUE(get.names.empty());
}

TEST(FoxgloveProtocol, RefusesWhatTheProtocolDoesNotDefine) {
  EXPECT_EQ(error_of("not json"), "not a JSON text");
  EXPECT_EQ(error_of("[1]"), "a text message must be a JSON object");
  EXPECT_EQ(error_of(R"({"op":1})"), "a text message needs a string field 'op'");
  EXPECT_EQ(error_of(R"({"op":"dance"})"), "unknown op 'dance'");
  EXPECT_EQ(error_of(R"({"op":"subscribe"})"), "subscribe: missing field 'subscriptions'");
  EXPECT_THAT(error_of(R"({"op":"subscribe","subscriptions":[{"id":-1,"channelId":0}]})"),
              HasSubstr("'id' must be a whole number in [0, 2^32)"));
  EXPECT_THAT(error_of(R"({"op":"subscribe","subscriptions":[{"id":4294967296,"channelId":0}]})"),
              HasSubstr("'id' must be a whole number"));
  EXPECT_THAT(error_of(R"({"op":"subscribe","subscriptions":[{"id":1.5,"channelId":0}]})"),
              HasSubstr("'id' must be a whole number"));
  EXPECT_THAT(error_of(R"({"op":"advertise","channels":[{"id":1,"topic":2}]})"),
              HasSubstr("advertise: 'topic' must be a string"));
  EXPECT_THAT(error_of(R"({"op":"fetchAsset","uri":"x","requestId":1})"),
              HasSubstr("'assets' capability"));
  EXPECT_THAT(error_of(R"({"op":"subscribeConnectionGraph"})"),
              HasSubstr("'connectionGraph' capability"));
}

TEST(FoxgloveProtocol, ParsesClientMessageData) {
  const std::vector<std::uint8_t> frame{0x01, 0x02, 0x01, 0x00, 0x00, 'h', 'i'};
  const auto d = std::get<ClientMessageData>(parse_client_binary(frame));
  EXPECT_EQ(d.channel_id, 0x0102u);
  ASSERT_EQ(d.payload.size(), 2u);
  EXPECT_EQ(d.payload[0], 'h');
  EXPECT_EQ(binary_error_of({}), "an empty binary message");
  EXPECT_THAT(binary_error_of({0x01, 0x02}), HasSubstr("fewer than the 5"));
  EXPECT_THAT(binary_error_of({0x02, 0, 0, 0, 0}), HasSubstr("'services' capability"));
  EXPECT_EQ(binary_error_of({0x07}), "unknown binary opcode 0x07");
}

TEST(FoxgloveProtocol, WritesServerMessagesAsTheSpecSpellsThem) {
  EXPECT_EQ(server_info_json({.name = "s",
                              .capabilities = {"time"},
                              .supported_encodings = {"cdr"},
                              .metadata = {{"k", "v"}},
                              .session_id = "1",
                              .data_range = std::nullopt}),
            R"({"op":"serverInfo","name":"s","capabilities":["time"],"supportedEncodings":["cdr"],)"
            R"("metadata":{"k":"v"},"sessionId":"1"})");
  const ServerChannel c{7, "/clock", "cdr", "rosgraph_msgs/msg/Clock", "x", "ros2msg"};
  EXPECT_EQ(advertise_json(std::span(&c, 1)),
            R"({"op":"advertise","channels":[{"id":7,"topic":"/clock","encoding":"cdr",)"
            R"("schemaName":"rosgraph_msgs/msg/Clock","schema":"x","schemaEncoding":"ros2msg"}]})");
  EXPECT_EQ(status_json(StatusLevel::kWarning, "a \"quote\""),
            R"({"op":"status","level":1,"message":"a \"quote\""})");
  const ParameterValue p{"/ubot/paused", "true"};
  EXPECT_EQ(
      parameter_values_json(std::span(&p, 1), "r"),
      R"({"op":"parameterValues","parameters":[{"name":"/ubot/paused","value":true}],"id":"r"})");
  const auto header = message_data_header(0x01020304u, 0x0102030405060708ull);
  EXPECT_EQ(header[0], 0x01);
  EXPECT_EQ(header[1], 0x04);  // little-endian subscription id
  EXPECT_EQ(header[5], 0x08);  // little-endian timestamp
  EXPECT_EQ(header[12], 0x01);
  EXPECT_EQ(time_frame(1)[0], 0x02);
  EXPECT_EQ(time_frame(1)[1], 0x01);
}

// The bytes are the Foxglove SDK's own encoding tests' snapshots (foxglove/foxglove-sdk,
// rust/foxglove/src/protocol/common/{client,server}/snapshots: play_with_seek and
// playing_with_request_id), after the opcode.
TEST(FoxgloveProtocol, ReadsPlaybackControlRequestsAsTheSdkWritesThem) {
  std::vector<std::uint8_t> frame{0x03, 0x00, 0x00, 0x00, 0x80, 0x3f, 0x01, 0x15, 0xcd, 0x5b,
                                  0x07, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00};
  for (const char c : std::string_view("some-id")) frame.push_back(static_cast<std::uint8_t>(c));
  const auto r = std::get<PlaybackControlRequest>(parse_client_binary(frame));
  EXPECT_EQ(r.command, PlaybackCommand::kPlay);
  EXPECT_EQ(r.speed, 1.0f);
  EXPECT_EQ(r.seek_ns, std::optional<std::uint64_t>(123456789));
  EXPECT_EQ(r.request_id, "some-id");
  frame[6] = 0;  // had_seek false: the seek time is ignored
  frame[1] = 1;  // pause
  const auto paused = std::get<PlaybackControlRequest>(parse_client_binary(frame));
  EXPECT_EQ(paused.command, PlaybackCommand::kPause);
  EXPECT_FALSE(paused.seek_ns);

  EXPECT_THAT(binary_error_of({0x03, 0, 0, 0}), HasSubstr("fewer than the 19"));
  std::vector<std::uint8_t> bad = frame;
  bad[1] = 2;
  EXPECT_THAT(binary_error_of(bad), HasSubstr("command 2 is neither play (0) nor pause (1)"));
  bad = frame;
  bad[15] = 8;  // an id of 8 bytes, 7 follow
  EXPECT_THAT(binary_error_of(bad), HasSubstr("said to have 8 bytes, and only 7 follow"));
}

TEST(FoxgloveProtocol, WritesPlaybackStateAsTheSdkReadsIt) {
  std::string expected{0x05,
                       0x00,
                       0x39,
                       0x30,
                       0x00,
                       0x00,
                       0x00,
                       0x00,
                       0x00,
                       0x00,
                       0x00,
                       0x00,
                       static_cast<char>(0x80),
                       0x3f,
                       0x00,
                       0x0e,
                       0x00,
                       0x00,
                       0x00};
  expected += "i-am-a-request";
  EXPECT_EQ(playback_state_frame({.status = PlaybackStatus::kPlaying,
                                  .current_ns = 12345,
                                  .speed = 1.0f,
                                  .did_seek = false,
                                  .request_id = "i-am-a-request"}),
            expected);
  const std::string ended = playback_state_frame({.status = PlaybackStatus::kEnded,
                                                  .current_ns = 0,
                                                  .speed = 2.0f,
                                                  .did_seek = true,
                                                  .request_id = ""});
  ASSERT_EQ(ended.size(), 19u);
  EXPECT_EQ(ended[1], 3);   // ended
  EXPECT_EQ(ended[14], 1);  // did_seek
  EXPECT_EQ(ended[15], 0);  // no request id
}

TEST(FoxgloveProtocol, ServerInfoGivesTheDataRangeAsSecondsAndNanoseconds) {
  const std::string json = server_info_json({.name = "p",
                                             .capabilities = {"rangedPlayback"},
                                             .supported_encodings = {},
                                             .metadata = {},
                                             .session_id = "1",
                                             .data_range = TimeRange{1500000000, 4000000001}});
  EXPECT_THAT(json, HasSubstr(R"("dataStartTime":{"sec":1,"nsec":500000000})"));
  EXPECT_THAT(json, HasSubstr(R"("dataEndTime":{"sec":4,"nsec":1})"));
}

TEST(TwistCdr, ReadsWhatTheWriterWrites) {
  ros2::Twist twist{{0.5, -0.25, 0}, {0, 0, 1.5}};
  std::vector<std::uint8_t> bytes;
  ros2::serialize_cdr(twist, bytes);
  ros2::Twist back;
  EXPECT_EQ(ros2::deserialize_cdr(bytes, back), "");
  EXPECT_EQ(back, twist);
  ros2::TwistStamped stamped{{{3, 4}, "base_link"}, twist};
  ros2::serialize_cdr(stamped, bytes);
  ros2::TwistStamped stamped_back;
  EXPECT_EQ(ros2::deserialize_cdr(bytes, stamped_back), "");
  EXPECT_EQ(stamped_back, stamped);
}

TEST(TwistCdr, RefusesShortOrForeignBytes) {
  ros2::Twist twist;
  std::vector<std::uint8_t> bytes;
  ros2::serialize_cdr(ros2::Twist{}, bytes);
  bytes.pop_back();
  EXPECT_THAT(ros2::deserialize_cdr(bytes, twist), HasSubstr("ends early"));
  EXPECT_THAT(ros2::deserialize_cdr(std::vector<std::uint8_t>{0, 1}, twist),
              HasSubstr("fewer than 4 bytes"));
  std::vector<std::uint8_t> big_endian{0, 0, 0, 0};
  big_endian.resize(52);
  EXPECT_THAT(ros2::deserialize_cdr(big_endian, twist), HasSubstr("not little-endian"));
  // A TwistStamped whose frame_id length points past the end.
  std::vector<std::uint8_t> stamped{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0};
  ros2::TwistStamped s;
  EXPECT_THAT(ros2::deserialize_cdr(stamped, s), HasSubstr("frame_id runs past it"));
}

}  // namespace
}  // namespace ubot::live
