#include "sendcopies.h"

#include "runplan.h"

namespace cs::plan {

std::vector<SendCopy> cpuSendCopies(const Program& program, const ExecOptions& options)
{
  Diagnostics ignored; // a program that cannot run has nothing to add to its simulation
  const std::optional<RunPlan> plan = planRun(program, options, ignored);
  std::vector<SendCopy> copies;
  if (!plan)
    return copies;
  for (const PlannedThreadblock& tb : plan->threadblocks) {
    for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
      const PlannedStep& step = tb.steps[static_cast<std::size_t>(position)];
      if (step.sendsInPlace)
        continue;
      // The interpreter's execute(): s memcpys into the slot; rcs / rrcs not in place write
      // their result to the buffer and the slot in one pass (copyTwice / reduceTwice).
      if (step.type == OpType::Send)
        copies.push_back({tb.rank, tb.tb, position, 1.0});
      else if (step.type == OpType::RecvCopySend || step.type == OpType::RecvReduceCopySend)
        copies.push_back({tb.rank, tb.tb, position, 0.5});
    }
  }
  return copies;
}

std::vector<SendCopy> calibratedSendCopies(const Calibration* calibration, const Program& program,
                                           std::int64_t bytes)
{
  if (!calibration || calibration->hostGBps <= 0)
    return {};
  ExecOptions options;
  options.bytes = bytes;
  return cpuSendCopies(program, options);
}

} // namespace cs::plan
