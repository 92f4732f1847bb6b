#include "kernels.h"

#include "elementtypes.h"

namespace cs::cpu {

namespace {

template <typename T, ReduceOp Op>
void reduceLoop(std::byte* out, const std::byte* a, const std::byte* b, std::int64_t n)
{
  T* o = reinterpret_cast<T*>(out);
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  for (std::int64_t i = 0; i < n; ++i)
    o[i] = reduceValue<Op>(x[i], y[i]);
}

template <typename T, ReduceOp Op>
void reduceTwiceLoop(std::byte* out1, std::byte* out2, const std::byte* a, const std::byte* b,
                     std::int64_t n)
{
  T* o1 = reinterpret_cast<T*>(out1);
  T* o2 = reinterpret_cast<T*>(out2);
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  for (std::int64_t i = 0; i < n; ++i) {
    const T v = reduceValue<Op>(x[i], y[i]);
    o1[i] = v;
    o2[i] = v;
  }
}

} // namespace

Kernels selectKernels(DataType type, ReduceOp op)
{
  return withStorageType(type, [op]<typename T>() {
    return withReduceOp(op, []<ReduceOp Op>() {
      Kernels kernels;
      kernels.reduce = &reduceLoop<T, Op>;
      kernels.reduceTwice = &reduceTwiceLoop<T, Op>;
      kernels.elementSize = static_cast<int>(sizeof(T));
      return kernels;
    });
  });
}

} // namespace cs::cpu
