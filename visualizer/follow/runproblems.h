#pragma once

// What a run the watchdog stopped puts in the editor's Problems panel (issue 14 item 7): one row
// per blocked position saying what it waits for, and one for the wait-for cycle the checker
// predicts with the run's connection slots, its steps as child rows. Each row points at its
// instruction and transfer, so activating it selects them in every view.

#include "analysis/analysis.h"
#include "model/program.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace cs::visualizer {

/// "rank 1 tb 0 step 2 slice 0 waits for room on the connection to rank 2 (channel 0)".
std::string blockedText(const BlockedPosition& position);

/// The run's problems for the Problems panel: empty for a run that ended.
std::vector<Problem> runProblems(const Program& program, const Trace& trace,
                                 const Analysis& analysis);

} // namespace cs::visualizer
