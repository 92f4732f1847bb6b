#include "blocklayout.h"

#include "lowlatency.h"

#include <algorithm>

namespace cs::gpu {

namespace {

/// Where the message of `step` lies: plan::planRun() has decided which sends may be read in place
/// (nothing on the rank writes those chunks while the receiver may still read them, and the
/// connection's two ends cut messages alike); rrs forwards a sum stored nowhere else.
SendMode sendModeOf(const plan::PlannedStep& step, bool lowLatency)
{
  if (lowLatency)
    return opTraits(step.type).sends ? SendMode::Stage : SendMode::None;
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

bool lowLatencyMessages(const plan::RunPlan& plan)
{
  return plan.protocol == Protocol::LL;
}

BlockLayout layoutBlocks(const plan::RunPlan& plan)
{
  BlockLayout layout;
  const bool lowLatency = lowLatencyMessages(plan);
  for (const plan::PlannedConnection& connection : plan.connections)
    layout.connections.push_back({connection.key, plan.connectionSlots, 0});
  for (const plan::PlannedThreadblock& tb : plan.threadblocks) {
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
      const plan::PlannedStep& planned = tb.steps[static_cast<std::size_t>(p)];
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
      step.sendMode = sendModeOf(planned, lowLatency);
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

ReplicaGeometry replicaGeometry(const plan::RunPlan& plan, int replicas)
{
  ReplicaGeometry geometry;
  geometry.shareElements =
      replicaPart(plan.chunkElements, std::max(1, replicas), std::max(1, 16 / plan.elementSize));
  const std::int64_t slice = std::max<std::int64_t>(plan.sliceElements, 1);
  geometry.slices = static_cast<std::int32_t>(
      std::max<std::int64_t>(1, (geometry.shareElements + slice - 1) / slice));
  return geometry;
}

std::int64_t stagingSlotBytes(const ConnectionLayout& connection, const plan::RunPlan& plan,
                              int replicas)
{
  const std::int64_t piece =
      std::min(plan.sliceElements, replicaGeometry(plan, replicas).shareElements);
  if (connection.stagingChunks == 0)
    return 0;
  if (lowLatencyMessages(plan))
    return llMessageBytes(connection.stagingChunks * piece, plan.elementSize);
  // Slots start 16-byte aligned so whole pieces move as vectors.
  return (connection.stagingChunks * piece * plan.elementSize + 15) / 16 * 16;
}

} // namespace cs::gpu
