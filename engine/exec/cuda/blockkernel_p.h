#pragma once

// The persistent kernel of the CUDA executor: one GPU block per runner (a replica of one
// (rank, threadblock) of the program), all resident at once, each running the block interpreter
// (gpu/blockinterpreter.h) to the end of the slicing loop.

#include "exec/block/blockprogram.h"
#include "exec/executor.h"

#include <cuda_runtime_api.h>

namespace cs::cuda {

/// Threads per block the kernel is compiled for at most (__launch_bounds__).
inline constexpr int kMaxThreadsPerBlock = 512;

/// The kernel instance for `type` and `op`, for launches and occupancy queries.
const void* blockKernel(DataType type, ReduceOp op);

/// Launches `blocks` blocks of `threads` threads; block b runs runner program.launchOrder[b].
/// A cooperative launch fails instead of starting when the blocks cannot all be resident.
cudaError_t launchBlockKernel(const void* kernel, int blocks, int threads, cudaStream_t stream,
                              const gpu::BlockProgram& program, bool cooperative);

/// Queues one thread on `stream` that waits until `*gate` (mapped host memory) is non-zero.
cudaError_t launchGateKernel(const std::uint32_t* gate, cudaStream_t stream);

} // namespace cs::cuda
