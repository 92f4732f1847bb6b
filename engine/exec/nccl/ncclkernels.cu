#include "ncclkernels_p.h"

#include "exec/plan/elementops.h"
#include "exec/plan/elementtypes.h"
#include "exec/plan/kernelselect.h"

#include <algorithm>

namespace cs::nccl {

namespace {

constexpr int kThreads = 512;
// Enough blocks per operation to keep an H100's 132 SMs busy on one large operation, few enough
// that the blocks of a round with many operations do not queue for long.
constexpr std::int64_t kMaxBlocksPerOp = 264;
constexpr std::int64_t kElementsPerThread = 16;

template <typename T, ReduceOp Op>
__global__ void __launch_bounds__(kThreads) runLocalOps(const DeviceLocalOp* ops)
{
  const DeviceLocalOp& op = ops[blockIdx.y];
  const plan::Lanes lanes{static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                          static_cast<int>(gridDim.x * blockDim.x)};
  if (!op.b) {
    plan::copyElements(lanes, static_cast<T*>(op.out), static_cast<const T*>(op.a), op.elements);
    return;
  }
  plan::reduceElements<Op>(lanes, static_cast<T*>(op.out), static_cast<T*>(op.out2),
                           static_cast<const T*>(op.a), static_cast<const T*>(op.b), op.elements);
}

/// The kernel template for plan::selectKernel().
struct LocalOpsKernels {
  template <typename T, ReduceOp Op> static const void* address()
  {
    return reinterpret_cast<const void*>(&runLocalOps<T, Op>);
  }
};

} // namespace

cudaError_t launchLocalOps(DataType type, ReduceOp op, const DeviceLocalOp* ops, int count,
                           std::int64_t largestElements, cudaStream_t stream)
{
  const void* kernel = plan::selectKernel<LocalOpsKernels>(type, op);
  if (!kernel || count < 1 || count > kMaxLocalOpsPerLaunch)
    return cudaErrorInvalidValue;
  const std::int64_t perBlock = std::int64_t{kThreads} * kElementsPerThread;
  const std::int64_t blocks =
      std::clamp<std::int64_t>((largestElements + perBlock - 1) / perBlock, 1, kMaxBlocksPerOp);
  const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(count));
  void* arguments[] = {&ops};
  return cudaLaunchKernel(kernel, grid, dim3(kThreads), arguments, 0, stream);
}

} // namespace cs::nccl
