// Step numbering of lifted transfers by dependency depth.

#include "liftgraph_p.h"

#include <algorithm>
#include <utility>

namespace cs::lifting {

namespace {

using Adjacency = std::vector<std::vector<std::pair<int, int>>>; ///< (neighbour, weight)

/// Post-order of an iterative depth-first search over `graph` from every unvisited node.
void postOrder(const Adjacency& graph, std::vector<int>& order)
{
  const std::size_t n = graph.size();
  std::vector<bool> seen(n, false);
  std::vector<std::pair<int, std::size_t>> stack; // (node, next edge to follow)
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start])
      continue;
    seen[start] = true;
    stack.push_back({static_cast<int>(start), 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& edges = graph[static_cast<std::size_t>(node)];
      if (next < edges.size()) {
        const int to = edges[next++].first;
        if (!seen[static_cast<std::size_t>(to)]) {
          seen[static_cast<std::size_t>(to)] = true;
          stack.push_back({to, 0});
        }
      } else {
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
}

/// Levels when the graph has a positive cycle: the nodes of each strongly connected component
/// (Kosaraju) share one level — in a deadlock they all wait for each other, so no order among
/// them is more true than another — and components are levelled by longest path.
void levelsOverComponents(int nodes, const std::vector<Edge>& edges, std::vector<int>& levels)
{
  const auto n = static_cast<std::size_t>(nodes);
  Adjacency forward(n), backward(n);
  for (const Edge& e : edges) {
    forward[static_cast<std::size_t>(e.from)].push_back({e.to, e.weight});
    backward[static_cast<std::size_t>(e.to)].push_back({e.from, e.weight});
  }
  std::vector<int> order;
  postOrder(forward, order);

  // Components in reverse post-order of the forward graph are found in topological order.
  std::vector<int> component(n, -1);
  int components = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (component[static_cast<std::size_t>(*it)] >= 0)
      continue;
    std::vector<int> stack{*it};
    component[static_cast<std::size_t>(*it)] = components;
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      for (const auto& [from, weight] : backward[static_cast<std::size_t>(node)]) {
        if (component[static_cast<std::size_t>(from)] < 0) {
          component[static_cast<std::size_t>(from)] = components;
          stack.push_back(from);
        }
      }
    }
    ++components;
  }

  std::vector<int> componentLevel(static_cast<std::size_t>(components), 0);
  std::vector<std::vector<std::pair<int, int>>> outgoing(static_cast<std::size_t>(components));
  for (const Edge& e : edges) {
    const int a = component[static_cast<std::size_t>(e.from)];
    const int b = component[static_cast<std::size_t>(e.to)];
    if (a != b)
      outgoing[static_cast<std::size_t>(a)].push_back({b, e.weight});
  }
  for (int c = 0; c < components; ++c)
    for (const auto& [to, weight] : outgoing[static_cast<std::size_t>(c)])
      componentLevel[static_cast<std::size_t>(to)] =
          std::max(componentLevel[static_cast<std::size_t>(to)],
                   componentLevel[static_cast<std::size_t>(c)] + weight);
  for (std::size_t v = 0; v < n; ++v)
    levels[v] = componentLevel[static_cast<std::size_t>(component[v])];
}

} // namespace

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
  levelsOverComponents(nodes, edges, levels);
  return false;
}

} // namespace cs::lifting
