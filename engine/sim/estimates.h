#pragma once

// Figures printed beside a simulation: nccl-tests' bus bandwidth factor and a closed-form
// estimate of NCCL's own ring and tree all-reduce on the same topology.

#include "model/program.h"
#include "model/routing.h"
#include "model/topology.h"
#include "protocolmodel.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace cs {

/// nccl-tests' busbw / algbw: 2(n-1)/n for all-reduce; (n-1)/n for all-gather, reduce-scatter
/// and all-to-all; 1 for everything else (broadcast, reduce, custom).
double busBandwidthFactor(Collective collective, int ranks);

/// NCCL ring and tree all-reduce times for `bytes` on `ranks` ranks. An estimate, not a model of
/// NCCL's kernels: α is the largest latency between ring neighbours (ranks in order) plus the
/// protocol's per-message latency, β the smallest route bandwidth among them times the
/// protocol's efficiency.
///   ring: 2(n-1)·α + 2(n-1)/n · S/β  (reduce-scatter then all-gather around the ring)
///   tree: 2·⌈log2 n⌉·α + 2·S/β       (NCCL's double binary tree, pipelined: an inner node of
///         one tree receives S/2 from each of two children going up and sends S/2 to each going
///         down, a leaf of the other tree moves S/2 each way, so each GPU port carries 2S in
///         each direction)
struct NcclEstimate {
  double ringUs = 0;
  double treeUs = 0;
  double alphaUs = 0;
  double betaGBps = 0;
};

/// The route between two ranks' GPUs where the caller already found it (the simulator, for its
/// connections), else nullopt: the estimate then searches the topology itself.
using KnownRoute = std::function<std::optional<Route>(int fromRank, int toRank)>;

/// nullopt when fewer than 2 ranks or some neighbour pair has no route.
std::optional<NcclEstimate> estimateNcclAllReduce(const Topology& topology, int ranks,
                                                  std::int64_t bytes,
                                                  const ProtocolParams& protocol,
                                                  const KnownRoute& known = {});

} // namespace cs
