#pragma once

// The simulator's event loop (simulator.h gives the model): the state of every threadblock,
// connection and FIFO piece, and the Engine that moves them through time.

#include "fairshare_p.h"
#include "simindex_p.h"
#include "simulator.h"

#include <algorithm>
#include <deque>
#include <queue>
#include <vector>

namespace cs::sim {

/// One FIFO piece of a message (simulator.h).
struct Piece {
  int connection = 0;
  int senderTb = 0;
  bool arrived = false;
  int slots = 1;      ///< FIFO slots (of piecesPerMessage per message) it holds
  double started = 0; ///< when its first byte left
};

/// A connection's pieces sent and not yet consumed, oldest first, live in a ring of
/// Granularity::pieceCapacity entries in Engine::m_fifo (they hold at least a slot each, so never
/// more): a deque per connection cost two allocations and a pointer chase per piece.
struct Connection {
  int head = 0;               ///< ring position of the oldest piece
  int count = 0;              ///< pieces in the ring
  int held = 0;               ///< slots the pieces in the ring hold
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
  int piece = 0;             ///< pieces of the current step moved
  int stepPieces = -1;       ///< pieces the current step moves in this slice; -1: not yet known
  bool pieceReduced = false; ///< the front received piece went through the fused reduction
  bool pieceCopied = false;  ///< the piece to send was copied first (ExecutorCosts::sendCopies)
  bool dependencyMet = false;
  bool busy = false; ///< a piece of its is leaving, or its local op runs
  bool done = false;
  double issued = 0;
  std::int64_t published = -1; ///< flag key of the last published step
};

enum TimerKind : int { kPieceArrived = 0, kLocalWorkDone = 1 };

/// Work a threadblock does on its own data, each at its own bandwidth (SimOptions): a cpy or re
/// step, the fused reduction of a received piece, the copy of a piece before it is sent.
enum class LocalWork : int { Copy = 0, Reduce = 1, FusedReduce = 2, SendCopy = 3 };
inline constexpr int kLocalWorkKinds = 4;

/// The shared host resource (SimOptions::hostGBps) and the per-threadblock resources of local
/// work that cross it, after the links' resources (see hostCapacities()).
struct HostResources {
  int host = -1; ///< -1: no host model
  int firstLocal = -1;
};

/// The index's link capacities, and with SimOptions::hostGBps the host's and one local-work
/// resource per threadblock at the copy rate (localGBps): local work is counted in copy passes.
std::vector<double> hostCapacities(const SimIndex& index, const SimOptions& options,
                                   HostResources& resources);

struct Timer {
  double time;
  long sequence;
  int kind; ///< a TimerKind
  int id;
  bool operator>(const Timer& other) const
  {
    return time != other.time ? time > other.time : sequence > other.sequence;
  }
};

/// What a piece needs of its connection's route, per connection in one array: reading it from
/// the index's ConnectionInfo (its hops in a heap block of their own) missed the cache on every
/// piece of a large run.
struct Path {
  double latencyUs = 0;    ///< the route's latency
  double hopLatencyUs = 0; ///< the protocol's fixed cost for the route's hop class
  int route = 0;           ///< its route in the FlowNetwork (host included)
  int firstHop = 0;        ///< its hops are Engine::m_hops[firstHop .. firstHop + hopCount)
  int hopCount = 0;
};

/// The event loop over one index; see simulator.h for the model.
class Engine
{
public:
  Engine(const Topology& topology, const SimIndex& index, const SimOptions& options,
         const ProtocolParams& protocol, const Granularity& granularity)
      : m_topology(topology), m_index(index), m_options(options), m_protocol(protocol),
        m_chunkBytes(granularity.chunkBytes), m_slices(granularity.slices), m_grain(granularity),
        m_network(hostCapacities(index, options, m_host), options.recordUtilisation),
        m_states(index.tbs.size()), m_connections(index.connections.size()),
        m_fifo(index.connections.size() * static_cast<std::size_t>(granularity.pieceCapacity)),
        m_dependents(index.tbs.size()), m_wireBytes(topology.links.size(), 0.0)
  {
    m_usage.resize(topology.links.size());
    for (std::size_t i = 0; i < topology.links.size(); ++i)
      m_usage[i].link = topology.links[i].id;
    buildPaths();
    indexExecutorCosts();
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
        if (piece < 0) {
          localWorkDone(-1 - piece);
          drain();
          continue;
        }
        const Path& path = m_paths[m_pieces[piece].connection];
        // The protocol's fixed cost per hop overlaps the piece's own streaming (simulator.h).
        const double arrival =
            std::max(m_now, m_pieces[piece].started + path.hopLatencyUs) + path.latencyUs;
        m_timers.push({arrival, m_sequence++, 0, piece});
        pieceLeft(piece);
      } else {
        const Timer event = m_timers.top();
        m_timers.pop();
        m_now = event.time;
        if (event.kind == kPieceArrived)
          arrive(event.id);
        else
          localWorkDone(event.id);
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
  bool waitsToReceive(const TbInfo& info) const { return !frontArrived(info.receiveConnection); }
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
      if (!m_ready.empty())
        prefetchStep(m_ready.front());
      advance(t);
    }
  }

