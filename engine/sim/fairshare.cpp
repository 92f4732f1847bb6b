#include "fairshare_p.h"

#include <algorithm>
#include <cmath>

namespace cs {

namespace {

/// Relative tolerance under which two shares count as the same bottleneck level.
constexpr double kTolerance = 1e-12;
/// Relative tolerance under which a resource's summed flow bounds count as fitting its
/// capacity: the sums are kept incrementally and may be a few ulps off.
constexpr double kSlackTolerance = 1e-9;

} // namespace

void FairShareSolver::solve(const std::vector<double>& capacities, const std::vector<int>& offsets,
                            const std::vector<int>& resources, std::vector<double>& rates)
{
  const std::size_t flowCount = offsets.size() - 1;
  rates.assign(flowCount, 0.0);
  m_frozen.assign(flowCount, 0);
  m_remaining = capacities;
  m_unfrozenOn.assign(capacities.size(), 0);
  std::size_t unfrozen = 0;
  for (std::size_t f = 0; f < flowCount; ++f) {
    if (offsets[f] == offsets[f + 1]) {
      rates[f] = FlowNetwork::kInfinity;
      m_frozen[f] = 1;
      continue;
    }
    ++unfrozen;
    for (int i = offsets[f]; i < offsets[f + 1]; ++i)
      ++m_unfrozenOn[resources[i]];
  }
  // The flows on each resource, in one array (counting sort by resource).
  m_onOffsets.assign(capacities.size() + 1, 0);
  for (const int r : resources)
    ++m_onOffsets[r + 1];
  for (std::size_t r = 0; r < capacities.size(); ++r)
    m_onOffsets[r + 1] += m_onOffsets[r];
  m_onFlows.resize(resources.size());
  m_fill.assign(m_onOffsets.begin(), m_onOffsets.end() - 1);
  for (std::size_t f = 0; f < flowCount; ++f) {
    for (int i = offsets[f]; i < offsets[f + 1]; ++i)
      m_onFlows[m_fill[resources[i]]++] = static_cast<int>(f);
  }
  // Progressive filling: raise every unfrozen flow together until some resource is full, then
  // freeze the flows crossing it; they keep the level they reached.
  double level = 0;
  while (unfrozen > 0) {
    double delta = FlowNetwork::kInfinity;
    for (std::size_t r = 0; r < m_remaining.size(); ++r) {
      if (m_unfrozenOn[r] > 0)
        delta = std::min(delta, std::max(0.0, m_remaining[r]) / m_unfrozenOn[r]);
    }
    level += delta;
    m_saturated.clear();
    for (std::size_t r = 0; r < m_remaining.size(); ++r) {
      if (m_unfrozenOn[r] == 0)
        continue;
      m_remaining[r] -= delta * m_unfrozenOn[r];
      if (m_remaining[r] <= kTolerance * std::max(1.0, capacities[r]) * m_unfrozenOn[r])
        m_saturated.push_back(static_cast<int>(r));
    }
    for (const int r : m_saturated) {
      for (int i = m_onOffsets[r]; i < m_onOffsets[r + 1]; ++i) {
        const int f = m_onFlows[i];
        if (m_frozen[f])
          continue;
        m_frozen[f] = 1;
        rates[f] = level;
        --unfrozen;
        for (int j = offsets[f]; j < offsets[f + 1]; ++j)
          --m_unfrozenOn[resources[j]];
      }
    }
  }
}

std::vector<double> maxMinFairShares(const std::vector<double>& capacities,
                                     const std::vector<std::vector<int>>& flowResources)
{
  std::vector<int> offsets = {0};
  std::vector<int> resources;
  for (const std::vector<int>& flow : flowResources) {
    resources.insert(resources.end(), flow.begin(), flow.end());
    offsets.push_back(static_cast<int>(resources.size()));
  }
  std::vector<double> rates;
  FairShareSolver().solve(capacities, offsets, resources, rates);
  return rates;
}

FlowNetwork::FlowNetwork(std::vector<double> capacities, bool trackLoads) : m_trackLoads(trackLoads)
{
  m_resources.resize(capacities.size());
  for (std::size_t r = 0; r < capacities.size(); ++r)
    m_resources[r].capacity = capacities[r];
  m_seenResource.assign(capacities.size(), 0);
}

int FlowNetwork::addRoute(const std::vector<int>& resources)
{
  Route route;
  route.bound = kInfinity;
  for (const int r : resources) {
    if (m_resources[r].capacity < route.bound) {
      route.bound = m_resources[r].capacity;
      route.tightest = r;
    }
  }
  // One counter per (resource, tightest resource): routes with the same tightest resource
  // share it on every resource they both cross.
  route.first = static_cast<int>(m_routeResources.size());
  route.count = static_cast<int>(resources.size());
  for (const int r : resources) {
    const auto [it, inserted] =
        m_groupIds.emplace(std::pair(r, route.tightest), static_cast<int>(m_groupCounts.size()));
    if (inserted)
      m_groupCounts.push_back({r, route.tightest, 0});
    m_routeResources.push_back(r);
    m_routeGroups.push_back(it->second);
  }
  m_routes.push_back(route);
  return static_cast<int>(m_routes.size()) - 1;
}

int FlowNetwork::add(const std::vector<int>& resources, double bytes, double now)
{
  const auto [it, inserted] = m_routeIds.emplace(resources, static_cast<int>(m_routes.size()));
  if (inserted)
    addRoute(resources);
  return addOnRoute(it->second, bytes, now);
}

void FlowNetwork::countInCeilings(const Route& route, int delta)
{
  for (int i = route.first; i < route.first + route.count; ++i) {
    const int r = m_routeResources[i];
    GroupCount& group = m_groupCounts[m_routeGroups[i]];
    const bool first = delta > 0 ? group.count == 0 : group.count == 1;
    group.count += delta;
    if (first || route.tightest == r)
      m_resources[r].ceiling += delta * route.bound;
    if (m_resources[r].flows.empty())
      m_resources[r].ceiling = 0; // no rounding left behind by the sums
  }
}

int FlowNetwork::addOnRoute(int route, double bytes, double now)
{
  int id = 0;
  if (!m_freeIds.empty()) {
    id = m_freeIds.back();
    m_freeIds.pop_back();
  } else {
    id = static_cast<int>(m_flows.size());
    m_flows.emplace_back();
    m_seenFlow.push_back(0);
  }
  Flow& flow = m_flows[id];
  flow.route = route;
  flow.remaining = std::max(0.0, bytes);
  flow.rate = 0;
  flow.since = now;
  flow.active = true;
  flow.scheduled = false;
  ++m_active;
  const Route& path = m_routes[route];
  if (path.count == 0) {
    // Nothing to share: done as soon as it starts.
    flow.rate = kInfinity;
    m_completions.set(id, now);
    return id;
  }
  flow.positions.resize(path.count);
  for (int hop = 0; hop < path.count; ++hop) {
    const int r = m_routeResources[path.first + hop];
    flow.positions[hop] = static_cast<int>(m_resources[r].flows.size());
    m_resources[r].flows.push_back(id);
    m_resources[r].hops.push_back(hop);
    m_pendingSeeds.push_back(r);
  }
  countInCeilings(path, +1);
  m_pendingFlows.push_back(id);
  m_pendingNow = now;
  return id;
}

double FlowNetwork::nextCompletion()
{
  for (;;) {
    // A flow due at the moment of the pending changes finishes then whatever the new rates:
    // it has nothing left. Anything later needs the rates brought up to date first.
    const double next = m_completions.empty() ? kInfinity : m_completions.topTime();
    if (m_pendingSeeds.empty() || next <= m_pendingNow)
      return next;
    settle();
  }
}

void FlowNetwork::settle()
{
  if (m_pendingSeeds.empty())
    return;
  // Swapped with a member so that both buffers keep their capacity: settling happens once per
  // simulated moment, and a fresh vector each time was a large share of the allocations.
  m_settlingSeeds.swap(m_pendingSeeds);
  m_pendingSeeds.clear();
  rebalance(m_settlingSeeds, m_pendingNow);
}

double FlowNetwork::rate(int flow)
{
  settle();
  return m_flows[flow].rate;
}

double FlowNetwork::load(int resource)
{
  settle();
  return m_resources[resource].load;
}

int FlowNetwork::popCompletion(double now)
{
  if (nextCompletion() == kInfinity)
    return -1;
  const int id = m_completions.topFlow();
  detach(id);
  const std::span<const int> resources = resourcesOf(id);
  m_pendingSeeds.insert(m_pendingSeeds.end(), resources.begin(), resources.end());
  m_pendingNow = now;
  m_freeIds.push_back(id);
  return id;
}

void FlowNetwork::detach(int id)
{
  Flow& flow = m_flows[id];
  flow.active = false;
  m_completions.remove(id);
  --m_active;
  const Route& route = m_routes[flow.route];
  // The last flow of each list takes the leaving flow's place, and learns its new slot.
  for (int hop = 0; hop < route.count; ++hop) {
    Resource& resource = m_resources[m_routeResources[route.first + hop]];
    const int slot = flow.positions[hop];
    const int last = resource.flows.back();
    const int lastHop = resource.hops.back();
    resource.flows[slot] = last;
    resource.hops[slot] = lastHop;
    m_flows[last].positions[lastHop] = slot;
    resource.flows.pop_back();
    resource.hops.pop_back();
  }
  countInCeilings(route, -1);
}

std::vector<int> FlowNetwork::takeChangedResources()
{
  settle();
  std::vector<int> changed;
  changed.swap(m_changed);
  for (const int r : changed)
    m_resources[r].changed = false;
  return changed;
}

bool FlowNetwork::slack(int resource) const
{
  const Resource& r = m_resources[resource];
  return r.ceiling <= r.capacity * (1 + kSlackTolerance);
}

void FlowNetwork::collectComponent(const std::vector<int>& seeds)
{
  // The connected component of the seed resources and the new flows in the flow/resource
  // graph, not crossing slack resources: only its rates can change. A seed that limited some
  // flow before the change is crossed even when slack now: the flow that left may have been
  // what made it limit the others. A seed slack before and after changed nobody's rate.
  ++m_stamp;
  m_componentFlows.clear();
  m_componentResources.clear();
  std::vector<int>& resources = m_componentResources;
  for (const int r : seeds) {
    if (m_seenResource[r] != m_stamp) {
      m_seenResource[r] = m_stamp;
      if (m_resources[r].limiting || !slack(r))
        resources.push_back(r);
    }
  }
  const auto takeFlow = [this, &resources](int f) {
    if (m_seenFlow[f] == m_stamp)
      return;
    m_seenFlow[f] = m_stamp;
    m_componentFlows.push_back(f);
    for (const int other : resourcesOf(f)) {
      if (m_seenResource[other] != m_stamp && !slack(other)) {
        m_seenResource[other] = m_stamp;
        resources.push_back(other);
      }
    }
  };
  for (const int f : m_pendingFlows) {
    if (m_flows[f].active)
      takeFlow(f);
  }
  m_pendingFlows.clear();
  for (std::size_t i = 0; i < resources.size(); ++i) {
    for (const int f : m_resources[resources[i]].flows)
      takeFlow(f);
  }
  // Seeds that became slack limit nobody now: they leave the sharing problem.
  std::erase_if(resources, [this](int r) { return slack(r); });
  for (const int r : seeds)
    m_resources[r].limiting = !slack(r);
  m_rebalancedFlows += static_cast<std::int64_t>(m_componentFlows.size());
}

void FlowNetwork::rebalance(const std::vector<int>& seeds, double now)
{
  collectComponent(seeds);
  const std::vector<int>& resources = m_componentResources;
  const std::vector<int>& flows = m_componentFlows;

  // Local indices for the sharing computation: the limiting resources, then one private
  // resource per flow holding its bound (the slack resources it crosses are left out, and the
  // smallest of its capacities must still cap it).
  std::vector<double>& capacities = m_localCapacities;
  capacities.clear();
  for (std::size_t i = 0; i < resources.size(); ++i) {
    capacities.push_back(m_resources[resources[i]].capacity);
    m_seenResource[resources[i]] = -static_cast<int>(i) - 1; // local index, negative
  }
  m_localOffsets.assign(1, 0);
  m_localResources.clear();
  for (const int f : flows) {
    for (const int r : resourcesOf(f)) {
      if (m_seenResource[r] < 0)
        m_localResources.push_back(-m_seenResource[r] - 1);
    }
    m_localResources.push_back(static_cast<int>(capacities.size()));
    m_localOffsets.push_back(static_cast<int>(m_localResources.size()));
    capacities.push_back(boundOf(f));
  }
  std::vector<double>& rates = m_localRates;
  if (resources.empty())
    rates.assign(capacities.begin(), capacities.end()); // every flow alone at its bound
  else
    m_solver.solve(capacities, m_localOffsets, m_localResources, rates);
  for (const int r : resources)
    m_seenResource[r] = 0;

  for (std::size_t i = 0; i < flows.size(); ++i) {
    Flow& flow = m_flows[flows[i]];
    flow.remaining = std::max(0.0, flow.remaining - flow.rate * (now - flow.since));
    flow.since = now;
    if (flow.scheduled && flow.rate == rates[i])
      continue; // its completion entry is still right
    flow.rate = rates[i];
    flow.scheduled = true;
    const double finish = flow.rate > 0 ? now + flow.remaining / flow.rate : kInfinity;
    m_completions.set(flows[i], finish);
  }
  if (m_trackLoads)
    updateLoads(seeds);
}

void FlowNetwork::updateLoads(const std::vector<int>& seeds)
{
  // Loads change where a flow came or went (the seeds) and wherever a component flow runs,
  // slack resources included.
  ++m_stamp;
  const auto refresh = [this](int r) {
    if (m_seenResource[r] == m_stamp)
      return;
    m_seenResource[r] = m_stamp;
    double load = 0;
    for (const int f : m_resources[r].flows)
      load += m_flows[f].rate;
    if (load != m_resources[r].load) {
      m_resources[r].load = load;
      if (!m_resources[r].changed) {
        m_resources[r].changed = true;
        m_changed.push_back(r);
      }
    }
  };
  for (const int r : seeds)
    refresh(r);
  for (const int f : m_componentFlows) {
    for (const int r : resourcesOf(f))
      refresh(r);
  }
}

} // namespace cs
