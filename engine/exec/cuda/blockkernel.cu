#include "blockkernel.h"

#include "deviceplatform.cuh"
#include "exec/cpu/elementtypes.h"
#include "exec/gpu/blockinterpreter.h"

namespace cs::cuda {

namespace {

template <typename T, ReduceOp Op>
__global__ void __launch_bounds__(kMaxThreadsPerBlock) runBlocks(gpu::BlockProgram program)
{
  const int runner =
      program.launchOrder ? program.launchOrder[blockIdx.x] : static_cast<int>(blockIdx.x);
  gpu::runBlock<DevicePlatform, T, Op>(program, runner);
}

template <typename T> const void* kernelFor(ReduceOp op)
{
  switch (op) {
  case ReduceOp::Sum:
    return reinterpret_cast<const void*>(&runBlocks<T, ReduceOp::Sum>);
  case ReduceOp::Prod:
    return reinterpret_cast<const void*>(&runBlocks<T, ReduceOp::Prod>);
  case ReduceOp::Min:
    return reinterpret_cast<const void*>(&runBlocks<T, ReduceOp::Min>);
  case ReduceOp::Max:
    return reinterpret_cast<const void*>(&runBlocks<T, ReduceOp::Max>);
  }
  return nullptr;
}

} // namespace

const void* blockKernel(DataType type, ReduceOp op)
{
  switch (type) {
  case DataType::F32:
    return kernelFor<float>(op);
  case DataType::F16:
    return kernelFor<cpu::Half>(op);
  case DataType::BF16:
    return kernelFor<cpu::BFloat16>(op);
  case DataType::F64:
    return kernelFor<double>(op);
  case DataType::I32:
    return kernelFor<std::int32_t>(op);
  case DataType::U8:
    return kernelFor<std::uint8_t>(op);
  }
  return nullptr;
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

} // namespace cs::cuda
