#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>
#include <numeric>

namespace cs::catalogue {

namespace {

std::vector<int> allRanks(int n)
{
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

// In place only: the sum is built in the input buffer, which an in-place call shares with the
// output (msccl-tools' allreduce does the same and declares no output chunks).
Schedule ringAllReduce(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::AllReduce, n, {n, 0, 0});
  b.reserve(2 * static_cast<std::size_t>(n) * static_cast<std::size_t>(n - 1));
  const std::vector<int> ring = allRanks(n);
  const int next = ringReduceScatter(b, ring, Buffer::Input, 0, 1, 0);
  // After the reduce-scatter position p holds block p; the all-gather starts from there.
  ringAllGather(b, ring, Buffer::Input, 0, 1, next);
  return b.finish("ring_allreduce", o, Modes::InPlace);
}

double ringAllReduceUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int n = o.ranks;
  return 2.0 * (n - 1) * messageUs(c, static_cast<double>(bytes) / n);
}

// Both modes: step 0 sends from the input, so the own block's local copy into the output waits
// for a step in which nothing on the rank reads it (in place it copies a chunk onto itself).
Schedule ringAllGatherSchedule(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::AllGather, n, {1, n, 0});
  b.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (int s = 0; s + 1 < n; ++s) {
    for (int r = 0; r < n; ++r) {
      const int origin = wrap(r - s, n);
      b.copy(s, s == 0 ? in(r, 0) : out(r, origin), out(wrap(r + 1, n), origin));
    }
  }
  for (int r = 0; r < n; ++r)
    b.copy(1, in(r, 0), out(r, r));
  return b.finish("ring_allgather", o, Modes::Both);
}

double ringAllGatherUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int n = o.ranks;
  return (n - 1) * messageUs(c, static_cast<double>(bytes) / n);
}

// Both modes: partial sums travel in the input; a final local copy moves the finished block to
// the output (in place that block already is the output, and the copy is a no-op).
Schedule ringReduceScatterSchedule(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::ReduceScatter, n, {n, 1, 0});
  b.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  const int next = ringReduceScatter(b, allRanks(n), Buffer::Input, 0, 1, 0);
  for (int r = 0; r < n; ++r)
    b.copy(next, in(r, r), out(r, 0));
  return b.finish("ring_reducescatter", o, Modes::Both);
}

double ringReduceScatterUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  return ringAllGatherUs(o, bytes, c);
}

const std::array kRing = {
    AlgorithmInfo{
        "ring-allreduce", "Ring all-reduce", Collective::AllReduce,
        "n-1 reduce-scatter steps then n-1 all-gather steps around one ring",
        "The ranks form a ring and the buffer is cut into n chunks. In the first n-1 steps every "
        "rank passes one chunk to its successor, which adds its own contribution and passes the "
        "partial sum on; after n-1 steps each rank holds one chunk summed over all ranks. In the "
        "next n-1 steps the finished chunks travel once more around the ring, overwriting the "
        "partial sums, until every rank holds every chunk. Each rank sends 2(n-1)/n of the buffer, "
        "which is optimal in bandwidth, but the latency grows linearly with n.",
        "2(n-1)\u00b7(\u03b1 + S/(n\u03b2))", needsTwoRanks, ringAllReduce, ringAllReduceUs},
    AlgorithmInfo{
        "ring-allgather", "Ring all-gather", Collective::AllGather,
        "n-1 steps; every rank forwards the block it received last",
        "The ranks form a ring. In the first step every rank sends its own block to its "
        "successor; in each later step it forwards the block it has just received. After n-1 "
        "steps every block has visited every rank. Every link carries (n-1)/n of the result, "
        "the bandwidth optimum, with n-1 latencies.",
        "(n-1)\u00b7(\u03b1 + S/(n\u03b2))", needsTwoRanks, ringAllGatherSchedule, ringAllGatherUs},
    AlgorithmInfo{
        "ring-reducescatter", "Ring reduce-scatter", Collective::ReduceScatter,
        "n-1 steps of passing partial sums around the ring",
        "The input is cut into n blocks, block p destined for rank p. In every step each rank "
        "sends one partial sum to its successor, which adds its own contribution to it; the "
        "block a rank sends is the one it received in the previous step. After n-1 steps the "
        "block that ends at rank p has collected every rank's contribution, and a local copy "
        "moves it to the output.",
        "(n-1)\u00b7(\u03b1 + S/(n\u03b2))", needsTwoRanks, ringReduceScatterSchedule,
        ringReduceScatterUs},
};

} // namespace

std::span<const AlgorithmInfo> ringAlgorithms()
{
  return kRing;
}

} // namespace cs::catalogue
