#pragma once

// The block interpreter's platform on the host: one thread per block, so a "block" has a single
// lane, barriers are no-ops, and counters are C++ atomics. The emulated executor runs the CUDA
// kernel's own code this way, which is how its logic is tested on machines without a GPU.

#include "exec/block/blockprogram.h"
#include "exec/block/lowlatency.h"
#include "exec/plan/elementops.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace cs::gpu {

struct HostPlatform {
  static plan::Lanes lanes() { return {0, 1}; }
  static void barrier() {}
  static bool barrierAnd(bool value) { return value; }
  static Message& sharedMessage()
  {
    thread_local Message message;
    return message;
  }
  static std::uint32_t load(const std::uint32_t* counter, bool /*system*/)
  {
    return std::atomic_ref<std::uint32_t>(*const_cast<std::uint32_t*>(counter))
        .load(std::memory_order_relaxed);
  }
  /// With the relaxed loads and stores around it, an acquire after the waits and a release
  /// before the publications (C++ fence-to-fence synchronisation).
  static void fence(bool /*system*/) { std::atomic_thread_fence(std::memory_order_acq_rel); }
  static void publish(std::uint32_t* counter, std::uint32_t value, bool /*system*/)
  {
    std::atomic_ref<std::uint32_t>(*counter).store(value, std::memory_order_relaxed);
  }
  /// Each half of a line with one relaxed 8-byte access, as the GPU's 16-byte access guarantees.
  static LlLine loadLine(const LlLine* line)
  {
    auto* mutableLine = const_cast<LlLine*>(line);
    return {std::atomic_ref<std::uint64_t>(mutableLine->low).load(std::memory_order_relaxed),
            std::atomic_ref<std::uint64_t>(mutableLine->high).load(std::memory_order_relaxed)};
  }
  static void storeLine(LlLine* line, const LlLine& value)
  {
    std::atomic_ref<std::uint64_t>(line->low).store(value.low, std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(line->high).store(value.high, std::memory_order_relaxed);
  }
  static void store(std::uint32_t* word, std::uint32_t value)
  {
    std::atomic_ref<std::uint32_t>(*word).store(value, std::memory_order_relaxed);
  }
  static void storeWide(std::int64_t* word, std::int64_t value)
  {
    std::atomic_ref<std::int64_t>(*word).store(value, std::memory_order_relaxed);
  }
  /// Many more blocks than cores: give the core away at once, sleep when it lasts.
  static void pause(std::uint32_t spins)
  {
    // Hundreds of emulated blocks may wait at once on a 2-core host: a waiter that keeps waking
    // every 50 µs takes the cores from the few blocks that could make progress, so long waits
    // back off to 1 ms.
    if (spins < 64)
      std::this_thread::yield();
    else if (spins < 1024)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  static std::uint64_t now()
  {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
};

} // namespace cs::gpu
