#pragma once

// Turns the CPU executor's run plan (plan/runplan.h: geometry, aliasing, connections, every check
// that keeps untrusted XML inside its buffers) into the GPU executor's block program: one block per
// (rank, threadblock), flat step records, and where each message lies (SendMode): in the
// sender's buffer where the plan found it safe to read it in place (PlannedStep::sendsInPlace),
// in a staging slot otherwise.

#include "blockprogram.h"
#include "exec/plan/runplan.h"

#include <cstdint>
#include <vector>

namespace cs::gpu {

struct ConnectionLayout {
  ConnectionKey key; ///< sender rank (from), receiver rank (to), channel
  std::int32_t slotCount = 1;
  std::int32_t stagingChunks = 0; ///< largest cnt of a staged message; 0: nothing is staged
};

struct BlockLayout {
  std::vector<BlockInfo> blocks; ///< rank-major, like plan::RunPlan::threadblocks
  std::vector<BlockStep> steps;
  std::vector<ConnectionLayout> connections;
  std::int64_t traceRecords = 0; ///< one per (block, slice, step)
  std::int64_t stagedSteps = 0;  ///< sending steps whose message goes through a staging slot
  std::int64_t pulledSteps = 0;  ///< sending steps whose receiver reads the sender's buffer
};

/// Whether the plan's messages travel as LL lines (the LL protocol; lowlatency.h): then every
/// message is staged, since the lines carry the data.
bool lowLatencyMessages(const plan::RunPlan& plan);

/// Lays out `plan` for the GPU executor.
BlockLayout layoutBlocks(const plan::RunPlan& plan);

/// How `replicas` replicas of every (rank, tb) divide the chunks (BlockProgram, replicaSlice()).
struct ReplicaGeometry {
  std::int64_t shareElements = 0; ///< each replica's share of every chunk, 16-byte aligned
  std::int32_t slices = 1;        ///< slices of one share (at most the plan's slices)
};
ReplicaGeometry replicaGeometry(const plan::RunPlan& plan, int replicas);

/// Bytes of one staging slot of `connection` when each (rank, tb) runs as `replicas` replicas:
/// its largest staged message over one replica's slice, a multiple of 16.
std::int64_t stagingSlotBytes(const ConnectionLayout& connection, const plan::RunPlan& plan,
                              int replicas);

} // namespace cs::gpu
