#pragma once

// What a collective's result must be (msccl-format.md §7 postconditions): which chunks of which
// buffer hold the result on each rank, and which input chunks each result chunk is made of. The
// Program checker, the Schedule checker and the CPU executor's host reference all use this one
// definition; each keeps its own way of comparing and reporting.

#include "program.h"

#include <compare>
#include <string>
#include <vector>

namespace cs {

/// One contribution to a result chunk: input chunk `chunk` of rank `rank`.
struct Contribution {
  int rank = 0;
  int chunk = 0;
  auto operator<=>(const Contribution&) const = default;
};

/// "r2·c5", as diagnostics name a contribution.
std::string contributionName(const Contribution& contribution);

/// What a result chunk must hold, as diagnostics write it: "nothing", "r2·c5",
/// "Σ{r0·c1, r1·c1}" or "Σ{r0·c1 … r3·c1}" (first and last of more than two).
std::string contributionsText(const std::vector<Contribution>& contributions);

/// Where a rank's result lives: chunks [first, first + count) of `buffer`.
struct ResultChunks {
  Buffer buffer = Buffer::Output;
  int first = 0;
  int count = 0; ///< 0: the rank's result does not matter (a reduce's non-root ranks)
};

/// True for the collectives whose result is defined here: all-reduce, all-gather, reduce-scatter,
/// all-to-all, broadcast and reduce. Others (custom, send/recv, …) need a user postcondition.
bool hasPostcondition(Collective collective);

/// True for broadcast and reduce, whose result depends on a root rank.
bool isRooted(Collective collective);

/// The postcondition of one collective over `ranks` ranks and N = chunksPerLoop chunks
/// (K = N / ranks, the per-rank share):
/// - all-reduce: o[c] on every rank = Σ{(p, c) for all p}, c < N;
/// - all-gather: o[p·K + j] on every rank = (p, j);
/// - reduce-scatter: o[j] on rank r = Σ{(p, r·K + j) for all p}, j < K;
/// - all-to-all: o[p·K + j] on rank r = (p, r·K + j);
/// - broadcast: o[c] on every rank = (root, c), c < N;
/// - reduce: o[c] on the root = Σ{(p, c) for all p}, c < N; other ranks' results do not matter.
class CollectiveSpec
{
public:
  /// `root` matters for broadcast and reduce only; it must be a rank for those.
  CollectiveSpec(Collective collective, int ranks, int chunksPerLoop, int root = -1);

  Collective collective() const { return m_collective; }
  int ranks() const { return m_ranks; }
  int root() const { return m_root; }
  /// K = N / ranks (0 without ranks).
  int share() const { return m_share; }

  /// The result chunks of `rank`; none for unknown collectives.
  ResultChunks result(int rank) const;

  /// True when result chunks combine several contributions with the reduction operator; false
  /// when each is a plain copy of one input chunk.
  bool reduces() const;

  /// The contributions result chunk `index` (counted from ResultChunks::first) of `rank` must
  /// hold, each exactly once, in ascending (rank, chunk) order. Reuses `out`'s storage.
  void contributions(int rank, int index, std::vector<Contribution>& out) const;

private:
  Collective m_collective;
  int m_ranks;
  int m_whole;
  int m_share;
  int m_root;
};

/// The ranks that can be the root of `program`'s broadcast or reduce judged by its data flow:
/// broadcast roots send and never receive; reduce roots (any other collective alike) receive and
/// never send. In ascending rank order.
std::vector<int> rootCandidates(const Program& program);

} // namespace cs
