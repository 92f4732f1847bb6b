#pragma once

// The run loop every executor shares (DESIGN.md §5): warm-up and timed iterations, each after
// restoring the inputs, a watched launch, the time of every timed one, then the results brought
// back to the host, verified against the host reference, and the trace of the last iteration.
// A backend supplies what differs through RunBackend; the loop owns the order, so every backend
// reports hangs, times and #wrong the same way.
//
// Where to start when changing it: runIterations() is the loop; cpu/cpuexecutor.cpp,
// block/blockexecutor.cpp and nccl/ncclexecutor.cpp implement the hooks.

#include "exec/executor.h"
#include "hostmemory.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::plan {

/// How one watched launch of the collective ended.
enum class LaunchOutcome : std::uint8_t {
  Finished, ///< every threadblock ran to its end
  Hung,     ///< the watchdog stopped it; RunBackend::reportHang() says where
  Failed,   ///< it could not run or broke; the reason is in the diagnostics
};

/// The hooks of one backend for one prepared run (memory allocated, inputs in place).
class RunBackend
{
public:
  virtual ~RunBackend() = default;
  /// Before every launch but the first: inputs back to their initial values, everything else
  /// as before the first launch. False with the reason in `out` when it cannot.
  virtual bool restore(Diagnostics& out) = 0;
  /// Runs the collective once under the watchdog; `trace` asks for the events of this launch.
  virtual LaunchOutcome launch(bool trace, Diagnostics& out) = 0;
  /// After a finished launch: the µs it took, absent with the reason in `out`.
  virtual std::optional<double> elapsedUs(Diagnostics& out) = 0;
  /// After a hung launch: the blocked positions and the exec.hang error (see reportHang()).
  virtual void reportHang(ExecResult& result, Diagnostics& out) = 0;
  /// After the last launch: the results (and the trace's records when `trace`) on the host.
  virtual bool collect(bool trace, Diagnostics& out) = 0;
  /// The host memory collect() filled, verified against the reference.
  virtual HostMemory& results() = 0;
  /// After collect(true): the trace of the last launch (source, device, events).
  virtual Trace trace() = 0;
  /// After a traced launch that hung: the events that completed before the watchdog stopped it
  /// (source, device, events) and stoppedUs; absent where the backend cannot read them back.
  virtual std::optional<Trace> stoppedTrace() { return std::nullopt; }
};

/// Runs options.warmup + options.iterations launches through `backend` and fills `result`:
/// the time of each timed launch, then (when every launch finished) the verification of the
/// last one, with options.trace its trace and with options.keepBuffers its memory. Returns false
/// when the run stopped early (a failure: status stays Failed; a hang: status Hung, with the
/// blocked positions, and with options.trace the trace up to the stop when the hung launch was
/// the traced one and the backend can read it back; a cancel: status Failed, `cancelled` set,
/// an exec.cancelled error). A backend stops a cancelled launch as it stops a hung one and
/// returns LaunchOutcome::Hung; the loop tells the two apart by options.cancel.
bool runIterations(const Program& program, const ExecOptions& options, RunBackend& backend,
                   ExecResult& result, Diagnostics& out);

/// "no progress for 0.5 s: 3 threadblocks are blocked; the watchdog stopped the run".
std::string watchdogMessage(double timeoutSeconds, std::size_t blocked);

/// Records a hung run: `blocked` into the result, status Hung, and an exec.hang error whose
/// message is `message`, then " (first: <the first blocked position>)" when there is one, then
/// `detail`; located at the first blocked position and related to all of them.
void reportHang(std::string message, std::vector<BlockedPosition> blocked, ExecResult& result,
                Diagnostics& out, const std::string& detail = {});

/// "not enough <memory> for <bytes> bytes on each of <ranks> ranks (<what>)": what a run says
/// when the memory (`memory`: "memory", "host memory") for a user's size cannot be allocated.
std::string memoryMessage(std::string_view memory, std::int64_t bytes, int ranks,
                          std::string_view what);
/// A Failed result whose only diagnostic is the exec.memory error of memoryMessage().
ExecResult memoryFailure(std::string_view memory, std::int64_t bytes, int ranks,
                         std::string_view what);

/// "%g" of `seconds` ("0.5", "10").
std::string formatSeconds(double seconds);

} // namespace cs::plan
