#include "simulator.h"

#include "fairshare_p.h"
#include "model/buffergeometry.h"
#include "model/fifodepth.h"
#include "simindex_p.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>
#include <string>

namespace cs {

namespace {

using sim::ConnectionInfo;
using sim::SimIndex;
using sim::TbInfo;

/// Above this many step executions the run would take too long to be useful interactively.
constexpr double kMaxStepExecutions = 5e7;

/// One FIFO piece of a message (simulator.h).
struct Piece {
  int connection = 0;
  int senderTb = 0;
  bool arrived = false;
  int slots = 1;      ///< FIFO slots (of piecesPerMessage per message) it holds
  double started = 0; ///< when its first byte left
};

struct Connection {
  std::deque<int> fifo;       ///< pieces sent and not yet consumed, oldest first
  int held = 0;               ///< slots the pieces in `fifo` hold
  std::vector<int> receivers; ///< threadblocks waiting for the front piece to arrive
  std::vector<int> senders;   ///< threadblocks waiting for room
};

/// How finely the runtime moves data: the chunk, the slicing loop and the FIFO pieces.
struct Granularity {
  double chunkBytes = 0;
  int slices = 1;
  int piecesPerMessage = 1;
  int pieceCapacity = 1; ///< slots a connection holds, piecesPerMessage per message
};

struct TbState {
  int position = 0;
  int slice = 0;
  int piece = 0; ///< pieces of the current step moved
  bool dependencyMet = false;
  bool busy = false; ///< a piece of its is leaving, or its local op runs
  bool done = false;
  double issued = 0;
  std::int64_t published = -1; ///< flag key of the last published step
};

struct Timer {
  double time;
  long sequence;
  int kind; ///< 0: piece arrived, 1: local op done
  int id;
  bool operator>(const Timer& other) const
  {
    return time != other.time ? time > other.time : sequence > other.sequence;
  }
};

/// The event loop over one index; see simulator.h for the model.
class Engine
{
public:
  Engine(const Topology& topology, const SimIndex& index, const SimOptions& options,
         const ProtocolParams& protocol, const Granularity& granularity)
      : m_topology(topology), m_index(index), m_options(options), m_protocol(protocol),
        m_chunkBytes(granularity.chunkBytes), m_slices(granularity.slices), m_grain(granularity),
        m_network(index.capacities, options.recordUtilisation), m_states(index.tbs.size()),
        m_connections(index.connections.size()), m_dependents(index.tbs.size()),
        m_wireBytes(topology.links.size(), 0.0)
  {
    m_usage.resize(topology.links.size());
    for (std::size_t i = 0; i < topology.links.size(); ++i)
      m_usage[i].link = topology.links[i].id;
    for (const ConnectionInfo& connection : index.connections)
      m_routes.push_back(m_network.addRoute(connection.resources));
  }

  /// Runs to the end (true) or until SimOptions::cancel is set (false).
  bool run()
  {
    for (int t = 0; t < static_cast<int>(m_states.size()); ++t)
      m_ready.push_back(t);
    drain();
    for (std::int64_t events = 1;; ++events) {
      if (events % kSimPollEvents == 0 && !poll(events))
        return false;
      const double network = m_network.nextCompletion();
      const double timer = m_timers.empty() ? FlowNetwork::kInfinity : m_timers.top().time;
      // Links are sampled once everything due at this moment has happened, so the transfers
      // that start and end together are shared out once, not once each.
      if (std::min(network, timer) > m_now)
        sampleUtilisation();
      if (network == FlowNetwork::kInfinity && timer == FlowNetwork::kInfinity)
        break;
      if (network <= timer) {
        m_now = network;
        const int piece = m_flowPiece[m_network.popCompletion(m_now)];
        const ConnectionInfo& info = m_index.connections[m_pieces[piece].connection];
        // The protocol's fixed cost per hop overlaps the piece's own streaming (simulator.h).
        const double arrival =
            std::max(m_now, m_pieces[piece].started + m_protocol.hopLatencyUs(info.hopClass)) +
            info.latencyUs;
        m_timers.push({arrival, m_sequence++, 0, piece});
        pieceLeft(piece);
      } else {
        const Timer event = m_timers.top();
        m_timers.pop();
        m_now = event.time;
        if (event.kind == 0)
          arrive(event.id);
        else
          finishStep(event.id);
      }
      drain();
    }
    return true;
  }

