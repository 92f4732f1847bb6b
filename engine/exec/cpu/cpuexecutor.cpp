#include "cpuexecutor.h"

#include "exec/plan/reference.h"
#include "exec/plan/runloop.h"
#include "interpreter_p.h"
#include "watchdog_p.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>
#include <thread>

namespace cs {

namespace {

using cpu::Clock;
using cpu::RunState;

/// Copies of the allocations that hold input data, restored before every run (in-place
/// programs overwrite their input); the others are refilled with the sentinel.
using Snapshot = std::vector<std::array<std::vector<std::byte>, kBufferCount>>;

Snapshot takeSnapshot(const Program& program, const RunState& state)
{
  Snapshot snapshot(state.memory.size());
  for (int r = 0; r < state.plan.ranks; ++r) {
    const std::size_t rank = static_cast<std::size_t>(r);
    if (state.plan.bufferChunks[rank][0] <= 0)
      continue;
    const Buffer memory = memorySlot(program, r, Buffer::Input, 0, state.plan.mode).memory;
    snapshot[rank][static_cast<std::size_t>(memory)] =
        state.memory[rank][static_cast<std::size_t>(memory)];
  }
  return snapshot;
}

void restoreSnapshot(const Snapshot& snapshot, RunState& state)
{
  for (std::size_t r = 0; r < state.memory.size(); ++r) {
    for (std::size_t m = 0; m < kBufferCount; ++m) {
      std::vector<std::byte>& memory = state.memory[r][m];
      if (!snapshot[r][m].empty())
        std::memcpy(memory.data(), snapshot[r][m].data(), memory.size());
      else
        std::fill(memory.begin(), memory.end(), plan::kSentinel);
    }
  }
}

/// One launch of the collective: starts every worker behind a gate, opens it, lets the watchdog
/// wait, joins. Thread start-up is outside the measured time, like a kernel launch that is
/// already queued.
plan::LaunchOutcome launchThreads(RunState& state, cpu::Watchdog& watchdog, Diagnostics& out)
{
  const int threads = static_cast<int>(state.plan.threadblocks.size());
  state.reset();
  watchdog.reset();
  if (state.trace) {
    // Workers must not allocate: one event per (step, slice) fits in what is reserved here.
    for (int i = 0; i < threads; ++i) {
      state.status[static_cast<std::size_t>(i)].events.reserve(
          state.plan.threadblocks[static_cast<std::size_t>(i)].steps.size() *
          static_cast<std::size_t>(state.plan.slices));
    }
  }
  cpu::Counter gate;
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads));
  bool started = true;
  try {
    for (int i = 0; i < threads; ++i) {
      workers.emplace_back([&state, &watchdog, &gate, i] {
        // Nothing may escape a thread (std::terminate); the only throw left is running out of
        // memory while reporting an error, which stops the run like an abort.
        try {
          if (cpu::waitUntil(gate, [](std::uint32_t open) { return open != 0; }))
            cpu::runThreadblock(state, i);
        } catch (...) {
          state.abort();
        }
        watchdog.threadFinished();
      });
    }
  } catch (const std::exception& error) { // system_error, or bad_alloc of a thread's state
    started = false;
    out.error("exec.threads",
              "could not start " + std::to_string(threads) + " threads: " + error.what());
  }
  if (!started) {
    cpu::poison(gate);
    for (std::thread& worker : workers)
      worker.join();
    return plan::LaunchOutcome::Failed;
  }
  state.start = Clock::now();
  cpu::advance(gate, 1);
  const bool finished = watchdog.waitForAll(threads);
  if (!finished) {
    state.stopped = Clock::now();
    state.abort();
  }
  for (std::thread& worker : workers)
    worker.join();
  if (!state.errors.empty()) {
    out.append(state.errors);
    return plan::LaunchOutcome::Failed;
  }
  return finished ? plan::LaunchOutcome::Finished : plan::LaunchOutcome::Hung;
}

std::vector<BlockedPosition> blockedPositions(const RunState& state)
{
  std::vector<BlockedPosition> blocked;
  for (const cpu::ThreadStatus& status : state.status) {
    if (!status.finished && status.waiting)
      blocked.push_back(status.wait);
  }
  return blocked;
}

