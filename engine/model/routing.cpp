#include "routing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
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

} // namespace

/// Single-source shortest routes over node indices (positions in topology.nodes). The work space
/// is kept between searches and only the nodes a search touched are reset: a 1,024-GPU fabric is
/// searched once per sending rank.
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
      m_adjacent[a->second].push_back(
          {link.id, b->second, true, link.latencyUs, link.bandwidthGBps});
      m_adjacent[b->second].push_back(
          {link.id, a->second, false, link.latencyUs, link.bandwidthGBps});
    }
    m_best.resize(topology.nodes.size());
    m_settled.assign(topology.nodes.size(), 0);
    m_target.assign(topology.nodes.size(), 0);
  }

  int indexOf(int nodeId) const
  {
    const auto found = m_index.find(nodeId);
    return found == m_index.end() ? -1 : found->second;
  }

  /// The best routes from `source`, valid until the next call. With `targets` (node indices) the
  /// search stops once every target is settled: a settled node's route never changes, so the
  /// targets' routes are those of a full search; other nodes may be left unreached.
  const std::vector<Candidate>& from(int source, const std::vector<int>& targets = {})
  {
    reset();
    int pending = 0;
    for (const int t : targets) {
      if (t >= 0 && !m_target[t]) {
        m_target[t] = 1;
        ++pending;
      }
    }
    touch(source);
    m_best[source].reached = true;
    m_best[source].latency = 0;
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    queue.push({0.0, source});
    while (!queue.empty() && (targets.empty() || pending > 0)) {
      const int node = queue.top().second;
      queue.pop();
      if (m_settled[node])
        continue;
      m_settled[node] = 1;
      if (m_target[node])
        --pending;
      // GPUs do not forward: only the source GPU may be left again.
      if (node != source && m_topology.nodes[node].kind == NodeKind::Gpu)
        continue;
      relax(node, queue);
    }
    for (const int t : targets) {
      if (t >= 0)
        m_target[t] = 0;
    }
    return m_best;
  }

private:
  struct Adjacent {
    int link = 0;
    int other = 0; ///< node index
    bool aToB = true;
    double latencyUs = 0;
    double bandwidthGBps = 0;
  };

  void touch(int node)
  {
    if (!m_settled[node] && !m_best[node].reached)
      m_touched.push_back(node);
  }

  void reset()
  {
    for (const int node : m_touched) {
      m_best[node] = Candidate();
      m_settled[node] = 0;
    }
    m_touched.clear();
  }

  template <typename Queue> void relax(int node, Queue& queue)
  {
    for (const Adjacent& next : m_adjacent[node]) {
      if (m_settled[next.other])
        continue;
      const double latency = m_best[node].latency + next.latencyUs;
      // Clearly slower than the route known: no need to build the hops to compare them.
      if (slower(latency, m_best[next.other]))
        continue;
      std::vector<Hop> hops = m_best[node].hops;
      hops.push_back({next.link, next.aToB});
      if (!better(latency, hops, m_best[next.other]))
        continue;
      touch(next.other);
      Candidate& target = m_best[next.other];
      target.reached = true;
      target.latency = latency;
      target.hops = std::move(hops);
      target.bottleneck = std::min(m_best[node].bottleneck, next.bandwidthGBps);
      queue.push({latency, next.other});
    }
  }

  const Topology& m_topology;
  std::unordered_map<int, int> m_index;
  std::vector<std::vector<Adjacent>> m_adjacent;
  std::vector<Candidate> m_best;
  std::vector<char> m_settled;
  std::vector<char> m_target;
  std::vector<int> m_touched; ///< nodes whose m_best or m_settled the last search set
};

namespace {

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
  const std::vector<std::optional<Route>> routes = findRoutes(topology, fromNode, {toNode});
  return routes.front();
}

std::vector<std::optional<Route>> findRoutes(const Topology& topology, int fromNode,
                                             const std::vector<int>& toNodes)
{
  return RouteFinder(topology).routes(fromNode, toNodes);
}

RouteFinder::RouteFinder(const Topology& topology)
    : m_search(std::make_unique<RouteSearch>(topology))
{
}

RouteFinder::~RouteFinder() = default;

std::vector<std::optional<Route>> RouteFinder::routes(int fromNode, const std::vector<int>& toNodes)
{
  std::vector<std::optional<Route>> routes(toNodes.size());
  const int from = m_search->indexOf(fromNode);
  if (from < 0)
    return routes;
  std::vector<int> targets;
  targets.reserve(toNodes.size());
  for (const int node : toNodes)
    targets.push_back(m_search->indexOf(node));
  const std::vector<Candidate>& best = m_search->from(from, targets);
  for (std::size_t i = 0; i < toNodes.size(); ++i) {
    const int to = targets[i];
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
  RouteSearch search(topology);
  for (int from = 0; from < m_ranks; ++from) {
    const TopologyNode* source = topology.gpuNode(from);
    if (!source)
      continue;
    const std::vector<Candidate>& best = search.from(search.indexOf(source->id));
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
