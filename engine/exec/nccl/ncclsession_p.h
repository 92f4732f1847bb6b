#pragma once

// The GPU side of one NCCL run: a communicator, a stream and the buffers of every rank, the
// rounds of ncclrounds.h turned into device addresses, and the host threads (one per rank) that
// post them. A launch starts the threads, each posts its work and records a CUDA event after every
// round, and the calling thread watches those events: when none completes for the timeout (or
// NCCL reports an asynchronous error) it aborts every communicator, so a run never hangs its
// caller. The session is shared with its threads: a thread stuck inside NCCL even after the abort
// is detached and keeps the session (and its GPU memory) alive rather than crash.
//
// Where to start when changing it: postIteration() is what a rank does per iteration; launch()
// is the watchdog.

#include "exec/plan/hostmemory.h"
#include "librarycollective_p.h"
#include "ncclkernels_p.h"
#include "ncclrounds_p.h"
#include "ncclstatus_p.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace cs::nccl {

enum class LaunchOutcome { Finished, Hung, Failed };

/// What the rank threads of one launch do.
enum class Work {
  Iteration, ///< the program once (inputs restored first when asked)
  Library,   ///< NCCL's own collective, warm-up and timed iterations
  Teardown,  ///< destroy the communicator (an intra-node collective in NCCL)
};

/// Where a stalled rank was when the watchdog stopped a launch.
struct StalledRank {
  int rank = -1;
  int round = -1; ///< the schedule's round it had not finished, -1: it had finished
};

class NcclSession : public std::enable_shared_from_this<NcclSession>
{
public:
  struct Config {
    DataType dtype = DataType::F32;
    ReduceOp op = ReduceOp::Sum;
    std::int64_t chunkElements = 0;
    int elementSize = 0;
    int libraryRuns = 0; ///< warm-up + timed calls of NCCL's collective
  };

  explicit NcclSession(const Config& config) : m_config(config) {}
  ~NcclSession();
  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;

  /// Creates the communicators (ncclCommInitAll over `devices`, rank r on devices[r]) and a
  /// stream per rank.
  bool open(const std::vector<int>& devices, Diagnostics& out);
  /// NCCL's unique id for a communicator spanning processes (ncclGetUniqueId, on rank 0 only),
  /// as the opaque bytes the launcher rendezvous carries.
  static bool createUniqueId(std::vector<std::byte>& id, Diagnostics& out);
  /// A launcher run: this process's one rank of a `world`-rank communicator, on `device`, from
  /// rank 0's `id` (ncclCommInitRank; it blocks until every rank has called it).
  bool openRank(int rank, int world, int device, const std::vector<std::byte>& id,
                Diagnostics& out);
  /// Allocates every rank's memory and temporaries, uploads the mirror's initial contents and the
  /// schedule's local operations.
  bool upload(const Program& program, const RoundSchedule& schedule, const plan::HostMemory& mirror,
              Diagnostics& out);
  /// Allocates the buffers of NCCL's collective (zeroed; its result is not checked).
  bool prepareLibrary(const LibraryCall& call, Diagnostics& out);

  /// Runs `work` on every rank's thread and waits for the GPUs, watched as described above;
  /// `cancel` (may be null), once set, aborts the communicators like a stall does (Hung).
  LaunchOutcome launch(Work work, bool restoreFirst, double timeoutSeconds, Diagnostics& out,
                       const std::atomic<bool>* cancel = nullptr);

  /// The last iteration's time: the longest over ranks from its start event to its end event.
  std::optional<double> iterationUs(Diagnostics& out);
  /// µs of each timed call of NCCL's collective (after `warmup` untimed ones), longest rank.
  std::vector<double> libraryUs(int warmup, Diagnostics& out);
  /// Per rank, per round of the schedule, µs from the last iteration's start to the end of that
  /// round on that rank (rounds without work there repeat the previous value).
  std::optional<std::vector<std::vector<double>>> roundEndUs(int rounds, Diagnostics& out);
  /// After a hung launch of Work::Iteration: each rank's unfinished round.
  std::vector<StalledRank> stalledRanks() const;

