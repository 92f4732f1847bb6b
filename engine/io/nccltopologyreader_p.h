#pragma once

// Import of NCCL's own view of a machine: the XML it writes to NCCL_TOPO_DUMP_FILE (and reads
// from NCCL_TOPO_FILE). The tree is <system><cpu numaid…><pci busid class link_speed
// link_width>…<gpu dev rank sm><nvlink target count tclass/></gpu></pci><nic><net name speed…/>
// </nic></cpu></system>: PCIe bridges become PCIe switches, GPUs keep their `rank` (else `dev`),
// NVLinks to another GPU become direct links and NVLinks to NVSwitches (tclass 0x068000) links
// to one NVSwitch node, CPUs are joined pairwise by an SMP link.
//
// Bandwidths per direction: PCIe from link_speed × link_width (128b/130b coding from 8 GT/s on);
// NVLink count × 20 GB/s before Volta (sm < 70), 25 GB/s up to Hopper, 50 GB/s from Blackwell
// (sm ≥ 100); a NIC's link is the smaller of its PCIe link and its `speed` (Mb/s); SMP 40 GB/s.

#include "topologyjson.h"

#include <string_view>

namespace cs {

/// Parses the dump. Errors (topology.nccl-* codes) name the element and its line.
TopologyReadResult readNcclTopologyXml(std::string_view text);

} // namespace cs