  int unfinished() const
  {
    return static_cast<int>(
        std::count_if(m_states.begin(), m_states.end(), [](const TbState& s) { return !s.done; }));
  }

  void reportDeadlock(Diagnostics& diagnostics) const;
  /// Whether the front piece of `info`'s receive connection has not arrived yet.
  bool waitsToReceive(const TbInfo& info) const
  {
    const Connection& in = m_connections[info.receiveConnection];
    return in.fifo.empty() || !m_pieces[in.fifo.front()].arrived;
  }
  void fillTrace(Trace& trace, std::vector<LinkTotal>& totals) const;
  double endTime() const { return m_end; }
  double now() const { return m_now; }
  std::vector<TraceEvent> takeEvents() { return std::move(m_events); }

private:
  std::int64_t flagKey(int slice, int position) const
  {
    return static_cast<std::int64_t>(slice) * (m_index.maxSteps + 1) + position;
  }

  double sliceBytes(int slice) const
  {
    if (m_protocol.sliceBytes <= 0)
      return m_chunkBytes;
    const double size = static_cast<double>(m_protocol.sliceBytes);
    return std::max(0.0, std::min(size, m_chunkBytes - size * slice));
  }

  /// Publishes the progress; false when the run was cancelled.
  bool poll(std::int64_t events) const
  {
    if (m_options.eventsDone)
      m_options.eventsDone->store(events, std::memory_order_relaxed);
    return !(m_options.cancel && m_options.cancel->load(std::memory_order_relaxed));
  }

  void wake(std::vector<int>& waiting)
  {
    // One or two at a time: push_back costs less than the deque's range insert.
    for (const int t : waiting)
      m_ready.push_back(t);
    waiting.clear();
  }

  void drain()
  {
    while (!m_ready.empty()) {
      const int t = m_ready.front();
      m_ready.pop_front();
      advance(t);
    }
  }

  /// Pieces carrying the data of a `cnt`-chunk message in slice `slice`: as many slice-step
  /// pieces as it fills, at most piecesPerMessage (larger ones then), so that a message always
  /// holds piecesPerMessage slots, as the runtime's and the checker's count.
  int dataPieces(int cnt, int slice) const;
  void advance(int t);
  /// Moves the current step's pieces as far as the connections allow; true when all moved.
  bool movePieces(int t, const Step& step, OpTraits traits);
  void consume(Connection& connection);
  void finishStep(int t);
  void arrive(int piece);
  void pieceLeft(int piece);
  void startPiece(int t, double bytes, int slots);
  void sampleUtilisation();

