#pragma once

// Import of the matrix `nvidia-smi topo -m` prints: a header row of devices (GPU0…, NIC0… or
// mlx5_0…, then "CPU Affinity", "NUMA Affinity"…), one row per device with X, NV#, PIX, PXB,
// PHB, NODE or SYS per column, and a legend (with "NIC0: mlx5_0" names on newer drivers).
//
// What the relations become (the matrix says how devices are connected, not through what):
// - NV# between GPUs: # NVLinks of 25 GB/s each per direction. When every pair of 8 or more GPUs
//   shows the same NV#, the GPUs sit on NVSwitches (DGX A100/H100 print NV12/NV18 everywhere):
//   one NVSwitch node with one # × 25 GB/s link per GPU. Otherwise direct GPU–GPU links.
// - PIX/PXB: the devices share a PCIe switch (one node per group), PCIe Gen4 x16, 32 GB/s.
// - PHB/NODE: same CPU socket (the NUMA Affinity column wins when present); SYS: across the SMP
//   interconnect, 40 GB/s between every pair of CPUs.

#include "topologyjson.h"

#include <string_view>

namespace cs {

/// Parses the text. Errors (topology.smi-* codes) name the line and column.
TopologyReadResult readNvidiaSmiTopology(std::string_view text);

} // namespace cs
