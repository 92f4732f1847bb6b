#pragma once

// The editor's side of the analysis pipeline (engine/analysis/analysis.h, which `cstudio
// validate` calls too): a DocumentState is analysed as the level that holds the truth, the
// Schedule or the imported Program, with the document's lowering options.

#include "documentstate.h"

#include "analysis/analysis.h"

namespace cs::editor {

/// Runs every check on `state`. Never throws.
Analysis analyse(const DocumentState& state);

/// Only the Schedule checks of a Schedule-source state, with `program` and `origins` carried over
/// from `previous` and programPending set (analyseScheduleLevel).
Analysis analyseScheduleOnly(const DocumentState& state, const Analysis& previous);

/// Completes an analyseScheduleOnly() result of `state` (in the background): equals
/// analyse(state), without executing the Schedule again.
Analysis finishAnalysis(Analysis scheduleOnly, const DocumentState& state);

/// Whether analysing `state` fully may take longer than a frame, so the Program level should
/// run in the background (Schedule source with many transfers).
bool analysisIsExpensive(const DocumentState& state);

} // namespace cs::editor
