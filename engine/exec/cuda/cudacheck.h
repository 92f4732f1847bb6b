#pragma once

// Turning CUDA runtime errors into diagnostics that say which call failed, on which device, and
// what the runtime said.

#include "model/diagnostic.h"

#include <cuda_runtime_api.h>

#include <string>

namespace cs::cuda {

/// "cudaMalloc on device 0: out of memory (cudaErrorMemoryAllocation)".
std::string describeError(cudaError_t error, const std::string& call, int device);

/// Adds an exec.cuda error to `out` and returns false when `error` is not cudaSuccess.
bool check(cudaError_t error, const std::string& call, int device, Diagnostics& out);

} // namespace cs::cuda
