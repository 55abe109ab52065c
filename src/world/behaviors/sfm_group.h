#pragma once
// IR-SIM 2.12.0's `sfm` group behaviour (SfmGroupBehavior,
// irsim/lib/behavior/group_behavior_methods.py), with its social groups.
#include <memory>
#include <span>

#include "ubot/world/group_behavior.h"

namespace ubot::detail {

std::unique_ptr<GroupBehavior> make_sfm_group(const World& world, std::span<const int> members,
                                              const GroupBehaviorModel& config);

}  // namespace ubot::detail