  const Topology& m_topology;
  const SimIndex& m_index;
  const SimOptions& m_options;
  ProtocolParams m_protocol;
  double m_chunkBytes;
  int m_slices;
  Granularity m_grain;
  FlowNetwork m_network;
  std::vector<int> m_routes; ///< per connection: its route in m_network
  std::vector<TbState> m_states;
  std::vector<Connection> m_connections;
  std::vector<std::vector<int>> m_dependents; ///< per tb: threadblocks waiting for its flag
  std::vector<Piece> m_pieces;
  std::vector<int> m_freePieces; ///< consumed pieces, for reuse
  std::vector<int> m_flowPiece;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> m_timers;
  std::deque<int> m_ready;
  std::vector<TraceEvent> m_events;
  std::vector<LinkUsage> m_usage;
  std::vector<double> m_wireBytes;
  double m_now = 0;
  double m_end = 0;
  long m_sequence = 0;
};

void Engine::advance(int t)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  while (!state.done && !state.busy) {
    if (state.slice >= m_slices || info.tb->steps.empty()) {
      state.done = true;
      return;
    }
    const Step& step = info.tb->steps[state.position];
    const OpTraits traits = opTraits(step.type);
    if (!state.dependencyMet) {
      const int target = info.depTarget[state.position];
      if (target >= 0 && m_states[target].published < flagKey(state.slice, step.deps)) {
        m_dependents[target].push_back(t);
        return;
      }
      state.dependencyMet = true;
      state.issued = m_now;
    }
    if (traits.receives || traits.sends) {
      if (!movePieces(t, step, traits))
        return;
      finishStep(t);
      continue;
    }
    if (step.type == OpType::Copy || step.type == OpType::Reduce) {
      const double bytes = std::max(0, step.cnt) * sliceBytes(state.slice);
      const double gbps = step.type == OpType::Reduce
                              ? m_options.localReduceGBps.value_or(m_options.localGBps)
                              : m_options.localGBps;
      state.busy = true;
      m_timers.push({m_now + bytes / (gbps * 1e3), m_sequence++, 1, t});
      return;
    }
    finishStep(t);
  }
}

int Engine::dataPieces(int cnt, int slice) const
{
  const double message = std::max(0, cnt) * sliceBytes(slice);
  const double nominal =
      (m_protocol.sliceBytes > 0 ? static_cast<double>(m_protocol.sliceBytes) : m_chunkBytes) /
      m_grain.piecesPerMessage;
  if (!(nominal > 0))
    return 1;
  // The tolerance keeps a message of exactly k pieces from counting rounding dust as one more.
  const int pieces = static_cast<int>(std::ceil(message / nominal - 1e-9));
  return std::clamp(pieces, 1, m_grain.piecesPerMessage);
}

bool Engine::movePieces(int t, const Step& step, OpTraits traits)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  const int pieces = dataPieces(step.cnt, state.slice);
  while (state.piece < pieces) {
    Connection* in = traits.receives ? &m_connections[info.receiveConnection] : nullptr;
    if (in && (in->fifo.empty() || !m_pieces[in->fifo.front()].arrived)) {
      in->receivers.push_back(t);
      return false;
    }
    if (traits.sends) {
      Connection& out = m_connections[info.sendConnection];
      // The last piece also holds the slots of the steps the message leaves empty.
      const int slots = state.piece + 1 < pieces ? 1 : m_grain.piecesPerMessage - pieces + 1;
      if (out.held + slots > m_grain.pieceCapacity) {
        out.senders.push_back(t);
        return false;
      }
      // A fused step keeps its upstream slot until the forwarded piece has left (pieceLeft).
      startPiece(t, std::max(0, step.cnt) * sliceBytes(state.slice) / pieces, slots);
      return false;
    }
    consume(*in);
    ++state.piece;
  }
  return true;
}

void Engine::consume(Connection& connection)
{
  const int piece = connection.fifo.front();
  connection.held -= m_pieces[piece].slots;
  connection.fifo.pop_front();
  m_freePieces.push_back(piece); // left and arrived: nothing refers to it any more
  wake(connection.senders);
}

void Engine::startPiece(int t, double bytes, int slots)
{
  const TbInfo& info = m_index.tbs[t];
  const ConnectionInfo& route = m_index.connections[info.sendConnection];
  int piece = static_cast<int>(m_pieces.size());
  if (m_freePieces.empty()) {
    m_pieces.emplace_back();
  } else {
    piece = m_freePieces.back();
    m_freePieces.pop_back();
  }
  m_pieces[piece] = {info.sendConnection, t, false, slots, m_now};
  m_connections[info.sendConnection].fifo.push_back(piece);
  m_connections[info.sendConnection].held += slots;
  m_states[t].busy = true;
  const double wire = bytes / m_protocol.efficiency;
  for (const auto& [link, aToB] : route.hops) {
    const auto payload = static_cast<std::int64_t>(std::llround(bytes));
    (aToB ? m_usage[link].bytesAtoB : m_usage[link].bytesBtoA) += payload;
    m_wireBytes[link] += wire;
  }
  const int flow = m_network.addOnRoute(m_routes[info.sendConnection], wire, m_now);
  if (flow >= static_cast<int>(m_flowPiece.size()))
    m_flowPiece.resize(flow + 1);
  m_flowPiece[flow] = piece;
}

void Engine::pieceLeft(int piece)
{
  const int t = m_pieces[piece].senderTb;
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  state.busy = false;
  if (opTraits(info.tb->steps[state.position].type).receives)
    consume(m_connections[info.receiveConnection]);
  ++state.piece;
  m_ready.push_back(t);
}

void Engine::arrive(int piece)
{
  m_pieces[piece].arrived = true;
  wake(m_connections[m_pieces[piece].connection].receivers);
}

