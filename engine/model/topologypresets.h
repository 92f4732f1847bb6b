#pragma once

// Built-in topologies: real machines (DGX H100, DGX A100, DGX-1 V100, an 8-GPU PCIe server, two
// DGX H100-like nodes on a network) and parametric shapes (`ring-N`, `fully-connected-N`,
// `torus-RxC`, and multi-node clusters `fabric-h100-NxG`, fabricpresets.h). Every preset comes with
// canvas positions so the editor can draw it as built.
//
// Figures are per direction, in GB/s (10^9 bytes/s): NVLink 4 (H100) moves 25 GB/s per link and
// direction, 18 links = 450 GB/s per GPU; NVLink 3 (A100) 12 links = 300 GB/s; NVLink 2 (V100)
// 25 GB/s per link, 6 links per GPU. PCIe Gen4 x16 ≈ 32 GB/s, Gen5 x16 ≈ 64 GB/s; a 400 Gb/s NIC
// 50 GB/s. Latencies are per link crossed and only meant to be plausible (a switch hop is two
// links): NVLink 0.35 µs, PCIe 0.5 µs, CPU interconnect 1 µs, network 1.5 µs.

#include "topology.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// Overrides for the parametric presets (ignored by the fixed machines).
struct PresetOptions {
  std::optional<double> bandwidthGBps; ///< default 100 GB/s per direction per link
  std::optional<double> latencyUs;     ///< default 2 µs per link
};

/// A name `makePresetTopology` accepts, for `cstudio topology --list` and the editor's library.
struct PresetInfo {
  std::string name;        ///< "dgx-h100", or a pattern such as "ring-N"
  std::string description; ///< one line for people
};

/// Every preset, fixed machines first, then the parametric patterns (with N, R, C placeholders).
std::vector<PresetInfo> topologyPresets();

/// Builds the preset `name` ("dgx-h100", "ring-8", "torus-4x4", …). Returns nullopt for an
/// unknown name or out-of-range parameters, with the reason in `error` when it is given.
std::optional<Topology> makePresetTopology(std::string_view name, const PresetOptions& options = {},
                                           std::string* error = nullptr);

/// Canvas positions for an imported topology that has none: one row per node kind (NVSwitches
/// on top, then GPUs and NICs, PCIe switches, CPUs), nodes in id order along each row.
void layoutInRows(Topology& topology);

} // namespace cs
