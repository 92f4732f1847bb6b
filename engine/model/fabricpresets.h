#pragma once

// Multi-node clusters as topology presets: N DGX-like nodes (NVSwitch inside each node, NICs on
// PCIe) joined by a rail-optimised network. NIC k of every node plugs into the leaf switches of
// rail k, so traffic between the same-numbered NICs of two nodes crosses one leaf; every other
// pair goes up to the spine layer and down again. The names are what `makePresetTopology` takes:
//
//   fabric-h100-16x8              16 nodes of 8 H100s, 8 NICs of 400 Gb/s per node, no
//                                 oversubscription
//   fabric-a100-4x8-nics4-200g-os2
//                                 4 nodes of 8 A100s, 4 NICs of 200 Gb/s per node (two GPUs share
//                                 one), spines with half the leaves' downlink bandwidth
//
// The spine layer is one node standing for all spines, as the NVSwitch node stands for the
// switches inside a node: the routes are deterministic (no ECMP), so spread traffic is modelled
// by giving each leaf one uplink with the bandwidth of all its uplinks together.

#include "topology.h"

#include <optional>
#include <string>
#include <string_view>

namespace cs {

enum class FabricGpu : std::uint8_t { H100, A100 };

struct FabricOptions {
  FabricGpu gpu = FabricGpu::H100;
  int nodes = 2;        ///< 2 to kMaxFabricNodes
  int gpusPerNode = 8;  ///< 1 to 16
  int nicsPerNode = 8;  ///< divides gpusPerNode: each NIC serves gpusPerNode / nicsPerNode GPUs
  double nicGbps = 400; ///< per NIC and direction, in Gb/s as NICs are sold (400 Gb/s = 50 GB/s)
  double oversubscription = 1; ///< leaf downlink bandwidth over uplink bandwidth, >= 1
};

inline constexpr int kMaxFabricNodes = 128;
/// Nodes under one leaf switch of a rail (a 64-port leaf with half its ports up, as in NVIDIA's
/// SuperPOD scalable units); larger clusters get several leaves per rail.
inline constexpr int kNodesPerLeaf = 32;

/// Parses "fabric-h100-16x8[-nicsK][-Bg][-osR]"; nullopt when `name` is not a fabric name at all,
/// and an error in `error` (with nullopt returned) when it is one with a bad part.
std::optional<FabricOptions> parseFabricName(std::string_view name, std::string* error);

/// The canonical name of `options`: the parts that differ from the GPU's defaults only.
std::string fabricName(const FabricOptions& options);

/// Builds the cluster; nodes are laid out in a grid of node blocks under the leaves and spines.
Topology makeFabricTopology(const FabricOptions& options);

} // namespace cs
