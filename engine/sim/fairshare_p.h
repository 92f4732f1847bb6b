#pragma once

// Max-min fair sharing of link bandwidth among concurrent transfers (progressive filling), and
// the incremental network the simulator keeps: when a transfer starts or ends, only the transfers
// that share a link with it, directly or through others, get new rates. The new rates are worked
// out once for everything that started or ended at the same moment, when the network is next
// asked about a later moment: a 1,024-rank ring starts and ends thousands of transfers at each
// instant, all in one connected component once the nodes share spine switches.

#include "completionheap_p.h"

#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

namespace cs {

/// Max-min fair rates for flows over resources: every flow's rate is as large as it can be
/// without lowering a flow whose rate is not larger. `capacities[r]` is resource r's capacity;
/// `flowResources[f]` lists the resources flow f crosses (a resource at most once). A flow that
/// crosses nothing gets infinity.
std::vector<double> maxMinFairShares(const std::vector<double>& capacities,
                                     const std::vector<std::vector<int>>& flowResources);

/// maxMinFairShares over flows given as one array (flow f crosses resources[offsets[f] ..
/// offsets[f + 1])), keeping its work space between calls: the simulator solves millions.
class FairShareSolver
{
public:
  void solve(const std::vector<double>& capacities, const std::vector<int>& offsets,
             const std::vector<int>& resources, std::vector<double>& rates);

private:
  std::vector<char> m_frozen;
  std::vector<double> m_remaining;
  std::vector<int> m_unfrozenOn;
  std::vector<int> m_onOffsets; ///< flows on resource r: m_onFlows[m_onOffsets[r] ..]
  std::vector<int> m_onFlows;
  std::vector<int> m_fill;
  std::vector<int> m_saturated;
};

/// Active transfers over resources with capacities, rates kept max-min fair. Time in µs, sizes
/// in bytes, capacities and rates in bytes per µs.
class FlowNetwork
{
public:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  /// Without `trackLoads`, load() and takeChangedResources() report nothing: the simulator
  /// wants them only for utilisation samples, and summing every touched resource's flows after
  /// each change is much of the work on a large fabric.
  explicit FlowNetwork(std::vector<double> capacities, bool trackLoads = true);

  /// Registers a path over `resources` (each at most once) for addOnRoute(); returns its id. The
  /// simulator registers one per connection, so that starting a flow copies and looks up nothing.
  int addRoute(const std::vector<int>& resources);
  /// Starts a flow of `bytes` over route `route` at time `now` (never before an earlier call's
  /// `now`); returns its id.
  int addOnRoute(int route, double bytes, double now);
  /// add() over `resources`, registering the route on first use.
  int add(const std::vector<int>& resources, double bytes, double now);
  /// The earliest time a flow finishes, or infinity when none is active.
  double nextCompletion();
  /// Removes the flow finishing at nextCompletion() and returns its id (call with now = that time).
  int popCompletion(double now);
  /// The summed rate of the active flows on a resource (after the changes made so far).
  double load(int resource);
  /// Resources whose load changed since the last call, each once.
  std::vector<int> takeChangedResources();
  int activeFlows() const { return m_active; }
  bool isActive(int flow) const
  {
    return flow >= 0 && flow < static_cast<int>(m_flows.size()) && m_flows[flow].active;
  }
  /// An active flow's rate (after the changes made so far).
  double rate(int flow);
  /// Flows whose rates were worked out again, summed over all changes: the incremental work.
  std::int64_t rebalancedFlows() const { return m_rebalancedFlows; }

private:
  /// A path's resources are m_routeResources[first .. first + count), and per resource crossed
  /// m_routeGroups holds the counter of this route's flows among that resource's flows grouped
  /// by their tightest resource (an index into m_groupCounts). Flat arrays, not a vector per
  /// route: every flow that starts or ends reads its route's, and 30,000 routes' own heap
  /// blocks missed the cache each time.
  struct Route {
    int first = 0;
    int count = 0;
    int tightest = -1; ///< the first resource of the smallest capacity crossed
    double bound = 0;  ///< that capacity: a flow's rate can never be higher
  };
  struct Flow {
    int route = -1;
    double remaining = 0;
    double rate = 0;
    double since = 0; ///< time `remaining` was last brought up to date
    bool active = false;
    bool scheduled = false; ///< in m_completions with the finish time of its current rate
    /// Per resource of its route: its position in that resource's `flows`, so that it leaves
    /// in constant time (a spine link carries thousands of flows).
    std::vector<int> positions;
  };
  struct Resource {
    double capacity = 0;
    double load = 0;
    /// The most its active flows can carry together, from their tightest resources: each group
    /// of flows sharing a tightest resource other than this one counts its capacity once (the
    /// group cannot carry more), a flow whose tightest resource is this one its own bound.
    double ceiling = 0;
    std::vector<int> flows; ///< active flows crossing it
    std::vector<int> hops;  ///< per entry of `flows`: which resource of its route this one is
    bool changed = false;
    bool limiting = false; ///< not slack when the rates were last worked out
  };
  /// Active flows on a resource that share a tightest resource.
  struct GroupCount {
    int resource = 0;
    int tightest = 0;
    int count = 0;
  };

