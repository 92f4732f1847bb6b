#include "blockexecutor.h"

#include "exec/plan/callcheck.h"
#include "exec/plan/reference.h"
#include "exec/polling.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <new>
#include <thread>

namespace cs::gpu {

namespace {

using Clock = std::chrono::steady_clock;

Location blockLocation(const BlockInfo& block, int step)
{
  Location location;
  location.rank = block.rank;
  location.tb = block.tb;
  location.step = step;
  return location;
}

std::uint64_t totalProgress(const BlockStatus* status, std::size_t blocks)
{
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < blocks; ++i) {
    total += readStatusWord(status[i].progress) + readStatusWord(status[i].started) +
             readStatusWord(status[i].finished);
  }
  return total;
}

} // namespace

std::uint32_t readStatusWord(const std::uint32_t& word)
{
  // The writer is another thread or the GPU (through mapped memory): a relaxed atomic load is a
  // plain load that the compiler may not cache or tear.
  return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(word))
      .load(std::memory_order_relaxed);
}

std::vector<BlockedPosition> blockedPositions(const BlockLayout& layout, const BlockStatus* status,
                                              int replicas)
{
  std::vector<BlockedPosition> blocked;
  const std::size_t blocks = layout.blocks.size();
  for (std::size_t runner = 0; runner < blocks * static_cast<std::size_t>(replicas); ++runner) {
    const std::size_t i = runner % blocks;
    const BlockInfo& block = layout.blocks[i];
    const std::uint32_t waiting = readStatusWord(status[runner].waiting);
    if (waiting == kNotWaiting || readStatusWord(status[runner].finished) != 0)
      continue;
    const bool reported = std::any_of(blocked.begin(), blocked.end(), [&](const auto& known) {
      return known.rank == block.rank && known.tb == block.tb;
    });
    if (reported)
      continue;
    BlockedPosition position;
    position.rank = block.rank;
    position.tb = block.tb;
    position.step = static_cast<int>(readStatusWord(status[runner].step));
    position.slice = static_cast<int>(readStatusWord(status[runner].slice));
    position.channel = block.channel;
    if (waiting == kWaitMessage) {
      position.waitsFor = WaitKind::Message;
      position.peer = block.recvPeer;
    } else if (waiting == kWaitRoom) {
      position.waitsFor = WaitKind::Room;
      position.peer = block.sendPeer;
    } else {
      position.waitsFor = WaitKind::Flag;
      const BlockStep& step =
          layout.steps[static_cast<std::size_t>(block.firstStep + position.step)];
      position.depTb = layout.blocks[static_cast<std::size_t>(step.depBlock)].tb;
      position.depStep = step.depStep;
    }
    blocked.push_back(position);
  }
  return blocked;
}

Trace traceFromRecords(const plan::RunPlan& plan, const BlockLayout& layout, int replicas,
                       const std::vector<std::uint64_t>& records)
{
  Trace trace;
  trace.ranks = plan.ranks;
  std::uint64_t origin = ~std::uint64_t{0};
  for (std::size_t r = 0; r + 1 < records.size(); r += 2) {
    if (records[r + 1] != 0)
      origin = std::min(origin, records[r]);
  }
  const ReplicaGeometry geometry = replicaGeometry(plan, replicas);
  for (const BlockInfo& block : layout.blocks) {
    for (int slice = 0; slice < geometry.slices; ++slice) {
      for (int position = 0; position < block.stepCount; ++position) {
        std::uint64_t first = ~std::uint64_t{0};
        std::uint64_t last = 0;
        std::int64_t n = 0; // elements of each chunk this slice moved, over every replica
        for (int replica = 0; replica < replicas; ++replica) {
          const std::size_t record =
              static_cast<std::size_t>(2 * (replica * layout.traceRecords + block.firstRecord +
                                            std::int64_t{slice} * block.stepCount + position));
          if (record + 1 < records.size() && records[record + 1] != 0) {
            first = std::min(first, records[record]);
            last = std::max(last, records[record + 1]);
            n += replicaSlice(plan.chunkElements, geometry.shareElements, plan.sliceElements,
                              replica, slice)
                     .elements;
          }
        }
        if (last == 0)
          continue;
        const BlockStep& step = layout.steps[static_cast<std::size_t>(block.firstStep + position)];
        const auto type = static_cast<OpType>(step.type);
        const OpTraits traits = opTraits(type);
        TraceEvent event;
        event.rank = block.rank;
        event.tb = block.tb;
        event.step = position;
        event.slice = slice;
        event.op = type;
        event.peer = traits.sends ? block.sendPeer : traits.receives ? block.recvPeer : -1;
        event.recvPeer = traits.receives ? block.recvPeer : -1;
        event.channel = block.channel;
        event.bytes = std::int64_t{step.cnt} * n * plan.elementSize;
        event.start = static_cast<double>(first - origin) / 1e3;
        event.end = static_cast<double>(last - origin) / 1e3;
        trace.totalUs = std::max(trace.totalUs, event.end);
        trace.events.push_back(std::move(event));
      }
    }
  }
  return trace;
}

