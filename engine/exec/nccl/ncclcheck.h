#pragma once

// Turning CUDA and NCCL errors into diagnostics that say which call failed, for which rank and
// device, and what the library said (NCCL's own last error message included: its result codes
// alone rarely explain a failure).

#include "model/diagnostic.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <string>

namespace cs::nccl {

/// Which rank and device a call was made for; -1 where it does not apply.
struct CallSite {
  int rank = -1;
  int device = -1;
};

/// "cudaMalloc for rank 1 on device 1: out of memory (cudaErrorMemoryAllocation)".
std::string describeCudaError(cudaError_t error, const std::string& call, CallSite site);
/// "ncclGroupEnd for rank 0 on device 0: unhandled cuda error (run with NCCL_DEBUG=INFO for
/// details); NCCL says: ...".
std::string describeNcclError(ncclResult_t result, const std::string& call, CallSite site);

/// Adds an exec.cuda error to `out` and returns false unless `error` is cudaSuccess.
bool checkCuda(cudaError_t error, const std::string& call, CallSite site, Diagnostics& out);
/// Adds an exec.nccl error to `out` and returns false unless `result` is ncclSuccess.
bool checkNccl(ncclResult_t result, const std::string& call, CallSite site, Diagnostics& out);

} // namespace cs::nccl