  /// Asks the cache for the step threadblock t is at while another one advances: with tens of
  /// thousands of threadblocks taking turns, that step has always left the cache since t's last
  /// turn, and waiting for it was the largest single cost of a 1,024-rank run.
  void prefetchStep(int t) const
  {
    const TbInfo& info = m_index.tbs[t];
    __builtin_prefetch(m_index.steps.data() + info.firstStep + m_states[t].position);
  }

  /// Pieces carrying the data of a `cnt`-chunk message in slice `slice`: as many slice-step
  /// pieces as it fills, at most piecesPerMessage (larger ones then), so that a message always
  /// holds piecesPerMessage slots, as the runtime's and the checker's count.
  int dataPieces(int cnt, int slice) const;
  void advance(int t);
  /// Moves the current step's pieces as far as the connections allow; true when all moved.
  bool movePieces(int t, const SimStep& step, OpTraits traits);
  void consume(int connection);
  /// The oldest piece of connection c (it has one).
  int frontPiece(int c) const
  {
    return m_fifo[static_cast<std::size_t>(c) * m_grain.pieceCapacity + m_connections[c].head];
  }
  bool frontArrived(int c) const
  {
    return m_connections[c].count > 0 && m_pieces[frontPiece(c)].arrived;
  }
  void pushPiece(int c, int piece)
  {
    Connection& connection = m_connections[c];
    const int at = (connection.head + connection.count) % m_grain.pieceCapacity;
    m_fifo[static_cast<std::size_t>(c) * m_grain.pieceCapacity + at] = piece;
    ++connection.count;
  }
  void finishStep(int t);
  void arrive(int piece);
  /// Starts `bytes` of local work of threadblock t: a cpy or re step (ends the step)
  /// or the fused reduction of a received piece. A timer, or with a host model a flow over the
  /// threadblock's own resource and the host.
  void startLocalWork(int t, double bytes, LocalWork kind);
  /// `work` = kLocalWorkKinds·t + the LocalWork.
  void localWorkDone(int work);
  /// Copy passes the executor makes over a piece before step `position` of t sends it (0: none).
  double sendCopyPasses(int t, int position) const
  {
    return m_sendCopies.empty() ? 0 : m_sendCopies[t][position];
  }
  /// Whether the executor skips step `position` of t, a cpy onto itself (ExecutorCosts).
  bool skippedCopy(int t, int position) const
  {
    return std::binary_search(m_skippedCopies.begin(), m_skippedCopies.end(),
                              std::pair(t, position));
  }
  /// m_sendCopies and m_skippedCopies from SimOptions::executor.
  void indexExecutorCosts();
  void pieceLeft(int piece);
  void startPiece(int t, double bytes, int slots);
  void sampleUtilisation();
  /// m_paths and m_hops from the index, and the connections' routes in m_network.
  void buildPaths();

  const Topology& m_topology;
  const SimIndex& m_index;
  const SimOptions& m_options;
  ProtocolParams m_protocol;
  double m_chunkBytes;
  int m_slices;
  Granularity m_grain;
  HostResources m_host; // before m_network, which is built from it
  FlowNetwork m_network;
  std::vector<Path> m_paths;                ///< per connection
  std::vector<std::pair<int, bool>> m_hops; ///< every connection's hops, Path::firstHop on
  std::vector<TbState> m_states;
  std::vector<Connection> m_connections;
  std::vector<int> m_fifo; ///< per connection a ring of pieceCapacity pieces (Connection)
  std::vector<std::vector<int>> m_dependents; ///< per tb: threadblocks waiting for its flag
  std::vector<Piece> m_pieces;
  std::vector<int> m_freePieces; ///< consumed pieces, for reuse
  std::vector<int> m_flowPiece;
  std::vector<std::vector<double>> m_sendCopies;    ///< per tb and step: ExecutorCosts::sendCopies
  std::vector<std::pair<int, int>> m_skippedCopies; ///< (tb, step), sorted: ::skippedCopies
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> m_timers;
  std::deque<int> m_ready;
  std::vector<TraceEvent> m_events;
  std::vector<LinkUsage> m_usage;
  std::vector<double> m_wireBytes;
  double m_now = 0;
  double m_end = 0;
  long m_sequence = 0;
};

} // namespace cs::sim
