#pragma once

// Routes over a Topology: the links a message from one node to another crosses. Data only
// passes through switches, NICs and CPUs, never through a third GPU (GPUs do not forward; an
// algorithm that wants that does it with its own transfers). Shortest by total latency, then by
// hop count, then by lowest link ids, so routes are deterministic.

#include "topology.h"

#include <memory>
#include <optional>
#include <vector>

namespace cs {

/// One link crossed in a direction.
struct Hop {
  int link = 0;
  bool aToB = true; ///< crossed from the link's node a to node b
  bool operator==(const Hop&) const = default;
};

struct Route {
  std::vector<Hop> hops;
  double latencyUs = 0;      ///< sum over the hops
  double bottleneckGBps = 0; ///< smallest bandwidth on the way
  bool operator==(const Route&) const = default;
};

/// The route from node `from` to node `to`, or nullopt when none exists. from == to gives an
/// empty route.
std::optional<Route> findRoute(const Topology& topology, int fromNode, int toNode);

/// The routes from node `fromNode` to each of `toNodes`, found with one search; an entry is
/// nullopt where no route exists.
std::vector<std::optional<Route>> findRoutes(const Topology& topology, int fromNode,
                                             const std::vector<int>& toNodes);

class RouteSearch;

/// findRoutes() from many sources over one topology: the node index and adjacency are built
/// once, and each search stops as soon as it has settled every target (the routes are the same).
class RouteFinder
{
public:
  explicit RouteFinder(const Topology& topology);
  ~RouteFinder();
  RouteFinder(const RouteFinder&) = delete;
  RouteFinder& operator=(const RouteFinder&) = delete;
  /// As findRoutes(topology, fromNode, toNodes).
  std::vector<std::optional<Route>> routes(int fromNode, const std::vector<int>& toNodes);

private:
  std::unique_ptr<RouteSearch> m_search;
};

/// All-pairs routes between the ranks' GPUs, computed once (the simulator asks per message).
class RouteTable
{
public:
  explicit RouteTable(const Topology& topology);
  /// The route from rank `from` to rank `to`, or nullptr when there is none (or a rank has no GPU).
  const Route* route(int fromRank, int toRank) const;
  int ranks() const { return m_ranks; }

private:
  int m_ranks = 0;
  std::vector<std::optional<Route>> m_routes; ///< m_ranks × m_ranks
};

} // namespace cs
