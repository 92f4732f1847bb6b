#include "blockexecutor.h"

#include "../polling.h"
#include "exec/plan/reference.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <new>
#include <thread>

namespace cs::gpu {

namespace {

using Clock = std::chrono::steady_clock;

std::string formatSeconds(double seconds)
{
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

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
    if (prepare({mirror.plan, layout, options, mirror}, out))
      result = runPrepared(program, options, mirror.plan, layout, mirror, out);
    release();
  } catch (const std::bad_alloc&) {
    release();
    out.error("exec.memory", "not enough host memory for " + std::to_string(options.bytes) +
                                 " bytes on each of " + std::to_string(program.ngpus) +
                                 " ranks (the host copy used for verification)");
  }
  if (result.status == ExecStatus::Failed || !out.empty())
    result.diagnostics = out.take();
  return result;
}

ExecResult BlockExecutor::runPrepared(const Program& program, const ExecOptions& options,
                                      const plan::RunPlan& plan, const BlockLayout& layout,
                                      plan::HostMemory& mirror, Diagnostics& out)
{
  ExecResult result;
  plan::describePlan(plan, result);
  const int total = options.warmup + options.iterations;
  for (int iteration = 0; iteration < total; ++iteration) {
    if (iteration > 0 && !restore(out))
      return result;
    // Only the verified last run is traced, so the trace shows the data that was checked.
    const bool trace = options.trace && iteration == total - 1;
    const Outcome outcome = launchWatched(layout, trace, options.timeoutSeconds, out);
    if (outcome == Outcome::Failed)
      return result;
    if (outcome == Outcome::Hung) {
      reportHang(layout, options.timeoutSeconds, result, out);
      return result;
    }
    if (iteration >= options.warmup)
      result.iterationUs.push_back(elapsedUs());
  }
  std::vector<std::uint64_t> records;
  if (!download(mirror, options.trace ? &records : nullptr, out))
    return result;
  plan::Verification verification = plan::verifyResult(program, options, mirror);
  result.status = verification.status;
  result.wrong = verification.wrong;
  result.checked = verification.checked;
  result.firstWrong = verification.firstWrong;
  result.verification = std::move(verification.note);
  if (options.trace) {
    result.trace = traceFromRecords(plan, layout, replicas(), records);
    result.trace.source = traceSource();
    result.trace.device = deviceDescription();
    result.trace.bytes = options.bytes;
  }
  return result;
}

void BlockExecutor::reportHang(const BlockLayout& layout, double timeoutSeconds, ExecResult& result,
                               Diagnostics& out)
{
  const BlockStatus* status = statuses();
  result.blocked = blockedPositions(layout, status, replicas());
  int neverStarted = 0;
  for (std::size_t i = 0; i < layout.blocks.size() * static_cast<std::size_t>(replicas()); ++i)
    neverStarted += readStatusWord(status[i].started) == 0 ? 1 : 0;
  std::vector<Location> related;
  for (const BlockedPosition& position : result.blocked) {
    Location location;
    location.rank = position.rank;
    location.tb = position.tb;
    location.step = position.step;
    related.push_back(location);
  }
  std::string message = "no progress for " + formatSeconds(timeoutSeconds) +
                        " s: " + std::to_string(result.blocked.size()) +
                        " threadblocks are blocked; the watchdog stopped the run";
  if (!result.blocked.empty())
    message += " (first: " + describe(result.blocked.front()) + ")";
  if (neverStarted > 0) {
    message += "; " + std::to_string(neverStarted) +
               " blocks never started (they were not resident beside the others)";
  }
  Diagnostic& hang =
      out.error("exec.hang", message, related.empty() ? Location{} : related.front());
  hang.related = std::move(related);
  result.status = ExecStatus::Hung;
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

BlockExecutor::Outcome BlockExecutor::launchWatched(const BlockLayout& layout, bool trace,
                                                    double timeoutSeconds, Diagnostics& out)
{
  if (!start(trace, out))
    return Outcome::Failed;
  const std::size_t runners = layout.blocks.size() * static_cast<std::size_t>(replicas());
  std::uint64_t seen = totalProgress(statuses(), runners);
  Clock::time_point lastChange = Clock::now();
  const auto timeout = seconds(timeoutSeconds);
  for (int polls = 0; !finished(); ++polls) {
    pauseBeforePoll(polls);
    const std::uint64_t progress = totalProgress(statuses(), runners);
    if (progress != seen) {
      seen = progress;
      lastChange = Clock::now();
    } else if (Clock::now() - lastChange > timeout) {
      abort();
      if (!waitAfterAbort(std::max(2.0, timeoutSeconds))) {
        out.error("exec.abort", "the run stopped progressing and did not stop after the abort "
                                "flag was raised; the device may need a reset");
        return Outcome::Failed;
      }
      if (!launchSucceeded(out) || reportBlockErrors(layout, out))
        return Outcome::Failed;
      return Outcome::Hung;
    }
  }
  if (!launchSucceeded(out) || reportBlockErrors(layout, out))
    return Outcome::Failed;
  return Outcome::Finished;
}

} // namespace cs::gpu
