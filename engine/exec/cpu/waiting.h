#pragma once

// Blocking, abortable waits on 32-bit counters (connection positions, dependency flags). Threads
// sleep in the kernel (std::atomic::wait is a futex on Linux) instead of spinning: a run has up to
// ~500 threads on a couple of cores. The watchdog aborts a run by setting the top bit of every
// counter and notifying it, so a waiter wakes even though the value it waits for never comes;
// owners only ever add to their counters, which keeps that bit once set.

#include <atomic>
#include <cstdint>

namespace cs::cpu {

inline constexpr std::uint32_t kAbortBit = 1u << 31;

/// A counter on its own cache line (counters of different threads must not share one).
struct alignas(64) Counter {
  std::atomic<std::uint32_t> value{0};
};

/// Blocks until `ready(value)` holds (true) or the run was aborted (false).
template <typename Ready> bool waitUntil(std::atomic<std::uint32_t>& counter, Ready ready)
{
  for (;;) {
    const std::uint32_t value = counter.load(std::memory_order_acquire);
    if (value & kAbortBit)
      return false;
    if (ready(value))
      return true;
    counter.wait(value, std::memory_order_acquire);
  }
}

/// Adds `delta` and wakes the waiters.
inline void advance(std::atomic<std::uint32_t>& counter, std::uint32_t delta)
{
  counter.fetch_add(delta, std::memory_order_release);
  counter.notify_all();
}

/// Marks the counter aborted and wakes every waiter.
inline void poison(std::atomic<std::uint32_t>& counter)
{
  counter.fetch_or(kAbortBit, std::memory_order_acq_rel);
  counter.notify_all();
}

} // namespace cs::cpu
