#pragma once

// The edits the topology canvas makes, as plain functions on a Topology value: the view copies
// the document's topology, applies one of these and pushes the result as one
// ChangeTopologyCommand. Kept free of Qt and of the scene so they are easy to test and reuse
// (the inspector or a script can add a link with the same defaults as the canvas).

#include "model/topology.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cs::editor {

/// The link the canvas draws between nodes of kinds `a` and `b` when the user drags one onto the
/// other: NVLink between GPUs and NVSwitches, PCIe when a PCIe switch or CPU is involved and
/// between a NIC and its GPU or CPU, Network between a NIC and a switch or another NIC, SMP
/// between CPUs. Figures from model/linkfigures.h.
/// `id`, `a` and `b` of the result are left 0.
TopologyLink defaultLink(NodeKind a, NodeKind b);

/// The smallest rank >= 0 that no GPU of `topology` hosts.
int nextFreeRank(const Topology& topology);

/// `prefix` followed by the smallest number >= 0 that makes a name no node has ("NVSwitch0").
std::string freeNodeName(const Topology& topology, std::string_view prefix);

/// The name prefix new nodes of `kind` get: "GPU", "NVSwitch", "PCIe", "NIC", "CPU".
std::string_view nodeNamePrefix(NodeKind kind);

/// Adds a node of `kind` centred at (x, y) and returns its id. A GPU hosts the next free rank and
/// is named "GPU<rank>"; other nodes get the next free name of their kind.
int addNode(Topology& topology, NodeKind kind, double x, double y);

/// The id of a link joining nodes `a` and `b` (either direction), or -1.
int linkBetween(const Topology& topology, int a, int b);

/// Adds the default link between nodes `a` and `b` and returns its id; -1 (and no change) when
/// `a == b`, either node is missing or the two are already linked.
int addLink(Topology& topology, int a, int b);

/// Removes the nodes `nodes` with every link touching them, and the links `links`.
void removeNodesAndLinks(Topology& topology, const std::set<int>& nodes,
                         const std::set<int>& links);

/// Moves every node in `nodes` by (dx, dy) from the positions it has in `from`; positions are
/// rounded to whole scene units so saved files stay tidy.
void moveNodes(Topology& topology, const Topology& from, const std::set<int>& nodes, double dx,
               double dy);

/// The ranks in [0, ranks) that no GPU of `topology` hosts (all of them when it is null).
std::vector<int> ranksWithoutGpu(const Topology* topology, int ranks);

/// A compact list of ranks for people: {1, 3, 4, 5, 6} -> "1, 3–6".
std::string formatRankList(const std::vector<int>& ranks);

/// Adds a GPU for each rank in `ranks`, in rows below whatever the topology already holds;
/// returns the new node ids.
std::vector<int> addGpusForRanks(Topology& topology, const std::vector<int>& ranks);

/// A preset name with its size placeholders filled in for `ranks`: "ring-N" -> "ring-8",
/// "torus-RxC" -> "torus-2x4" (the most square factorisation), "fabric-h100-NxG" ->
/// "fabric-h100-2x8" (nodes of 8 GPUs where the ranks allow); other names are returned as they
/// are. `ranks` below 2 is treated as 2.
std::string sizedPresetName(std::string_view pattern, int ranks);

} // namespace cs::editor
