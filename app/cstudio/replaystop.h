#pragma once

// What `cstudio replay` adds for a run the watchdog stopped: when it stopped, where the trace
// says each blocked threadblock stood, and the wait-for cycle the checker predicts for the
// program with the run's connection slots (the reason a ring with one slot per connection hangs);
// and for a run whose result was verified, the chunks that came out wrong.

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

/// For a trace with a verification: "wrong" (rank, buffer, chunk, element, expected, actual of
/// each wrong chunk's first wrong element, spelled as the trace file's otherData.verification),
/// "wrong_chunks" and "wrong_elements" (all of them; "wrong" lists at most 4096); empty without.
nlohmann::json verificationJson(const Trace& trace);

/// The same for people: "verified: 0 of 4096 elements wrong", then one line per wrong chunk
/// ("  rank 1 o[2]: expected 12 actual 7 at element 3"), the first 16 of them.
void printVerification(std::ostream& out, const Trace& trace);

} // namespace cs::cli
