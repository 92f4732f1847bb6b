#pragma once

// The machine an algorithm runs on (DESIGN.md §2, issue "topologies"): nodes (GPUs, NVSwitch and
// PCIe switches, NICs, CPUs) and links between them with a bandwidth per direction and a latency.
// GPUs carry the rank they host, so a Schedule's transfer from rank a to rank b is routed from
// gpuNode(a) to gpuNode(b) through switches (engine/model/routing.h).
//
// Ids are stable: TopologyNode::id and TopologyLink::id name the same thing on the canvas, in a
// route pin, in the simulator's per-link counters and in the database. Positions are the canvas
// layout, kept so a saved topology reopens as it was drawn.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// NetworkSwitch: a leaf or spine of the network between nodes (InfiniBand or Ethernet), which
/// NICs reach; a PcieSwitch joins the devices inside one node.
enum class NodeKind : std::uint8_t { Gpu, NvSwitch, PcieSwitch, Nic, Cpu, NetworkSwitch };
/// "gpu", "nvswitch", "pcie-switch", "nic", "cpu", "network-switch"
std::string_view nodeKindName(NodeKind kind);
std::optional<NodeKind> parseNodeKind(std::string_view text);

struct TopologyNode {
  int id = 0;
  NodeKind kind = NodeKind::Gpu;
  std::string name; ///< "GPU3", "NVSwitch0", "mlx5_0"
  int rank = -1;    ///< the rank a GPU hosts; -1 for other nodes (and unassigned GPUs)
  double x = 0;     ///< canvas position, in scene units
  double y = 0;

  bool operator==(const TopologyNode&) const = default;
};

enum class LinkKind : std::uint8_t { NvLink, Pcie, Network, Smp };
std::string_view linkKindName(LinkKind kind); ///< "nvlink", "pcie", "network", "smp"
std::optional<LinkKind> parseLinkKind(std::string_view text);

/// A link between nodes `a` and `b`. A duplex link has `bandwidthGBps` in each direction at once;
/// a half-duplex one shares it between the directions.
struct TopologyLink {
  int id = 0;
  int a = 0; ///< node id
  int b = 0; ///< node id
  LinkKind kind = LinkKind::NvLink;
  double bandwidthGBps = 100; ///< GB/s (10^9 bytes per second) per direction
  double latencyUs = 2;       ///< paid once per message crossing the link
  bool duplex = true;

  bool operator==(const TopologyLink&) const = default;
};

struct Topology {
  std::string name;
  std::string description;
  std::vector<TopologyNode> nodes;
  std::vector<TopologyLink> links;

  const TopologyNode* node(int id) const;
  const TopologyLink* link(int id) const;
  /// The GPU node hosting `rank`, or nullptr.
  const TopologyNode* gpuNode(int rank) const;
  /// Number of GPU nodes with a rank.
  int rankCount() const;
  int nextNodeId() const;
  int nextLinkId() const;

  bool operator==(const Topology&) const = default;
};

} // namespace cs
