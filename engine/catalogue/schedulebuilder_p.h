#pragma once

// Internal to engine/catalogue: what every generator uses to write a Schedule — a builder that
// numbers transfers, the channel replication of GeneratorOptions::channels, the merging of
// adjacent single-chunk transfers, and reusable patterns (rings and binary trees over any subset
// of ranks) that the hierarchical and torus algorithms compose.

#include "catalogue.h"

#include <span>
#include <string>
#include <vector>

namespace cs::catalogue {

/// x mod n in 0..n-1 for any x.
inline int wrap(int x, int n)
{
  return ((x % n) + n) % n;
}

inline ChunkRef in(int rank, int index)
{
  return {rank, Buffer::Input, index};
}
inline ChunkRef out(int rank, int index)
{
  return {rank, Buffer::Output, index};
}
inline ChunkRef scratch(int rank, int index)
{
  return {rank, Buffer::Scratch, index};
}

/// The call modes a generated schedule declares (Schedule::inplace / outofplace).
enum class Modes { InPlace, OutOfPlace, Both };

/// Writes one channel's worth of a schedule; transfer ids are assigned in order.
class ScheduleBuilder
{
public:
  ScheduleBuilder(Collective collective, int ranks, RankBuffers buffers);

  void copy(int step, ChunkRef src, ChunkRef dst, int count = 1);
  void reduce(int step, ChunkRef src, ChunkRef dst, int count = 1);
  Schedule& schedule() { return m_schedule; }
  /// Room for `transfers` transfers: growing two million of them step by step was a fifth of
  /// generating a 1,024-rank ring.
  void reserve(std::size_t transfers) { m_schedule.transfers.reserve(transfers); }

  /// Merges transfers of one step that continue each other on both sides (the same op, ranks
  /// and buffers, consecutive indices) into one, replicates for options.channels, declares
  /// `modes` and names the schedule `base`_<n>r[_<c>ch].
  Schedule finish(const std::string& base, const GeneratorOptions& options, Modes modes);

private:
  /// Appends channel `channel`'s copy of `t` to `result`, split where the replica's chunks stop
  /// being contiguous.
  void replicateForChannel(const Transfer& t, int channel, int channels, Schedule& result) const;

  Schedule m_schedule;
};

/// Ring reduce-scatter over `members` (ring order) on `buffer` chunks base .. base+g·block-1,
/// seen as g blocks of `block` chunks: afterwards position p holds the full sum of block p.
/// Takes steps first .. first+g-2; returns the next free step.
int ringReduceScatter(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                      int block, int first);
/// Ring all-gather over `members`: position p starts with block p and all end with every block.
int ringAllGather(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                  int block, int first);
/// Binary-tree all-reduce of chunks base .. base+count-1 over `members` in heap order
/// (position v has children 2v+1 and 2v+2): reduce to position 0, then broadcast back. A parent
/// takes its children's reductions in successive steps (one write per chunk and step).
int treeAllReduce(ScheduleBuilder& b, std::span<const int> members, Buffer buffer, int base,
                  int count, int first);
/// Steps treeAllReduce takes for a tree of `size` members.
int treeAllReduceSteps(int size);

/// Ranks per node of the hierarchical algorithms: the option, else 8 (one DGX/HGX box), or
/// every rank when there are fewer.
int nodeSize(const GeneratorOptions& options);

/// "needs the rank count to be a multiple of the group size" unless nodes are whole.
std::optional<std::string> needsWholeNodes(const GeneratorOptions& options);

/// Ranks first, first+stride, … (`count` of them).
std::vector<int> strided(int first, int stride, int count);

/// Time of one message of `bytes` in the alpha-beta model.
double messageUs(const CostParameters& cost, double bytes);
/// ⌈log2 n⌉ for n ≥ 1.
int ceilLog2(int n);
bool isPowerOfTwo(int n);

/// "needs at least 2 ranks" when ranks < 2, else nullopt; most generators start with it.
std::optional<std::string> needsTwoRanks(const GeneratorOptions& options);

} // namespace cs::catalogue
