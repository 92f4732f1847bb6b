#pragma once

// The watchdog of a CPU run: the coordinating thread waits here for the workers to finish while
// it watches the run's progress counter. When the counter has not moved for the timeout, the run
// is declared hung and waitForAll() returns false; the caller then aborts every wait (RunState::
// abort) and reports the blocked positions. So a deadlocking program costs about one timeout and
// never hangs the caller.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cs::cpu {

class Watchdog
{
public:
  /// `cancel` (may be null) stops the wait like a stall when another thread sets it.
  Watchdog(const std::atomic<std::uint64_t>& progress, double timeoutSeconds,
           const std::atomic<bool>* cancel = nullptr);

  /// Workers call this once when they leave their loop, normally or aborted.
  void threadFinished();
  /// Waits until `threads` workers finished (true) or progress stalled for the timeout or the
  /// run was cancelled (false).
  bool waitForAll(int threads);
  /// Forgets finished workers, for the next run.
  void reset();

private:
  const std::atomic<std::uint64_t>& m_progress;
  std::chrono::nanoseconds m_timeout;
  const std::atomic<bool>* m_cancel;
  std::mutex m_mutex;
  std::condition_variable m_finishedChanged;
  int m_finished = 0;
};

} // namespace cs::cpu
