#pragma once

// Every rank's buffers on the host for one run: what the reference fills with inputs and verifies
// after the run. The CPU executor runs in it; the GPU executors upload it and download the results
// into it.

#include "runplan.h"

#include <array>
#include <cstddef>
#include <vector>

namespace cs::plan {

struct HostMemory {
  explicit HostMemory(RunPlan runPlan) : plan(std::move(runPlan)) {}

  RunPlan plan;
  /// Per rank, the allocations behind i, o and s after aliasing (empty when unused).
  std::vector<std::array<std::vector<std::byte>, kBufferCount>> memory;

  /// The address of element `element` of chunk `chunk` of an allocation of `rank`.
  std::byte* address(int rank, Buffer allocation, std::int64_t chunk, std::int64_t element)
  {
    return memory[static_cast<std::size_t>(rank)][static_cast<std::size_t>(allocation)].data() +
           (chunk * plan.chunkElements + element) * plan.elementSize;
  }
};

} // namespace cs::plan