void Engine::finishStep(int t)
{
  TbState& state = m_states[t];
  const TbInfo& info = m_index.tbs[t];
  const ThreadBlock& tb = *info.tb;
  const Step& step = tb.steps[state.position];
  const OpTraits traits = opTraits(step.type);
  if (m_options.recordEvents) {
    TraceEvent event;
    event.rank = info.rank;
    event.tb = tb.id;
    event.step = state.position;
    event.slice = state.slice;
    event.op = step.type;
    event.peer = traits.sends ? tb.send : traits.receives ? tb.recv : -1;
    event.recvPeer = traits.receives ? tb.recv : -1;
    event.channel = tb.chan;
    event.bytes = step.type == OpType::Nop ? 0
                                           : static_cast<std::int64_t>(std::llround(
                                                 std::max(0, step.cnt) * sliceBytes(state.slice)));
    event.start = state.issued;
    event.end = m_now;
    if (traits.sends)
      event.linkPath = m_index.connections[info.sendConnection].linkPath;
    else if (traits.receives)
      event.linkPath = m_index.connections[info.receiveConnection].linkPath;
    m_events.push_back(std::move(event));
  }
  m_end = std::max(m_end, m_now);
  if (step.hasdep && step.type != OpType::Nop) {
    state.published = flagKey(state.slice, state.position);
    wake(m_dependents[t]);
  }
  state.busy = false;
  state.dependencyMet = false;
  state.piece = 0;
  if (++state.position == static_cast<int>(tb.steps.size())) {
    state.position = 0;
    ++state.slice;
  }
  m_ready.push_back(t);
}

void Engine::sampleUtilisation()
{
  const std::vector<int> changed = m_network.takeChangedResources();
  if (!m_options.recordUtilisation)
    return;
  for (const int resource : changed) {
    const int link = resource / 2;
    const TopologyLink& topologyLink = m_topology.links[link];
    double load = m_network.load(2 * link);
    if (topologyLink.duplex)
      load += m_network.load(2 * link + 1);
    const double capacity = m_index.capacities[2 * link] * (topologyLink.duplex ? 2 : 1);
    const double fraction = std::min(1.0, load / capacity);
    auto& samples = m_usage[link].utilisation;
    if (!samples.empty() && samples.back().first == m_now)
      samples.back().second = fraction;
    else if (samples.empty() || samples.back().second != fraction)
      samples.emplace_back(m_now, fraction);
  }
}

void Engine::reportDeadlock(Diagnostics& diagnostics) const
{
  std::string waits;
  std::vector<Location> blocked;
  for (std::size_t t = 0; t < m_states.size(); ++t) {
    const TbState& state = m_states[t];
    if (state.done)
      continue;
    const TbInfo& info = m_index.tbs[t];
    const Step& step = info.tb->steps[state.position];
    Location location;
    location.rank = info.rank;
    location.tb = info.tb->id;
    location.step = state.position;
    location.line = step.line;
    std::string why;
    if (!state.dependencyMet && info.depTarget[state.position] >= 0)
      why = "waits for tb " + std::to_string(step.depid) + " to publish step " +
            std::to_string(step.deps);
    else if (opTraits(step.type).receives && waitsToReceive(info))
      why = "waits to receive from rank " + std::to_string(info.tb->recv);
    else
      why = "waits for a free slot to rank " + std::to_string(info.tb->send);
    if (blocked.size() < 8)
      waits += (waits.empty() ? "" : "; ") + describe(location) + " (slice " +
               std::to_string(state.slice) + ") " + why;
    blocked.push_back(location);
  }
  Diagnostic& diagnostic = diagnostics.error(
      "sim.deadlock",
      "the run stops at " + std::to_string(m_now) + " µs with " + std::to_string(blocked.size()) +
          " of " + std::to_string(m_states.size()) + " threadblocks unfinished: " + waits +
          (blocked.size() > 8 ? "; …" : ""),
      blocked.front());
  diagnostic.related = blocked;
}

void Engine::fillTrace(Trace& trace, std::vector<LinkTotal>& totals) const
{
  trace.links = m_usage;
  for (std::size_t i = 0; i < m_usage.size(); ++i) {
    const TopologyLink& link = m_topology.links[i];
    const double capacity = m_index.capacities[2 * i] * (link.duplex ? 2 : 1);
    LinkTotal total;
    total.link = link.id;
    total.bytes = m_usage[i].bytesAtoB + m_usage[i].bytesBtoA;
    total.busyFraction = m_end > 0 ? std::min(1.0, m_wireBytes[i] / (capacity * m_end)) : 0;
    totals.push_back(total);
  }
  std::stable_sort(totals.begin(), totals.end(),
                   [](const LinkTotal& a, const LinkTotal& b) { return a.bytes > b.bytes; });
}

} // namespace

