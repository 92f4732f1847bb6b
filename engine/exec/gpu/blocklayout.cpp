#include "blocklayout.h"

#include <algorithm>

namespace cs::gpu {

namespace {

/// Where the message of `step` lies: cpu::planRun() has decided which sends may be read in place
/// (nothing on the rank writes those chunks while the receiver may still read them, and the
/// connection's two ends cut messages alike); rrs forwards a sum stored nowhere else.
SendMode sendModeOf(const cpu::PlannedStep& step)
{
  switch (step.type) {
  case OpType::Send:
    return step.sendsInPlace ? SendMode::PullSource : SendMode::Stage;
  case OpType::RecvCopySend:
  case OpType::RecvReduceCopySend:
    return step.sendsInPlace ? SendMode::PullDestination : SendMode::Stage;
  case OpType::RecvReduceSend:
    return SendMode::Stage;
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
      step.sendMode = sendModeOf(planned);
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
