#include "blockkernel_p.h"

#include "deviceplatform_p.cuh"
#include "exec/block/blockinterpreter.h"
#include "exec/plan/elementtypes.h"
#include "exec/plan/kernelselect.h"

namespace cs::cuda {

namespace {

template <typename T, ReduceOp Op>
__global__ void __launch_bounds__(kMaxThreadsPerBlock) runBlocks(gpu::BlockProgram program)
{
  const int runner =
      program.launchOrder ? program.launchOrder[blockIdx.x] : static_cast<int>(blockIdx.x);
  gpu::runBlock<DevicePlatform, T, Op>(program, runner);
}

__global__ void waitForGate(const std::uint32_t* gate)
{
  while (*static_cast<const volatile std::uint32_t*>(gate) == 0)
    __nanosleep(1000);
}

/// The kernel template for plan::selectKernel().
struct BlockKernels {
  template <typename T, ReduceOp Op> static const void* address()
  {
    return reinterpret_cast<const void*>(&runBlocks<T, Op>);
  }
};

} // namespace

const void* blockKernel(DataType type, ReduceOp op)
{
  return plan::selectKernel<BlockKernels>(type, op);
}

cudaError_t launchBlockKernel(const void* kernel, int blocks, int threads, cudaStream_t stream,
                              const gpu::BlockProgram& program, bool cooperative)
{
  gpu::BlockProgram argument = program;
  void* arguments[] = {&argument};
  const dim3 grid(static_cast<unsigned>(blocks));
  const dim3 block(static_cast<unsigned>(threads));
  if (cooperative)
    return cudaLaunchCooperativeKernel(kernel, grid, block, arguments, 0, stream);
  return cudaLaunchKernel(kernel, grid, block, arguments, 0, stream);
}

cudaError_t launchGateKernel(const std::uint32_t* gate, cudaStream_t stream)
{
  waitForGate<<<1, 1, 0, stream>>>(gate);
  return cudaGetLastError();
}

} // namespace cs::cuda
