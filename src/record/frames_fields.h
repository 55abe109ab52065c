#pragma once
// frames.jsonl fields several sensor types write (their pieces are
// src/sensors/<type>/<type>_record.cpp, compiled into the record library).
#include <string_view>

#include <Eigen/Core>

#include "ubot/core/frame_header.h"
#include "ubot/core/json_writer.h"
#include "ubot/media/medium.h"

namespace ubot {

// The file next to frames.jsonl that holds lidar3d points (src/record/points_writer.h).
inline constexpr const char* kPointsFile = "points.bin";

void write_vector(JsonWriter& j, std::string_view key, const Eigen::Vector3d& v);
// A lidar's or camera's perception-media settings, under "smoke".
void write_smoke(JsonWriter& j, const media::SmokeSettings& smoke);
// A sample's status; whether its data follow (not for a disabled sensor).
bool write_status(JsonWriter& j, const FrameHeader& h);

}  // namespace ubot
