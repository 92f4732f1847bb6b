#pragma once

// How a protocol turns link bandwidth into payload bandwidth and adds latency, and how the
// runtime slices chunks (msccl-format.md §4.2). Defaults, per protocol:
//
// - efficiency: the fraction of link bandwidth carrying payload. LL sends 8-byte lines of 4 data
//   bytes and a 4-byte flag: 0.5. LL128 sends 128-byte lines of 120 data bytes and an 8-byte
//   flag: 120/128. Simple moves raw data: 1.
// - latencyUs and its per-link-type companions: fixed cost per message on top of the links' own
//   latency, by the hardware class of the route (HopClass). NCCL's tuning model
//   (src/graph/tuning.cc, ring hwLat) charges per hop, LL / LL128 / Simple: NVLink 0.6 (.47 in
//   the stored snapshot) / 1.9 / 3.4 µs, PCI 1.0 / 2.5 / 5.7 µs, network 2.7 / 4.0 / 9.6 µs.
// - sliceBytes: the payload one iteration of the slicing loop moves per chunk. NCCL's default
//   buffers are 4 MiB (Simple), 512 KiB of LL lines and ~4.7 MB of LL128 lines, split into
//   NCCL_STEPS = 8 FIFO steps; MSCCL's Simple loop takes MSCCL_CHUNKSTEPS = 4 steps per
//   iteration (512 KiB × 4 = 2 MiB), LL and LL128 one step of payload (32 KiB, 576000 bytes).

#include "model/program.h"
#include "model/topology.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cs {

/// NCCL's hardware classes of hwLat (NCCL_HW_NVLINK, NCCL_HW_PCI, NCCL_HW_NET). NCCL calls a
/// path inside a node NVLink only when it is all NVLink, anything else inside a node PCI, and a
/// path between nodes network; a route's class is likewise its slowest link's.
enum class HopClass : std::uint8_t { NvLink, Pcie, Network };
inline constexpr int kHopClassCount = 3;
std::string_view hopClassName(HopClass hopClass); ///< "nvlink", "pcie", "network"
/// NvLink → NvLink, Pcie and Smp (CPU sockets, NCCL's PATH_SYS) → Pcie, Network → Network.
HopClass hopClassOf(LinkKind kind);
/// The slowest class among the links `linkIds` of `topology` (NvLink for an empty path).
HopClass hopClassOfPath(const Topology& topology, const std::vector<int>& linkIds);

struct ProtocolParams {
  double efficiency = 1;       ///< payload fraction of link bandwidth, in (0, 1]
  double latencyUs = 0;        ///< added to every message over an NVLink route
  std::int64_t sliceBytes = 0; ///< payload per chunk and loop iteration; 0: one slice per chunk
  std::optional<double> pcieLatencyUs;    ///< over a PCI route; absent: latencyUs
  std::optional<double> networkLatencyUs; ///< over a route leaving the node; absent: latencyUs

  /// The per-message latency over a route of class `hopClass`.
  double hopLatencyUs(HopClass hopClass) const;
  /// Sets one latency for every class (`--proto-latency`).
  void setUniformLatency(double us);
};

/// The defaults above for `protocol`.
ProtocolParams defaultProtocolParams(Protocol protocol);

} // namespace cs
