#pragma once

// Replaying a recorded run (DESIGN.md §9): a Trace of a Program, indexed once, answers "what is
// happening at time t" for any t without replaying from 0. Seeking costs a binary search per
// threadblock, per connection and per link direction (each a sorted array built here), so it does
// not grow with how far into the run t lies. The same index serves simulated and measured traces:
// where events carry no link path (measured runs), each message is routed over the topology and
// linksInferred() says so.
//
// Messages: the k-th send on a connection (from, to, channel) is taken by the k-th receive on it
// (the runtime matches them in order, msccl-format.md §4.5). A message is in flight from the start
// of its send to the end of its receive (the end of the send when the trace has no receive); its
// bytes cross every link of its route at an even rate over that span, which is what the link
// loads below add up.

#include "model/diagnostic.h"
#include "model/program.h"
#include "model/routing.h"
#include "model/topology.h"
#include "model/trace.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

namespace cs::replay {

/// One message between two ranks, matched from the trace's sends and receives.
struct Message {
  std::uint32_t send = 0;               ///< index into Trace::events
  std::optional<std::uint32_t> receive; ///< the receive that took it, when the trace has it
  int from = 0;                         ///< sending rank
  int to = 0;                           ///< receiving rank
  int channel = 0;
  std::int64_t bytes = 0;
  double start = 0; ///< µs: the send's start
  double end = 0;   ///< µs: the receive's end, else the send's end
  /// The links it crosses, in the index's hop pool (valid as long as the index; shared by the
  /// messages of one connection where routes come from the topology).
  std::span<const Hop> route;
};

struct EventCounts {
  std::size_t done = 0;    ///< ended at or before t
  std::size_t running = 0; ///< started at or before t, ending after it
  std::size_t pending = 0; ///< starting after t
};

/// One direction of a link at t.
struct LinkFlow {
  double bytesInFlight = 0; ///< bytes of the messages crossing it not yet delivered
  double bytesPerUs = 0;    ///< the rate they cross it at
  double utilisation = 0;   ///< bytesPerUs over the link's bandwidth, 0..1 (0 when unknown)
};

struct LinkState {
  int link = 0; ///< topology link id
  LinkFlow aToB;
  LinkFlow bToA;
  /// Both directions over the link's capacity: the simulator's own samples where the trace has
  /// them, else from the flows.
  double utilisation = 0;
};

/// A message in flight at t.
struct Token {
  std::size_t message = 0; ///< index into ReplayIndex::messages()
  double progress = 0;     ///< 0..1 of its flight
};

/// Why a threadblock is idle at t: what its next step waits for.
enum class WaitReason { Message, Room, Flag, Start };

/// A threadblock that is not running at t although it has steps left.
struct Waiting {
  int rank = 0;
  int tb = 0;
  int step = 0; ///< the step it waits to run
  int slice = 0;
  WaitReason reason = WaitReason::Start;
  int peer = -1; ///< Message: the sender; Room: the receiver
  int channel = 0;
  int depTb = -1; ///< Flag: the threadblock whose step it waits for
  int depStep = -1;
};

/// Everything the views show at one time.
struct ReplayState {
  double timeUs = 0;
  EventCounts counts;
  std::vector<std::size_t> running; ///< indices into Trace::events
  std::vector<Token> tokens;
  std::vector<LinkState> links;
  std::vector<Waiting> waiting;
};

struct ReplayBuild;

class ReplayIndex
{
public:
  /// Indexes `trace`, a run of `program`, keeping a copy of the program and the trace (moved in:
  /// a trace of millions of events is not copied). `topology` (may be null) gives routes to
  /// messages without a link path and bandwidths for utilisation.
  /// The events' link paths become the messages' routes: in trace() they are empty.
  static ReplayBuild build(const Program& program, Trace trace, const Topology* topology);

  // Messages point into the index's own hop pool: it moves, but is never copied.
  ReplayIndex(ReplayIndex&&) = default;
  ReplayIndex& operator=(ReplayIndex&&) = default;
  ReplayIndex(const ReplayIndex&) = delete;
  ReplayIndex& operator=(const ReplayIndex&) = delete;

