#pragma once

// Element arithmetic and the block-cooperative loops of the GPU executor. Every thread of a block
// takes every `lanes.count`-th piece; pieces are 16-byte vectors when all operands are 16-byte
// aligned (one ld/st.global.v4 each) and single elements otherwise. Half and bfloat16 are computed
// in float and rounded to nearest even, exactly like the host reference (plan/elementtypes.h), so a
// verified GPU result is the same bits as the reference whatever the reduction order.

#include "elementtypes.h"
#include "hostdevice.h"

#include <cstdint>
#include <type_traits>

#if CS_DEVICE_PASS
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace cs::plan {

/// This thread's place in its block.
struct Lanes {
  int index = 0;
  int count = 1;
};

/// How a storage type is computed with on either side.
template <typename T> struct DeviceArith {
  using Compute = T;
  CS_HD static Compute load(T v) { return v; }
  CS_HD static T store(Compute v) { return v; }
};
template <> struct DeviceArith<plan::Half> {
  using Compute = float;
  CS_HD static float load(plan::Half v)
  {
#if CS_DEVICE_PASS
    return __half2float(__ushort_as_half(v.bits));
#else
    return plan::halfToFloat(v);
#endif
  }
  CS_HD static plan::Half store(float v)
  {
#if CS_DEVICE_PASS
    return {__half_as_ushort(__float2half_rn(v))};
#else
    return plan::floatToHalf(v);
#endif
  }
};
template <> struct DeviceArith<plan::BFloat16> {
  using Compute = float;
  CS_HD static float load(plan::BFloat16 v)
  {
#if CS_DEVICE_PASS
    return __bfloat162float(__ushort_as_bfloat16(v.bits));
#else
    return plan::bf16ToFloat(v);
#endif
  }
  CS_HD static plan::BFloat16 store(float v)
  {
#if CS_DEVICE_PASS
    return {__bfloat16_as_ushort(__float2bfloat16_rn(v))};
#else
    return plan::floatToBf16(v);
#endif
  }
};

/// a ⊕ b on storage values; integer sums and products wrap like NCCL's (and the reference's).
template <ReduceOp Op, typename T> CS_HD inline T combineValues(T a, T b)
{
  using A = DeviceArith<T>;
  using C = typename A::Compute;
  const C x = A::load(a);
  const C y = A::load(b);
  C r;
  if constexpr (Op == ReduceOp::Sum) {
    if constexpr (std::is_same_v<C, std::int32_t>)
      r = static_cast<C>(static_cast<std::uint32_t>(x) + static_cast<std::uint32_t>(y));
    else
      r = static_cast<C>(x + y);
  } else if constexpr (Op == ReduceOp::Prod) {
    if constexpr (std::is_same_v<C, std::int32_t>)
      r = static_cast<C>(static_cast<std::uint32_t>(x) * static_cast<std::uint32_t>(y));
    else if constexpr (std::is_same_v<C, std::uint8_t>)
      r = static_cast<C>(static_cast<unsigned>(x) * static_cast<unsigned>(y));
    else
      r = static_cast<C>(x * y);
  } else if constexpr (Op == ReduceOp::Min) {
    r = y < x ? y : x;
  } else {
    r = x < y ? y : x;
  }
  return A::store(r);
}

/// 16 bytes of elements, moved with one vector load or store.
template <typename T> struct alignas(16) Vector16 {
  static constexpr int kCount = 16 / static_cast<int>(sizeof(T));
  T value[kCount];
};

CS_HD inline bool aligned16(const void* p)
{
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

/// Vectors each thread has in flight per round of the loops below: a block must keep tens of
/// kilobytes of loads outstanding to move data at its share of the memory's speed, and the
/// compiler cannot hoist a load above the previous store itself (the operands may alias).
inline constexpr int kVectorsInFlight = 4;

/// dst[i] = src[i] for n elements.
template <typename T> CS_HD void copyElements(Lanes lanes, T* dst, const T* src, std::int64_t n)
{
  std::int64_t done = 0;
  if (aligned16(dst) && aligned16(src)) {
    using V = Vector16<T>;
    constexpr int U = kVectorsInFlight;
    const std::int64_t vectors = n / V::kCount;
    const std::int64_t stride = lanes.count;
    const V* s = reinterpret_cast<const V*>(src);
    V* d = reinterpret_cast<V*>(dst);
    std::int64_t i = lanes.index;
    for (; i + (U - 1) * stride < vectors; i += U * stride) {
      V v[U];
      for (int u = 0; u < U; ++u)
        v[u] = s[i + u * stride];
      for (int u = 0; u < U; ++u)
        d[i + u * stride] = v[u];
    }
    for (; i < vectors; i += stride)
      d[i] = s[i];
    done = vectors * V::kCount;
  }
  for (std::int64_t i = done + lanes.index; i < n; i += lanes.count)
    dst[i] = src[i];
}

/// out1[i] = a[i] ⊕ b[i], and out2[i] too when out2 is not null. out1 may be a or b exactly.
template <ReduceOp Op, typename T>
CS_HD void reduceElements(Lanes lanes, T* out1, T* out2, const T* a, const T* b, std::int64_t n)
{
  std::int64_t done = 0;
  if (aligned16(out1) && aligned16(a) && aligned16(b) && (!out2 || aligned16(out2))) {
    using V = Vector16<T>;
    constexpr int U = kVectorsInFlight;
    const std::int64_t vectors = n / V::kCount;
    const std::int64_t stride = lanes.count;
    const V* va = reinterpret_cast<const V*>(a);
    const V* vb = reinterpret_cast<const V*>(b);
    V* o1 = reinterpret_cast<V*>(out1);
    V* o2 = reinterpret_cast<V*>(out2);
    const auto combine = [](const V& x, const V& y) {
      V r;
      for (int k = 0; k < V::kCount; ++k)
        r.value[k] = combineValues<Op>(x.value[k], y.value[k]);
      return r;
    };
    std::int64_t i = lanes.index;
    for (; i + (U - 1) * stride < vectors; i += U * stride) {
      V x[U];
      V y[U];
      for (int u = 0; u < U; ++u) {
        x[u] = va[i + u * stride];
        y[u] = vb[i + u * stride];
      }
      for (int u = 0; u < U; ++u) {
        const V r = combine(x[u], y[u]);
        o1[i + u * stride] = r;
        if (o2)
          o2[i + u * stride] = r;
      }
    }
    for (; i < vectors; i += stride) {
      const V r = combine(va[i], vb[i]);
      o1[i] = r;
      if (o2)
        o2[i] = r;
    }
    done = vectors * V::kCount;
  }
  for (std::int64_t i = done + lanes.index; i < n; i += lanes.count) {
    const T r = combineValues<Op>(a[i], b[i]);
    out1[i] = r;
    if (out2)
      out2[i] = r;
  }
}

} // namespace cs::plan