  /// Copies every rank's allocations into the mirror.
  bool download(plan::HostMemory& mirror, Diagnostics& out);
  /// "2 × NVIDIA H100 80GB HBM3, NCCL 2.28.9".
  std::string description() const;
  /// Destroys the communicators and frees everything, except where a stuck stream or thread
  /// still uses it (then it is left allocated and a warning says so).
  void close(double timeoutSeconds, Diagnostics& out);

private:
  struct PostedOp {
    void* data = nullptr;
    std::size_t count = 0;
    int peer = -1;
  };
  struct RoundWork {
    int round = 0;
    std::vector<PostedOp> recvs;
    std::vector<PostedOp> sends;
    int firstLocal = 0;
    int locals = 0;
    std::int64_t largestLocal = 0;
  };
  struct Rank {
    int rank = 0;
    int device = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    std::array<void*, kBufferCount> memory{};
    std::array<std::size_t, kBufferCount> bytes{};
    std::array<void*, kBufferCount> pristine{}; ///< initial contents of allocations with input
    void* temporaries = nullptr;
    DeviceLocalOp* localOps = nullptr;
    std::vector<RoundWork> rounds;            ///< only rounds with work on this rank
    std::vector<cudaEvent_t> iterationEvents; ///< start, after each entry of rounds, end
    std::vector<cudaEvent_t> libraryEvents;   ///< start and end of each call
    void* librarySend = nullptr;
    void* libraryRecv = nullptr;
    LibraryBuffers library;

    // The current launch: written by the rank's thread, read by the watchdog.
    std::atomic<int> recorded{0};
    std::atomic<bool> finished{false};
    std::atomic<bool> failed{false};
    int completed = 0;    ///< events seen complete (watchdog only)
    int seenRecorded = 0; ///< `recorded` at the watchdog's last look
    Diagnostics errors;   ///< the thread's own; read after it finished
    std::thread thread;
  };

  plan::CallSite siteOf(const Rank& rank) const { return {rank.rank, rank.device, {}}; }
  void* address(Rank& rank, const DataRef& ref) const;
  bool allocate(Rank& rank, void** pointer, std::size_t bytes, const char* what, Diagnostics& out);
  bool createEvents(Rank& rank, std::vector<cudaEvent_t>& events, std::size_t count,
                    Diagnostics& out);
  bool buildRounds(Rank& rank, const std::vector<RankRound>& rounds, Diagnostics& out);
  bool createStreams(Diagnostics& out);
  /// "2 × NVIDIA H100 80GB HBM3, NCCL 2.28.9" (`ranks` in this process, named by `device`).
  void describe(int ranks, int device);

  void runThread(int index, Work work, bool restoreFirst);
  bool postIteration(Rank& rank, bool restoreFirst);
  bool postLibrary(Rank& rank);
  bool postGroup(Rank& rank, const RoundWork& round);
  bool record(Rank& rank, const std::vector<cudaEvent_t>& events, int index);
  const std::vector<cudaEvent_t>* eventsOf(const Rank& rank, Work work) const;

  enum class Poll { Running, Done, Failed };
  Poll poll(Work work, bool& progressed, Diagnostics& out);
  void abortAll();
  /// Joins every thread that leaves within `seconds`; detaches the rest (false).
  bool joinThreads(double seconds, Diagnostics& out);
  void collectThreadErrors(Diagnostics& out);
  bool streamsIdle(double seconds);
  void freeResources(Diagnostics& out);

  Config m_config;
  LibraryCall m_library;
  std::vector<std::unique_ptr<Rank>> m_ranks;
  std::atomic<bool> m_aborted{false};
  bool m_threadsDetached = false;
  bool m_closed = false;
  std::string m_description;
};

} // namespace cs::nccl
