#include "executorcosts.h"

#include "runplan.h"

#include <vector>

namespace cs::plan {

namespace {

/// The interpreter's execute(): a cpy moves nothing when both operands are the same memory.
bool copiesOntoItself(const PlannedStep& step)
{
  return step.type == OpType::Copy && step.src.memory == step.dst.memory &&
         step.src.index == step.dst.index;
}

/// Copy passes over its message the step makes into its connection's slot beyond the transfer
/// (SendCopy::passes), as the interpreter's execute() does: s memcpys into the slot; rcs / rrcs
/// not in place write their result to the buffer and the slot in one pass (copyTwice /
/// reduceTwice); rrs reduces straight into the slot. 0: none.
double slotCopyPasses(const PlannedStep& step)
{
  if (step.sendsInPlace)
    return 0;
  if (step.type == OpType::Send)
    return 1;
  if (step.type == OpType::RecvCopySend || step.type == OpType::RecvReduceCopySend)
    return 0.5;
  return 0;
}

/// The bytes of every slot of the connections that copied sends write into.
std::int64_t copiedSlotBytes(const RunPlan& plan)
{
  std::vector<bool> copiedInto(plan.connections.size(), false);
  for (const PlannedThreadblock& tb : plan.threadblocks) {
    for (const PlannedStep& step : tb.steps) {
      if (slotCopyPasses(step) > 0 && tb.sendConnection >= 0)
        copiedInto[static_cast<std::size_t>(tb.sendConnection)] = true;
    }
  }
  std::int64_t bytes = 0;
  for (std::size_t c = 0; c < plan.connections.size(); ++c) {
    if (copiedInto[c])
      bytes += plan.connectionSlots * plan.connections[c].messageElements * plan.elementSize;
  }
  return bytes;
}

} // namespace

std::int64_t copiedSlotBytes(const Program& program, const ExecOptions& options)
{
  Diagnostics ignored;
  const std::optional<RunPlan> plan = planRun(program, options, ignored);
  return plan ? copiedSlotBytes(*plan) : 0;
}

ExecutorCosts cpuExecutorCosts(const Program& program, const ExecOptions& options,
                               std::int64_t cacheBytes)
{
  Diagnostics ignored; // a program that cannot run has nothing to add to its simulation
  const std::optional<RunPlan> plan = planRun(program, options, ignored);
  ExecutorCosts costs;
  if (!plan)
    return costs;
  // Slots the cache holds are written and read back there: the copy into them moves no more
  // through memory than the transfer's own pass already counts. Half the cache, as the data the
  // threads stream meanwhile passes through the other half (docs/simulator.md §5.1).
  const bool slotsCached = cacheBytes > 0 && copiedSlotBytes(*plan) <= cacheBytes / 2;
  for (const PlannedThreadblock& tb : plan->threadblocks) {
    for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
      const PlannedStep& step = tb.steps[static_cast<std::size_t>(position)];
      if (copiesOntoItself(step))
        costs.skippedCopies.push_back({tb.rank, tb.tb, position});
      if (const double passes = slotCopyPasses(step); passes > 0 && !slotsCached)
        costs.sendCopies.push_back({tb.rank, tb.tb, position, passes});
    }
  }
  return costs;
}

ExecutorCosts calibratedExecutorCosts(const Calibration* calibration, const Program& program,
                                      std::int64_t bytes)
{
  if (!calibration || calibration->hostGBps <= 0)
    return {};
  ExecOptions options;
  options.bytes = bytes;
  return cpuExecutorCosts(program, options, calibration->hostCacheBytes);
}

} // namespace cs::plan
