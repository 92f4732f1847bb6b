#pragma once

// How a CUDA runtime result reads, for CS_CHECK (exec/plan/callcheck.h): shared by the CUDA
// executor (exec/cuda) and the NCCL executor (exec/nccl), the only folders that include it.

#include "exec/plan/callcheck.h"

#include <cuda_runtime_api.h>

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

} // namespace cs::plan
