#include "replaystop.h"

#include "check/checker.h"
#include "io/chrometrace.h"

#include <algorithm>

namespace cs::cli {

namespace {

/// The first deadlock the checker reports with the run's slots: its wait-for chain, in order.
std::vector<Location> predictedCycle(const Program& program, const Trace& trace)
{
  CheckOptions options;
  if (trace.connectionSlots)
    options.fifoSlots = *trace.connectionSlots;
  const std::vector<Diagnostic> found = checkProgram(program, options);
  const auto deadlock = std::find_if(found.begin(), found.end(),
                                     [](const Diagnostic& d) { return d.code == "deadlock"; });
  return deadlock == found.end() ? std::vector<Location>{} : deadlock->related;
}

std::string describeBlocked(const BlockedPosition& p)
{
  std::string text = "rank " + std::to_string(p.rank) + " tb " + std::to_string(p.tb) + " step " +
                     std::to_string(p.step) + " slice " + std::to_string(p.slice) + " waits for ";
  switch (p.waitsFor) {
  case BlockedOn::Message:
    return text + "a message from rank " + std::to_string(p.peer);
  case BlockedOn::Room:
    return text + "room on the connection to rank " + std::to_string(p.peer);
  case BlockedOn::Flag:
    return text + "tb " + std::to_string(p.depTb) + " step " + std::to_string(p.depStep);
  }
  return text;
}

} // namespace

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
