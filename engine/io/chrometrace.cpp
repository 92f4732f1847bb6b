#include "chrometrace.h"

#include "chrometraceverification_p.h"
#include "jsontext_p.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <tuple>

namespace cs {

namespace {

using Json = nlohmann::json;

/// The elements of traceEvents, written one by one as they are made: a trace of millions of
/// events is never one document in memory.
class EventList
{
public:
  explicit EventList(std::ostream& out) : m_out(out) {}

  void push_back(const Json& event)
  {
    if (!m_empty)
      m_out << ',';
    m_empty = false;
    m_out << jsonText(event);
  }

private:
  std::ostream& m_out;
  bool m_empty = true;
};

/// Events of one connection end, in the order the threadblock ran them.
using EndList = std::vector<std::size_t>;

void sortByProgramOrder(const Trace& trace, EndList& list)
{
  std::stable_sort(list.begin(), list.end(), [&trace](std::size_t x, std::size_t y) {
    const TraceEvent& a = trace.events[x];
    const TraceEvent& b = trace.events[y];
    return std::tie(a.slice, a.step, a.tb) < std::tie(b.slice, b.step, b.tb);
  });
}

std::string linkName(const Topology* topology, int linkId)
{
  if (!topology)
    return "link " + std::to_string(linkId);
  const TopologyLink* link = topology->link(linkId);
  if (!link)
    return "link " + std::to_string(linkId);
  const TopologyNode* a = topology->node(link->a);
  const TopologyNode* b = topology->node(link->b);
  return "link " + std::to_string(linkId) + " " + (a ? a->name : "?") + " - " + (b ? b->name : "?");
}

/// Process and thread names: "rank r", "tb t (channel c)".
void appendNames(const Trace& trace, EventList& events)
{
  std::set<int> ranks;
  std::map<std::pair<int, int>, int> channelOfThread;
  for (const TraceEvent& event : trace.events) {
    ranks.insert(event.rank);
    channelOfThread[{event.rank, event.tb}] = event.channel;
  }
  for (int rank = 0; rank < trace.ranks; ++rank)
    ranks.insert(rank);
  for (const int rank : ranks) {
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"tid", 0},
                      {"args", {{"name", "rank " + std::to_string(rank)}}}});
    events.push_back({{"name", "process_sort_index"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"tid", 0},
                      {"args", {{"sort_index", rank}}}});
  }
  for (const auto& [thread, channel] : channelOfThread) {
    const auto& [rank, tb] = thread;
    events.push_back(
        {{"name", "thread_name"},
         {"ph", "M"},
         {"pid", rank},
         {"tid", tb},
         {"args",
          {{"name", "tb " + std::to_string(tb) + " (channel " + std::to_string(channel) + ")"}}}});
  }
}

/// The ends of every connection, (from, to, channel) → events in the order they were found.
using EndsByConnection = std::map<std::tuple<int, int, int>, EndList>;

/// One complete ("X") event per trace event; collects each connection's sends and receives.
void appendSlices(const Trace& trace, EventList& events, EndsByConnection& sends,
                  EndsByConnection& receives)
{
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& event = trace.events[i];
    const OpTraits traits = opTraits(event.op);
    Json args = {{"step", event.step},
                 {"slice", event.slice},
                 {"channel", event.channel},
                 {"bytes", event.bytes}};
    if (event.peer >= 0)
      args["peer"] = event.peer;
    if (event.recvPeer >= 0)
      args["recv_peer"] = event.recvPeer;
    if (!event.linkPath.empty())
      args["links"] = event.linkPath;
    events.push_back({{"name", std::string(opTypeName(event.op))},
                      {"cat", traits.sends || traits.receives ? "network" : "local"},
                      {"ph", "X"},
                      {"pid", event.rank},
                      {"tid", event.tb},
                      {"ts", event.start},
                      {"dur", std::max(0.0, event.end - event.start)},
                      {"args", std::move(args)}});
    if (traits.sends && event.peer >= 0)
      sends[{event.rank, event.peer, event.channel}].push_back(i);
    if (traits.receives && event.recvPeer >= 0)
      receives[{event.recvPeer, event.rank, event.channel}].push_back(i);
  }
}

