#pragma once

// The link-contention simulator (DESIGN.md §5): runs a Program on a Topology with an
// event-driven alpha-beta model and returns the same Trace the executors produce.
//
// Model, in the runtime's terms (msccl-format.md §4):
// - Each threadblock replays its steps in order once per slice of the slicing loop; a step waits
//   for its `depid`/`deps` target to have published a position ≥ deps in the same or a later
//   iteration (only `hasdep` steps publish); nops take no time.
// - The k-th send-type step on connection (sender, receiver, channel) pairs with the k-th
//   receive-type step. A message moves in pieces (piecesPerMessage, model/fifodepth.h: two
//   2-step pieces of a Simple message, one piece of LL/LL128); a connection holds `fifoSlots`
//   messages' worth of pieces sent and not yet consumed by the receiver.
// - A piece follows the route between the two ranks' GPUs, switches included, as one flow: while
//   it streams it holds a max-min fair share of every link it crosses at once (per direction on
//   duplex links, shared on half-duplex ones), so a switch relays it without storing it. It
//   carries bytes / efficiency over the wire and arrives the route's latency plus the protocol's
//   latency after its last byte left. The sender goes on with its next piece when the last byte
//   left, as the primitives do; a receive consumes a piece once it arrived.
// - A fused receive-send (rrs, rcs, rrcs) forwards each piece once it arrived and there is room
//   downstream for it (both ends ready, as in the checker), and frees its upstream slot when the
//   forwarded piece has left.
// - A step ends when its last piece has left (sends) or was consumed (receives).
// - cpy and re cost bytes / localGBps (localReduceGBps); the reduction inside rrs/rrc/rrcs is
//   free (the runtime does it on the fly while the data streams) unless fusedReduceGBps is set
//   (the CPU executor, which reduces each received piece before forwarding it).
// - With hostGBps (a CPU calibration), all of that crosses one shared host resource as well: the
//   executor's rank threads share the host's cores and memory bandwidth. The host counts copy
//   passes: a transfer is one (the receiver's copy), local work of another speed is scaled to
//   them, and a send the executor copies first (ExecutorCosts::sendCopies) adds its own.
// - A cpy the executor skips (ExecutorCosts::skippedCopies: source and destination are the same
//   memory in an in-place collective) takes no time.
// docs/simulator.md gives the figures and what is simplified.
// Start reading at simulateProgram(); the event loop lives in simulator.cpp.

#include "estimates.h"
#include "model/diagnostic.h"
#include "model/program.h"
#include "model/topology.h"
#include "model/trace.h"
#include "protocolmodel.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace cs {

/// A sending step whose executor copies the message before it sends it (ExecutorCosts).
struct SendCopy {
  int rank = 0;
  int tb = 0;   ///< the threadblock's id in the program
  int step = 0; ///< the step's position in the threadblock
  /// Copy passes over the message it costs: 1 for a send that copies into its connection, ½ for
  /// a forwarding step that writes the received data twice (to its buffer and its connection).
  double passes = 1;
};

/// A step of a program.
struct StepSite {
  int rank = 0;
  int tb = 0;   ///< the threadblock's id in the program
  int step = 0; ///< the step's position in the threadblock
};

/// Where the executor a simulation stands for does more or less than the model, step by step:
/// the CPU executor's, read from its own plan (engine/exec/plan/executorcosts.h).
struct ExecutorCosts {
  /// With SimOptions::hostGBps: the sending steps whose data the executor copies before sending
  /// it, where it cannot read it in place. Each piece such a step sends first costs its
  /// threadblock `passes` local copies of the piece.
  std::vector<SendCopy> sendCopies;
  /// cpy steps whose source is their destination once the executor has aliased the buffers (an
  /// in-place collective's own chunk): the executor skips them, so they take no time.
  std::vector<StepSite> skippedCopies;
};

struct SimOptions {
  /// The collective's size as nccl-tests counts it (count × sizeof(T) × the size multiplier of
  /// msccl-format.md §4.1: the whole receive buffer of an all-gather, the send buffer of a
  /// reduce-scatter, one rank's buffer of an all-to-all). Chunks are bytes / nchunksperloop.
  std::int64_t bytes = 1 << 20;
  /// Protocol model; absent: defaultProtocolParams(program.proto).
  std::optional<ProtocolParams> protocol;
  double localGBps = 1500; ///< cpy/re: an H100's ~3 TB/s HBM, each byte read once and written once
  /// re alone (a calibration measures it apart from cpy); absent: localGBps.
  std::optional<double> localReduceGBps;
  /// The reduction inside rrs / rrc / rrcs. Absent: free, as on a GPU, which reduces while the
  /// data streams. Set (a CPU calibration): each received piece costs bytes / fusedReduceGBps of
  /// its threadblock's time before it is consumed or forwarded.
  std::optional<double> fusedReduceGBps;
  /// A host that every rank shares (the CPU executor's threads on its cores and memory): every
  /// transfer and every local op (cpy, re, fused reduction) also crosses one resource of this
  /// many GB/s, max-min fair shared. Absent: none (GPUs move data independently).
  std::optional<double> hostGBps;
  /// What the executor measured does beyond or short of the model. Empty: nothing (GPUs).
  ExecutorCosts executor;
  /// Messages a connection holds; absent: connectionSlots(program.proto) (model/fifodepth.h).
  std::optional<int> fifoSlots;
  bool recordEvents = true;      ///< false: only totals (faster sweeps)
  bool recordUtilisation = true; ///< per-link utilisation samples over time
  /// Set by another thread to stop the simulation (the app's Cancel); the event loop looks at it
  /// every kSimPollEvents events. Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// Where the event loop publishes how many events it processed (every kSimPollEvents), for a
  /// progress display polling it from another thread. Null: not published.
  std::atomic<std::int64_t>* eventsDone = nullptr;
};

/// Events the simulator processes between two looks at SimOptions::cancel and eventsDone.
inline constexpr std::int64_t kSimPollEvents = 4096;

/// Per-link totals, sorted busiest first in SimResult::busiestLinks.
struct LinkTotal {
  int link = 0;
  std::int64_t bytes = 0;  ///< both directions
  double busyFraction = 0; ///< average utilisation over the run, 0..1
};

struct SimResult {
  bool ok = false;        ///< finished without sim.* errors
  bool cancelled = false; ///< SimOptions::cancel stopped it: the trace is partial (stoppedUs)
  std::vector<Diagnostic> diagnostics;
  Trace trace; ///< events (when recorded), per-link usage, totalUs
  double timeUs = 0;
  double algbwGBps = 0;             ///< bytes / time
  double busbwGBps = 0;             ///< algbw × busBandwidthFactor
  std::optional<NcclEstimate> nccl; ///< NCCL ring/tree all-reduce estimate for the same size
  std::vector<LinkTotal> busiestLinks;
  ProtocolParams protocol; ///< the parameters used
  int slices = 0;          ///< iterations of the slicing loop
};

/// Simulates `program` on `topology`. Never throws: a rank without a GPU in the topology
/// (sim.no-gpu), ranks without a route (sim.no-route), a malformed program
/// (sim.invalid-program) or a run that stops before every threadblock finishes (sim.deadlock,
/// with the blocked steps as related locations) come back as diagnostics. A cancelled run returns
/// within kSimPollEvents events: not ok, `cancelled`, a sim.cancelled error, and the trace up to
/// the stop with Trace::stoppedUs set.
SimResult simulateProgram(const Program& program, const Topology& topology,
                          const SimOptions& options = {});

} // namespace cs
