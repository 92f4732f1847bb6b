#pragma once

// What both layouts agree on about where a node belongs (internal to editor/topology): the GPUs
// form tier 0; every other node sits as many tiers away as it is links from the nearest GPU,
// above the GPUs when it is reached through a NIC (NICs and the network behind them, as drawn in
// the 2x DGX preset), below otherwise (NVSwitches, PCIe switches, CPUs).

#include "model/topology.h"

#include <map>

namespace cs::editor {

/// Signed tier per node id: 0 for GPUs, negative above them, positive below.
std::map<int, int> layoutTiers(const Topology& topology);

/// Whether any link joins two GPUs directly (a mesh, a ring or a cube-mesh rather than a tree).
bool hasGpuToGpuLinks(const Topology& topology);

/// Order of kinds inside one tier, so NVSwitches come before PCIe switches and NICs.
int kindOrder(NodeKind kind);

} // namespace cs::editor