class BlockExecutor::Run final : public plan::RunBackend
{
public:
  Run(BlockExecutor& executor, const ExecOptions& options, const BlockLayout& layout,
      plan::HostMemory& mirror)
      : m_executor(executor), m_options(options), m_layout(layout), m_mirror(mirror)
  {
  }

  bool restore(Diagnostics& out) override { return m_executor.restore(out); }
  plan::LaunchOutcome launch(bool trace, Diagnostics& out) override
  {
    return m_executor.launchWatched(m_layout, trace, m_options, m_stalledUs, out);
  }
  std::optional<double> elapsedUs(Diagnostics& out) override { return m_executor.elapsedUs(out); }
  void reportHang(ExecResult& result, Diagnostics& out) override
  {
    m_executor.reportHang(m_layout, m_options.timeoutSeconds, result, out);
  }
  bool collect(bool trace, Diagnostics& out) override
  {
    return m_executor.download(m_mirror, trace ? &m_records : nullptr, out);
  }
  plan::HostMemory& results() override { return m_mirror; }
  Trace trace() override
  {
    Trace trace = traceFromRecords(m_mirror.plan, m_layout, m_executor.replicas(), m_records);
    trace.source = m_executor.traceSource();
    trace.device = m_executor.deviceDescription();
    return trace;
  }
  std::optional<Trace> stoppedTrace() override
  {
    // The records of the steps that completed are where they would be after a finished run. A
    // backend that cannot download them after an abort gives no trace rather than failing a
    // run that is already reported as hung.
    Diagnostics ignored;
    if (!m_executor.download(m_mirror, &m_records, ignored))
      return std::nullopt;
    Trace stopped = trace();
    // The blocks' clock is not the host's: the stop is the last completion plus the stall the
    // host watched before it aborted.
    stopped.stoppedUs = stopped.totalUs + m_stalledUs;
    return stopped;
  }

private:
  BlockExecutor& m_executor;
  const ExecOptions& m_options;
  const BlockLayout& m_layout;
  plan::HostMemory& m_mirror;
  std::vector<std::uint64_t> m_records;
  double m_stalledUs = 0; ///< of the last launch: µs from its last progress to the abort
};

ExecResult BlockExecutor::run(const Program& program, const ExecOptions& options)
{
  ExecResult result;
  Diagnostics out;
  try {
    std::optional<plan::RunPlan> plan = plan::planRun(program, options, out);
    if (!plan) {
      result.diagnostics = out.take();
      return result;
    }
    plan::HostMemory mirror(std::move(*plan));
    const BlockLayout layout = layoutBlocks(mirror.plan);
    plan::initialiseMemory(program, options.dtype, options.op, mirror);
    if (prepare({mirror.plan, layout, options, mirror}, out)) {
      plan::describePlan(mirror.plan, result);
      Run run(*this, options, layout, mirror);
      plan::runIterations(program, options, run, result, out);
    }
    release();
  } catch (const std::bad_alloc&) {
    release();
    out.error("exec.memory", plan::memoryMessage("host memory", options.bytes, program.ngpus,
                                                 "the host copy used for verification"));
  }
  plan::takeRecordedFailures(out);
  if (result.status == ExecStatus::Failed || !out.empty())
    result.diagnostics = out.take();
  return result;
}

