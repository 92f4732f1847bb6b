#include "estimates.h"

#include "model/routing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs {

double busBandwidthFactor(Collective collective, int ranks)
{
  if (ranks < 1)
    return 1;
  const double n = ranks;
  switch (collective) {
  case Collective::AllReduce:
    return 2 * (n - 1) / n;
  case Collective::AllGather:
  case Collective::ReduceScatter:
  case Collective::AllToAll:
  case Collective::AllToAllV:
    return (n - 1) / n;
  default:
    return 1;
  }
}

std::optional<NcclEstimate> estimateNcclAllReduce(const Topology& topology, int ranks,
                                                  std::int64_t bytes,
                                                  const ProtocolParams& protocol,
                                                  const KnownRoute& known)
{
  if (ranks < 2)
    return std::nullopt;
  // Only the ring's neighbours matter: one search per rank, not all pairs of 1,024 ranks.
  std::vector<int> gpuOfRank(ranks, -1);
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0 && node.rank < ranks &&
        gpuOfRank[node.rank] < 0)
      gpuOfRank[node.rank] = node.id; // the first, as Topology::gpuNode finds it
  }
  NcclEstimate estimate;
  double beta = std::numeric_limits<double>::infinity();
  double alpha = 0;
  for (int r = 0; r < ranks; ++r) {
    const int next = gpuOfRank[(r + 1) % ranks];
    std::optional<Route> route = known ? known(r, (r + 1) % ranks) : std::nullopt;
    if (!route && gpuOfRank[r] >= 0 && next >= 0)
      route = findRoute(topology, gpuOfRank[r], next);
    if (!route || route->hops.empty())
      return std::nullopt;
    std::vector<int> links;
    for (const Hop& hop : route->hops)
      links.push_back(hop.link);
    alpha =
        std::max(alpha, route->latencyUs + protocol.hopLatencyUs(hopClassOfPath(topology, links)));
    beta = std::min(beta, route->bottleneckGBps);
  }
  estimate.alphaUs = alpha;
  estimate.betaGBps = beta * protocol.efficiency;
  const double n = ranks;
  const double s = static_cast<double>(bytes);
  const double bytesPerUs = estimate.betaGBps * 1e3;
  estimate.ringUs = 2 * (n - 1) * estimate.alphaUs + 2 * (n - 1) / n * s / bytesPerUs;
  estimate.treeUs = 2 * std::ceil(std::log2(n)) * estimate.alphaUs + 2 * s / bytesPerUs;
  return estimate;
}

} // namespace cs
