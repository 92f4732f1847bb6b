#include "topologyedits.h"

#include "model/fabricpresets.h"
#include "model/linkfigures.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::editor {

namespace {

using namespace linkfigures;

/// NVLink 4 per GPU and direction through the NVSwitch fabric (18 links x 25 GB/s), the figure
/// of the DGX H100 preset, so a hand-drawn switch system matches the built-in one.
constexpr double kNvlink4PerGpuGBps = 450;

TopologyLink link(LinkKind kind, double bandwidthGBps, double latencyUs)
{
  TopologyLink result;
  result.kind = kind;
  result.bandwidthGBps = bandwidthGBps;
  result.latencyUs = latencyUs;
  return result;
}

} // namespace

TopologyLink defaultLink(NodeKind a, NodeKind b)
{
  const auto either = [&](NodeKind kind) { return a == kind || b == kind; };
  if (a == NodeKind::Cpu && b == NodeKind::Cpu)
    return link(LinkKind::Smp, kSmpGBps, kSmpLatencyUs);
  if (either(NodeKind::NetworkSwitch) && !either(NodeKind::Gpu) && !either(NodeKind::Cpu))
    return link(LinkKind::Network, kNic400GBps, kNetworkLatencyUs);
  if (either(NodeKind::Nic)) {
    // A NIC sits on its host over PCIe; anything else it meets is the network.
    const NodeKind other = a == NodeKind::Nic ? b : a;
    if (other == NodeKind::Gpu || other == NodeKind::Cpu)
      return link(LinkKind::Pcie, kPcieGen5GBps, kPcieLatencyUs);
    return link(LinkKind::Network, kNic400GBps, kNetworkLatencyUs);
  }
  if (either(NodeKind::PcieSwitch) || either(NodeKind::Cpu))
    return link(LinkKind::Pcie, kPcieGen4GBps, kPcieLatencyUs);
  if (a == NodeKind::Gpu && b == NodeKind::Gpu)
    return link(LinkKind::NvLink, kNvlink2PerLinkGBps, kNvlinkLatencyUs);
  return link(LinkKind::NvLink, kNvlink4PerGpuGBps, kNvlinkLatencyUs);
}

int nextFreeRank(const Topology& topology)
{
  std::set<int> used;
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      used.insert(node.rank);
  }
  int rank = 0;
  while (used.contains(rank))
    ++rank;
  return rank;
}

std::string freeNodeName(const Topology& topology, std::string_view prefix)
{
  std::set<std::string> names;
  for (const TopologyNode& node : topology.nodes)
    names.insert(node.name);
  for (int n = 0;; ++n) {
    std::string name = std::string(prefix) + std::to_string(n);
    if (!names.contains(name))
      return name;
  }
}

std::string_view nodeNamePrefix(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return "GPU";
  case NodeKind::NvSwitch:
    return "NVSwitch";
  case NodeKind::PcieSwitch:
    return "PCIe";
  case NodeKind::Nic:
    return "NIC";
  case NodeKind::Cpu:
    return "CPU";
  case NodeKind::NetworkSwitch:
    return "Switch";
  }
  return "Node";
}

int addNode(Topology& topology, NodeKind kind, double x, double y)
{
  TopologyNode node;
  node.id = topology.nextNodeId();
  node.kind = kind;
  node.x = std::round(x);
  node.y = std::round(y);
  if (kind == NodeKind::Gpu) {
    node.rank = nextFreeRank(topology);
    // "GPU<rank>" unless an oddly named node already took it.
    node.name = "GPU" + std::to_string(node.rank);
    if (std::any_of(topology.nodes.begin(), topology.nodes.end(),
                    [&](const TopologyNode& other) { return other.name == node.name; }))
      node.name = freeNodeName(topology, "GPU");
  } else {
    node.name = freeNodeName(topology, nodeNamePrefix(kind));
  }
  topology.nodes.push_back(node);
  return node.id;
}

int linkBetween(const Topology& topology, int a, int b)
{
  for (const TopologyLink& link : topology.links) {
    if ((link.a == a && link.b == b) || (link.a == b && link.b == a))
      return link.id;
  }
  return -1;
}

