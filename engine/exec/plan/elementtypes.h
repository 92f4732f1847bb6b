#pragma once

// The storage types of the executor's data types and the reduction operators on them. Half and
// bfloat16 are stored as their 16-bit patterns and computed in float, rounded to nearest even —
// what CUDA's __hadd/__hmul and NCCL's reductions do. Integers wrap (NCCL's unsigned arithmetic),
// so every reduction order gives the same bits.

#include "exec/executor.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cs::plan {

/// IEEE binary16 bit pattern.
struct Half {
  std::uint16_t bits = 0;
};
/// bfloat16 bit pattern (the upper half of a float).
struct BFloat16 {
  std::uint16_t bits = 0;
};

/// binary16 → float, exact (subnormals, infinities and NaN included).
inline float halfToFloat(Half h)
{
  const std::uint32_t sign = std::uint32_t{h.bits & 0x8000u} << 16;
  std::uint32_t exponent = (h.bits >> 10) & 0x1fu;
  std::uint32_t mantissa = h.bits & 0x3ffu;
  std::uint32_t bits = 0;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // Subnormal: normalise into a float.
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
  } else {
    bits = sign;
  }
  return std::bit_cast<float>(bits);
}

/// float → binary16, rounded to nearest even; overflow gives infinity.
inline Half floatToHalf(float value)
{
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (bits >> 16) & 0x8000u;
  const std::uint32_t exponent = (bits >> 23) & 0xffu;
  std::uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff)
    return {static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u))};
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 0x1f)
    return {static_cast<std::uint16_t>(sign | 0x7c00u)};
  if (e <= 0) {
    if (e < -10)
      return {static_cast<std::uint16_t>(sign)};
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    const std::uint32_t half = 1u << (shift - 1);
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    std::uint32_t result = mantissa >> shift;
    if (rest > half || (rest == half && (result & 1u)))
      ++result;
    return {static_cast<std::uint16_t>(sign | result)};
  }
  std::uint32_t result = (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
    ++result; // may carry into the exponent, which is the correct rounding up to infinity
  return {static_cast<std::uint16_t>(sign | result)};
}

inline float bf16ToFloat(BFloat16 b)
{
  return std::bit_cast<float>(std::uint32_t{b.bits} << 16);
}

/// float → bfloat16, rounded to nearest even; NaN stays NaN.
inline BFloat16 floatToBf16(float value)
{
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return {static_cast<std::uint16_t>((bits >> 16) | 0x40u)};
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return {static_cast<std::uint16_t>((bits + rounding) >> 16)};
}

/// How a storage type is computed with: load into the compute type, store back.
template <typename T> struct Arith {
  using Compute = T;
  static Compute load(T v) { return v; }
  static T store(Compute v) { return v; }
};
template <> struct Arith<Half> {
  using Compute = float;
  static float load(Half v) { return halfToFloat(v); }
  static Half store(float v) { return floatToHalf(v); }
};
template <> struct Arith<BFloat16> {
  using Compute = float;
  static float load(BFloat16 v) { return bf16ToFloat(v); }
  static BFloat16 store(float v) { return floatToBf16(v); }
};

/// a ⊕ b in the compute type; integer sums and products wrap like NCCL's.
template <ReduceOp Op, typename C> inline C combine(C a, C b)
{
  if constexpr (Op == ReduceOp::Sum) {
    if constexpr (std::is_same_v<C, std::int32_t>)
      return static_cast<C>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    else
      return static_cast<C>(a + b);
  } else if constexpr (Op == ReduceOp::Prod) {
    if constexpr (std::is_same_v<C, std::int32_t>)
      return static_cast<C>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
    else if constexpr (std::is_same_v<C, std::uint8_t>)
      return static_cast<C>(static_cast<unsigned>(a) * static_cast<unsigned>(b));
    else
      return static_cast<C>(a * b);
  } else if constexpr (Op == ReduceOp::Min) {
    return b < a ? b : a;
  } else {
    return a < b ? b : a;
  }
}

/// a ⊕ b on storage values.
template <ReduceOp Op, typename T> inline T reduceValue(T a, T b)
{
  using A = Arith<T>;
  return A::store(combine<Op>(A::load(a), A::load(b)));
}

/// A storage value as a double, for reports.
template <typename T> inline double toDouble(T v)
{
  return static_cast<double>(Arith<T>::load(v));
}

/// Calls `f.template operator()<T>()` with the storage type of `type`.
template <typename F> decltype(auto) withStorageType(DataType type, F&& f)
{
  switch (type) {
  case DataType::F32:
    return f.template operator()<float>();
  case DataType::F16:
    return f.template operator()<Half>();
  case DataType::BF16:
    return f.template operator()<BFloat16>();
  case DataType::F64:
    return f.template operator()<double>();
  case DataType::I32:
    return f.template operator()<std::int32_t>();
  case DataType::U8:
    return f.template operator()<std::uint8_t>();
  }
  return f.template operator()<float>();
}

/// Calls `f.template operator()<Op>()` with `op` as a template argument.
template <typename F> decltype(auto) withReduceOp(ReduceOp op, F&& f)
{
  switch (op) {
  case ReduceOp::Sum:
    return f.template operator()<ReduceOp::Sum>();
  case ReduceOp::Prod:
    return f.template operator()<ReduceOp::Prod>();
  case ReduceOp::Min:
    return f.template operator()<ReduceOp::Min>();
  case ReduceOp::Max:
    return f.template operator()<ReduceOp::Max>();
  }
  return f.template operator()<ReduceOp::Sum>();
}

} // namespace cs::plan
