#pragma once

// The element loops of the CPU executor, chosen once per run for the (data type, reduction) pair
// so the interpreter's inner loops are plain typed loops the compiler vectorises. Every fused
// instruction reads each operand once (rrcs and rcs store and forward in one pass).

#include "../executor.h"

#include <cstddef>
#include <cstdint>

namespace cs::cpu {

/// Element loops on raw bytes; `n` counts elements. Destinations may equal a source exactly
/// (re: dst = dst ⊕ src), never overlap it partially.
struct Kernels {
  /// out[i] = a[i] ⊕ b[i]
  void (*reduce)(std::byte* out, const std::byte* a, const std::byte* b, std::int64_t n) = nullptr;
  /// out1[i] = out2[i] = a[i] ⊕ b[i]
  void (*reduceTwice)(std::byte* out1, std::byte* out2, const std::byte* a, const std::byte* b,
                      std::int64_t n) = nullptr;
  int elementSize = 0;
};

/// The loops for `type` and `op`.
Kernels selectKernels(DataType type, ReduceOp op);

/// out1 = out2 = in for `bytes` bytes (rcs), reading `in` from memory once; no overlaps.
void copyTwice(std::byte* out1, std::byte* out2, const std::byte* in, std::size_t bytes);

} // namespace cs::cpu
