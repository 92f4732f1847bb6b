#pragma once

// The Schedule level of an algorithm (DESIGN.md §3): what the user draws. A collective on a number
// of ranks, per-rank buffers split into chunks, and transfers of chunks between ranks during
// logical steps. Transfers in one step are meant to run concurrently. Lowering (engine/compile)
// turns a Schedule into a Program for a runtime; lifting turns any Program back into a Schedule.
//
// Ids are stable: Transfer::id names a transfer in diagnostics, on the timeline, in the undo
// stack and in the database, and never changes when transfers are added, removed or moved. Ranks
// are 0..ranks-1; steps are 0, 1, 2, … (a step with no transfer is legal: an empty column).

#include "program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// A chunk slot: `index` of `buffer` on `rank`. A transfer of `count` chunks covers the slots
/// index .. index+count-1.
struct ChunkRef {
  int rank = 0;
  Buffer buffer = Buffer::Input;
  int index = 0;

  bool operator==(const ChunkRef&) const = default;
  auto operator<=>(const ChunkRef&) const = default;
};

/// A copy overwrites the destination; a reduce combines the source into it (dst = dst ⊕ src).
enum class TransferOp : std::uint8_t { Copy, Reduce };
std::string_view transferOpName(TransferOp op); ///< "copy" or "reduce"
std::optional<TransferOp> parseTransferOp(std::string_view text);

/// Choices the user fixed by hand; lowering honours them and chooses the rest itself.
struct TransferPins {
  std::optional<int> channel;     ///< the channel the transfer must use
  std::optional<int> threadblock; ///< the sender's threadblock id (receiver's for local ops)
  std::vector<int> route;         ///< topology link ids the data must follow (simulation)

  bool operator==(const TransferPins&) const = default;
};

/// One arrow on the timeline: `count` consecutive chunks from `src` to `dst` during `step`.
/// src.rank == dst.rank is a local copy or reduce (a `cpy` or `re` instruction).
struct Transfer {
  int id = 0;
  int step = 0;
  ChunkRef src;
  ChunkRef dst;
  int count = 1;
  TransferOp op = TransferOp::Copy;
  TransferPins pins;

  bool isLocal() const { return src.rank == dst.rank; }
  bool operator==(const Transfer&) const = default;
};

/// The chunk counts of one rank's three buffers (i_chunks, o_chunks, s_chunks of the Program).
struct RankBuffers {
  int input = 0;
  int output = 0;
  int scratch = 0;

  int chunks(Buffer buffer) const;
  bool operator==(const RankBuffers&) const = default;
};

/// A whole algorithm as chunk transfers. Invariants kept by every producer (generators, lifting,
/// the editor's commands): buffers.size() == ranks; transfer ids are unique and non-negative.
/// Nothing else is assumed: a Schedule being edited may be wrong in every other way, and the
/// Schedule checks (engine/check) say how.
struct Schedule {
  std::string name;
  Collective collective = Collective::AllReduce;
  int ranks = 0;
  std::vector<RankBuffers> buffers; ///< one entry per rank
  /// The call modes the algorithm is meant for, as in the Program (§4.1 aliasing applies in place).
  bool inplace = true;
  bool outofplace = false;
  /// Root rank for broadcast, reduce, gather and scatter; absent for the others.
  std::optional<int> root;
  std::vector<Transfer> transfers; ///< in no particular order; sort by (step, id) to display

  /// Number of steps: the highest step used + 1 (0 without transfers).
  int stepCount() const;
  /// The transfer with `id`, or nullptr.
  const Transfer* transfer(int id) const;
  Transfer* transfer(int id);
  /// An id no transfer uses yet (the highest + 1).
  int nextTransferId() const;
  /// Appends a transfer with a fresh id and returns that id.
  int add(Transfer transfer);
  /// Sets every rank's buffers to the same counts (the common case) and resizes to `ranks`.
  void setUniformBuffers(RankBuffers perRank);

  bool operator==(const Schedule&) const = default;
};

} // namespace cs
