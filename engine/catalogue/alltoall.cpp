#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>

namespace cs::catalogue {

namespace {

// Out of place only: in place, rank p's incoming block would overwrite the slot of the block it
// still has to send to that peer.
Schedule directAllToAll(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::AllToAll, n, {n, n, 0});
  for (int r = 0; r < n; ++r) {
    b.copy(0, in(r, r), out(r, r));
    for (int s = 1; s < n; ++s) {
      const int peer = wrap(r + s, n);
      b.copy(s - 1, in(r, peer), out(peer, r));
    }
  }
  return b.finish("direct_alltoall", o, Modes::OutOfPlace);
}

double directUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int n = o.ranks;
  return (n - 1) * messageUs(c, static_cast<double>(bytes) / n);
}

// Out of place only. Rank (a, l) is position l of node a. Step 1, inside each node: (a, l)
// hands to (a, l') everything destined to position l' of any node, straight into the output
// for its own node and into scratch s[b·g + l] for node b. Step 2, across nodes: (a, l') sends
// s[b·g .. b·g+g) — all of node a's blocks for (b, l') — to o[a·g ..] of (b, l') as one
// aggregated message, so each pair of nodes exchanges g large messages instead of g².
Schedule twoStepAllToAll(const GeneratorOptions& o)
{
  const int n = o.ranks;
  const int g = nodeSize(o);
  const int m = n / g;
  ScheduleBuilder b(Collective::AllToAll, n, {n, n, m > 1 ? n : 0});
  for (int a = 0; a < m; ++a) {
    for (int l = 0; l < g; ++l) {
      const int rank = a * g + l;
      for (int u = 0; u < g; ++u) {
        const int lp = wrap(l + u, g);
        const int peer = a * g + lp;
        for (int node = 0; node < m; ++node) {
          const ChunkRef dst = node == a ? out(peer, a * g + l) : scratch(peer, node * g + l);
          b.copy(u, in(rank, node * g + lp), dst);
        }
      }
    }
  }
  for (int a = 0; a < m; ++a) {
    for (int lp = 0; lp < g; ++lp) {
      for (int v = 1; v < m; ++v) {
        const int node = wrap(a + v, m);
        b.copy(g - 1 + v, scratch(a * g + lp, node * g), out(node * g + lp, a * g), g);
      }
    }
  }
  return b.finish("two_step_alltoall_g" + std::to_string(g), o, Modes::OutOfPlace);
}

double twoStepUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int g = nodeSize(o);
  const int m = o.ranks / g;
  const double s = static_cast<double>(bytes);
  return (g - 1) * messageUs(c, s / g) + (m - 1) * messageUs(c, s / m);
}

const std::array kAllToAll = {
    AlgorithmInfo{
        "direct-alltoall", "Direct all-to-all", Collective::AllToAll,
        "n-1 steps; in step s every rank sends its block for rank r+s directly",
        "Every rank owes every other rank one block. In step s rank r sends the block for rank "
        "r+s straight into that rank's output, so each step is a shifted permutation in which "
        "every rank sends and receives exactly one block and no link is asked to carry two. "
        "It sends the minimum amount of data but n-1 separate messages per rank, which hurts "
        "when blocks are small or crossing the network is expensive.",
        "(n-1)\u00b7(\u03b1 + S/(n\u03b2))", needsTwoRanks, directAllToAll, directUs},
    AlgorithmInfo{
        "two-step-alltoall", "Two-step hierarchical all-to-all", Collective::AllToAll,
        "exchange inside each node first, then one aggregated message per node pair and "
        "position",
        "Ranks are grouped into nodes of g (--group, default 8). First every rank hands each "
        "node-mate everything that must reach the mate's position on any node, staging it in "
        "scratch. Then each rank sends, to the rank at its own position on every other node, "
        "the g blocks gathered for it in one contiguous message. The network sees m-1 large "
        "messages per rank instead of n-g small ones, which is what makes all-to-all scale "
        "across nodes.",
        "(g-1)\u00b7(\u03b1 + S/(g\u03b2)) + (m-1)\u00b7(\u03b1 + S/(m\u03b2)), m = n/g",
        needsWholeNodes, twoStepAllToAll, twoStepUs},
};

} // namespace

std::span<const AlgorithmInfo> allToAllAlgorithms()
{
  return kAllToAll;
}

} // namespace cs::catalogue
