#pragma once

// The GPU executor's LL messages, as the runtime's LL protocol moves them (NCCL's ncclLLFifoLine):
// every 8 bytes of a message travel in a 16-byte line beside two copies of the message's flag,
// written with one 16-byte store. A reader that sees both flags has the data: no fence, no
// counter, no descriptor to fetch, so a hand-off costs one store becoming visible to one load
// (about 1 µs instead of about 4 for a Simple message) at half the bandwidth, which is why the
// runtime uses LL for small messages. A message starts with a header line that holds its element
// count, which the receiving block's thread 0 waits for (and checks against its own receive).

#include "exec/plan/hostdevice.h"

#include <cstdint>

namespace cs::gpu {

/// Each half is 4 bytes of data (low word) and the flag (high word), single-copy atomic.
struct alignas(16) LlLine {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
};

inline constexpr int kLlPayloadBytes = 8;

/// Data lines of a message of `elements` elements of `elementSize` bytes (not the header).
CS_HD inline std::int64_t llDataLines(std::int64_t elements, int elementSize)
{
  return (elements * elementSize + kLlPayloadBytes - 1) / kLlPayloadBytes;
}

/// Bytes a staging slot needs for such a message: the header line, then the data lines.
CS_HD inline std::int64_t llMessageBytes(std::int64_t elements, int elementSize)
{
  return static_cast<std::int64_t>(sizeof(LlLine)) * (1 + llDataLines(elements, elementSize));
}

CS_HD inline LlLine llLine(std::uint64_t payload, std::uint32_t flag)
{
  const std::uint64_t flagWord = std::uint64_t{flag} << 32;
  return {(payload & 0xffffffffu) | flagWord, (payload >> 32) | flagWord};
}

CS_HD inline bool llArrived(const LlLine& line, std::uint32_t flag)
{
  return static_cast<std::uint32_t>(line.low >> 32) == flag &&
         static_cast<std::uint32_t>(line.high >> 32) == flag;
}

CS_HD inline std::uint64_t llPayload(const LlLine& line)
{
  return (line.low & 0xffffffffu) | (line.high << 32);
}

} // namespace cs::gpu
