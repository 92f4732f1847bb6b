#pragma once

// Max-min fair sharing of link bandwidth among concurrent transfers (progressive filling), and
// the incremental network the simulator keeps: when a transfer starts or ends, only the transfers
// that share a link with it, directly or through others, get new rates.

#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

namespace cs {

/// Max-min fair rates for flows over resources: every flow's rate is as large as it can be
/// without lowering a flow whose rate is not larger. `capacities[r]` is resource r's capacity;
/// `flowResources[f]` lists the resources flow f crosses (a resource at most once). A flow that
/// crosses nothing gets infinity.
std::vector<double> maxMinFairShares(const std::vector<double>& capacities,
                                     const std::vector<std::vector<int>>& flowResources);

/// Active transfers over resources with capacities, rates kept max-min fair. Time in µs, sizes
/// in bytes, capacities and rates in bytes per µs.
class FlowNetwork
{
public:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  explicit FlowNetwork(std::vector<double> capacities);

  /// Starts a flow of `bytes` over `resources` at time `now`; returns its id.
  int add(std::vector<int> resources, double bytes, double now);
  /// The earliest time a flow finishes, or infinity when none is active.
  double nextCompletion();
  /// Removes the flow finishing at nextCompletion() and returns its id (call with now = that time).
  int popCompletion(double now);
  /// The summed rate of the active flows on a resource.
  double load(int resource) const { return m_resources[resource].load; }
  /// Resources whose load changed since the last call, each once.
  std::vector<int> takeChangedResources();
  int activeFlows() const { return m_active; }

private:
  struct Flow {
    std::vector<int> resources;
    double remaining = 0;
    double rate = 0;
    double since = 0; ///< time `remaining` was last brought up to date
    int version = 0;  ///< bumps when the rate changes; older completion entries are stale
    bool active = false;
    bool scheduled = false; ///< a completion entry for the current rate is queued
  };
  struct Resource {
    double capacity = 0;
    double load = 0;
    std::vector<int> flows; ///< active flows crossing it
    bool changed = false;
  };
  struct Completion {
    double time;
    int flow;
    int version;
    bool operator>(const Completion& other) const
    {
      return time != other.time ? time > other.time : flow > other.flow;
    }
  };

  void rebalance(const std::vector<int>& seeds, double now);
  void detach(int flow);

  std::vector<Flow> m_flows;
  std::vector<int> m_freeIds;
  std::vector<Resource> m_resources;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> m_completions;
  std::vector<int> m_changed;
  std::vector<int> m_seenFlow;     ///< stamp per flow for component searches
  std::vector<int> m_seenResource; ///< stamp per resource
  int m_stamp = 0;
  int m_active = 0;
};

} // namespace cs
