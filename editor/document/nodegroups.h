#pragma once

// Which ranks share a machine ("node" in the user's words; in the topology a node is any vertex,
// so the code says machine). A machine is what stays connected when the network between
// machines is cut: GPUs, NVSwitches, PCIe switches, NICs and CPUs joined by links other than
// network links, without the network switches (leaves, spines). The timeline and the topology
// canvas fold a large program machine by machine (issue 18, item 5).

#include "model/topology.h"

#include <vector>

namespace cs::editor {

/// Ranks grouped into machines.
struct NodeGroups {
  std::vector<int> nodeOfRank; ///< machine number per rank; machine 0 holds rank 0
  int nodeCount = 0;
  /// True when the topology says which GPU is in which machine; false for the fallback of
  /// kDefaultRanksPerNode consecutive ranks (no topology, or one that lacks some rank).
  bool fromTopology = false;
};

/// Ranks per machine when the document has no topology that places every rank (a DGX's 8).
inline constexpr int kDefaultRanksPerNode = 8;

/// The machine of every entry of `topology.nodes` (same order), numbered in order of first
/// appearance; -1 for network switches.
std::vector<int> machineOfTopologyNode(const Topology& topology);

/// The machines of ranks 0 .. ranks-1: from `topology` when it hosts every rank on a GPU, else
/// groups of kDefaultRanksPerNode consecutive ranks. Machines are renumbered so that they appear
/// in rank order.
NodeGroups groupRanksByNode(const Topology* topology, int ranks);

} // namespace cs::editor
