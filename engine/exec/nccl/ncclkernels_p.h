#pragma once

// The local part of a round (ncclrounds.h): every copy and reduction one rank runs after the
// round's grouped sends and receives, in one kernel launch. Each operation gets a row of blocks
// (blockIdx.y) whose threads share its elements; the element loops are the GPU executor's
// (plan/elementops.h), so results are the same bits as the host reference.

#include "exec/executor.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace cs::nccl {

/// One element loop, with device addresses: out = a (copy), or out = a ⊕ b and out2 too.
struct DeviceLocalOp {
  void* out = nullptr;
  void* out2 = nullptr; ///< null unless a reduction also writes a second place
  const void* a = nullptr;
  const void* b = nullptr; ///< null for a copy
  std::int64_t elements = 0;
};

/// Operations one launch handles at most (the grid's y dimension).
inline constexpr int kMaxLocalOpsPerLaunch = 65535;

/// Runs `count` operations from the device array `ops` on `stream` for `type` and `op`;
/// `largestElements` sizes the grid. count must be 1..kMaxLocalOpsPerLaunch.
cudaError_t launchLocalOps(DataType type, ReduceOp op, const DeviceLocalOp* ops, int count,
                           std::int64_t largestElements, cudaStream_t stream);

} // namespace cs::nccl