void BlockExecutor::reportHang(const BlockLayout& layout, double timeoutSeconds, ExecResult& result,
                               Diagnostics& out)
{
  const BlockStatus* status = statuses();
  std::vector<BlockedPosition> blocked = blockedPositions(layout, status, replicas());
  int neverStarted = 0;
  for (std::size_t i = 0; i < layout.blocks.size() * static_cast<std::size_t>(replicas()); ++i)
    neverStarted += readStatusWord(status[i].started) == 0 ? 1 : 0;
  std::string detail;
  if (neverStarted > 0) {
    detail = "; " + std::to_string(neverStarted) +
             " blocks never started (they were not resident beside the others)";
  }
  const std::size_t count = blocked.size();
  plan::reportHang(plan::watchdogMessage(timeoutSeconds, count), std::move(blocked), result, out,
                   detail);
}

/// Errors the blocks found themselves (a message whose size differs from its receive).
bool BlockExecutor::reportBlockErrors(const BlockLayout& layout, Diagnostics& out)
{
  const BlockStatus* status = statuses();
  bool any = false;
  const std::size_t blocks = layout.blocks.size();
  for (std::size_t i = 0; i < blocks * static_cast<std::size_t>(replicas()); ++i) {
    if (readStatusWord(status[i].error) != kErrorMessageSize)
      continue;
    const BlockInfo& block = layout.blocks[i % blocks];
    const int step = static_cast<int>(status[i].step);
    const BlockStep& planned = layout.steps[static_cast<std::size_t>(block.firstStep + step)];
    out.error("exec.message-size",
              describe(blockLocation(block, step)) + ": " +
                  std::string(opTypeName(static_cast<OpType>(planned.type))) + " expects " +
                  std::to_string(status[i].errorExpected) + " elements but the message from rank " +
                  std::to_string(block.recvPeer) + " on channel " + std::to_string(block.channel) +
                  " has " + std::to_string(status[i].errorArrived) +
                  " (cnt differs between send and receive)",
              blockLocation(block, step));
    any = true;
  }
  return any;
}

bool BlockExecutor::waitAfterAbort(double limit)
{
  const auto deadline = Clock::now() + seconds(limit);
  while (!finished()) {
    if (Clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

plan::LaunchOutcome BlockExecutor::launchWatched(const BlockLayout& layout, bool trace,
                                                 const ExecOptions& options, double& stalledUs,
                                                 Diagnostics& out)
{
  stalledUs = 0;
  if (!start(trace, out))
    return plan::LaunchOutcome::Failed;
  const std::size_t runners = layout.blocks.size() * static_cast<std::size_t>(replicas());
  std::uint64_t seen = totalProgress(statuses(), runners);
  Clock::time_point lastChange = Clock::now();
  const auto timeout = seconds(options.timeoutSeconds);
  for (int polls = 0; !finished(); ++polls) {
    pauseBeforePoll(polls);
    // A cancel stops the blocks the way a hang does; the run loop tells them apart.
    if (options.cancel && options.cancel->load(std::memory_order_relaxed))
      return abortLaunch(layout, options.timeoutSeconds, out);
    const std::uint64_t progress = totalProgress(statuses(), runners);
    if (progress != seen) {
      seen = progress;
      lastChange = Clock::now();
    } else if (Clock::now() - lastChange > timeout) {
      stalledUs = std::chrono::duration<double, std::micro>(Clock::now() - lastChange).count();
      return abortLaunch(layout, options.timeoutSeconds, out);
    }
  }
  if (!launchSucceeded(out) || reportBlockErrors(layout, out))
    return plan::LaunchOutcome::Failed;
  return plan::LaunchOutcome::Finished;
}

plan::LaunchOutcome BlockExecutor::abortLaunch(const BlockLayout& layout, double timeoutSeconds,
                                               Diagnostics& out)
{
  abort();
  if (!waitAfterAbort(std::max(2.0, timeoutSeconds))) {
    out.error("exec.abort", "the blocks did not leave after the abort flag was raised (the run "
                            "had stopped progressing, or was cancelled); the device may need a "
                            "reset");
    return plan::LaunchOutcome::Failed;
  }
  if (!launchSucceeded(out) || reportBlockErrors(layout, out))
    return plan::LaunchOutcome::Failed;
  return plan::LaunchOutcome::Hung;
}

} // namespace cs::gpu
