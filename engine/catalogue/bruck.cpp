#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>
#include <bit>

namespace cs::catalogue {

namespace {

// Both modes. Classic Bruck keeps blocks rotated by the rank and rotates at the end; here every
// block goes straight to its final output slot, so no scratch is needed. In step k rank r
// receives from rank r+2^k the blocks of ranks r+2^k .. r+2^k+c-1 (c = min(2^k, n-2^k)); the
// sender reads its own block from the input. The rank's own block is copied to the output in a
// last local step, when nothing reads it any more (in place that copy is a no-op).
Schedule bruckAllGather(const GeneratorOptions& o)
{
  const int n = o.ranks;
  const int steps = ceilLog2(n);
  ScheduleBuilder b(Collective::AllGather, n, {1, n, 0});
  for (int k = 0; k < steps; ++k) {
    const int d = 1 << k;
    const int c = std::min(d, n - d);
    for (int r = 0; r < n; ++r) {
      const int sender = wrap(r + d, n);
      b.copy(k, in(sender, 0), out(r, sender));
      for (int j = 1; j < c; ++j) {
        const int origin = wrap(sender + j, n);
        b.copy(k, out(sender, origin), out(r, origin));
      }
    }
  }
  for (int r = 0; r < n; ++r)
    b.copy(steps, in(r, 0), out(r, r));
  return b.finish("bruck_allgather", o, Modes::Both);
}

double bruckAllGatherUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int n = o.ranks;
  return ceilLog2(n) * c.alphaUs + (n - 1.0) / n * static_cast<double>(bytes) / (c.betaGBps * 1e3);
}

// Out of place only. The block from rank s to rank t travels δ = t-s (mod n) ranks forward in
// hops of 2^k, one for every bit k set in δ. Between hops it waits in scratch at slot δ, in one
// of two banks chosen by the parity of the hops made so far, so a rank never reads and writes
// the same slot in one step; the last hop lands in the output.
Schedule bruckAllToAll(const GeneratorOptions& o)
{
  const int n = o.ranks;
  const int steps = ceilLog2(n);
  ScheduleBuilder b(Collective::AllToAll, n, {n, n, 2 * n});
  auto bank = [n](int hops, int delta, int rank) { return scratch(rank, (hops % 2) * n + delta); };
  for (int h = 0; h < n; ++h)
    b.copy(0, in(h, h), out(h, h));
  for (int k = 0; k < steps; ++k) {
    const int d = 1 << k;
    for (int delta = 1; delta < n; ++delta) {
      if ((delta & d) == 0)
        continue;
      const int before = delta & (d - 1);
      const int hops = std::popcount(static_cast<unsigned>(before));
      const bool last = (delta >> (k + 1)) == 0;
      for (int h = 0; h < n; ++h) {
        const int to = wrap(h + d, n);
        const ChunkRef src = hops == 0 ? in(h, wrap(h + delta, n)) : bank(hops, delta, h);
        const ChunkRef dst = last ? out(to, wrap(to - delta, n)) : bank(hops + 1, delta, to);
        b.copy(k, src, dst);
      }
    }
  }
  return b.finish("bruck_alltoall", o, Modes::OutOfPlace);
}

double bruckAllToAllUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  return ceilLog2(o.ranks) * messageUs(c, static_cast<double>(bytes) / 2);
}

const std::array kBruck = {
    AlgorithmInfo{
        "bruck-allgather", "Bruck all-gather", Collective::AllGather,
        "\u2308log2 n\u2309 steps for any n; the data each rank holds doubles every step",
        "In step k every rank receives from the rank 2^k above it everything that rank has "
        "collected so far (its own block and the next 2^k-1), so the number of blocks a rank "
        "holds doubles each step and \u2308log2 n\u2309 steps suffice for any rank count, not "
        "only powers of two. It has the ring's bandwidth term with logarithmic latency, at the "
        "price of messages that are not neighbour-to-neighbour.",
        "\u2308log2 n\u2309\u00b7\u03b1 + (n-1)/n\u00b7S/\u03b2", needsTwoRanks, bruckAllGather,
        bruckAllGatherUs},
    AlgorithmInfo{
        "bruck-alltoall", "Bruck all-to-all", Collective::AllToAll,
        "\u2308log2 n\u2309 steps; blocks hop by powers of two, staged in scratch",
        "A block that must travel \u03b4 ranks forward moves 2^k ranks in step k for every bit "
        "k of \u03b4. In each step a rank therefore sends about half of all blocks it holds, in "
        "one message, to the rank 2^k ahead. Only \u2308log2 n\u2309 messages per rank instead "
        "of n-1, but every block is forwarded up to log2 n times: the choice for small blocks "
        "on many ranks.",
        "\u2308log2 n\u2309\u00b7(\u03b1 + S/(2\u03b2))", needsTwoRanks, bruckAllToAll,
        bruckAllToAllUs},
};

} // namespace

std::span<const AlgorithmInfo> bruckAlgorithms()
{
  return kBruck;
}

} // namespace cs::catalogue
