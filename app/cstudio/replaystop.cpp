#include "replaystop.h"

#include "io/chrometrace.h"
#include "replay/stopreport.h"

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

} // namespace cs::cli