  void rebalance(const std::vector<int>& seeds, double now);
  /// A resource whose ceiling fits its capacity never limits anyone: the fair shares are the
  /// same without it, and flows that meet only there do not affect each other (the receiving
  /// end of a path whose sending link is as narrow, a spine uplink sized for its leaf).
  bool slack(int resource) const;
  /// The flows and limiting resources the change at `seeds` and the flows added can reach, into
  /// m_component*.
  void collectComponent(const std::vector<int>& seeds);
  void updateLoads(const std::vector<int>& seeds);
  /// Brings the rates up to date with the flows added and removed since the last call.
  void settle();
  void detach(int flow);
  std::span<const int> resourcesOf(const Route& route) const
  {
    return {m_routeResources.data() + route.first, static_cast<std::size_t>(route.count)};
  }
  std::span<const int> resourcesOf(int flow) const
  {
    return resourcesOf(m_routes[m_flows[flow].route]);
  }
  double boundOf(int flow) const { return m_routes[m_flows[flow].route].bound; }
  /// Counts a flow of `route` in (+1) or out (-1) of its resources' ceilings.
  void countInCeilings(const Route& route, int delta);

  std::vector<Route> m_routes;
  std::vector<int> m_routeResources;          ///< every route's resources (Route)
  std::vector<int> m_routeGroups;             ///< per entry of m_routeResources: its group counter
  std::map<std::vector<int>, int> m_routeIds; ///< for add() by resources
  std::vector<GroupCount> m_groupCounts;
  std::map<std::pair<int, int>, int> m_groupIds; ///< (resource, tightest) to its GroupCount
  std::vector<Flow> m_flows;
  std::vector<int> m_freeIds;
  std::vector<Resource> m_resources;
  CompletionHeap m_completions; ///< the active flows with a rate, by finish time
  std::vector<int> m_changed;
  std::vector<int> m_pendingSeeds;  ///< resources of flows added or removed at m_pendingNow
  std::vector<int> m_settlingSeeds; ///< the seeds settle() works on (capacity kept)
  std::vector<int> m_pendingFlows;  ///< flows added at m_pendingNow
  double m_pendingNow = 0;
  std::vector<int> m_seenFlow;     ///< stamp per flow for component searches
  std::vector<int> m_seenResource; ///< stamp per resource
  std::vector<int> m_componentFlows;
  std::vector<int> m_componentResources; ///< the limiting ones only
  std::vector<double> m_localCapacities; ///< the component's sharing problem, reused
  std::vector<int> m_localOffsets;
  std::vector<int> m_localResources;
  std::vector<double> m_localRates;
  FairShareSolver m_solver;
  std::int64_t m_rebalancedFlows = 0;
  int m_stamp = 0;
  int m_active = 0;
  bool m_trackLoads = true;
};

} // namespace cs