  ReplayState at(double timeUs) const;
  EventCounts counts(double timeUs) const;
  std::vector<std::size_t> runningEvents(double timeUs) const;
  std::vector<Token> tokens(double timeUs) const;
  std::vector<LinkState> links(double timeUs) const;
  std::vector<Waiting> waiting(double timeUs) const;

  const Program& program() const { return m_program; }
  const Trace& trace() const { return m_trace; }
  const std::vector<Message>& messages() const { return m_messages; }
  /// Whether message routes came from the topology rather than from the trace.
  bool linksInferred() const { return m_linksInferred; }
  double endUs() const { return m_endUs; }
  /// The start of the earliest and the end of the latest event of each step position, for step
  /// ticks on a time axis (index: position in the threadblocks).
  std::vector<std::pair<double, double>> stepSpans() const;

private:
  // Event and message indices are 32-bit (a trace holds far fewer than 2^32 events): at ten
  // million events every byte per event is 10 MB.
  using Index = std::uint32_t;
  struct Lane {
    int rank = 0;
    int tb = 0;
    std::vector<Index> events;       ///< by start
    std::vector<Index> byPosition;   ///< by (step, slice), for finding one event
    std::vector<int> receivesBefore; ///< receives among events[0, i), one more entry than events
  };
  /// Where a message's hops lie in m_hops while the pool still grows.
  struct HopRange {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  /// What a threadblock runs after its events up to `done` (a count of lane.events).
  struct NextStep {
    int step = 0;
    int slice = 0;
    int receivesBefore = 0;
  };
  /// A piecewise-constant sum over the messages crossing one link direction: after breakpoint k
  /// the rate is rate[k] and Σ rate·end is weightedEnd[k] (bytes in flight = weightedEnd − t·rate).
  struct FlowProfile {
    std::vector<double> times;
    std::vector<double> rate;
    std::vector<double> weightedEnd;
  };
  struct LinkProfile {
    int link = 0;
    double bytesPerUs = 0; ///< capacity of one direction, 0 when unknown
    bool duplex = true;
    FlowProfile aToB;
    FlowProfile bToA;
    int usage = -1; ///< index into Trace::links of the simulator's samples, or -1
  };

  ReplayIndex(const Program& program, Trace trace);
  bool matchMessages(const Topology* topology, Diagnostics& out);
  std::optional<HopRange> routeMessage(const Message& message, const Topology* topology,
                                       const RouteTable* routes, Diagnostics& out);
  void indexLanes();
  void sortLane(Lane& lane) const;
  std::optional<std::size_t> laneOf(int rank, int tb) const;
  void buildLinkProfiles(const Topology* topology);
  std::optional<Waiting> waitingOf(const Lane& lane, double timeUs) const;
  std::optional<NextStep> nextStepOf(const Lane& lane, std::size_t done) const;
  bool messageArrived(const ThreadBlock& tb, int rank, int receivesBefore, double timeUs) const;
  std::optional<std::size_t> eventAt(int rank, int tb, int step, int slice) const;

  Program m_program;
  Trace m_trace;
  std::vector<Message> m_messages;
  std::vector<Hop> m_hops;                                  ///< every message's route, back to back
  std::map<std::pair<int, int>, HopRange> m_inferredRoutes; ///< (from, to) → its topology route
  // The last link path oriented while building: from which rank, and where its hops went.
  std::vector<int> m_lastRecordedPath;
  int m_lastRecordedFrom = -1;
  HopRange m_lastRecordedRange;
  std::vector<std::vector<Index>> m_connections; ///< message indices per connection, FIFO
  std::map<std::tuple<int, int, int>, std::size_t> m_connectionOf; ///< (from, to, channel)
  std::vector<Lane> m_lanes;
  std::vector<std::vector<Index>> m_laneOf; ///< [rank][tb] → index into m_lanes
  std::vector<double> m_starts;             ///< every event's start, sorted
  std::vector<double> m_ends;               ///< every event's end, sorted
  std::vector<LinkProfile> m_linkProfiles;
  int m_slices = 0; ///< slices of the run: one more than the largest in the trace
  bool m_linksInferred = false;
  double m_endUs = 0;
};

struct ReplayBuild {
  std::optional<ReplayIndex> index;    ///< absent when the trace does not fit the program
  std::vector<Diagnostic> diagnostics; ///< replay.* codes: what does not match, and where
};

} // namespace cs::replay
