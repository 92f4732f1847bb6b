#include "replayindex.h"

#include "tracefit_p.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cs::replay {

namespace {

using ConnectionKey = std::tuple<int, int, int>; ///< (from, to, channel)

/// Program order of two events of one connection end: the runtime matches in this order.
bool programOrder(const Trace& trace, std::size_t x, std::size_t y)
{
  const TraceEvent& a = trace.events[x];
  const TraceEvent& b = trace.events[y];
  return std::tie(a.slice, a.step, a.tb) < std::tie(b.slice, b.step, b.tb);
}

/// The hops of a recorded link path, oriented by walking it from the sender's GPU; nullopt when
/// the path does not start there or is not connected (then the topology's route is used).
std::optional<std::vector<Hop>> orientPath(const std::vector<int>& path, const Topology& topology,
                                           int fromRank)
{
  const TopologyNode* start = topology.gpuNode(fromRank);
  if (!start)
    return std::nullopt;
  int at = start->id;
  std::vector<Hop> hops;
  for (const int id : path) {
    const TopologyLink* link = topology.link(id);
    if (!link || (link->a != at && link->b != at))
      return std::nullopt;
    hops.push_back({id, link->a == at});
    at = link->a == at ? link->b : link->a;
  }
  return hops;
}

} // namespace

ReplayIndex::ReplayIndex(const Program& program, Trace trace)
    : m_program(program), m_trace(std::move(trace))
{
}

ReplayBuild ReplayIndex::build(const Program& program, Trace trace, const Topology* topology)
{
  ReplayBuild result;
  Diagnostics out;
  if (!traceFitsProgram(program, trace, topology, out)) {
    result.diagnostics = out.take();
    return result;
  }
  ReplayIndex index(program, std::move(trace));
  index.indexLanes();
  if (!index.matchMessages(topology, out)) {
    result.diagnostics = out.take();
    return result;
  }
  index.buildLinkProfiles(topology);
  result.index = std::move(index);
  result.diagnostics = out.take();
  return result;
}

void ReplayIndex::indexLanes()
{
  // Every threadblock of the program has a lane, also one the trace never saw run.
  std::map<std::pair<int, int>, std::size_t> laneOf;
  for (const Gpu& gpu : m_program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      laneOf.emplace(std::pair(gpu.id, tb.id), m_lanes.size());
      m_lanes.push_back({gpu.id, tb.id, {}, {}});
    }
  }
  for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
    const TraceEvent& event = m_trace.events[i];
    m_lanes[laneOf.at({event.rank, event.tb})].events.push_back(i);
    m_starts.push_back(event.start);
    m_ends.push_back(event.end);
    m_endUs = std::max(m_endUs, event.end);
    m_slices = std::max(m_slices, event.slice + 1);
  }
  for (Lane& lane : m_lanes) {
    std::sort(lane.events.begin(), lane.events.end(), [this](std::size_t x, std::size_t y) {
      const TraceEvent& a = m_trace.events[x];
      const TraceEvent& b = m_trace.events[y];
      return std::tie(a.start, a.slice, a.step) < std::tie(b.start, b.slice, b.step);
    });
    lane.receivesBefore.assign(1, 0);
    for (const std::size_t event : lane.events) {
      const bool receives = opTraits(m_trace.events[event].op).receives;
      lane.receivesBefore.push_back(lane.receivesBefore.back() + (receives ? 1 : 0));
    }
  }
  std::sort(m_starts.begin(), m_starts.end());
  std::sort(m_ends.begin(), m_ends.end());
  m_eventKeys.resize(m_trace.events.size());
  for (std::size_t i = 0; i < m_eventKeys.size(); ++i)
    m_eventKeys[i] = i;
  std::sort(m_eventKeys.begin(), m_eventKeys.end(), [this](std::size_t x, std::size_t y) {
    const TraceEvent& a = m_trace.events[x];
    const TraceEvent& b = m_trace.events[y];
    return std::tie(a.rank, a.tb, a.step, a.slice) < std::tie(b.rank, b.tb, b.step, b.slice);
  });
}

