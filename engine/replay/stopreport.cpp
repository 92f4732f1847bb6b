#include "stopreport.h"

#include "check/checker.h"

#include <algorithm>

namespace cs::replay {

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

std::string describeWait(const BlockedPosition& position)
{
  switch (position.waitsFor) {
  case BlockedOn::Message:
    return "a message from rank " + std::to_string(position.peer);
  case BlockedOn::Room:
    return "room on the connection to rank " + std::to_string(position.peer);
  case BlockedOn::Flag:
    return "tb " + std::to_string(position.depTb) + " step " + std::to_string(position.depStep);
  }
  return {};
}

std::string describeBlocked(const BlockedPosition& position)
{
  return "rank " + std::to_string(position.rank) + " tb " + std::to_string(position.tb) + " step " +
         std::to_string(position.step) + " slice " + std::to_string(position.slice) +
         " waits for " + describeWait(position);
}

} // namespace cs::replay
