#pragma once

// How a CUDA runtime result reads, and how many GPUs it sees, for CS_CHECK (exec/plan/callcheck.h):
// shared by the CUDA executor (exec/cuda) and the NCCL executor (exec/nccl), the only folders that
// include it.

#include "exec/plan/callcheck.h"

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <string_view>

namespace cs::plan {

template <> struct CallStatus<cudaError_t> {
  static constexpr std::string_view code = "exec.cuda";
  static bool ok(cudaError_t error) { return error == cudaSuccess; }
  /// "out of memory (cudaErrorMemoryAllocation)".
  static std::string describe(cudaError_t error)
  {
    return std::string(cudaGetErrorString(error)) + " (" + cudaGetErrorName(error) + ")";
  }
};

/// The GPUs the CUDA runtime sees, or nullopt with its reason in `why` (no driver, no device).
inline std::optional<int> countCudaDevices(std::string* why)
{
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    // Not a failure of a run: the answer is "none", and why.
    if (why)
      *why = CallStatus<cudaError_t>::describe(error);
    return std::nullopt;
  }
  if (count == 0) {
    if (why)
      *why = "the CUDA runtime reports 0 devices";
    return std::nullopt;
  }
  return count;
}

} // namespace cs::plan