int addLink(Topology& topology, int a, int b)
{
  const TopologyNode* from = topology.node(a);
  const TopologyNode* to = topology.node(b);
  if (a == b || !from || !to || linkBetween(topology, a, b) >= 0)
    return -1;
  TopologyLink link = defaultLink(from->kind, to->kind);
  link.id = topology.nextLinkId();
  link.a = a;
  link.b = b;
  topology.links.push_back(link);
  return link.id;
}

void removeNodesAndLinks(Topology& topology, const std::set<int>& nodes, const std::set<int>& links)
{
  std::erase_if(topology.links, [&](const TopologyLink& link) {
    return links.contains(link.id) || nodes.contains(link.a) || nodes.contains(link.b);
  });
  std::erase_if(topology.nodes, [&](const TopologyNode& node) { return nodes.contains(node.id); });
}

void moveNodes(Topology& topology, const Topology& from, const std::set<int>& nodes, double dx,
               double dy)
{
  for (TopologyNode& node : topology.nodes) {
    if (!nodes.contains(node.id))
      continue;
    if (const TopologyNode* start = from.node(node.id)) {
      node.x = std::round(start->x + dx);
      node.y = std::round(start->y + dy);
    }
  }
}

std::vector<int> ranksWithoutGpu(const Topology* topology, int ranks)
{
  std::set<int> hosted;
  if (topology) {
    for (const TopologyNode& node : topology->nodes) {
      if (node.kind == NodeKind::Gpu && node.rank >= 0)
        hosted.insert(node.rank);
    }
  }
  std::vector<int> missing;
  for (int rank = 0; rank < ranks; ++rank) {
    if (!hosted.contains(rank))
      missing.push_back(rank);
  }
  return missing;
}

std::string formatRankList(const std::vector<int>& ranks)
{
  std::string text;
  std::size_t i = 0;
  while (i < ranks.size()) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!text.empty())
      text += ", ";
    text += std::to_string(ranks[i]);
    // Two consecutive ranks read better as "4, 5" than as a range.
    if (j == i + 1)
      text += ", " + std::to_string(ranks[j]);
    else if (j > i)
      text += "\u2013" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

std::vector<int> addGpusForRanks(Topology& topology, const std::vector<int>& ranks)
{
  constexpr double kSpacing = 120;
  constexpr int kPerRow = 8;
  double left = 0;
  double below = 0;
  if (!topology.nodes.empty()) {
    left = std::numeric_limits<double>::max();
    below = std::numeric_limits<double>::lowest();
    for (const TopologyNode& node : topology.nodes) {
      left = std::min(left, node.x);
      below = std::max(below, node.y + 150);
    }
  }
  std::vector<int> ids;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    TopologyNode node;
    node.id = topology.nextNodeId();
    node.kind = NodeKind::Gpu;
    node.rank = ranks[i];
    node.name = "GPU" + std::to_string(ranks[i]);
    node.x = left + kSpacing * static_cast<double>(i % kPerRow);
    node.y = below + 110.0 * static_cast<double>(i / kPerRow);
    topology.nodes.push_back(node);
    ids.push_back(node.id);
  }
  return ids;
}

std::string sizedPresetName(std::string_view pattern, int ranks)
{
  const int n = std::max(2, ranks);
  if (pattern.ends_with("-N"))
    return std::string(pattern.substr(0, pattern.size() - 1)) + std::to_string(n);
  if (pattern.ends_with("-RxC")) {
    int rows = 1;
    for (int r = 1; r * r <= n; ++r) {
      if (n % r == 0)
        rows = r;
    }
    return std::string(pattern.substr(0, pattern.size() - 3)) + std::to_string(rows) + "x" +
           std::to_string(n / rows);
  }
  if (pattern.ends_with("-NxG")) {
    // Nodes of 8 GPUs as DGX machines have, else the largest node size that divides the ranks.
    for (const int gpus : {8, 16, 4, 2, 1}) {
      if (n % gpus == 0 && n / gpus >= 2 && n / gpus <= kMaxFabricNodes)
        return std::string(pattern.substr(0, pattern.size() - 3)) + std::to_string(n / gpus) + "x" +
               std::to_string(gpus);
    }
  }
  return std::string(pattern);
}

} // namespace cs::editor
