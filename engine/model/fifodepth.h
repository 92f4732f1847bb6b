#pragma once

// The one definition of a connection's FIFO depth, shared by the simulator (SimOptions::fifoSlots),
// the checker's deadlock model (CheckOptions::fifoSlots, `--fifo-slots`) and the executors'
// connections (ExecOptions::connectionSlots). See docs/simulator.md.
//
// NCCL gives every connection NCCL_STEPS = 8 buffer steps (src/include/device.h). MSCCL's Simple
// loop moves one message per chunk and iteration of MSCCL_CHUNKSTEPS = 4 steps and the Simple
// primitives move it in pieces of MSCCL_SLICESTEPS = 2 steps (msccl-format.md §4.2, §4.5); LL and
// LL128 move one step per message, in one piece. The depth the deadlock model counts is in
// messages: 8 / 4 = 2 Simple messages, 8 LL or LL128 messages.

#include "program.h"

namespace cs {

inline constexpr int kNcclSteps = 8;       ///< buffer steps per connection
inline constexpr int kMscclChunkSteps = 4; ///< steps per Simple message (one loop iteration)
inline constexpr int kMscclSliceSteps = 2; ///< steps per piece of a Simple message

/// FIFO steps one message of `protocol` occupies.
constexpr int stepsPerMessage(Protocol protocol)
{
  return protocol == Protocol::Simple ? kMscclChunkSteps : 1;
}

/// Pieces the primitives move one message of `protocol` in (each forwarded on its own).
constexpr int piecesPerMessage(Protocol protocol)
{
  return protocol == Protocol::Simple ? kMscclChunkSteps / kMscclSliceSteps : 1;
}

/// Messages of `protocol` a connection holds before its sender blocks: 2 Simple, 8 LL/LL128.
constexpr int connectionSlots(Protocol protocol)
{
  return kNcclSteps / stepsPerMessage(protocol);
}

} // namespace cs
