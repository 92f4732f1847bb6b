#include "replaystop.h"

#include "io/chrometrace.h"
#include "replay/stopreport.h"

#include <algorithm>

namespace cs::cli {

using replay::describeBlocked;
using replay::predictedCycle;

nlohmann::json stopJson(const Program& program, const Trace& trace)
{
  // The blocked positions as the trace file spells them (otherData.blocked).
  Trace onlyBlocked;
  onlyBlocked.blocked = trace.blocked;
  nlohmann::json blocked =
      nlohmann::json::parse(writeChromeTrace(onlyBlocked))["otherData"]["blocked"];
  if (!blocked.is_array())
    blocked = nlohmann::json::array();
  nlohmann::json cycle = nlohmann::json::array();
  for (const Location& location : predictedCycle(program, trace))
    cycle.push_back({{"rank", location.rank}, {"tb", location.tb}, {"step", location.step}});
  nlohmann::json out = {{"stopped_blocked", std::move(blocked)}, {"cycle", std::move(cycle)}};
  out["stopped_us"] = trace.stoppedUs ? nlohmann::json(*trace.stoppedUs) : nlohmann::json(nullptr);
  out["connection_slots"] =
      trace.connectionSlots ? nlohmann::json(*trace.connectionSlots) : nlohmann::json(nullptr);
  return out;
}

void printStop(std::ostream& out, const Program& program, const Trace& trace)
{
  if (!trace.stoppedUs)
    return;
  out << "the watchdog stopped the run at " << *trace.stoppedUs << " us; blocked then:\n";
  for (const BlockedPosition& p : trace.blocked)
    out << "  " << describeBlocked(p) << '\n';
  const std::vector<Location> cycle = predictedCycle(program, trace);
  if (cycle.empty())
    return;
  out << "the checker predicts this wait-for cycle:";
  for (const Location& location : cycle)
    out << " (rank " << location.rank << " tb " << location.tb << " step " << location.step << ')';
  out << '\n';
}

nlohmann::json verificationJson(const Trace& trace)
{
  if (!trace.verification)
    return nlohmann::json::object();
  // The wrong chunks as the trace file spells them (otherData.verification).
  const nlohmann::json written = nlohmann::json::parse(writeTraceVerification(*trace.verification));
  return {{"wrong", written.at("wrong")},
          {"wrong_chunks", trace.verification->wrongChunkCount},
          {"wrong_elements", trace.verification->wrongElements},
          {"checked", trace.verification->checked}};
}

void printVerification(std::ostream& out, const Trace& trace)
{
  if (!trace.verification)
    return;
  const TraceVerification& verification = *trace.verification;
  out << "verification: " << verification.wrongElements << " of " << verification.checked
      << " elements wrong";
  if (verification.wrongChunkCount > 0)
    out << " in " << verification.wrongChunkCount << " chunks";
  out << '\n';
  // A screenful; --json lists them all.
  constexpr std::size_t kShown = 16;
  const std::size_t shown = std::min(kShown, verification.wrongChunks.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const WrongChunk& chunk = verification.wrongChunks[i];
    out << "  rank " << chunk.rank << ' ' << bufferLetter(chunk.buffer) << '[' << chunk.chunk
        << "]: expected " << chunk.expected << " actual " << chunk.actual << " at element "
        << chunk.element << '\n';
  }
  const auto listed = static_cast<std::int64_t>(shown);
  if (verification.wrongChunkCount > listed)
    out << "  … and " << verification.wrongChunkCount - listed << " more chunks (--json)\n";
}

} // namespace cs::cli
