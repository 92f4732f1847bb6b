#include "families_p.h"
#include "schedulebuilder_p.h"

#include <array>

namespace cs::catalogue {

namespace {

enum class Inter { Ring, Tree };

/// Reduce-scatter inside each group of `g` consecutive ranks, all-reduce of each rank's share
/// across the groups (ranks with the same position), all-gather inside each group. The buffer
/// has n chunks: g blocks of m = n/g, block l being what position l reduces across groups.
void twoLevel(ScheduleBuilder& b, int n, int g, Inter inter)
{
  const int m = n / g;
  int step = 0;
  for (int a = 0; a < m; ++a)
    ringReduceScatter(b, strided(a * g, 1, g), Buffer::Input, 0, m, 0);
  step = g - 1;
  int after = step;
  for (int l = 0; l < g && m > 1; ++l) {
    const std::vector<int> column = strided(l, g, m);
    if (inter == Inter::Ring) {
      const int mid = ringReduceScatter(b, column, Buffer::Input, l * m, 1, step);
      after = ringAllGather(b, column, Buffer::Input, l * m, 1, mid);
    } else {
      after = treeAllReduce(b, column, Buffer::Input, l * m, m, step);
    }
  }
  for (int a = 0; a < m; ++a)
    ringAllGather(b, strided(a * g, 1, g), Buffer::Input, 0, m, after);
}

Schedule hierarchicalRing(const GeneratorOptions& o)
{
  const int g = nodeSize(o);
  ScheduleBuilder b(Collective::AllReduce, o.ranks, {o.ranks, 0, 0});
  twoLevel(b, o.ranks, g, Inter::Ring);
  return b.finish("hierarchical_ring_allreduce_g" + std::to_string(g), o, Modes::InPlace);
}

Schedule hierarchicalTree(const GeneratorOptions& o)
{
  const int g = nodeSize(o);
  ScheduleBuilder b(Collective::AllReduce, o.ranks, {o.ranks, 0, 0});
  twoLevel(b, o.ranks, g, Inter::Tree);
  return b.finish("hierarchical_tree_allreduce_g" + std::to_string(g), o, Modes::InPlace);
}

double intraUs(int g, double bytes, const CostParameters& c)
{
  return 2.0 * (g - 1) * messageUs(c, bytes / g);
}

double hierarchicalRingUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int g = nodeSize(o);
  const int m = o.ranks / g;
  const double s = static_cast<double>(bytes);
  return intraUs(g, s, c) + 2.0 * (m - 1) * messageUs(c, s / o.ranks);
}

double hierarchicalTreeUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int g = nodeSize(o);
  const int m = o.ranks / g;
  const double s = static_cast<double>(bytes);
  return intraUs(g, s, c) + treeAllReduceSteps(m) * messageUs(c, s / g);
}

/// Rows of the torus: the option, else the largest divisor ≤ √n (the most square grid).
int rowsOf(const GeneratorOptions& o)
{
  if (o.groupSize > 0)
    return o.groupSize;
  int rows = 1;
  for (int d = 2; d * d <= o.ranks; ++d) {
    if (o.ranks % d == 0)
      rows = d;
  }
  return rows;
}

std::optional<std::string> torusUnsupported(const GeneratorOptions& o)
{
  const int rows = rowsOf(o);
  if (o.ranks < 4 || rows < 2 || o.ranks % rows != 0 || o.ranks / rows < 2)
    return "needs ranks = rows \u00d7 columns with both at least 2 (got " +
           std::to_string(o.ranks) + " ranks" +
           (o.groupSize > 0 ? " and " + std::to_string(o.groupSize) + " rows" : "") + ")";
  return std::nullopt;
}

// Rank = row · columns + column: a row is `columns` consecutive ranks, so the torus is the
// two-level algorithm with rows as groups and ring columns.
Schedule torus(const GeneratorOptions& o)
{
  const int rows = rowsOf(o);
  const int columns = o.ranks / rows;
  ScheduleBuilder b(Collective::AllReduce, o.ranks, {o.ranks, 0, 0});
  twoLevel(b, o.ranks, columns, Inter::Ring);
  return b.finish("torus2d_allreduce_" + std::to_string(rows) + "x" + std::to_string(columns), o,
                  Modes::InPlace);
}

double torusUs(const GeneratorOptions& o, std::int64_t bytes, const CostParameters& c)
{
  const int rows = rowsOf(o);
  const int columns = o.ranks / rows;
  const double s = static_cast<double>(bytes);
  return intraUs(columns, s, c) + 2.0 * (rows - 1) * messageUs(c, s / o.ranks);
}

const std::array kHierarchical = {
    AlgorithmInfo{
        "hierarchical-ring-allreduce", "Hierarchical all-reduce (ring between nodes)",
        Collective::AllReduce,
        "reduce-scatter in each node, ring all-reduce across nodes, all-gather in each node",
        "Ranks are grouped into nodes of g consecutive ranks (--group, default 8). Inside each "
        "node a ring reduce-scatter leaves every rank with the node's sum of one g-th of the "
        "buffer. The ranks holding the same share on different nodes then all-reduce it with a "
        "ring across the nodes, so only 1/g of the data crosses the slow network per rank. A "
        "ring all-gather inside each node finally spreads the finished shares.",
        "2(g-1)\u00b7(\u03b1 + S/(g\u03b2)) + 2(m-1)\u00b7(\u03b1 + S/(n\u03b2)), m = n/g",
        needsWholeNodes, hierarchicalRing, hierarchicalRingUs},
    AlgorithmInfo{
        "hierarchical-tree-allreduce", "Hierarchical all-reduce (tree between nodes)",
        Collective::AllReduce,
        "reduce-scatter in each node, binary-tree all-reduce across nodes, all-gather in each "
        "node",
        "Like the hierarchical ring all-reduce, but the shares are all-reduced across the m "
        "nodes with a binary tree (sum up to a root node, broadcast back), whose latency grows "
        "with log2 m instead of m. It suits many nodes and smaller messages; the intra-node "
        "rings stay bandwidth-optimal.",
        "2(g-1)\u00b7(\u03b1 + S/(g\u03b2)) + T(m)\u00b7(\u03b1 + S/(g\u03b2)), T(m) \u2248 "
        "3\u00b7log2(m)",
        needsWholeNodes, hierarchicalTree, hierarchicalTreeUs},
    AlgorithmInfo{
        "torus2d-allreduce", "2D torus all-reduce", Collective::AllReduce,
        "ring reduce-scatter along rows, ring all-reduce along columns, ring all-gather along "
        "rows",
        "The ranks form a grid of rows \u00d7 columns (--group sets the rows, default the most "
        "square grid), rank = row \u00b7 columns + column. Each row first reduce-scatters with a "
        "ring, so every rank holds its row's sum of one column-th of the buffer; each column "
        "then all-reduces that share with a ring; finally each row all-gathers. Rings of "
        "length \u221an replace one ring of length n, cutting the latency term accordingly.",
        "2(C-1)\u00b7(\u03b1 + S/(C\u03b2)) + 2(R-1)\u00b7(\u03b1 + S/(n\u03b2))", torusUnsupported,
        torus, torusUs},
};

} // namespace

std::span<const AlgorithmInfo> hierarchicalAlgorithms()
{
  return kHierarchical;
}

} // namespace cs::catalogue
