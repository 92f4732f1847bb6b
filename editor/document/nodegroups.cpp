#include "nodegroups.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace cs::editor {

namespace {

int findRoot(std::vector<int>& parent, int x)
{
  while (parent[static_cast<std::size_t>(x)] != x) {
    const int up = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    parent[static_cast<std::size_t>(x)] = up; // path halving
    x = up;
  }
  return x;
}

NodeGroups consecutiveGroups(int ranks)
{
  NodeGroups groups;
  groups.nodeOfRank.resize(static_cast<std::size_t>(std::max(0, ranks)));
  for (int r = 0; r < ranks; ++r)
    groups.nodeOfRank[static_cast<std::size_t>(r)] = r / kDefaultRanksPerNode;
  groups.nodeCount = (std::max(0, ranks) + kDefaultRanksPerNode - 1) / kDefaultRanksPerNode;
  return groups;
}

} // namespace

std::vector<int> machineOfTopologyNode(const Topology& topology)
{
  const std::size_t n = topology.nodes.size();
  std::unordered_map<int, int> indexOfId;
  for (std::size_t i = 0; i < n; ++i)
    indexOfId.emplace(topology.nodes[i].id, static_cast<int>(i));
  const auto isSwitch = [&](int index) {
    return topology.nodes[static_cast<std::size_t>(index)].kind == NodeKind::NetworkSwitch;
  };
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const TopologyLink& link : topology.links) {
    const auto a = indexOfId.find(link.a);
    const auto b = indexOfId.find(link.b);
    if (link.kind == LinkKind::Network || a == indexOfId.end() || b == indexOfId.end() ||
        isSwitch(a->second) || isSwitch(b->second))
      continue;
    parent[static_cast<std::size_t>(findRoot(parent, a->second))] = findRoot(parent, b->second);
  }
  std::vector<int> machine(n, -1);
  std::unordered_map<int, int> numberOfRoot;
  for (std::size_t i = 0; i < n; ++i) {
    if (isSwitch(static_cast<int>(i)))
      continue;
    const int root = findRoot(parent, static_cast<int>(i));
    machine[i] = numberOfRoot.emplace(root, static_cast<int>(numberOfRoot.size())).first->second;
  }
  return machine;
}

NodeGroups groupRanksByNode(const Topology* topology, int ranks)
{
  if (!topology || ranks <= 0)
    return consecutiveGroups(ranks);
  const std::vector<int> machine = machineOfTopologyNode(*topology);
  std::vector<int> raw(static_cast<std::size_t>(ranks), -1);
  for (std::size_t i = 0; i < topology->nodes.size(); ++i) {
    const TopologyNode& node = topology->nodes[i];
    if (node.kind == NodeKind::Gpu && node.rank >= 0 && node.rank < ranks && machine[i] >= 0)
      raw[static_cast<std::size_t>(node.rank)] = machine[i];
  }
  NodeGroups groups;
  std::unordered_map<int, int> renumber;
  for (const int m : raw) {
    if (m < 0)
      return consecutiveGroups(ranks);
    groups.nodeOfRank.push_back(
        renumber.emplace(m, static_cast<int>(renumber.size())).first->second);
  }
  groups.nodeCount = static_cast<int>(renumber.size());
  groups.fromTopology = true;
  return groups;
}

} // namespace cs::editor
