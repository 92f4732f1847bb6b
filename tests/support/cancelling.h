#pragma once

// Cancelling work from another thread, as the app's Cancel does: the tests of every backend's
// cancel start a long run, wait until it is under way, raise its flag and time how long it takes
// to return.

#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <thread>

namespace cs::test {

/// What a cancelled run returned, and how long after the cancel it did.
template <typename Result> struct Cancelled {
  Result result;
  double seconds = 0; ///< from raising the flag to the run's return
};

/// Runs `work` on another thread, waits (at most `startLimit`) until `started()` holds, sets
/// `cancel`, and waits (at most `stopLimit`) for `work` to return. Absent when it never started
/// or did not return in time (the thread is then left to finish on its own).
template <typename Work, typename Started>
auto cancelWhileRunning(Work work, Started started, std::atomic<bool>& cancel,
                        std::chrono::seconds startLimit, std::chrono::seconds stopLimit)
    -> std::optional<Cancelled<decltype(work())>>
{
  using Clock = std::chrono::steady_clock;
  auto running = std::async(std::launch::async, std::move(work));
  const auto deadline = Clock::now() + startLimit;
  while (!started() && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (!started())
    return std::nullopt;
  const auto cancelledAt = Clock::now();
  cancel.store(true);
  if (running.wait_for(stopLimit) != std::future_status::ready)
    return std::nullopt;
  const double seconds = std::chrono::duration<double>(Clock::now() - cancelledAt).count();
  return Cancelled<decltype(work())>{running.get(), seconds};
}

} // namespace cs::test
