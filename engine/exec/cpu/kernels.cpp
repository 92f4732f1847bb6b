#include "kernels_p.h"

#include "exec/plan/elementtypes.h"

#include <algorithm>
#include <cstring>

namespace cs::cpu {

namespace {

// The loops run in blocks of a fixed number of elements. GCC's -O2 vectoriser only takes loops
// whose trip count is a known multiple of the vector width and that need no runtime overlap
// checks: the block loop has the first, and `ivdep` gives the second, truthfully, because a
// destination equals a source exactly or not at all, so element k never feeds another. (Clang
// vectorises at -O2 with runtime checks and warns about GCC's pragma, so it gets none.)
#if defined(__GNUC__) && !defined(__clang__)
#define CS_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#define CS_INDEPENDENT_ITERATIONS
#endif

template <typename T> inline constexpr std::int64_t kBlockElements = 256 / sizeof(T);

template <typename T, ReduceOp Op>
void reduceLoop(std::byte* out, const std::byte* a, const std::byte* b, std::int64_t n)
{
  constexpr std::int64_t block = kBlockElements<T>;
  T* o = reinterpret_cast<T*>(out);
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  std::int64_t i = 0;
  for (; i + block <= n; i += block) {
    CS_INDEPENDENT_ITERATIONS
    for (std::int64_t k = 0; k < block; ++k)
      o[i + k] = plan::reduceValue<Op>(x[i + k], y[i + k]);
  }
  for (; i < n; ++i)
    o[i] = plan::reduceValue<Op>(x[i], y[i]);
}

template <typename T, ReduceOp Op>
void reduceTwiceLoop(std::byte* out1, std::byte* out2, const std::byte* a, const std::byte* b,
                     std::int64_t n)
{
  constexpr std::int64_t block = kBlockElements<T>;
  T* o1 = reinterpret_cast<T*>(out1);
  T* o2 = reinterpret_cast<T*>(out2);
  const T* x = reinterpret_cast<const T*>(a);
  const T* y = reinterpret_cast<const T*>(b);
  std::int64_t i = 0;
  for (; i + block <= n; i += block) {
    CS_INDEPENDENT_ITERATIONS
    for (std::int64_t k = 0; k < block; ++k) {
      const T v = plan::reduceValue<Op>(x[i + k], y[i + k]);
      o1[i + k] = v;
      o2[i + k] = v;
    }
  }
  for (; i < n; ++i) {
    const T v = plan::reduceValue<Op>(x[i], y[i]);
    o1[i] = v;
    o2[i] = v;
  }
}

#undef CS_INDEPENDENT_ITERATIONS

} // namespace

Kernels selectKernels(DataType type, ReduceOp op)
{
  return plan::withStorageType(type, [op]<typename T>() {
    return plan::withReduceOp(op, []<ReduceOp Op>() {
      Kernels kernels;
      kernels.reduce = &reduceLoop<T, Op>;
      kernels.reduceTwice = &reduceTwiceLoop<T, Op>;
      kernels.elementSize = static_cast<int>(sizeof(T));
      return kernels;
    });
  });
}

void copyTwice(std::byte* out1, std::byte* out2, const std::byte* in, std::size_t bytes)
{
  // Pieces small enough to stay in L1 between the two copies, large enough for memcpy's
  // vector loop to run at full speed.
  constexpr std::size_t piece = std::size_t{16} << 10;
  for (std::size_t done = 0; done < bytes; done += piece) {
    const std::size_t size = std::min(piece, bytes - done);
    std::memcpy(out1 + done, in + done, size);
    std::memcpy(out2 + done, in + done, size);
  }
}

} // namespace cs::cpu
