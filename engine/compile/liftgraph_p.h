#pragma once

// Private to engine/compile: the step numbering of lifting. Nodes are the lifted transfers; an
// edge a → b of weight w says "b happens at least w steps after a" (w = 1 when a writes
// something b may read or overwrite, 0 when only the order matters).

#include <vector>

namespace cs::lifting {

struct Edge {
  int from = 0;
  int to = 0;
  int weight = 0;
};

/// Longest-path levels from 0; nodes on a zero-weight cycle share a level. Returns false when a
/// cycle has positive weight (the program orders something after itself, e.g. a deadlock); the
/// levels are then those of the strongly connected components (each cycle on one level),
/// levelled by longest path, so they stay small and keep every order outside the cycles.
bool levelsByDepth(int nodes, const std::vector<Edge>& edges, std::vector<int>& levels);

} // namespace cs::lifting
