#include "cpuexecutor.h"

#include "exec/plan/reference.h"
#include "interpreter.h"
#include "watchdog.h"

#include <algorithm>
#include <cstdio>
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

void restore(const Snapshot& snapshot, RunState& state)
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

enum class RunOutcome { Finished, Hung, Failed };

/// One launch of the collective: starts every worker behind a gate, opens it, lets the watchdog
/// wait, joins. Thread start-up is outside the measured time, like a kernel launch that is
/// already queued.
RunOutcome launch(RunState& state, cpu::Watchdog& watchdog, Diagnostics& out)
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
    return RunOutcome::Failed;
  }
  state.start = Clock::now();
  cpu::advance(gate, 1);
  const bool finished = watchdog.waitForAll(threads);
  if (!finished)
    state.abort();
  for (std::thread& worker : workers)
    worker.join();
  if (!state.errors.empty()) {
    out.append(state.errors);
    return RunOutcome::Failed;
  }
  return finished ? RunOutcome::Finished : RunOutcome::Hung;
}

std::string formatSeconds(double seconds)
{
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

void reportHang(const RunState& state, double timeoutSeconds, ExecResult& result, Diagnostics& out)
{
  std::vector<Location> related;
  for (const cpu::ThreadStatus& status : state.status) {
    if (status.finished || !status.waiting)
      continue;
    result.blocked.push_back(status.wait);
    Location location;
    location.rank = status.wait.rank;
    location.tb = status.wait.tb;
    location.step = status.wait.step;
    related.push_back(location);
  }
  Diagnostic& hang = out.error(
      "exec.hang",
      "no progress for " + formatSeconds(timeoutSeconds) +
          " s: " + std::to_string(result.blocked.size()) +
          " threadblocks are blocked; the watchdog stopped the run" +
          (result.blocked.empty() ? "" : " (first: " + describe(result.blocked.front()) + ")"),
      related.empty() ? Location{} : related.front());
  hang.related = std::move(related);
  result.status = ExecStatus::Hung;
}

Trace collectTrace(const RunState& state, const ExecOptions& options)
{
  Trace trace;
  trace.source = "cpu";
  trace.device = "CPU reference executor, " + std::to_string(state.plan.threadblocks.size()) +
                 " threads on " +
                 std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores";
  trace.ranks = state.plan.ranks;
  trace.bytes = options.bytes;
  for (const cpu::ThreadStatus& status : state.status) {
    trace.events.insert(trace.events.end(), status.events.begin(), status.events.end());
    for (const TraceEvent& event : status.events)
      trace.totalUs = std::max(trace.totalUs, event.end);
  }
  return trace;
}

} // namespace

ExecResult CpuExecutor::run(const Program& program, const ExecOptions& options)
{
  // Sizes come from users: a run that does not fit in memory is a result, not a crash.
  try {
    return runChecked(program, options);
  } catch (const std::bad_alloc&) {
    ExecResult result;
    result.diagnostics.push_back({Severity::Error,
                                  "exec.memory",
                                  "not enough memory for " + std::to_string(options.bytes) +
                                      " bytes on each of " + std::to_string(program.ngpus) +
                                      " ranks (buffers, scratch and connections)",
                                  {},
                                  {}});
    return result;
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
  const Snapshot snapshot = takeSnapshot(program, state);

  cpu::Watchdog watchdog(state.progress, options.timeoutSeconds);
  const int total = options.warmup + options.iterations;
  for (int iteration = 0; iteration < total; ++iteration) {
    if (iteration > 0)
      restore(snapshot, state);
    // Only the verified last run is traced, so the trace shows the data that was checked.
    state.trace = options.trace && iteration == total - 1;
    const RunOutcome outcome = launch(state, watchdog, out);
    if (outcome == RunOutcome::Failed) {
      result.diagnostics = out.take();
      return result;
    }
    if (outcome == RunOutcome::Hung) {
      reportHang(state, options.timeoutSeconds, result, out);
      result.diagnostics = out.take();
      return result;
    }
    if (iteration >= options.warmup) {
      Clock::time_point end = state.start;
      for (const cpu::ThreadStatus& status : state.status)
        end = std::max(end, status.end);
      result.iterationUs.push_back(
          std::chrono::duration<double, std::micro>(end - state.start).count());
    }
  }

  plan::Verification verification = plan::verifyResult(program, options, state);
  result.status = verification.status;
  result.wrong = verification.wrong;
  result.checked = verification.checked;
  result.firstWrong = verification.firstWrong;
  result.verification = std::move(verification.note);
  if (options.trace)
    result.trace = collectTrace(state, options);
  result.diagnostics = out.take();
  return result;
}

} // namespace cs
