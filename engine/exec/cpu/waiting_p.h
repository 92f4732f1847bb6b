#pragma once

// Blocking, abortable waits on 32-bit counters (connection positions, dependency flags). A run has
// up to ~500 threads on a couple of cores, so a waiter first yields its core a few times (the
// value usually comes while others run) and then sleeps in the kernel (std::atomic::wait is a
// futex on Linux). The watchdog aborts a run by setting the top bit of every counter and
// notifying it, so a waiter wakes even though the value it waits for never comes; owners only
// ever add to their counters, which keeps that bit once set.

#include <atomic>
#include <cstdint>
#include <thread>

namespace cs::cpu {

inline constexpr std::uint32_t kAbortBit = 1u << 31;

/// Yields before a waiter goes to sleep; each is far cheaper than a futex sleep and wake-up.
inline constexpr int kYieldsBeforeSleeping = 8;

/// A counter on its own cache line (counters of different threads must not share one).
struct alignas(64) Counter {
  std::atomic<std::uint32_t> value{0};
  /// Waiters that may be asleep on `value`. advance() wakes only when there are some: the
  /// library's own waiter count is shared by every counter (all of them hash to one entry), so
  /// without this every message would cost a futex system call.
  std::atomic<std::uint32_t> sleepers{0};
};

/// Blocks until `ready(value)` holds (true) or the run was aborted (false).
template <typename Ready> bool waitUntil(Counter& counter, Ready ready)
{
  for (int round = 0;; ++round) {
    const std::uint32_t value = counter.value.load(std::memory_order_acquire);
    if (value & kAbortBit)
      return false;
    if (ready(value))
      return true;
    if (round < kYieldsBeforeSleeping) {
      std::this_thread::yield();
      continue;
    }
    // Announce the sleep, then look again: with advance() doing the opposite (add, then look
    // for sleepers), all four operations sequentially consistent, either it sees this sleeper
    // or this load sees its value, so no wake-up is lost.
    counter.sleepers.fetch_add(1, std::memory_order_seq_cst);
    if (counter.value.load(std::memory_order_seq_cst) == value)
      counter.value.wait(value, std::memory_order_acquire);
    counter.sleepers.fetch_sub(1, std::memory_order_relaxed);
  }
}

/// Adds `delta` and wakes the waiters, if any sleeps.
inline void advance(Counter& counter, std::uint32_t delta)
{
  counter.value.fetch_add(delta, std::memory_order_seq_cst);
  if (counter.sleepers.load(std::memory_order_seq_cst) != 0)
    counter.value.notify_all();
}

/// Marks the counter aborted and wakes every waiter.
inline void poison(Counter& counter)
{
  counter.value.fetch_or(kAbortBit, std::memory_order_seq_cst);
  counter.value.notify_all();
}

} // namespace cs::cpu