Trace collectTrace(const RunState& state)
{
  Trace trace;
  trace.source = "cpu";
  trace.device = "CPU reference executor, " + std::to_string(state.plan.threadblocks.size()) +
                 " threads on " +
                 std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores";
  trace.ranks = state.plan.ranks;
  for (const cpu::ThreadStatus& status : state.status) {
    trace.events.insert(trace.events.end(), status.events.begin(), status.events.end());
    for (const TraceEvent& event : status.events)
      trace.totalUs = std::max(trace.totalUs, event.end);
  }
  return trace;
}

/// The CPU executor's hooks for the shared run loop: restore from the snapshot, launch the
/// threads under the watchdog, time them from the gate's opening to the last thread's end.
class CpuRun final : public plan::RunBackend
{
public:
  CpuRun(const Program& program, const ExecOptions& options, RunState& state)
      : m_options(options), m_state(state), m_snapshot(takeSnapshot(program, state)),
        m_watchdog(state.progress, options.timeoutSeconds, options.cancel)
  {
  }

  bool restore(Diagnostics& /*out*/) override
  {
    restoreSnapshot(m_snapshot, m_state);
    return true;
  }
  plan::LaunchOutcome launch(bool trace, Diagnostics& out) override
  {
    m_state.trace = trace;
    return launchThreads(m_state, m_watchdog, out);
  }
  std::optional<double> elapsedUs(Diagnostics& /*out*/) override
  {
    Clock::time_point end = m_state.start;
    for (const cpu::ThreadStatus& status : m_state.status)
      end = std::max(end, status.end);
    return std::chrono::duration<double, std::micro>(end - m_state.start).count();
  }
  void reportHang(ExecResult& result, Diagnostics& out) override
  {
    std::vector<BlockedPosition> blocked = blockedPositions(m_state);
    const std::size_t count = blocked.size();
    plan::reportHang(plan::watchdogMessage(m_options.timeoutSeconds, count), std::move(blocked),
                     result, out);
  }
  bool collect(bool /*trace*/, Diagnostics& /*out*/) override { return true; }
  plan::HostMemory& results() override { return m_state; }
  Trace trace() override { return collectTrace(m_state); }
  std::optional<Trace> stoppedTrace() override
  {
    // The workers recorded each step as it completed; the blocked ones recorded nothing.
    Trace trace = collectTrace(m_state);
    const double stopped =
        std::chrono::duration<double, std::micro>(m_state.stopped - m_state.start).count();
    trace.stoppedUs = std::max(stopped, trace.totalUs);
    return trace;
  }

private:
  const ExecOptions& m_options;
  RunState& m_state;
  const Snapshot m_snapshot;
  cpu::Watchdog m_watchdog;
};

} // namespace

ExecResult CpuExecutor::run(const Program& program, const ExecOptions& options)
{
  // Sizes come from users: a run that does not fit in memory is a result, not a crash.
  try {
    return runChecked(program, options);
  } catch (const std::bad_alloc&) {
    return plan::memoryFailure("memory", options.bytes, program.ngpus,
                               "buffers, scratch and connections");
  }
}

ExecResult CpuExecutor::runChecked(const Program& program, const ExecOptions& options)
{
  ExecResult result;
  Diagnostics out;
  std::optional<plan::RunPlan> plan = plan::planRun(program, options, out);
  if (!plan) {
    result.diagnostics = out.take();
    return result;
  }
  plan::describePlan(*plan, result);

  RunState state(std::move(*plan));
  state.kernels = cpu::selectKernels(options.dtype, options.op);
  for (const plan::PlannedConnection& connection : state.plan.connections) {
    state.connections.push_back(std::make_unique<cpu::Connection>(
        state.plan.connectionSlots, connection.messageElements * state.plan.elementSize));
  }
  const std::size_t threads = state.plan.threadblocks.size();
  state.flags = std::make_unique<cpu::Counter[]>(threads);
  state.status.resize(threads);
  plan::initialiseMemory(program, options.dtype, options.op, state);
  CpuRun run(program, options, state);
  plan::runIterations(program, options, run, result, out);
  result.diagnostics = out.take();
  return result;
}

} // namespace cs
