#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>

namespace cs::catalogue {

namespace {

std::optional<std::string> needsPowerOfTwo(const GeneratorOptions& o)
{
  if (o.ranks < 2 || !isPowerOfTwo(o.ranks))
    return "needs a power of two of at least 2 ranks (got " + std::to_string(o.ranks) +
           "); use ring-allreduce or double-binary-tree-allreduce for other counts";
  return std::nullopt;
}

// In place only (the sums are built in the input buffer). n chunks; rank r ends the
// reduce-scatter with chunk r, because each halving keeps the half its bit selects.
Schedule halvingDoubling(const GeneratorOptions& o)
{
  const int n = o.ranks;
  const int rounds = ceilLog2(n);
  ScheduleBuilder b(Collective::AllReduce, n, {n, 0, 0});
  for (int j = 0; j < rounds; ++j) {
    const int span = n >> j; // the range each rank still reduces
    const int d = span / 2;  // partner distance, halving from n/2 down to 1
    for (int r = 0; r < n; ++r) {
      const int lo = (r / span) * span;
      const int sendBase = (r & d) ? lo : lo + d; // the half the partner keeps
      b.reduce(j, in(r, sendBase), in(r ^ d, sendBase), d);
    }
  }
  for (int j = 0; j < rounds; ++j) {
    const int d = 1 << j; // distance doubles; each rank holds d finished chunks
    for (int r = 0; r < n; ++r) {
      const int lo = (r / d) * d;
      b.copy(rounds + j, in(r, lo), in(r ^ d, lo), d);
    }
  }
  return b.finish("halving_doubling_allreduce", o, Modes::InPlace);
}

double halvingDoublingUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int n = o.ranks;
  const double bandwidthUs = 2.0 * (n - 1) / n * static_cast<double>(bytes) / (c.betaGBps * 1e3);
  return 2.0 * ceilLog2(n) * c.alphaUs + bandwidthUs;
}

const std::array kHalvingDoubling = {
    AlgorithmInfo{
        "halving-doubling-allreduce", "Recursive halving-doubling all-reduce",
        Collective::AllReduce,
        "log2 n halving exchanges then log2 n doubling exchanges (power-of-two ranks)",
        "Rabenseifner's algorithm. In the reduce-scatter phase each rank exchanges half of its "
        "range with the partner whose rank differs in one bit, first n/2 away, then n/4, and so "
        "on; each keeps and sums the half its bit selects, so after log2 n steps rank r holds "
        "chunk r summed over all ranks. The all-gather phase retraces the exchanges in reverse, "
        "doubling the finished range each time. It moves as little data as the ring but needs "
        "only 2·log2 n latencies; it exists for power-of-two rank counts only.",
        "2\u00b7log2(n)\u00b7\u03b1 + 2(n-1)/n\u00b7S/\u03b2", needsPowerOfTwo, halvingDoubling,
        halvingDoublingUs},
};

} // namespace

std::span<const AlgorithmInfo> halvingDoublingAlgorithms()
{
  return kHalvingDoubling;
}

} // namespace cs::catalogue
