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
                                                  const ProtocolParams& protocol)
{
  if (ranks < 2)
    return std::nullopt;
  const RouteTable routes(topology);
  NcclEstimate estimate;
  double beta = std::numeric_limits<double>::infinity();
  double alpha = 0;
  for (int r = 0; r < ranks; ++r) {
    const Route* route = routes.route(r, (r + 1) % ranks);
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