/// Flow arrows: the k-th send on a connection feeds its k-th receive.
void appendFlows(const Trace& trace, EndsByConnection& sends, EndsByConnection& receives,
                 EventList& events)
{
  long flowId = 0;
  for (auto& [key, sent] : sends) {
    const auto found = receives.find(key);
    if (found == receives.end())
      continue;
    EndList& received = found->second;
    sortByProgramOrder(trace, sent);
    sortByProgramOrder(trace, received);
    const std::size_t pairs = std::min(sent.size(), received.size());
    for (std::size_t k = 0; k < pairs; ++k) {
      const TraceEvent& from = trace.events[sent[k]];
      const TraceEvent& to = trace.events[received[k]];
      const std::string name =
          "message " + std::to_string(std::get<0>(key)) + "→" + std::to_string(std::get<1>(key));
      events.push_back({{"name", name},
                        {"cat", "message"},
                        {"ph", "s"},
                        {"id", flowId},
                        {"pid", from.rank},
                        {"tid", from.tb},
                        {"ts", from.start}});
      events.push_back({{"name", name},
                        {"cat", "message"},
                        {"ph", "f"},
                        {"bp", "e"},
                        {"id", flowId},
                        {"pid", to.rank},
                        {"tid", to.tb},
                        {"ts", std::max(to.start, to.end)}});
      ++flowId;
    }
  }
}

/// Counter ("C") events of each link's utilisation, in a "links" process of their own.
void appendLinkCounters(const Trace& trace, const Topology* topology, int linksPid,
                        EventList& events)
{
  bool anyCounter = false;
  for (const LinkUsage& usage : trace.links) {
    if (usage.utilisation.empty())
      continue;
    anyCounter = true;
    const std::string name = linkName(topology, usage.link);
    for (const auto& [time, fraction] : usage.utilisation) {
      events.push_back({{"name", name},
                        {"ph", "C"},
                        {"pid", linksPid},
                        {"ts", time},
                        {"args", {{"utilisation", fraction}}}});
    }
  }
  if (anyCounter) {
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", linksPid},
                      {"tid", 0},
                      {"args", {{"name", "links"}}}});
  }
}

/// The run facts of otherData: what ran, its size, and where a stopped run stood.
Json otherData(const Trace& trace)
{
  // The byte counters per link direction, which the counter tracks (utilisation only) lose.
  Json linkBytes = Json::array();
  for (const LinkUsage& usage : trace.links)
    linkBytes.push_back(
        {{"link", usage.link}, {"a_to_b", usage.bytesAtoB}, {"b_to_a", usage.bytesBtoA}});
  Json other = {{"source", trace.source},    {"device", trace.device},
                {"ranks", trace.ranks},      {"bytes", trace.bytes},
                {"total_us", trace.totalUs}, {"links", std::move(linkBytes)}};
  if (trace.mode)
    other["call_mode"] = std::string(callModeName(*trace.mode));
  if (trace.connectionSlots)
    other["connection_slots"] = *trace.connectionSlots;
  if (trace.stoppedUs)
    other["stopped_us"] = *trace.stoppedUs;
  if (!trace.blocked.empty()) {
    Json blocked = Json::array();
    for (const BlockedPosition& p : trace.blocked) {
      blocked.push_back({{"rank", p.rank},
                         {"tb", p.tb},
                         {"step", p.step},
                         {"slice", p.slice},
                         {"waits_for", std::string(blockedOnName(p.waitsFor))},
                         {"peer", p.peer},
                         {"channel", p.channel},
                         {"dep_tb", p.depTb},
                         {"dep_step", p.depStep}});
    }
    other["blocked"] = std::move(blocked);
  }
  if (trace.verification)
    other["verification"] = chromeVerificationJson(*trace.verification);
  return other;
}

} // namespace

std::string_view blockedOnName(BlockedOn on)
{
  switch (on) {
  case BlockedOn::Message:
    return "message";
  case BlockedOn::Room:
    return "room";
  case BlockedOn::Flag:
    return "flag";
  }
  return "message";
}

std::optional<BlockedOn> parseBlockedOn(std::string_view text)
{
  for (const BlockedOn on : {BlockedOn::Message, BlockedOn::Room, BlockedOn::Flag}) {
    if (blockedOnName(on) == text)
      return on;
  }
  return std::nullopt;
}

int chromeTraceLinksPid(const Trace& trace)
{
  int highest = trace.ranks - 1;
  for (const TraceEvent& event : trace.events)
    highest = std::max(highest, event.rank);
  return highest + 1;
}

void writeChromeTrace(const Trace& trace, const Topology* topology, std::ostream& out)
{
  // The members in the order a JSON library sorts them, so that the text is what a document of
  // the whole trace would dump.
  out << R"({"displayTimeUnit":"ns","otherData":)" << jsonText(otherData(trace))
      << R"(,"traceEvents":[)";
  EventList events(out);
  appendNames(trace, events);
  EndsByConnection sends;
  EndsByConnection receives;
  appendSlices(trace, events, sends, receives);
  appendFlows(trace, sends, receives, events);
  appendLinkCounters(trace, topology, chromeTraceLinksPid(trace), events);
  out << "]}\n";
}

std::string writeChromeTrace(const Trace& trace, const Topology* topology)
{
  std::ostringstream out;
  writeChromeTrace(trace, topology, out);
  return std::move(out).str();
}

} // namespace cs
