// Step numbering of lifted transfers by dependency depth.

#include "liftgraph.h"

#include <algorithm>

namespace cs::lifting {

bool levelsByDepth(int nodes, const std::vector<Edge>& edges, std::vector<int>& levels)
{
  levels.assign(static_cast<std::size_t>(nodes), 0);
  // Relaxation in edge order: edges are created in program order, so a chain needs few rounds;
  // more rounds than nodes can only come from a cycle of positive weight.
  const int rounds = std::min(nodes + 1, 2000); // bounds the cost when a cycle exists
  for (int round = 0; round <= rounds; ++round) {
    bool changed = false;
    for (const Edge& e : edges) {
      const int candidate = levels[static_cast<std::size_t>(e.from)] + e.weight;
      int& level = levels[static_cast<std::size_t>(e.to)];
      if (candidate > level) {
        level = candidate;
        changed = true;
      }
    }
    if (!changed)
      return true;
  }
  return false;
}

} // namespace cs::lifting
