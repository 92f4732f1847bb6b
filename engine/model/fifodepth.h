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
//
// The slice, the payload of one chunk per iteration of the slicing loop, is also defined here
// once, for the simulator (ProtocolParams::sliceBytes) and the executors (ExecOptions::sliceBytes)
// alike: one message is stepsPerMessage FIFO steps of payload.

#include "program.h"

#include <cstdint>

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

/// Payload bytes of one FIFO step. Simple: NCCL's 4 MiB buffer over NCCL_STEPS (512 KiB). LL:
/// its 512 KiB of 16-byte lines over 8 steps is 64 KiB of lines, half of them flags (32 KiB).
/// LL128: 120 elements × 640 threads × 8 bytes of lines per step (614,400 bytes), 120 of each
/// 128 bytes payload (576,000 bytes).
inline constexpr std::int64_t kSimpleStepBytes = std::int64_t{512} << 10;
inline constexpr std::int64_t kLlStepPayloadBytes = std::int64_t{32} << 10;
inline constexpr std::int64_t kLl128StepPayloadBytes = 576000;

/// The slice of `protocol`: one message's payload per chunk and loop iteration (msccl-format.md
/// §4.2): 2 MiB Simple (MSCCL_CHUNKSTEPS steps), one step of LL or LL128.
constexpr std::int64_t runtimeSliceBytes(Protocol protocol)
{
  switch (protocol) {
  case Protocol::LL:
    return kLlStepPayloadBytes;
  case Protocol::LL128:
    return kLl128StepPayloadBytes;
  case Protocol::Simple:
    break;
  }
  return stepsPerMessage(Protocol::Simple) * kSimpleStepBytes;
}

/// Messages of `protocol` a connection holds before its sender blocks: 2 Simple, 8 LL/LL128.
constexpr int connectionSlots(Protocol protocol)
{
  return kNcclSteps / stepsPerMessage(protocol);
}

} // namespace cs
