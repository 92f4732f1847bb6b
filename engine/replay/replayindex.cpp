#include "replayindex.h"

#include "tracefit_p.h"

#include <algorithm>
#include <limits>

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <map>
#include <tuple>

namespace cs::replay {

namespace {

using ConnectionKey = std::tuple<int, int, int>; ///< (from, to, channel)

/// One end of a connection: an event with the key the runtime matches sends and receives in
/// (program order), kept beside it so that sorting never reaches back into the events.
struct ConnectionEnd {
  int slice = 0;
  int step = 0;
  int tb = 0;
  std::uint32_t event = 0;

  bool operator<(const ConnectionEnd& other) const
  {
    return std::tie(slice, step, tb) < std::tie(other.slice, other.step, other.tb);
  }
};

/// Appends the hops of a recorded link path to `hops`, oriented by walking it from the sender's
/// GPU; false (and `hops` as it was) when the path does not start there or is not connected (then
/// the topology's route is used).
bool appendOrientedPath(const std::vector<int>& path, const Topology& topology, int fromRank,
                        std::vector<Hop>& hops)
{
  const TopologyNode* start = topology.gpuNode(fromRank);
  if (!start)
    return false;
  const std::size_t before = hops.size();
  int at = start->id;
  for (const int id : path) {
    const TopologyLink* link = topology.link(id);
    if (!link || (link->a != at && link->b != at)) {
      hops.resize(before);
      return false;
    }
    hops.push_back({id, link->a == at});
    at = link->a == at ? link->b : link->a;
  }
  return true;
}

/// The build's temporaries (sort keys, connection ends, the events' link paths) leave free
/// holes in the middle of the heap, which glibc keeps unless asked: for a trace of millions of
/// events that is tens of megabytes the process holds for nothing while the replay is open.
void giveBackBuildMemory(std::size_t events)
{
#ifdef __GLIBC__
  if (events >= 100000)
    malloc_trim(0);
#else
  (void)events;
#endif
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
  if (trace.events.size() >= std::numeric_limits<Index>::max()) {
    out.error("replay.too-large", "the trace has " + std::to_string(trace.events.size()) +
                                      " events, more than a replay can index");
    result.diagnostics = out.take();
    return result;
  }
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
  giveBackBuildMemory(result.index->trace().events.size());
  result.diagnostics = out.take();
  return result;
}

void ReplayIndex::indexLanes()
{
  // Every threadblock of the program has a lane, also one the trace never saw run.
  for (const Gpu& gpu : m_program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      const auto rank = static_cast<std::size_t>(gpu.id);
      const auto id = static_cast<std::size_t>(tb.id);
      if (m_laneOf.size() <= rank)
        m_laneOf.resize(rank + 1);
      if (m_laneOf[rank].size() <= id)
        m_laneOf[rank].resize(id + 1, std::numeric_limits<Index>::max());
      m_laneOf[rank][id] = static_cast<Index>(m_lanes.size());
      m_lanes.push_back({gpu.id, tb.id, {}, {}, {}});
    }
  }
  m_starts.reserve(m_trace.events.size());
  m_ends.reserve(m_trace.events.size());
  for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
    const TraceEvent& event = m_trace.events[i];
    m_lanes[*laneOf(event.rank, event.tb)].events.push_back(static_cast<Index>(i));
    m_starts.push_back(event.start);
    m_ends.push_back(event.end);
    m_endUs = std::max(m_endUs, event.end);
    m_slices = std::max(m_slices, event.slice + 1);
  }
  for (Lane& lane : m_lanes)
    sortLane(lane);
  std::sort(m_starts.begin(), m_starts.end());
  std::sort(m_ends.begin(), m_ends.end());
}

void ReplayIndex::sortLane(Lane& lane) const
{
  // Sorted on keys copied out of the events: a comparison never reaches into the trace.
  struct Key {
    double start;
    int slice;
    int step;
    Index event;
  };
  std::vector<Key> keys;
  keys.reserve(lane.events.size());
  for (const Index i : lane.events) {
    const TraceEvent& e = m_trace.events[i];
    keys.push_back({e.start, e.slice, e.step, i});
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.start, a.slice, a.step) < std::tie(b.start, b.slice, b.step);
  });
  lane.receivesBefore.assign(1, 0);
  lane.receivesBefore.reserve(keys.size() + 1);
  for (std::size_t k = 0; k < keys.size(); ++k) {
    lane.events[k] = keys[k].event;
    const bool receives = opTraits(m_trace.events[keys[k].event].op).receives;
    lane.receivesBefore.push_back(lane.receivesBefore.back() + (receives ? 1 : 0));
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.step, a.slice) < std::tie(b.step, b.slice);
  });
  lane.byPosition.reserve(keys.size());
  for (const Key& key : keys)
    lane.byPosition.push_back(key.event);
}

std::optional<std::size_t> ReplayIndex::laneOf(int rank, int tb) const
{
  if (rank < 0 || tb < 0 || static_cast<std::size_t>(rank) >= m_laneOf.size())
    return std::nullopt;
  const std::vector<Index>& tbs = m_laneOf[static_cast<std::size_t>(rank)];
  if (static_cast<std::size_t>(tb) >= tbs.size() ||
      tbs[static_cast<std::size_t>(tb)] == std::numeric_limits<Index>::max())
    return std::nullopt;
  return tbs[static_cast<std::size_t>(tb)];
}

