#pragma once

// What happened during a run, simulated or measured (DESIGN.md §5). The simulator (engine/sim),
// the CPU and CUDA executors (engine/exec) and the NCCL executor all produce this one structure;
// the visualizer replays it, storage keeps it, and io/chrometrace writes it as Chrome Trace Event
// JSON for Perfetto. Times are microseconds from the start of the run.

#include "buffergeometry.h"
#include "program.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cs {

/// One step of one threadblock on one slice of the runtime's slicing loop (msccl-format.md §4.2).
struct TraceEvent {
  int rank = 0;
  int tb = 0;
  int step = 0;  ///< position in the threadblock
  int slice = 0; ///< iteration of the slicing loop
  OpType op = OpType::Nop;
  int peer = -1;     ///< the send peer for send-type steps, else the receive peer, else -1
  int recvPeer = -1; ///< the receive peer of receive-type steps (also of rcs/rrs/rrcs), else -1
  int channel = 0;
  std::int64_t bytes = 0;    ///< bytes this step moved over the network (or copied locally)
  double start = 0;          ///< µs
  double end = 0;            ///< µs
  std::vector<int> linkPath; ///< topology link ids the data crossed (simulation); empty if unknown

  bool operator==(const TraceEvent&) const = default;
};

/// Bytes a link carried during the run, per direction, and how busy it was over time.
struct LinkUsage {
  int link = 0;               ///< topology link id
  std::int64_t bytesAtoB = 0; ///< from the link's node a to node b
  std::int64_t bytesBtoA = 0;
  /// Utilisation samples (time µs, fraction of bandwidth in use 0..1, both directions summed over
  /// the link's capacity), one per change of the link's load, in time order.
  std::vector<std::pair<double, double>> utilisation;

  bool operator==(const LinkUsage&) const = default;
};

/// What a blocked threadblock waited for when the watchdog stopped a run.
enum class BlockedOn : std::uint8_t {
  Message, ///< a message from rank `peer` on `channel`
  Room,    ///< a free slot on the connection to rank `peer` on `channel`
  Flag,    ///< threadblock `depTb` on the same rank to publish step `depStep`
};

/// A (rank, tb, step, slice) that was blocked when the watchdog stopped a run.
struct BlockedPosition {
  int rank = -1;
  int tb = -1;
  int step = -1;
  int slice = -1;
  BlockedOn waitsFor = BlockedOn::Message;
  int peer = -1;
  int channel = -1;
  int depTb = -1;
  int depStep = -1;

  bool operator==(const BlockedPosition&) const = default;
};

/// The first wrong element of one chunk of a run's result, as the executor's verification found
/// it against the host reference (engine/exec/plan/reference.h).
struct WrongChunk {
  int rank = -1;
  Buffer buffer = Buffer::Output; ///< the buffer the collective's result is defined in
  int chunk = -1;                 ///< chunk index in that buffer
  std::int64_t element = -1;      ///< the first wrong element inside the chunk
  double expected = 0;
  double actual = 0; ///< NaN where nobody wrote the element (the sentinel of floats)

  /// Field by field, with NaN equal to NaN: a wrong value read back is the same wrong value.
  bool operator==(const WrongChunk& other) const
  {
    const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    return rank == other.rank && buffer == other.buffer && chunk == other.chunk &&
           element == other.element && same(expected, other.expected) && same(actual, other.actual);
  }
};

/// How a run's result compared with the host reference (executor runs that ran to the end).
struct TraceVerification {
  /// At most this many wrong chunks are listed; `wrongChunkCount` counts them all.
  static constexpr std::size_t kChunkLimit = 4096;

  std::int64_t checked = 0;         ///< result elements compared
  std::int64_t wrongElements = 0;   ///< elements that differ (nccl-tests' #wrong)
  std::int64_t wrongChunkCount = 0; ///< chunks with at least one wrong element
  /// The first kChunkLimit wrong chunks, in (rank, chunk) order, each with its first wrong
  /// element.
  std::vector<WrongChunk> wrongChunks;

  bool operator==(const TraceVerification&) const = default;
};

struct Trace {
  std::string source; ///< "simulator", "cpu", "cuda", "nccl"
  std::string device; ///< what it ran on, for people ("simulated DGX H100", "NVIDIA H100 80GB")
  int ranks = 0;
  std::int64_t bytes = 0; ///< the collective's size (nccl-tests' "size")
  double totalUs = 0;     ///< end of the last event
  std::vector<TraceEvent> events;
  std::vector<LinkUsage> links;
  /// How the collective was called (executor runs): which buffers a replay shows the result in.
  /// Absent where unknown (simulated runs, older files): a replay assumes the program's first
  /// declared mode.
  std::optional<CallMode> mode;
  /// Messages a connection held (executor runs; the checker's fifoSlots); absent: unknown.
  std::optional<int> connectionSlots;
  /// A run the watchdog stopped (or a cancelled one): when, in µs (events holds what completed
  /// before); absent for a run that ended. A replay opens here.
  std::optional<double> stoppedUs;
  /// Where every blocked threadblock stood when the run stopped.
  std::vector<BlockedPosition> blocked;
  /// The verification of the traced run's result; absent where nothing was verified (simulated,
  /// stopped, or no postcondition known).
  std::optional<TraceVerification> verification;

  bool operator==(const Trace&) const = default;
};

} // namespace cs
