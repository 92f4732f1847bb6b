#include "executorcosts.h"

#include "runplan.h"

namespace cs::plan {

namespace {

/// The interpreter's execute(): a cpy moves nothing when both operands are the same memory.
bool copiesOntoItself(const PlannedStep& step)
{
  return step.type == OpType::Copy && step.src.memory == step.dst.memory &&
         step.src.index == step.dst.index;
}

} // namespace

ExecutorCosts cpuExecutorCosts(const Program& program, const ExecOptions& options)
{
  Diagnostics ignored; // a program that cannot run has nothing to add to its simulation
  const std::optional<RunPlan> plan = planRun(program, options, ignored);
  ExecutorCosts costs;
  if (!plan)
    return costs;
  for (const PlannedThreadblock& tb : plan->threadblocks) {
    for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
      const PlannedStep& step = tb.steps[static_cast<std::size_t>(position)];
      if (copiesOntoItself(step))
        costs.skippedCopies.push_back({tb.rank, tb.tb, position});
      if (step.sendsInPlace)
        continue;
      // The interpreter's execute(): s memcpys into the slot; rcs / rrcs not in place write
      // their result to the buffer and the slot in one pass (copyTwice / reduceTwice).
      if (step.type == OpType::Send)
        costs.sendCopies.push_back({tb.rank, tb.tb, position, 1.0});
      else if (step.type == OpType::RecvCopySend || step.type == OpType::RecvReduceCopySend)
        costs.sendCopies.push_back({tb.rank, tb.tb, position, 0.5});
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
  return cpuExecutorCosts(program, options);
}

} // namespace cs::plan
