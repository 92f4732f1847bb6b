#pragma once

// The program as the GPU executor's blocks read it: flat arrays of plain structs, one block per
// (rank, threadblock), with every address resolved for the device that runs it. The same structs
// drive the CUDA kernel and its host emulation (blockinterpreter.h).
//
// Messages are pulled (DESIGN.md §5): a sending step publishes where its data lies and the
// receiver reads it there, so each byte is read and written once. The data lies in the sender's
// own buffer when the plan found no write on its rank that could overwrite it before the receiver
// is done (SendMode::PullSource / PullDestination, plan::PlannedStep::sendsInPlace); otherwise,
// and for `rrs` whose sum is stored nowhere, the sender writes it into one of the connection's
// staging slots first (SendMode::Stage). Either way a connection holds at most `slotCount`
// unconsumed messages, so runs block, and deadlock, exactly where the runtime's FIFO would.

#include "exec/plan/hostdevice.h"

#include <cstddef>
#include <cstdint>

namespace cs::gpu {

/// Where a sending step's message lies for its receiver.
enum class SendMode : std::uint8_t {
  None,            ///< the step does not send
  Stage,           ///< in the connection's staging slot (the value is stored nowhere else)
  PullSource,      ///< in the step's source chunks (`s`)
  PullDestination, ///< in the chunks the step has just written (`rcs`, `rrcs`)
};

struct BlockStep {
  std::uint8_t type = 0;      ///< OpType
  std::uint8_t srcMemory = 0; ///< allocation (Buffer) after aliasing
  std::uint8_t dstMemory = 0;
  SendMode sendMode = SendMode::None;
  std::uint8_t publishes = 0; ///< hasdep on a real instruction
  std::int32_t srcChunk = 0;
  std::int32_t dstChunk = 0;
  std::int32_t cnt = 0;
  std::int32_t depBlock = -1; ///< index of the block on the same rank to wait for, or -1
  std::int32_t depStep = -1;
};

struct BlockInfo {
  std::int32_t rank = 0;
  std::int32_t tb = 0;
  std::int32_t channel = 0;
  std::int32_t sendPeer = -1;
  std::int32_t recvPeer = -1;
  std::int32_t firstStep = 0; ///< index of its first step in BlockProgram::steps
  std::int32_t stepCount = 0;
  std::int32_t sendConnection = -1;
  std::int32_t recvConnection = -1;
  std::int64_t firstRecord = 0; ///< its first trace record; one per (slice, step)
};

/// A published message: piece j (j < cnt) starts at element j·pieceStride after `address`, or,
/// when pieceStride is 0 (staged), the pieces follow each other as the receiver cuts them.
struct Message {
  std::uint64_t address = 0;
  std::int64_t pieceStride = 0;
  std::int64_t elements = 0; ///< cnt × slice length, checked against the receive
};

/// One connection's shared state, each counter on its own 128-byte line (one L2 sector group).
struct alignas(128) Counter {
  std::uint32_t value = 0;
};

/// Where a connection's state lives (addresses valid on every device that uses it).
struct ConnectionView {
  Counter* published = nullptr; ///< messages sent; the sender writes, the receiver polls
  Counter* consumed = nullptr;  ///< messages read; the receiver writes, the sender polls
  Message* messages = nullptr;  ///< `slotCount` descriptors, message k in k % slotCount
  std::byte* staging = nullptr; ///< `slotCount` × stagingBytes on the sender's device, or null
  std::int64_t stagingBytes = 0;
  std::int32_t slotCount = 1;
};

/// What a block waits for, as the watchdog reads it (WaitKind + 1; 0 while not waiting).
enum : std::uint32_t { kNotWaiting = 0, kWaitMessage = 1, kWaitRoom = 2, kWaitFlag = 3 };
/// Why a block stopped on its own (BlockStatus::error).
enum : std::uint32_t { kNoError = 0, kErrorMessageSize = 1 };

/// One block's progress and position, written by the block, read by the host watchdog while the
/// run goes on (mapped host memory on GPUs).
struct alignas(64) BlockStatus {
  std::uint32_t progress = 0; ///< step-slices completed (updated at least every kProgressEvery)
  std::uint32_t started = 0;
  std::uint32_t finished = 0;
  std::uint32_t waiting = kNotWaiting;
  std::uint32_t step = 0; ///< position while waiting (or failing)
  std::uint32_t slice = 0;
  std::uint32_t error = kNoError;
  std::int64_t errorExpected = 0; ///< elements the receive expected (kErrorMessageSize)
  std::int64_t errorArrived = 0;  ///< elements the message had
};
inline constexpr std::uint32_t kProgressEvery = 32;

/// Elements of each of `replicas` equal parts of `length` elements, rounded up to a multiple of
/// `align` so every part starts on a 16-byte vector; the last parts may be shorter or empty.
CS_HD inline std::int64_t replicaPart(std::int64_t length, std::int32_t replicas,
                                      std::int32_t align)
{
  return ((length + replicas - 1) / replicas + align - 1) / align * align;
}

/// Where one replica's slice lies in every chunk it touches.
struct SlicePiece {
  std::int64_t offset = 0;   ///< first element, the same in every chunk of the step
  std::int64_t elements = 0; ///< 0 past the end of the chunk (the step still exchanges messages)
};

/// Slice `slice` of replica `replica`: the replica owns elements [replica·share, (replica+1)·share)
/// of every chunk and runs the runtime's slicing loop over them, `sliceElements` at a time.
CS_HD inline SlicePiece replicaSlice(std::int64_t chunkElements, std::int64_t shareElements,
                                     std::int64_t sliceElements, int replica, int slice)
{
  const std::int64_t begin = std::int64_t{replica} * shareElements;
  const std::int64_t end =
      begin + shareElements < chunkElements ? begin + shareElements : chunkElements;
  SlicePiece piece;
  piece.offset = begin + std::int64_t{slice} * sliceElements;
  const std::int64_t left = end - piece.offset;
  piece.elements = left <= 0 ? 0 : left < sliceElements ? left : sliceElements;
  return piece;
}

/// Everything one launch reads.
///
/// Replicas: the program is element-wise, so R copies of it, each over its own share of every
/// chunk, compute exactly what one copy computes over whole chunks. Replica ρ of (rank, tb) b is
/// the runner with index ρ·blockCount + b; each replica has its own connections, flags and
/// statuses, so one (rank, tb) can use R GPU blocks (a single block cannot read and write at the
/// speed of the GPU's memory). Each replica runs the slicing loop over its share, so a step moves
/// a whole slice where the share allows it: the waits and flag hand-offs of a step cost the same
/// whatever it moves, and small pieces would spend the run on them. Every replica runs the same
/// number of slices (the last ones may be empty) and so exchanges the same messages: waits,
/// blocking and deadlocks are those of one copy.
struct BlockProgram {
  const BlockInfo* blocks = nullptr; ///< blockCount entries
  const BlockStep* steps = nullptr;
  const ConnectionView* connections = nullptr; ///< replicas × connectionCount
  Counter* const* flags = nullptr;             ///< replicas × blockCount dependency flags
  std::byte* const* memory = nullptr;          ///< [rank × 3 + allocation]: the rank's memory
  BlockStatus* status = nullptr;               ///< replicas × blockCount
  std::uint32_t* abort = nullptr;              ///< non-zero: every runner leaves at its next wait
  std::uint64_t* trace = nullptr;              ///< replicas × recordsPerReplica × (start, end ns)
  const std::int32_t* launchOrder = nullptr;   ///< GPU block → runner index; null: the same
  std::int64_t chunkElements = 0;
  std::int64_t sliceElements = 0;
  std::int64_t shareElements = 0; ///< each replica's share of every chunk (replicaSlice())
  std::int64_t recordsPerReplica = 0;
  std::int32_t slices = 0; ///< slices of one replica's share
  std::int32_t maxSteps = 0;
  std::int32_t blockCount = 0;
  std::int32_t connectionCount = 0;
  std::int32_t replicas = 1;
  std::int32_t alignElements = 1; ///< replica parts start at multiples of this (16-byte vectors)
  std::int32_t systemScope = 0;   ///< several devices: counters must be visible across them
  std::int32_t lowLatency = 0;    ///< LL: every message travels as LL lines (lowlatency.h)

  /// The flag value meaning "position `step` done in slice `slice`" (as plan::RunPlan::flagValue).
  CS_HD std::uint32_t flagValue(int slice, int step) const
  {
    return static_cast<std::uint32_t>(slice) * static_cast<std::uint32_t>(maxSteps + 1) +
           static_cast<std::uint32_t>(step) + 1u;
  }
};

} // namespace cs::gpu
