#include "runloop.h"

#include "reference.h"

#include <cstdio>

namespace cs::plan {

namespace {

/// What every traced run records besides its events: the size and the connections' slots.
void completeTrace(const ExecOptions& options, RunBackend& backend, Trace& trace)
{
  trace.bytes = options.bytes;
  trace.mode = backend.results().plan.mode;
  trace.connectionSlots = backend.results().plan.connectionSlots;
}

bool cancelled(const ExecOptions& options)
{
  return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

/// A run the user stopped: Failed with exec.cancelled, whatever the backend saw at the stop.
void reportCancel(int launches, ExecResult& result, Diagnostics& out)
{
  result.cancelled = true;
  result.status = ExecStatus::Failed;
  out.error("exec.cancelled",
            "the run was cancelled after " + std::to_string(launches) + " finished launches");
}

} // namespace

bool runIterations(const Program& program, const ExecOptions& options, RunBackend& backend,
                   ExecResult& result, Diagnostics& out)
{
  const int total = options.warmup + options.iterations;
  for (int iteration = 0; iteration < total; ++iteration) {
    if (cancelled(options)) {
      reportCancel(iteration, result, out);
      return false;
    }
    if (iteration > 0 && !backend.restore(out))
      return false;
    // The verified last run is traced, so the trace shows the data that was checked; so is the
    // first, where a program that deadlocks stops, so a hung run keeps its trace up to the stop.
    const bool trace = options.trace && (iteration == 0 || iteration == total - 1);
    const LaunchOutcome outcome = backend.launch(trace, out);
    if (outcome == LaunchOutcome::Failed)
      return false;
    // The backends stop a cancelled launch as they stop a hung one.
    if (outcome == LaunchOutcome::Hung && cancelled(options)) {
      reportCancel(iteration, result, out);
      return false;
    }
    if (outcome == LaunchOutcome::Hung) {
      backend.reportHang(result, out);
      std::optional<Trace> stopped = trace ? backend.stoppedTrace() : std::nullopt;
      if (stopped) {
        result.trace = std::move(*stopped);
        completeTrace(options, backend, result.trace);
        result.trace.blocked = result.blocked;
      }
      return false;
    }
    if (iteration >= options.warmup) {
      const std::optional<double> us = backend.elapsedUs(out);
      if (!us)
        return false;
      result.iterationUs.push_back(*us);
    }
    if (options.launchesDone)
      options.launchesDone->store(iteration + 1, std::memory_order_relaxed);
  }
  if (!backend.collect(options.trace, out))
    return false;
  Verification verification = verifyResult(program, options, backend.results());
  result.status = verification.status;
  result.wrong = verification.wrong;
  result.checked = verification.checked;
  result.firstWrong = verification.firstWrong;
  result.wrongChunks = std::move(verification.wrongChunks);
  result.wrongChunkCount = verification.wrongChunkCount;
  result.verification = std::move(verification.note);
  if (options.keepBuffers)
    result.buffers = backend.results().memory;
  if (options.trace) {
    result.trace = backend.trace();
    completeTrace(options, backend, result.trace);
    if (result.status != ExecStatus::NotVerified)
      result.trace.verification = TraceVerification{result.checked, result.wrong,
                                                    result.wrongChunkCount, result.wrongChunks};
  }
  return true;
}

std::string formatSeconds(double seconds)
{
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

std::string watchdogMessage(double timeoutSeconds, std::size_t blocked)
{
  return "no progress for " + formatSeconds(timeoutSeconds) + " s: " + std::to_string(blocked) +
         " threadblocks are blocked; the watchdog stopped the run";
}

void reportHang(std::string message, std::vector<BlockedPosition> blocked, ExecResult& result,
                Diagnostics& out, const std::string& detail)
{
  std::vector<Location> related;
  for (const BlockedPosition& position : blocked) {
    Location location;
    location.rank = position.rank;
    location.tb = position.tb;
    location.step = position.step;
    related.push_back(location);
  }
  if (!blocked.empty())
    message += " (first: " + describe(blocked.front()) + ")";
  message += detail;
  Diagnostic& hang =
      out.error("exec.hang", message, related.empty() ? Location{} : related.front());
  hang.related = std::move(related);
  result.blocked = std::move(blocked);
  result.status = ExecStatus::Hung;
}

std::string memoryMessage(std::string_view memory, std::int64_t bytes, int ranks,
                          std::string_view what)
{
  return "not enough " + std::string(memory) + " for " + std::to_string(bytes) +
         " bytes on each of " + std::to_string(ranks) + " ranks (" + std::string(what) + ")";
}

ExecResult memoryFailure(std::string_view memory, std::int64_t bytes, int ranks,
                         std::string_view what)
{
  ExecResult result;
  result.diagnostics.push_back(
      {Severity::Error, "exec.memory", memoryMessage(memory, bytes, ranks, what), {}, {}});
  return result;
}

} // namespace cs::plan
