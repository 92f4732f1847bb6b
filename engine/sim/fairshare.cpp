#include "fairshare_p.h"

#include <algorithm>
#include <cmath>

namespace cs {

namespace {

/// Relative tolerance under which two shares count as the same bottleneck level.
constexpr double kTolerance = 1e-12;

} // namespace

std::vector<double> maxMinFairShares(const std::vector<double>& capacities,
                                     const std::vector<std::vector<int>>& flowResources)
{
  const std::size_t flowCount = flowResources.size();
  std::vector<double> rates(flowCount, 0.0);
  std::vector<bool> frozen(flowCount, false);
  std::vector<double> remaining = capacities;
  std::vector<int> unfrozenOn(capacities.size(), 0);
  std::vector<std::vector<int>> flowsOn(capacities.size());
  std::size_t unfrozen = 0;
  for (std::size_t f = 0; f < flowCount; ++f) {
    if (flowResources[f].empty()) {
      rates[f] = FlowNetwork::kInfinity;
      frozen[f] = true;
      continue;
    }
    ++unfrozen;
    for (const int r : flowResources[f]) {
      ++unfrozenOn[r];
      flowsOn[r].push_back(static_cast<int>(f));
    }
  }
  // Progressive filling: raise every unfrozen flow together until some resource is full, then
  // freeze the flows crossing it; they keep the level they reached.
  double level = 0;
  while (unfrozen > 0) {
    double delta = FlowNetwork::kInfinity;
    for (std::size_t r = 0; r < remaining.size(); ++r) {
      if (unfrozenOn[r] > 0)
        delta = std::min(delta, std::max(0.0, remaining[r]) / unfrozenOn[r]);
    }
    level += delta;
    std::vector<std::size_t> saturated;
    for (std::size_t r = 0; r < remaining.size(); ++r) {
      if (unfrozenOn[r] == 0)
        continue;
      remaining[r] -= delta * unfrozenOn[r];
      if (remaining[r] <= kTolerance * std::max(1.0, capacities[r]) * unfrozenOn[r])
        saturated.push_back(r);
    }
    for (const std::size_t r : saturated) {
      for (const int f : flowsOn[r]) {
        if (frozen[f])
          continue;
        frozen[f] = true;
        rates[f] = level;
        --unfrozen;
        for (const int other : flowResources[f])
          --unfrozenOn[other];
      }
    }
  }
  return rates;
}

FlowNetwork::FlowNetwork(std::vector<double> capacities)
{
  m_resources.resize(capacities.size());
  for (std::size_t r = 0; r < capacities.size(); ++r)
    m_resources[r].capacity = capacities[r];
  m_seenResource.assign(capacities.size(), 0);
}

int FlowNetwork::add(std::vector<int> resources, double bytes, double now)
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
  flow.resources = std::move(resources);
  flow.remaining = std::max(0.0, bytes);
  flow.rate = 0;
  flow.since = now;
  flow.active = true;
  flow.scheduled = false;
  ++flow.version;
  ++m_active;
  if (flow.resources.empty()) {
    // Nothing to share: done as soon as it starts.
    flow.rate = kInfinity;
    m_completions.push({now, id, flow.version});
    return id;
  }
  for (const int r : flow.resources)
    m_resources[r].flows.push_back(id);
  rebalance(m_flows[id].resources, now);
  return id;
}

double FlowNetwork::nextCompletion()
{
  while (!m_completions.empty()) {
    const Completion& top = m_completions.top();
    const Flow& flow = m_flows[top.flow];
    if (flow.active && flow.version == top.version)
      return top.time;
    m_completions.pop();
  }
  return kInfinity;
}

int FlowNetwork::popCompletion(double now)
{
  if (nextCompletion() == kInfinity)
    return -1;
  const int id = m_completions.top().flow;
  m_completions.pop();
  detach(id);
  const std::vector<int> seeds = std::move(m_flows[id].resources);
  m_flows[id].resources.clear();
  m_freeIds.push_back(id);
  if (!seeds.empty())
    rebalance(seeds, now);
  return id;
}

void FlowNetwork::detach(int id)
{
  Flow& flow = m_flows[id];
  flow.active = false;
  ++flow.version;
  --m_active;
  for (const int r : flow.resources) {
    std::vector<int>& flows = m_resources[r].flows;
    const auto found = std::find(flows.begin(), flows.end(), id);
    if (found != flows.end()) {
      *found = flows.back();
      flows.pop_back();
    }
  }
}

std::vector<int> FlowNetwork::takeChangedResources()
{
  std::vector<int> changed;
  changed.swap(m_changed);
  for (const int r : changed)
    m_resources[r].changed = false;
  return changed;
}

void FlowNetwork::rebalance(const std::vector<int>& seeds, double now)
{
  // The connected component of the seed resources in the flow/resource graph: only its rates
  // can change when a flow enters or leaves it.
  ++m_stamp;
  std::vector<int> resources;
  std::vector<int> flows;
  for (const int r : seeds) {
    if (m_seenResource[r] != m_stamp) {
      m_seenResource[r] = m_stamp;
      resources.push_back(r);
    }
  }
  for (std::size_t i = 0; i < resources.size(); ++i) {
    for (const int f : m_resources[resources[i]].flows) {
      if (m_seenFlow[f] == m_stamp)
        continue;
      m_seenFlow[f] = m_stamp;
      flows.push_back(f);
      for (const int other : m_flows[f].resources) {
        if (m_seenResource[other] != m_stamp) {
          m_seenResource[other] = m_stamp;
          resources.push_back(other);
        }
      }
    }
  }

  // Local indices for the sharing computation.
  std::vector<double> capacities;
  capacities.reserve(resources.size());
  for (std::size_t i = 0; i < resources.size(); ++i) {
    capacities.push_back(m_resources[resources[i]].capacity);
    m_seenResource[resources[i]] = -static_cast<int>(i) - 1; // local index, negative
  }
  std::vector<std::vector<int>> local(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    for (const int r : m_flows[flows[i]].resources)
      local[i].push_back(-m_seenResource[r] - 1);
  }
  const std::vector<double> rates = maxMinFairShares(capacities, local);
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
    ++flow.version;
    const double finish = flow.rate > 0 ? now + flow.remaining / flow.rate : kInfinity;
    m_completions.push({finish, flows[i], flow.version});
  }
  for (const int r : resources) {
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
  }
}

} // namespace cs
