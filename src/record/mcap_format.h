#pragma once
// MCAP's constants (https://mcap.dev/spec), one definition for the writer and the reader.

#include <cstdint>

namespace ubot::mcap {

inline constexpr std::uint8_t kMagic[] = {0x89, 'M', 'C', 'A', 'P', 0x30, '\r', '\n'};

enum Opcode : std::uint8_t {
  kHeader = 0x01,
  kFooter = 0x02,
  kSchema = 0x03,
  kChannel = 0x04,
  kMessage = 0x05,
  kChunk = 0x06,
  kMessageIndex = 0x07,
  kChunkIndex = 0x08,
  kAttachment = 0x09,
  kAttachmentIndex = 0x0A,
  kStatistics = 0x0B,
  kMetadata = 0x0C,
  kMetadataIndex = 0x0D,
  kSummaryOffset = 0x0E,
  kDataEnd = 0x0F,
};

}  // namespace ubot::mcap
