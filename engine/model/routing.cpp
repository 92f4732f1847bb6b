#include "routing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>

namespace cs {

namespace {

/// Best known way to reach a node: compared by latency, then hop count, then link ids.
struct Candidate {
  double latency = std::numeric_limits<double>::infinity();
  std::vector<Hop> hops;
  double bottleneck = std::numeric_limits<double>::infinity();
  bool reached = false;
};

/// Latencies are sums of the same link values; a tiny tolerance keeps equal sums equal.
double latencyTolerance(const Candidate& current)
{
  return 1e-9 * std::max(1.0, std::abs(current.latency));
}

/// Whether a route of `latency` loses to `current` whatever its hops (better() says false).
bool slower(double latency, const Candidate& current)
{
  return current.reached && latency > current.latency + latencyTolerance(current);
}

bool better(double latency, const std::vector<Hop>& hops, const Candidate& current)
{
  if (!current.reached)
    return true;
  const double tolerance = latencyTolerance(current);
  if (latency < current.latency - tolerance)
    return true;
  if (latency > current.latency + tolerance)
    return false;
  if (hops.size() != current.hops.size())
    return hops.size() < current.hops.size();
  return std::lexicographical_compare(hops.begin(), hops.end(), current.hops.begin(),
                                      current.hops.end(), [](const Hop& x, const Hop& y) {
                                        return x.link != y.link ? x.link < y.link
                                                                : x.aToB && !y.aToB;
                                      });
}

struct Adjacent {
  int link = 0;
  int other = 0; ///< node index
  bool aToB = true;
};

/// Single-source shortest routes over node indices (positions in topology.nodes).
class RouteSearch
{
public:
  explicit RouteSearch(const Topology& topology) : m_topology(topology)
  {
    for (std::size_t i = 0; i < topology.nodes.size(); ++i)
      m_index[topology.nodes[i].id] = static_cast<int>(i);
    m_adjacent.resize(topology.nodes.size());
    for (const TopologyLink& link : topology.links) {
      const auto a = m_index.find(link.a);
      const auto b = m_index.find(link.b);
      if (a == m_index.end() || b == m_index.end() || a->second == b->second)
        continue;
      m_adjacent[a->second].push_back({link.id, b->second, true});
      m_adjacent[b->second].push_back({link.id, a->second, false});
    }
  }

  int indexOf(int nodeId) const
  {
    const auto found = m_index.find(nodeId);
    return found == m_index.end() ? -1 : found->second;
  }

  std::vector<Candidate> from(int source) const
  {
    std::vector<Candidate> best(m_topology.nodes.size());
    best[source].reached = true;
    best[source].latency = 0;
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    std::vector<bool> settled(best.size(), false);
    queue.push({0.0, source});
    while (!queue.empty()) {
      const int node = queue.top().second;
      queue.pop();
      if (settled[node])
        continue;
      settled[node] = true;
      // GPUs do not forward: only the source GPU may be left again.
      if (node != source && m_topology.nodes[node].kind == NodeKind::Gpu)
        continue;
      for (const Adjacent& next : m_adjacent[node]) {
        if (settled[next.other])
          continue;
        const TopologyLink& link = *m_topology.link(next.link);
        const double latency = best[node].latency + link.latencyUs;
        // Clearly slower than the route known: no need to build the hops to compare them.
        if (slower(latency, best[next.other]))
          continue;
        std::vector<Hop> hops = best[node].hops;
        hops.push_back({next.link, next.aToB});
        if (!better(latency, hops, best[next.other]))
          continue;
        Candidate& target = best[next.other];
        target.reached = true;
        target.latency = latency;
        target.hops = std::move(hops);
        target.bottleneck = std::min(best[node].bottleneck, link.bandwidthGBps);
        queue.push({latency, next.other});
      }
    }
    return best;
  }

private:
  const Topology& m_topology;
  std::unordered_map<int, int> m_index;
  std::vector<std::vector<Adjacent>> m_adjacent;
};

Route toRoute(const Candidate& candidate)
{
  Route route;
  route.hops = candidate.hops;
  route.latencyUs = candidate.latency;
  route.bottleneckGBps = candidate.hops.empty() ? 0 : candidate.bottleneck;
  return route;
}

} // namespace

std::optional<Route> findRoute(const Topology& topology, int fromNode, int toNode)
{
  const RouteSearch search(topology);
  const int from = search.indexOf(fromNode);
  const int to = search.indexOf(toNode);
  if (from < 0 || to < 0)
    return std::nullopt;
  if (from == to)
    return Route{};
  const std::vector<Candidate> best = search.from(from);
  if (!best[to].reached)
    return std::nullopt;
  return toRoute(best[to]);
}

std::vector<std::optional<Route>> findRoutes(const Topology& topology, int fromNode,
                                             const std::vector<int>& toNodes)
{
  std::vector<std::optional<Route>> routes(toNodes.size());
  const RouteSearch search(topology);
  const int from = search.indexOf(fromNode);
  if (from < 0)
    return routes;
  const std::vector<Candidate> best = search.from(from);
  for (std::size_t i = 0; i < toNodes.size(); ++i) {
    const int to = search.indexOf(toNodes[i]);
    if (to == from)
      routes[i] = Route{};
    else if (to >= 0 && best[to].reached)
      routes[i] = toRoute(best[to]);
  }
  return routes;
}

RouteTable::RouteTable(const Topology& topology)
{
  for (const TopologyNode& node : topology.nodes) {
    if (node.kind == NodeKind::Gpu && node.rank >= 0)
      m_ranks = std::max(m_ranks, node.rank + 1);
  }
  m_routes.resize(static_cast<std::size_t>(m_ranks) * static_cast<std::size_t>(m_ranks));
  const RouteSearch search(topology);
  for (int from = 0; from < m_ranks; ++from) {
    const TopologyNode* source = topology.gpuNode(from);
    if (!source)
      continue;
    const std::vector<Candidate> best = search.from(search.indexOf(source->id));
    for (int to = 0; to < m_ranks; ++to) {
      const TopologyNode* target = topology.gpuNode(to);
      if (!target)
        continue;
      const Candidate& candidate = best[search.indexOf(target->id)];
      if (candidate.reached)
        m_routes[static_cast<std::size_t>(from * m_ranks + to)] = toRoute(candidate);
    }
  }
}

const Route* RouteTable::route(int fromRank, int toRank) const
{
  if (fromRank < 0 || toRank < 0 || fromRank >= m_ranks || toRank >= m_ranks)
    return nullptr;
  const std::optional<Route>& route =
      m_routes[static_cast<std::size_t>(fromRank * m_ranks + toRank)];
  return route ? &*route : nullptr;
}

} // namespace cs
