#pragma once

// The block interpreter's platform on the GPU (see gpu/hostplatform.h for the host one). Thread 0
// of a block does every wait and publication; barriers hand its results to the other threads.
// Counters are polled with relaxed loads and written with relaxed stores at GPU scope (system
// scope when the run spans several GPUs), ordered by one fence on each side of a step; watchdog
// words are written with volatile stores. Only the device pass has bodies: the host pass never runs
// them.

#include "exec/block/blockprogram.h"
#include "exec/block/lowlatency.h"
#include "exec/plan/elementops.h"

#include <cstdint>

namespace cs::cuda {

struct DevicePlatform {
  CS_HD static plan::Lanes lanes()
  {
#if CS_DEVICE_PASS
    return {static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x)};
#else
    return {};
#endif
  }
  CS_HD static void barrier()
  {
#if CS_DEVICE_PASS
    __syncthreads();
#endif
  }
  CS_HD static bool barrierAnd(bool value)
  {
#if CS_DEVICE_PASS
    return __syncthreads_and(value ? 1 : 0) != 0;
#else
    return value;
#endif
  }
  CS_HD static gpu::Message& sharedMessage()
  {
#if CS_DEVICE_PASS
    __shared__ gpu::Message message;
    return message;
#else
    static gpu::Message unused;
    return unused;
#endif
  }
  /// A relaxed load at GPU scope, or system scope when the run spans several GPUs.
  CS_HD static std::uint32_t load(const std::uint32_t* counter, bool system)
  {
    std::uint32_t value = 0;
#if CS_DEVICE_PASS
    if (system)
      asm volatile("ld.relaxed.sys.u32 %0, [%1];" : "=r"(value) : "l"(counter) : "memory");
    else
      asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(value) : "l"(counter) : "memory");
#else
    (void)counter;
    (void)system;
#endif
    return value;
  }
  /// After a barrier it also covers the whole block's earlier reads and writes (cumulativity).
  CS_HD static void fence(bool system)
  {
#if CS_DEVICE_PASS
    if (system)
      asm volatile("fence.acq_rel.sys;" ::: "memory");
    else
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
    (void)system;
#endif
  }
  CS_HD static void publish(std::uint32_t* counter, std::uint32_t value, bool system)
  {
#if CS_DEVICE_PASS
    if (system)
      asm volatile("st.relaxed.sys.u32 [%0], %1;" ::"l"(counter), "r"(value) : "memory");
    else
      asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(counter), "r"(value) : "memory");
#else
    (void)counter;
    (void)value;
    (void)system;
#endif
  }
  /// One volatile 16-byte access: each 8-byte half (data and flag) is seen whole.
  CS_HD static gpu::LlLine loadLine(const gpu::LlLine* line)
  {
    gpu::LlLine value;
#if CS_DEVICE_PASS
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(value.low), "=l"(value.high)
                 : "l"(line)
                 : "memory");
#else
    (void)line;
#endif
    return value;
  }
  CS_HD static void storeLine(gpu::LlLine* line, const gpu::LlLine& value)
  {
#if CS_DEVICE_PASS
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(line), "l"(value.low),
                 "l"(value.high)
                 : "memory");
#else
    (void)line;
    (void)value;
#endif
  }
  CS_HD static void store(std::uint32_t* word, std::uint32_t value)
  {
    *const_cast<volatile std::uint32_t*>(word) = value;
  }
  CS_HD static void storeWide(std::int64_t* word, std::int64_t value)
  {
    *const_cast<volatile std::int64_t*>(word) = value;
  }
  /// Spin freely for a short while (a flag round trip is about 0.5 µs), then back off.
  CS_HD static void pause(std::uint32_t spins)
  {
#if CS_DEVICE_PASS
    if (spins > 64)
      __nanosleep(spins > 4096 ? 1000 : 64);
#else
    (void)spins;
#endif
  }
  /// Nanoseconds of the GPU's global timer (comparable between SMs).
  CS_HD static std::uint64_t now()
  {
    std::uint64_t time = 0;
#if CS_DEVICE_PASS
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time));
#endif
    return time;
  }
};

} // namespace cs::cuda
