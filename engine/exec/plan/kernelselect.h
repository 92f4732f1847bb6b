#pragma once

// Picking the instance of a kernel template for a run's (data type, reduction): `Kernels` names
// the template through a static member `address<T, Op>()` returning the instance's address, so
// every .cu file that instantiates one for all 24 pairs shares this dispatch.

#include "elementtypes.h"
#include "exec/executor.h"

#include <cstdint>

namespace cs::plan {

template <typename Kernels, typename T> const void* kernelForOp(ReduceOp op)
{
  switch (op) {
  case ReduceOp::Sum:
    return Kernels::template address<T, ReduceOp::Sum>();
  case ReduceOp::Prod:
    return Kernels::template address<T, ReduceOp::Prod>();
  case ReduceOp::Min:
    return Kernels::template address<T, ReduceOp::Min>();
  case ReduceOp::Max:
    return Kernels::template address<T, ReduceOp::Max>();
  }
  return nullptr;
}

/// The instance of `Kernels` for elements of `type` reduced with `op`.
template <typename Kernels> const void* selectKernel(DataType type, ReduceOp op)
{
  switch (type) {
  case DataType::F32:
    return kernelForOp<Kernels, float>(op);
  case DataType::F16:
    return kernelForOp<Kernels, plan::Half>(op);
  case DataType::BF16:
    return kernelForOp<Kernels, plan::BFloat16>(op);
  case DataType::F64:
    return kernelForOp<Kernels, double>(op);
  case DataType::I32:
    return kernelForOp<Kernels, std::int32_t>(op);
  case DataType::U8:
    return kernelForOp<Kernels, std::uint8_t>(op);
  }
  return nullptr;
}

} // namespace cs::plan
