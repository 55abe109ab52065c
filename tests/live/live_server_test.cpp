// The live server's access rules and address parsing (src/live/live_server.cpp), and the
// LiveView's page messages for a world (a frame is valid JSON that names every moving object).
#include "ubot/live/live_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ubot/config/load_world.h"
#include "ubot/core/error.h"
#include "ubot/live/live_view.h"

namespace ubot::live {
namespace {

using ::testing::HasSubstr;

std::string error_of(auto f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

LiveServerOptions on_port(std::uint16_t port) {
  LiveServerOptions o;
  o.address.port = port;
  return o;
}

TEST(LiveAddress, ParsesHostAndPort) {
  EXPECT_EQ(parse_live_address("9000", "--live").port, 9000);
  EXPECT_EQ(parse_live_address("9000", "--live").host, "127.0.0.1");
  const LiveAddress a = parse_live_address("0.0.0.0:80", "--live");
  EXPECT_EQ(a.host, "0.0.0.0");
  EXPECT_EQ(a.port, 80);
  EXPECT_EQ(parse_live_address("[::1]:8765", "--live").host, "::1");
  EXPECT_THAT(error_of([] { parse_live_address("host:99999", "--live"); }),
              HasSubstr("port in [0, 65535]"));
  EXPECT_THAT(error_of([] { parse_live_address("example.com:80", "--live"); }),
              HasSubstr("not an IP address"));
  EXPECT_THAT(error_of([] { parse_live_address(":80", "--live"); }), HasSubstr("empty host"));
}

TEST(LiveAddress, OnlyLoopbackGoesWithoutAToken) {
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("127.3.2.1"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("192.168.1.2"));
  EXPECT_NO_THROW(check_live_access({"127.0.0.1", 1}, ""));
  EXPECT_NO_THROW(check_live_access({"0.0.0.0", 1}, "tok"));
  EXPECT_THAT(error_of([] {
                check_live_access({"0.0.0.0", 1}, "");
              }),
              HasSubstr("--live-token TOKEN or UBOT_LIVE_TOKEN"));
}

TEST(LiveServer, APortInUseIsNamed) {
  LiveServer first(on_port(0));
  const std::uint16_t port = first.port();
  EXPECT_NE(port, 0);
  EXPECT_EQ(first.url(), "http://127.0.0.1:" + std::to_string(port) + "/");
  EXPECT_THAT(error_of([&] { LiveServer second(on_port(port)); }),
              HasSubstr("the port " + std::to_string(port) + " is in use"));
}

TEST(LiveServer, ServesThePageFiles) {
  bool index = false, script = false;
  for (const Asset& a : live_assets()) {
    index = index || (a.path == "/" && a.body.find("live.js") != std::string_view::npos);
    script = script || (a.path == "/live.js" && a.content_type.starts_with("text/javascript"));
  }
  EXPECT_TRUE(index);
  EXPECT_TRUE(script);
}

TEST(LiveView, FramesNameEveryMovingObjectAndTheSelectedDetail) {
  Simulation sim(load_world(std::string(UBOT_SOURCE_DIR) + "/tests/data/live_world.yaml"));
  LiveView view(sim, on_port(0), 1.0);
  for (int i = 0; i < 5; ++i) sim.step();
  const auto world = nlohmann::json::parse(view.world_json(sim));
  EXPECT_EQ(world["name"], "live_world");
  ASSERT_EQ(world["objects"].size(), 4u);
  EXPECT_EQ(world["objects"][0]["cmdVel"], "/rover/cmd_vel");
  EXPECT_EQ(world["static"].size(), 2u);  // the obstacles never move: sent once
  const auto frame = nlohmann::json::parse(view.frame_json(sim));
  EXPECT_EQ(frame["step"], 5);
  EXPECT_EQ(frame["objects"].size(), 2u);  // the robots
  EXPECT_EQ(frame["flags"].size(), 4u);
  EXPECT_TRUE(frame["detail"].empty());  // nothing selected
  // Where each robot is, for picking it; the page draws it from /ubot/markers.
  EXPECT_EQ(frame["objects"][0]["pose"].size(), 3u);
  EXPECT_TRUE(frame["objects"][0]["shape"].contains("c"));
  EXPECT_FALSE(frame.contains("beams"));
}

}  // namespace
}  // namespace ubot::live
