#pragma once

// Input data and verification (the host reference) of every executor.
//
// Inputs: element e of input chunk k on rank r holds a small positive integer derived from
// (r, k·chunk + e). The values are chosen so that every reduction order gives the same bits:
// sums of all ranks stay within the type's exact integer range (2048 for half, 256 for bfloat16,
// 2^24 for float), products are products of 1s and 2s (exact powers of two until they overflow to
// infinity, which any order reaches alike), and integers wrap, which is associative. So the
// expected value, reduced on the host in rank order, must match the executor's result bit for bit
// whatever order the program reduces in — a float mismatch is a real error, never rounding. The
// price: these inputs cannot reveal an algorithm whose only flaw is its rounding order (P14).
//
// Expected results follow the collectives' definitions (msccl-format.md §7, shared with the
// checkers in model/collectivespec.h): all-reduce, all-gather, reduce-scatter, all-to-all,
// broadcast and reduce (with a root); other collectives are not verified.

#include "hostmemory.h"

#include <optional>

namespace cs::plan {

/// The untouched-memory pattern: all bits set (NaN for floats, -1 / 255 for integers), so a result
/// nobody wrote is reported as wrong.
inline constexpr std::byte kSentinel{0xff};

/// The input of element `index` of rank `rank`'s input buffer in a run of `ranks` ranks; every
/// data type holds it exactly. Tests derive expected values from it.
std::int64_t inputValue(DataType type, ReduceOp op, int ranks, int rank, std::int64_t index);

/// Writes each rank's input into its allocations and the sentinel everywhere else.
/// Bytes of host memory a plan's allocations take on all ranks together.
std::int64_t hostMemoryBytes(const RunPlan& plan);

/// Allocates every rank's memory and fills the inputs. Throws std::bad_alloc when the plan needs
/// more memory than the machine has (also where the kernel would overcommit it).
void initialiseMemory(const Program& program, DataType type, ReduceOp op, HostMemory& state);

struct Verification {
  ExecStatus status = ExecStatus::NotVerified;
  std::int64_t wrong = 0;
  std::int64_t checked = 0;
  std::optional<WrongElement> firstWrong;
  /// The first wrong element of each wrong chunk, the first TraceVerification::kChunkLimit ones.
  std::vector<WrongElement> wrongChunks;
  std::int64_t wrongChunkCount = 0; ///< all wrong chunks
  std::string note;                 ///< what was compared, or why nothing was
};

/// Compares the result buffers with the host reference. `root` is used for broadcast and
/// reduce; absent, it is inferred (the only rank that sends and never receives, or the reverse).
Verification verifyResult(const Program& program, const ExecOptions& options, HostMemory& state);

} // namespace cs::plan
