#pragma once

// What the CUDA executor and its host emulation share: the flow of a run (plan, lay out, fill the
// inputs, then the shared run loop of plan/runloop.h: warm-up and timed iterations, verification
// against the host reference, the trace) and the host watchdog, which polls the blocks' progress
// counters while they run, aborts a run that stopped progressing and reports every blocked (rank,
// tb, step, slice). A backend supplies memory, launches and timing through the hooks below.

#include "blocklayout.h"
#include "exec/executor.h"
#include "exec/plan/hostmemory.h"
#include "exec/plan/runloop.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs::gpu {

class BlockExecutor : public Executor
{
public:
  ExecResult run(const Program& program, const ExecOptions& options) final;

protected:
  /// Everything a backend is given to set up a run; `mirror` holds the inputs it must upload
  /// and receives the results on download().
  struct Setup {
    const plan::RunPlan& plan;
    const BlockLayout& layout;
    const ExecOptions& options;
    plan::HostMemory& mirror;
  };

  /// Allocates and uploads everything; false with the reason in `out` when it cannot.
  virtual bool prepare(const Setup& setup, Diagnostics& out) = 0;
  /// Replicas of every (rank, tb) the prepared run uses (BlockProgram::replicas).
  virtual int replicas() const = 0;
  /// Before every launch but the first: inputs back to their initial values, everything else to
  /// the sentinel, counters and statuses to zero.
  virtual bool restore(Diagnostics& out) = 0;
  /// Starts all blocks; the run goes on in the background.
  virtual bool start(bool trace, Diagnostics& out) = 0;
  /// Whether every block has left (returned normally, aborted, or killed by a fault).
  virtual bool finished() = 0;
  /// After finished(): false with the reason in `out` when the launch itself failed (a kernel
  /// fault, a lost device), as opposed to blocks that stopped on their own.
  virtual bool launchSucceeded(Diagnostics& out) = 0;
  /// Makes every waiting block leave at its next look at the abort flag.
  virtual void abort() = 0;
  /// The runners' live statuses, replicas × blocks (readable while running).
  virtual const BlockStatus* statuses() = 0;
  /// Microseconds the last launch took (after finished()); absent with the reason in `out`.
  virtual std::optional<double> elapsedUs(Diagnostics& out) = 0;
  /// Copies the results into the mirror; the trace records (2 per record) when traced.
  virtual bool download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                        Diagnostics& out) = 0;
  /// "cuda", for traces.
  virtual std::string traceSource() const = 0;
  /// The hardware, for people ("NVIDIA H100 80GB HBM3 (1 GPU, 8 ranks)").
  virtual std::string deviceDescription() const = 0;
  /// Frees everything; called once per run, also after failures. Errors that cannot be returned
  /// here are recorded with CS_CHECK_TEARDOWN (plan/callcheck.h); the run reports them.
  virtual void release() = 0;

private:
  /// The hooks above as the shared run loop's (plan/runloop.h).
  class Run;
  /// Waits up to `limit` seconds for the blocks to leave after abort(); false if they did not.
  bool waitAfterAbort(double limit);
  /// One launch under the host watchdog, which also stops it (as a hang) when options.cancel is
  /// set; `stalledUs`: after a hang, how long it saw no progress.
  plan::LaunchOutcome launchWatched(const BlockLayout& layout, bool trace,
                                    const ExecOptions& options, double& stalledUs,
                                    Diagnostics& out);
  /// Aborts the running blocks and waits for them to leave; Hung, or Failed when they did not.
  plan::LaunchOutcome abortLaunch(const BlockLayout& layout, double timeoutSeconds,
                                  Diagnostics& out);
  void reportHang(const BlockLayout& layout, double timeoutSeconds, ExecResult& result,
                  Diagnostics& out);
  bool reportBlockErrors(const BlockLayout& layout, Diagnostics& out);
};

/// Reads a status word another thread or the GPU writes while the run goes on.
std::uint32_t readStatusWord(const std::uint32_t& word);

/// The blocked positions of a stopped run, one per blocked (rank, tb), from the statuses of its
/// `replicas` runners.
std::vector<BlockedPosition> blockedPositions(const BlockLayout& layout, const BlockStatus* status,
                                              int replicas);

/// One event per executed (rank, tb, slice, step), from the first start to the last end over its
/// replicas, in µs from the earliest start of the run. Slice k is the k-th slice of every
/// replica's share (replicaSlice()); its bytes add up what the replicas moved.
Trace traceFromRecords(const plan::RunPlan& plan, const BlockLayout& layout, int replicas,
                       const std::vector<std::uint64_t>& records);

} // namespace cs::gpu
