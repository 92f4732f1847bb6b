#pragma once

// What a run the watchdog stopped tells (issue 14, hang forensics), shared by `cstudio replay`
// and the replay window: each blocked threadblock's position in words, and the wait-for cycle the
// checker predicts for the program with the run's connection slots (the reason a ring with one
// slot per connection hangs).

#include "model/diagnostic.h"
#include "model/program.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace cs::replay {

/// The first deadlock checkProgram reports with fifoSlots = trace.connectionSlots: its related
/// locations, the wait-for chain in order; empty when the checker predicts none.
std::vector<Location> predictedCycle(const Program& program, const Trace& trace);

/// What a blocked position waits for: "a message from rank 3", "room on the connection to rank
/// 1", "tb 2 step 4".
std::string describeWait(const BlockedPosition& position);

/// "rank 0 tb 1 step 2 slice 0 waits for a message from rank 3".
std::string describeBlocked(const BlockedPosition& position);

} // namespace cs::replay