bool ReplayIndex::matchMessages(const Topology* topology, Diagnostics& out)
{
  std::map<ConnectionKey, std::pair<std::vector<ConnectionEnd>, std::vector<ConnectionEnd>>> ends;
  for (const Lane& lane : m_lanes) {
    const ThreadBlock& tb = *m_program.threadblock(lane.rank, lane.tb);
    auto* sends = tb.send >= 0 ? &ends[{lane.rank, tb.send, tb.chan}].first : nullptr;
    auto* receives = tb.recv >= 0 ? &ends[{tb.recv, lane.rank, tb.chan}].second : nullptr;
    for (const Index i : lane.events) {
      const TraceEvent& event = m_trace.events[i];
      const OpTraits traits = opTraits(event.op);
      if (traits.sends && sends)
        sends->push_back({event.slice, event.step, event.tb, i});
      if (traits.receives && receives)
        receives->push_back({event.slice, event.step, event.tb, i});
    }
  }
  std::optional<RouteTable> routes;
  if (topology)
    routes.emplace(*topology);
  std::vector<HopRange> hopRanges;
  for (auto& [key, connectionEnds] : ends) {
    auto& [sent, received] = connectionEnds;
    if (sent.empty())
      continue;
    std::sort(sent.begin(), sent.end());
    std::sort(received.begin(), received.end());
    m_connectionOf[key] = m_connections.size();
    std::vector<Index>& connection = m_connections.emplace_back();
    connection.reserve(sent.size());
    for (std::size_t k = 0; k < sent.size(); ++k) {
      const TraceEvent& send = m_trace.events[sent[k].event];
      Message message;
      message.send = sent[k].event;
      std::tie(message.from, message.to, message.channel) = key;
      message.bytes = send.bytes;
      message.start = send.start;
      message.end = send.end;
      if (k < received.size()) {
        message.receive = received[k].event;
        message.end = std::max(message.end, m_trace.events[received[k].event].end);
      }
      const std::optional<HopRange> hops =
          routeMessage(message, topology, routes ? &*routes : nullptr, out);
      if (!hops)
        return false;
      hopRanges.push_back(*hops);
      connection.push_back(static_cast<Index>(m_messages.size()));
      m_messages.push_back(message);
    }
  }
  // The pool is complete: the routes can point into it now.
  for (std::size_t m = 0; m < m_messages.size(); ++m)
    m_messages[m].route =
        std::span<const Hop>(m_hops).subspan(hopRanges[m].first, hopRanges[m].count);
  for (TraceEvent& event : m_trace.events)
    std::vector<int>().swap(event.linkPath); // now in m_hops
  return true;
}

std::optional<ReplayIndex::HopRange> ReplayIndex::routeMessage(const Message& message,
                                                               const Topology* topology,
                                                               const RouteTable* routes,
                                                               Diagnostics& out)
{
  const std::vector<int>& path = m_trace.events[message.send].linkPath;
  const auto first = static_cast<std::uint32_t>(m_hops.size());
  // The messages of a connection mostly cross the same links: the last one's hops are reused.
  if (!path.empty() && m_lastRecordedFrom == message.from && m_lastRecordedPath == path)
    return m_lastRecordedRange;
  if (!path.empty()) {
    if (!topology) {
      for (const int link : path)
        m_hops.push_back({link, true});
      return HopRange{first, static_cast<std::uint32_t>(path.size())};
    }
    if (appendOrientedPath(path, *topology, message.from, m_hops)) {
      m_lastRecordedPath = path;
      m_lastRecordedFrom = message.from;
      m_lastRecordedRange = HopRange{first, static_cast<std::uint32_t>(m_hops.size()) - first};
      return m_lastRecordedRange;
    }
  }
  if (!routes)
    return HopRange{}; // no links to show
  const auto known = m_inferredRoutes.find({message.from, message.to});
  if (known != m_inferredRoutes.end()) {
    m_linksInferred = true;
    return known->second;
  }
  const Route* route = routes->route(message.from, message.to);
  if (!route) {
    out.error("replay.no-route", "the trace has a message from rank " +
                                     std::to_string(message.from) + " to rank " +
                                     std::to_string(message.to) + " but topology \"" +
                                     topology->name + "\" has no route between their GPUs");
    return std::nullopt;
  }
  m_hops.insert(m_hops.end(), route->hops.begin(), route->hops.end());
  m_linksInferred = true;
  const HopRange range{first, static_cast<std::uint32_t>(route->hops.size())};
  m_inferredRoutes.emplace(std::pair(message.from, message.to), range);
  return range;
}

void ReplayIndex::buildLinkProfiles(const Topology* topology)
{
  // (time, Δrate, Δ(rate·end), Δmessages) per link direction.
  using Change = std::tuple<double, double, double, int>;
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
      list.emplace_back(message.start, rate, rate * message.end, 1);
      list.emplace_back(message.end, -rate, -rate * message.end, -1);
    }
  }
  const auto profile = [](std::vector<Change>& list) {
    std::sort(list.begin(), list.end());
    FlowProfile result;
    double rate = 0;
    double weighted = 0;
    int active = 0;
    for (const auto& [time, dRate, dWeighted, dActive] : list) {
      rate += dRate;
      weighted += dWeighted;
      active += dActive;
      if (active == 0) {
        // Nothing on the link: drop what the sums kept of rounding, not a byte in flight.
        rate = 0;
        weighted = 0;
      }
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
  const std::optional<std::size_t> lane = laneOf(rank, tb);
  if (!lane)
    return std::nullopt;
  const std::vector<Index>& byPosition = m_lanes[*lane].byPosition;
  const auto wanted = std::tie(step, slice);
  const auto at = std::lower_bound(byPosition.begin(), byPosition.end(), wanted,
                                   [this](Index i, const auto& key) {
                                     const TraceEvent& e = m_trace.events[i];
                                     return std::tie(e.step, e.slice) < key;
                                   });
  if (at == byPosition.end())
    return std::nullopt;
  const TraceEvent& e = m_trace.events[*at];
  if (std::tie(e.step, e.slice) != wanted)
    return std::nullopt;
  return *at;
}

} // namespace cs::replay
