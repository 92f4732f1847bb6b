#include "blocklayout.h"

#include <algorithm>
#include <map>

namespace cs::gpu {

namespace {

/// A write of one step to chunks [first, first + cnt) of one allocation.
struct ChunkWrite {
  int tb = 0;
  int position = 0;
};

using WritesByChunk = std::map<std::pair<int, int>, std::vector<ChunkWrite>>; // (memory, chunk)

WritesByChunk writesOfRank(const cpu::RunPlan& plan, int rank)
{
  WritesByChunk writes;
  const int first = plan.firstThreadblock[static_cast<std::size_t>(rank)];
  for (std::size_t i = static_cast<std::size_t>(first); i < plan.threadblocks.size(); ++i) {
    const cpu::PlannedThreadblock& tb = plan.threadblocks[i];
    if (tb.rank != rank)
      break;
    for (int p = 0; p < static_cast<int>(tb.steps.size()); ++p) {
      const cpu::PlannedStep& step = tb.steps[static_cast<std::size_t>(p)];
      if (!opTraits(step.type).writesDst)
        continue;
      for (int c = 0; c < step.cnt; ++c)
        writes[{static_cast<int>(step.dst.memory), step.dst.index + c}].push_back({tb.tb, p});
    }
  }
  return writes;
}

/// Whether the receiver may read `region` where it lies: every other write to it on the rank
/// comes earlier in the same threadblock, so it happened before this step in the same slice (other
/// slices touch other elements of the chunks).
bool safeToPull(const WritesByChunk& writes, cpu::OperandRef region, int cnt, int tb, int position)
{
  for (int c = 0; c < cnt; ++c) {
    const auto found = writes.find({static_cast<int>(region.memory), region.index + c});
    if (found == writes.end())
      continue;
    for (const ChunkWrite& write : found->second) {
      const bool itself = write.tb == tb && write.position == position;
      const bool earlier = write.tb == tb && write.position < position;
      if (!itself && !earlier)
        return false;
    }
  }
  return true;
}

SendMode chooseSendMode(const WritesByChunk& writes, const cpu::PlannedStep& step, int tb,
                        int position)
{
  switch (step.type) {
  case OpType::Send:
    return safeToPull(writes, step.src, step.cnt, tb, position) ? SendMode::PullSource
                                                               : SendMode::Stage;
  case OpType::RecvCopySend:
  case OpType::RecvReduceCopySend:
    return safeToPull(writes, step.dst, step.cnt, tb, position) ? SendMode::PullDestination
                                                               : SendMode::Stage;
  case OpType::RecvReduceSend:
    return SendMode::Stage; // the sum is stored nowhere else
  default:
    return SendMode::None;
  }
}

} // namespace

BlockLayout layoutBlocks(const cpu::RunPlan& plan)
{
  BlockLayout layout;
  for (const cpu::PlannedConnection& connection : plan.connections)
    layout.connections.push_back({connection.key, plan.connectionSlots, 0});
  std::vector<WritesByChunk> writes;
  for (int r = 0; r < plan.ranks; ++r)
    writes.push_back(writesOfRank(plan, r));

  for (const cpu::PlannedThreadblock& tb : plan.threadblocks) {
    BlockInfo block;
    block.rank = tb.rank;
    block.tb = tb.tb;
    block.channel = tb.chan;
    block.sendPeer = tb.send;
    block.recvPeer = tb.recv;
    block.firstStep = static_cast<std::int32_t>(layout.steps.size());
    block.stepCount = static_cast<std::int32_t>(tb.steps.size());
    block.sendConnection = tb.sendConnection;
    block.recvConnection = tb.recvConnection;
    block.firstRecord = layout.traceRecords;
    layout.traceRecords += std::int64_t{block.stepCount} * plan.slices;
    const int rankFirst = plan.firstThreadblock[static_cast<std::size_t>(tb.rank)];
    for (int p = 0; p < block.stepCount; ++p) {
      const cpu::PlannedStep& planned = tb.steps[static_cast<std::size_t>(p)];
      BlockStep step;
      step.type = static_cast<std::uint8_t>(planned.type);
      step.srcMemory = static_cast<std::uint8_t>(planned.src.memory);
      step.dstMemory = static_cast<std::uint8_t>(planned.dst.memory);
      step.srcChunk = planned.src.index;
      step.dstChunk = planned.dst.index;
      step.cnt = planned.cnt;
      step.publishes = planned.publishes ? 1 : 0;
      step.depBlock = planned.depTb >= 0 ? rankFirst + planned.depTb : -1;
      step.depStep = planned.depStep;
      step.sendMode =
          chooseSendMode(writes[static_cast<std::size_t>(tb.rank)], planned, tb.tb, p);
      if (step.sendMode == SendMode::Stage) {
        ConnectionLayout& connection =
            layout.connections[static_cast<std::size_t>(tb.sendConnection)];
        connection.stagingChunks = std::max(connection.stagingChunks, step.cnt);
        ++layout.stagedSteps;
      } else if (step.sendMode != SendMode::None) {
        ++layout.pulledSteps;
      }
      layout.steps.push_back(step);
    }
    layout.blocks.push_back(block);
  }
  return layout;
}

std::int64_t stagingSlotBytes(const ConnectionLayout& connection, const cpu::RunPlan& plan,
                              int replicas)
{
  const std::int64_t part =
      replicaPart(plan.sliceElements, replicas, std::max(1, 16 / plan.elementSize));
  // Slots start 16-byte aligned so whole parts move as vectors.
  return (connection.stagingChunks * part * plan.elementSize + 15) / 16 * 16;
}

} // namespace cs::gpu
