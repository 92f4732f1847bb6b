#pragma once

// What the CPU executor precomputes before a run: the buffer geometry of msccl-format.md §4.1
// for the requested size and call mode (chunk and slice element counts, the allocations behind
// i, o and s after aliasing), every step's operands resolved to those allocations, the
// connections of §4.5 with the message size each must hold, and which messages the receiver may
// read where the sender keeps them. planRun() also rejects everything that would make the
// interpreter touch memory it does not own, so untrusted XML cannot crash a run: it can only fail
// to plan, give wrong results, or hang (and the watchdog stops that).

#include "exec/executor.h"
#include "model/connections.h"
#include "model/diagnostic.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace cs::plan {

/// The first chunk of an operand after aliasing: consecutive chunks follow it in `memory`.
struct OperandRef {
  Buffer memory = Buffer::Input;
  int index = 0;
};

/// One step as the interpreter runs it.
struct PlannedStep {
  OpType type = OpType::Nop;
  OperandRef src;
  OperandRef dst;
  int cnt = 0;
  int depTb = -1;         ///< threadblock on the same rank to wait for, or -1
  int depStep = -1;       ///< its position that must have been published
  bool publishes = false; ///< hasdep on a real instruction (hasdep on a nop has no effect)
  /// The message is read where it lies on this rank (src of s, dst of rcs/rrcs) instead of being
  /// copied into the connection: nothing on this rank writes those elements after this step, and
  /// the receiver takes each message in the slice it was sent in, so it sees exactly what a copy
  /// would have held. See markInPlaceSends() in runplan.cpp.
  bool sendsInPlace = false;
};

/// One (rank, threadblock) and the connections it drives.
struct PlannedThreadblock {
  int rank = 0;
  int tb = 0;
  int chan = 0;
  int send = -1;
  int recv = -1;
  int sendConnection = -1; ///< index into RunPlan::connections, or -1
  int recvConnection = -1;
  std::vector<PlannedStep> steps;
};

struct PlannedConnection {
  ConnectionKey key;
  std::int64_t messageElements = 0; ///< largest message either end moves (cnt × slice)
};

struct RunPlan {
  CallMode mode = CallMode::InPlace;
  int ranks = 0;
  int elementSize = 0;
  std::int64_t totalElements = 0; ///< N = count × mult
  std::int64_t count = 0;
  std::int64_t chunkElements = 0;
  std::int64_t sliceElements = 0; ///< at most chunkElements; the last slice may be shorter
  int slices = 0;
  int connectionSlots = 0; ///< messages a connection holds
  Protocol protocol = Protocol::Simple;
  int maxSteps = 0; ///< longest step list, for the flag encoding
  /// Per rank, the chunks each buffer name addresses (bounds of every operand).
  std::vector<std::array<int, kBufferCount>> bufferChunks;
  /// Per rank, the chunks of each allocation after aliasing (0: not allocated).
  std::vector<std::array<int, kBufferCount>> memoryChunks;
  std::vector<PlannedThreadblock> threadblocks; ///< rank-major, tb ids ascending
  std::vector<int> firstThreadblock;            ///< per rank, index of its tb 0 in threadblocks
  std::vector<PlannedConnection> connections;

  /// The flag value meaning "position `step` done in slice `slice`": ordered like the runtime's
  /// COMPUTE_FLAG (iteration, step), never 0.
  std::uint32_t flagValue(int slice, int step) const
  {
    return static_cast<std::uint32_t>(slice) * static_cast<std::uint32_t>(maxSteps + 1) +
           static_cast<std::uint32_t>(step) + 1u;
  }
};

/// Plans a run or explains in `out` why it cannot happen (exec.* error codes), options that
/// make no run (no iterations) included.
std::optional<RunPlan> planRun(const Program& program, const ExecOptions& options,
                               Diagnostics& out);

/// Copies what a plan fixes about the run into its result: mode, count, chunk size, slices.
void describePlan(const RunPlan& plan, ExecResult& result);

} // namespace cs::plan
