#pragma once

// Everything the threads of one CPU run share: the plan, each rank's allocations, the
// connections, one dependency flag per (rank, tb) (msccl-format.md §4.4), the progress counter
// the watchdog watches, and the per-thread status it reports from. Owned by CpuExecutor::run;
// the interpreter (interpreter.h) is the only code that runs on the worker threads.

#include "connection_p.h"
#include "exec/plan/hostmemory.h"
#include "kernels_p.h"

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

namespace cs::cpu {

using Clock = std::chrono::steady_clock;

/// What one worker thread is doing; written by that thread only, read after it was joined.
/// Threads update it on every step, so each has its own cache lines.
struct alignas(64) ThreadStatus {
  int step = -1;
  int slice = -1;
  bool waiting = false; ///< blocked in a wait when the run stopped
  bool finished = false;
  BlockedPosition wait; ///< what it waits for while `waiting`
  Clock::time_point end;
  std::vector<TraceEvent> events;
};

/// The host memory the threads run in, and what they share besides.
struct RunState : plan::HostMemory {
  explicit RunState(plan::RunPlan runPlan) : plan::HostMemory(std::move(runPlan)) {}

  Kernels kernels;
  bool trace = false;
  std::vector<std::unique_ptr<Connection>> connections;
  std::unique_ptr<Counter[]> flags;       ///< per entry of plan.threadblocks
  std::vector<ThreadStatus> status;       ///< per entry of plan.threadblocks
  std::atomic<std::uint64_t> progress{0}; ///< step-slices completed, for the watchdog
  std::atomic<bool> aborted{false};
  Clock::time_point start;
  Clock::time_point stopped; ///< when the watchdog stopped the run (a hang)

  std::mutex errorMutex;
  std::vector<Diagnostic> errors; ///< found by workers (a message of the wrong size)

  /// Stops every worker: each wait returns at once and each thread leaves its loop.
  void abort();
  /// Clears connections, flags and statuses before a run.
  void reset();
  /// Records an error found on a worker and stops the run.
  void fail(Diagnostic diagnostic);
};

} // namespace cs::cpu