bool ReplayIndex::matchMessages(const Topology* topology, Diagnostics& out)
{
  std::map<ConnectionKey, std::vector<std::size_t>> sends;
  std::map<ConnectionKey, std::vector<std::size_t>> receives;
  for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
    const TraceEvent& event = m_trace.events[i];
    const ThreadBlock& tb = *m_program.threadblock(event.rank, event.tb);
    const OpTraits traits = opTraits(event.op);
    if (traits.sends && tb.send >= 0)
      sends[{event.rank, tb.send, tb.chan}].push_back(i);
    if (traits.receives && tb.recv >= 0)
      receives[{tb.recv, event.rank, tb.chan}].push_back(i);
  }
  std::optional<RouteTable> routes;
  if (topology)
    routes.emplace(*topology);
  m_messageOfReceive.assign(m_trace.events.size(), std::nullopt);
  for (auto& [key, sent] : sends) {
    std::vector<std::size_t>& received = receives[key];
    std::sort(sent.begin(), sent.end(),
              [this](std::size_t x, std::size_t y) { return programOrder(m_trace, x, y); });
    std::sort(received.begin(), received.end(),
              [this](std::size_t x, std::size_t y) { return programOrder(m_trace, x, y); });
    m_connectionOf[key] = m_connections.size();
    std::vector<std::size_t>& connection = m_connections.emplace_back();
    for (std::size_t k = 0; k < sent.size(); ++k) {
      const TraceEvent& send = m_trace.events[sent[k]];
      Message message;
      message.send = sent[k];
      std::tie(message.from, message.to, message.channel) = key;
      message.bytes = send.bytes;
      message.start = send.start;
      message.end = send.end;
      if (k < received.size()) {
        message.receive = received[k];
        message.end = std::max(message.end, m_trace.events[received[k]].end);
        m_messageOfReceive[received[k]] = m_messages.size();
      }
      if (!routeMessage(message, send, topology, routes ? &*routes : nullptr, out))
        return false;
      connection.push_back(m_messages.size());
      m_messages.push_back(std::move(message));
    }
  }
  return true;
}

bool ReplayIndex::routeMessage(Message& message, const TraceEvent& send, const Topology* topology,
                               const RouteTable* routes, Diagnostics& out)
{
  if (!send.linkPath.empty()) {
    if (topology) {
      if (std::optional<std::vector<Hop>> hops =
              orientPath(send.linkPath, *topology, message.from)) {
        message.route = std::move(*hops);
        return true;
      }
    } else {
      for (const int link : send.linkPath)
        message.route.push_back({link, true});
      return true;
    }
  }
  if (!routes)
    return true; // no links to show
  const Route* route = routes->route(message.from, message.to);
  if (!route) {
    out.error("replay.no-route", "the trace has a message from rank " +
                                     std::to_string(message.from) + " to rank " +
                                     std::to_string(message.to) + " but topology \"" +
                                     topology->name + "\" has no route between their GPUs");
    return false;
  }
  message.route = route->hops;
  m_linksInferred = true;
  return true;
}

void ReplayIndex::buildLinkProfiles(const Topology* topology)
{
  // (time, Δrate, Δ(rate·end)) per link direction.
  using Change = std::tuple<double, double, double>;
  std::map<int, std::pair<std::vector<Change>, std::vector<Change>>> changes;
  if (topology) {
    for (const TopologyLink& link : topology->links)
      changes[link.id];
  }
  for (const Message& message : m_messages) {
    for (const Hop& hop : message.route) {
      auto& [aToB, bToA] = changes[hop.link];
      if (message.end <= message.start)
        continue; // delivered at once: no rate to spread
      const double rate = static_cast<double>(message.bytes) / (message.end - message.start);
      std::vector<Change>& list = hop.aToB ? aToB : bToA;
      list.emplace_back(message.start, rate, rate * message.end);
      list.emplace_back(message.end, -rate, -rate * message.end);
    }
  }
  const auto profile = [](std::vector<Change>& list) {
    std::sort(list.begin(), list.end());
    FlowProfile result;
    double rate = 0;
    double weighted = 0;
    for (const auto& [time, dRate, dWeighted] : list) {
      rate += dRate;
      weighted += dWeighted;
      if (!result.times.empty() && result.times.back() == time) {
        result.rate.back() = rate;
        result.weightedEnd.back() = weighted;
        continue;
      }
      result.times.push_back(time);
      result.rate.push_back(rate);
      result.weightedEnd.push_back(weighted);
    }
    return result;
  };
  for (auto& [id, lists] : changes) {
    LinkProfile link;
    link.link = id;
    if (const TopologyLink* known = topology ? topology->link(id) : nullptr) {
      link.bytesPerUs = known->bandwidthGBps * 1e3; // GB/s = 10^3 bytes per µs
      link.duplex = known->duplex;
    }
    link.aToB = profile(lists.first);
    link.bToA = profile(lists.second);
    for (std::size_t u = 0; u < m_trace.links.size(); ++u) {
      if (m_trace.links[u].link == id && !m_trace.links[u].utilisation.empty())
        link.usage = static_cast<int>(u);
    }
    m_linkProfiles.push_back(std::move(link));
  }
}

std::optional<std::size_t> ReplayIndex::eventAt(int rank, int tb, int step, int slice) const
{
  const auto key = std::tie(rank, tb, step, slice);
  const auto at = std::lower_bound(m_eventKeys.begin(), m_eventKeys.end(), key,
                                   [this](std::size_t i, const auto& wanted) {
                                     const TraceEvent& e = m_trace.events[i];
                                     return std::tie(e.rank, e.tb, e.step, e.slice) < wanted;
                                   });
  if (at == m_eventKeys.end())
    return std::nullopt;
  const TraceEvent& e = m_trace.events[*at];
  if (std::tie(e.rank, e.tb, e.step, e.slice) != key)
    return std::nullopt;
  return *at;
}

} // namespace cs::replay
