#pragma once

// What an exported animation shows (issue 19 item 6): the document's Program run on a machine
// (simulated: the document's topology, a preset the caller names, or fully-connected-N when the
// document has none), opened as a replay session, and the time span of every logical step of the
// algorithm in that run. Steps are the shown Schedule's steps when there is one (a transfer's
// instructions map to its step through the analysis), else the positions in the threadblocks.

#include "follow/followindex.h"
#include "session/replaysession.h"

#include <QString>

#include <memory>
#include <vector>

namespace cs::editor {
class Document;
}

namespace cs::visualizer {

/// One logical step's part of the run: the cursor walks [startUs, endUs] over its frames.
struct StepSpan {
  double startUs = 0;
  double endUs = 0;
};

struct AnimationSource {
  std::unique_ptr<ReplaySession> session;
  std::unique_ptr<FollowIndex> follow; ///< the timeline's marks; null without an analysis program
  std::vector<StepSpan> steps;
  QString title; ///< "ring-allreduce · all-reduce · 8 ranks · ring-8"
};

struct AnimationSourceResult {
  std::unique_ptr<AnimationSource> source;
  QString error; ///< why there is none: no program, unknown preset, the simulation failed
};

/// Simulates `document`'s shown Program on `topologyPreset` (empty: the document's topology, else
/// fully-connected-N) with `bytes` per collective call, and indexes its steps. Never throws.
AnimationSourceResult makeAnimationSource(const editor::Document& document,
                                          const QString& topologyPreset,
                                          std::int64_t bytes = std::int64_t{1} << 20);

/// The spans of `stepCount` steps given each event's step (-1: in none): step k starts where step
/// k-1 ended (the first at 0) and ends at its last event's end, never before it starts, so the
/// cursor only moves forward; a step without events has an empty span.
std::vector<StepSpan> stepSpans(const Trace& trace, const std::vector<int>& eventSteps,
                                int stepCount);

/// The cursor time of frame `frame` (0-based) of `framesPerStep` in `span`: the middles of N
/// equal slices of it. Never its ends: at a step's end the next step (already started on some
/// ranks) is the one the timeline marks as current, so every frame shows the step it is
/// captioned with.
double frameTime(const StepSpan& span, int frame, int framesPerStep);

} // namespace cs::visualizer
