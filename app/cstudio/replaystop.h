#pragma once

// What `cstudio replay` adds for a run the watchdog stopped: when it stopped, where the trace
// says each blocked threadblock stood, and the wait-for cycle the checker predicts for the
// program with the run's connection slots (the reason a ring with one slot per connection hangs).

#include "model/program.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace cs::cli {

/// "stopped_us", "stopped_blocked" (the trace's blocked positions) and "cycle" (the checker's
/// predicted wait-for cycle as (rank, tb, step), empty when it predicts none) of a stopped run.
nlohmann::json stopJson(const Program& program, const Trace& trace);

/// The same for people: one line for the stop, one per blocked position, one for the cycle.
void printStop(std::ostream& out, const Program& program, const Trace& trace);

} // namespace cs::cli
