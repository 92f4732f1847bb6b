#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>
#include <cmath>

namespace cs::catalogue {

namespace {

constexpr int kChainChunks = 8; ///< pipeline depth of the chain broadcast

Schedule rooted(ScheduleBuilder& b, const std::string& name, const GeneratorOptions& o)
{
  Schedule s = b.finish(name, o, Modes::InPlace);
  s.root = 0;
  return s;
}

// In place only: every rank's result lands in its input, which an in-place call shares with the
// output; out of place the root would need a local copy concurrent with its sends.
Schedule binomialBroadcast(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::Broadcast, n, {1, 0, 0});
  for (int k = 0; (1 << k) < n; ++k) {
    for (int r = 0; r < (1 << k) && r + (1 << k) < n; ++r)
      b.copy(k, in(r, 0), in(r + (1 << k), 0));
  }
  return rooted(b, "binomial_broadcast", o);
}

double binomialUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  return ceilLog2(o.ranks) * messageUs(c, static_cast<double>(bytes));
}

// In place only, at the root. Inner nodes of the binomial tree add their children's sums into a
// scratch copy of their input (a reduce must not change a non-root's send buffer), made in a
// first local step.
Schedule binomialReduce(const GeneratorOptions& o)
{
  const int n = o.ranks;
  const bool inner = n >= 4; // rank 2 has a child once rank 3 exists
  ScheduleBuilder b(Collective::Reduce, n, {1, 0, inner ? 1 : 0});
  auto accumulator = [n](int r) {
    const bool hasChild = r != 0 && r % 2 == 0 && r + 1 < n;
    return hasChild ? scratch(r, 0) : in(r, 0);
  };
  for (int r = 2; r + 1 < n; r += 2)
    b.copy(0, in(r, 0), scratch(r, 0));
  const int first = inner ? 1 : 0;
  for (int k = 0; (1 << k) < n; ++k) {
    for (int r = 1 << k; r < n; r += 2 << k)
      b.reduce(first + k, accumulator(r), accumulator(r - (1 << k)));
  }
  return rooted(b, "binomial_reduce", o);
}

// In place only. The data is cut into kChainChunks chunks; chunk j crosses hop h (rank h to
// h+1) in step j+h, so all hops work at once once the pipeline has filled.
Schedule chainBroadcast(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::Broadcast, n, {kChainChunks, 0, 0});
  for (int h = 0; h + 1 < n; ++h) {
    for (int j = 0; j < kChainChunks; ++j)
      b.copy(j + h, in(h, j), in(h + 1, j));
  }
  return rooted(b, "chain_broadcast", o);
}

double chainUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  return (kChainChunks + o.ranks - 2) * messageUs(c, static_cast<double>(bytes) / kChainChunks);
}

// In place only. Two binary trees in heap order, each reducing and broadcasting half of the
// buffer: tree A over ranks 0..n-1, tree B over the mirrored ranks n-1..0, so that the inner
// nodes of one are mostly leaves of the other and every rank's links are used by both halves.
Schedule doubleBinaryTree(const GeneratorOptions& o)
{
  const int n = o.ranks;
  ScheduleBuilder b(Collective::AllReduce, n, {2, 0, 0});
  std::vector<int> a = strided(0, 1, n);
  std::vector<int> mirrored = strided(n - 1, -1, n);
  treeAllReduce(b, a, Buffer::Input, 0, 1, 0);
  treeAllReduce(b, mirrored, Buffer::Input, 1, 1, 0);
  return b.finish("double_binary_tree_allreduce", o, Modes::InPlace);
}

double doubleBinaryTreeUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  return treeAllReduceSteps(o.ranks) * messageUs(c, static_cast<double>(bytes) / 2);
}

const std::array kTrees = {
    AlgorithmInfo{
        "double-binary-tree-allreduce", "Double binary tree all-reduce", Collective::AllReduce,
        "two complementary binary trees, each reducing and broadcasting half of the buffer",
        "Each half of the buffer is summed up a binary tree to its root and then sent back down. "
        "A single tree leaves the leaves' send links idle and loads the inner nodes, so NCCL "
        "uses two trees whose inner nodes are (mostly) the other's leaves, each carrying half "
        "of the data. The latency grows with the depth, log2 n, instead of n, which is why "
        "trees win for small messages on many ranks; a parent takes its two children's "
        "contributions one step after the other here.",
        "T(n)\u00b7(\u03b1 + S/(2\u03b2)), T(n) \u2248 3\u00b7log2(n) steps", needsTwoRanks,
        doubleBinaryTree, doubleBinaryTreeUs},
    AlgorithmInfo{
        "binomial-broadcast", "Binomial-tree broadcast", Collective::Broadcast,
        "root 0; the number of ranks holding the data doubles every step",
        "In step k every rank that already holds the data (ranks below 2^k) sends it to the "
        "rank 2^k above it, so after \u2308log2 n\u2309 steps all n ranks have it. Latency is "
        "logarithmic but the whole message crosses every step, so for large messages a "
        "pipelined chain is faster.",
        "\u2308log2 n\u2309\u00b7(\u03b1 + S/\u03b2)", needsTwoRanks, binomialBroadcast,
        binomialUs},
    AlgorithmInfo{
        "binomial-reduce", "Binomial-tree reduce", Collective::Reduce,
        "root 0; the broadcast's tree run backwards, halving the active ranks each step",
        "The mirror image of the binomial broadcast: in step k every rank whose number is an "
        "odd multiple of 2^k adds its partial sum into the rank 2^k below it, so after "
        "\u2308log2 n\u2309 steps rank 0 holds the sum of everyone. Inner ranks accumulate in "
        "scratch so that their own input stays untouched.",
        "\u2308log2 n\u2309\u00b7(\u03b1 + S/\u03b2)", needsTwoRanks, binomialReduce, binomialUs},
    AlgorithmInfo{
        "chain-broadcast", "Pipelined chain broadcast", Collective::Broadcast,
        "root 0 \u2192 1 \u2192 \u2026 \u2192 n-1, pipelined over 8 chunks",
        "The ranks form a chain from the root and the message is cut into 8 chunks. Each rank "
        "forwards a chunk one step after receiving it, so once the pipeline is full every link "
        "is busy at once. The time is (chunks + n - 2) short steps: close to one message time "
        "for large messages, but linear in n for small ones.",
        "(8 + n - 2)\u00b7(\u03b1 + S/(8\u03b2))", needsTwoRanks, chainBroadcast, chainUs},
};

} // namespace

std::span<const AlgorithmInfo> treeAlgorithms()
{
  return kTrees;
}

} // namespace cs::catalogue