SimResult simulateProgram(const Program& program, const Topology& topology,
                          const SimOptions& options)
{
  SimResult result;
  Diagnostics diagnostics;
  result.protocol = options.protocol.value_or(defaultProtocolParams(program.proto));
  const ProtocolParams& protocol = result.protocol;
  result.trace.source = "simulator";
  result.trace.device = "simulated " + topology.name;
  result.trace.ranks = static_cast<int>(program.gpus.size());
  result.trace.bytes = options.bytes;

  if (options.bytes <= 0)
    diagnostics.error("sim.bad-size",
                      "the size must be positive, not " + std::to_string(options.bytes) + " bytes");
  if (program.nchunksperloop <= 0)
    diagnostics.error("sim.invalid-program", "nchunksperloop must be positive");
  if (!(protocol.efficiency > 0 && protocol.efficiency <= 1) || !(protocol.latencyUs >= 0) ||
      !(protocol.hopLatencyUs(HopClass::Pcie) >= 0) ||
      !(protocol.hopLatencyUs(HopClass::Network) >= 0) || protocol.sliceBytes < 0 ||
      !(options.localGBps > 0) || !(options.localReduceGBps.value_or(1) > 0))
    diagnostics.error("sim.bad-parameters",
                      "protocol efficiency must be in (0, 1], latency and slice size not "
                      "negative, local bandwidth positive");
  if (diagnostics.hasErrors()) {
    result.diagnostics = diagnostics.take();
    return result;
  }

  const std::optional<SimIndex> index = sim::buildSimIndex(program, topology, diagnostics);
  if (!index) {
    result.diagnostics = diagnostics.take();
    return result;
  }
  const double chunkBytes = static_cast<double>(options.bytes) / program.nchunksperloop;
  if (options.bytes % program.nchunksperloop != 0)
    diagnostics.warning("sim.size-not-divisible",
                        std::to_string(options.bytes) + " bytes do not split into " +
                            std::to_string(program.nchunksperloop) +
                            " equal chunks; the runtime would not select this algorithm "
                            "(simulated with fractional chunks)");
  result.slices = protocol.sliceBytes > 0
                      ? std::max(1, static_cast<int>(std::ceil(chunkBytes / protocol.sliceBytes)))
                      : 1;
  if (static_cast<double>(result.slices) * std::max(1, program.stepCount()) > kMaxStepExecutions) {
    diagnostics.error("sim.too-large",
                      std::to_string(result.slices) + " slices of " +
                          std::to_string(program.stepCount()) +
                          " steps are too many to simulate; use a larger slice size");
    result.diagnostics = diagnostics.take();
    return result;
  }

  Granularity granularity;
  granularity.chunkBytes = chunkBytes;
  granularity.slices = result.slices;
  granularity.piecesPerMessage = piecesPerMessage(program.proto);
  granularity.pieceCapacity =
      std::max(1, options.fifoSlots.value_or(connectionSlots(program.proto))) *
      granularity.piecesPerMessage;
  Engine engine(topology, *index, options, protocol, granularity);
  result.cancelled = !engine.run();
  if (result.cancelled) {
    diagnostics.error("sim.cancelled", "the simulation was cancelled at " +
                                           std::to_string(engine.now()) + " µs simulated");
    result.trace.stoppedUs = engine.now();
  } else if (engine.unfinished() > 0) {
    engine.reportDeadlock(diagnostics);
  }
  result.trace.events = engine.takeEvents();
  engine.fillTrace(result.trace, result.busiestLinks);
  result.timeUs = engine.endTime();
  result.trace.totalUs = result.timeUs;
  if (result.timeUs > 0) {
    result.algbwGBps = static_cast<double>(options.bytes) / (result.timeUs * 1e3);
    result.busbwGBps =
        result.algbwGBps * busBandwidthFactor(program.collective, result.trace.ranks);
  }
  result.nccl = sim::estimateNccl(topology, *index, result.trace.ranks, options.bytes, protocol);
  result.ok = !diagnostics.hasErrors();
  result.diagnostics = diagnostics.take();
  return result;
}

} // namespace cs
