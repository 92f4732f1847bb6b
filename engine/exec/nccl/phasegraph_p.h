#pragma once

// The graph behind the NCCL executor's rounds (ncclrounds.h): nodes are phases and points in time
// of threadblocks, edges say "B happens at half round ≥ time(A) + weight". Kahn's algorithm times
// every node in dependency order; a node inside a cycle, behind one, or waiting for something
// that never happens keeps time -1, which is how scheduleRounds() finds deadlocks.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cs::nccl {

/// What a node is, and so which half rounds it may take.
enum class NodeKind : std::uint8_t {
  Event, ///< a point in time of a threadblock (a step's start or completion), any half round
  Group, ///< a receive or send: an even half round
  Local, ///< a local kernel's loop: an odd half round
};

class PhaseGraph
{
public:
  /// A new node; its id is the return value.
  int add(NodeKind kind)
  {
    m_nodes.push_back(Node{kind, 0, 0, -1, {}});
    return static_cast<int>(m_nodes.size()) - 1;
  }
  /// `to` happens at half round ≥ time(from) + weight; no-op when either node is absent.
  void order(int from, int to, int weight)
  {
    if (from < 0 || to < 0)
      return;
    m_nodes[static_cast<std::size_t>(from)].successors.push_back({to, weight});
    ++m_nodes[static_cast<std::size_t>(to)].pending;
  }
  /// A phase that waits for something that never comes (a message nobody sends).
  void never(int node) { ++m_nodes[static_cast<std::size_t>(node)].pending; }

  /// Times every node whose predecessors all got a time, each as early as its edges allow.
  void solve()
  {
    std::vector<int> ready;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
      if (m_nodes[i].pending == 0)
        ready.push_back(static_cast<int>(i));
    }
    while (!ready.empty()) {
      Node& node = m_nodes[static_cast<std::size_t>(ready.back())];
      ready.pop_back();
      node.time = snap(node.kind, node.lowerBound);
      for (const Edge& edge : node.successors) {
        Node& next = m_nodes[static_cast<std::size_t>(edge.to)];
        next.lowerBound = std::max(next.lowerBound, node.time + edge.weight);
        if (--next.pending == 0)
          ready.push_back(edge.to);
      }
    }
  }

  /// Whether `node` got a time (absent nodes, -1, count as timed).
  bool timed(int node) const { return node < 0 || time(node) >= 0; }
  int time(int node) const { return node < 0 ? -1 : m_nodes[static_cast<std::size_t>(node)].time; }

private:
  struct Edge {
    int to = -1;
    int weight = 0;
  };
  struct Node {
    NodeKind kind = NodeKind::Event;
    int pending = 0; ///< predecessors not yet timed, +1 for a phase that can never happen
    int lowerBound = 0;
    int time = -1; ///< -1 until timed; stays -1 inside a cycle or behind one
    std::vector<Edge> successors;
  };

  static int snap(NodeKind kind, int time)
  {
    switch (kind) {
    case NodeKind::Group:
      return time + (time & 1);
    case NodeKind::Local:
      return time | 1;
    case NodeKind::Event:
      break;
    }
    return time;
  }

  std::vector<Node> m_nodes;
};

} // namespace cs::nccl
