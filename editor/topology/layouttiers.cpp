#include "layouttiers.h"

#include <deque>
#include <vector>

namespace cs::editor {

namespace {

/// Where a node nobody reaches from a GPU goes: by its kind alone.
int defaultTier(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return 0;
  case NodeKind::Nic:
    return -1;
  case NodeKind::NetworkSwitch:
    return -2;
  case NodeKind::Cpu:
    return 2;
  default:
    return 1;
  }
}

} // namespace

std::map<int, int> layoutTiers(const Topology& topology)
{
  std::map<int, std::vector<int>> neighbours;
  for (const TopologyLink& link : topology.links) {
    neighbours[link.a].push_back(link.b);
    neighbours[link.b].push_back(link.a);
  }
  std::map<int, int> tiers;
  std::map<int, NodeKind> kinds;
  std::deque<int> queue;
  for (const TopologyNode& node : topology.nodes) {
    kinds[node.id] = node.kind;
    if (node.kind == NodeKind::Gpu) {
      tiers[node.id] = 0;
      queue.push_back(node.id);
    }
  }
  // Breadth first from every GPU at once: a node's tier is its distance to the nearest GPU, and
  // its side (sign) is inherited from the node it was reached through, NICs starting the upper
  // side.
  while (!queue.empty()) {
    const int id = queue.front();
    queue.pop_front();
    const int tier = tiers[id];
    for (const int next : neighbours[id]) {
      if (tiers.contains(next) || !kinds.contains(next))
        continue;
      int side = tier < 0 ? -1 : 1;
      if (tier == 0)
        side = kinds[next] == NodeKind::Nic ? -1 : 1;
      tiers[next] = tier + side;
      queue.push_back(next);
    }
  }
  for (const TopologyNode& node : topology.nodes) {
    if (!tiers.contains(node.id))
      tiers[node.id] = defaultTier(node.kind);
  }
  return tiers;
}

bool hasGpuToGpuLinks(const Topology& topology)
{
  for (const TopologyLink& link : topology.links) {
    const TopologyNode* a = topology.node(link.a);
    const TopologyNode* b = topology.node(link.b);
    if (a && b && a->kind == NodeKind::Gpu && b->kind == NodeKind::Gpu)
      return true;
  }
  return false;
}

int kindOrder(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return 0;
  case NodeKind::NvSwitch:
    return 1;
  case NodeKind::PcieSwitch:
    return 2;
  case NodeKind::Nic:
    return 3;
  case NodeKind::Cpu:
    return 4;
  case NodeKind::NetworkSwitch:
    return 5;
  }
  return 6;
}

} // namespace cs::editor
