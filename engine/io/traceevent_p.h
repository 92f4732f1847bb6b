#pragma once

// One element of a Chrome trace's traceEvents, judged: a step ("X") event becomes a TraceEvent or
// a sentence saying what is wrong with it; a utilisation sample ("C") joins its link's usage.

#include "tracecollector_p.h"

#include "model/trace.h"

#include <map>
#include <optional>
#include <string>

namespace cs::tracejson {

// Bounds past which a trace is refused as absurd rather than half-loaded: far beyond any real
// run (the CLI and the editor handle 1,024 ranks), small enough that a hostile file cannot make
// the replay index allocate per rank or per threadblock without end.
constexpr int kMaxRanks = 1 << 16;
constexpr int kMaxThreadblocks = 1 << 12;
constexpr int kMaxSteps = 1 << 20;
constexpr int kMaxSlices = 1 << 24;
constexpr int kMaxLinks = 1 << 20;

/// The step event `fields` describe, or nullopt with `why` saying what is wrong.
std::optional<TraceEvent> stepEvent(const EventFields& fields, std::string& why);

/// Adds a counter sample to its link's utilisation. Malformed samples are skipped: they only
/// colour a chart, and must never make the trace unreadable.
void addCounterSample(const EventFields& fields, std::map<int, LinkUsage>& links);

} // namespace cs::tracejson
