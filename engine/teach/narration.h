#pragma once

// Narration of a Schedule (issue 19, teaching mode): for every step, sentences generated from the
// Schedule's semantics, not written per algorithm. Works for any Schedule: catalogue, lifted from
// MSCCL XML, hand-drawn.
//
// Each transfer of a step is covered by exactly one sentence. Transfers that follow one rule in
// the sender's rank r become one sentence ("every rank r sends i[(r-1) mod 4], holding 3 of the 4
// contributions, to rank (r+1) mod 4, which adds it to its i[(r-1) mod 4]."); the rest get one
// sentence each. The grammar is regular so that tests (and tools) can expand a sentence back into
// the (src, dst) slots it claims; docs/teaching.md ("Narration") gives it:
//
//   WHO VERB SLOT, [each ]holding CONTENT, to rank EXPR, which (stores it in|adds it to) its SLOT.
//   WHO (copies|adds) SLOT, [each ]holding CONTENT, into its own SLOT.          (local transfers)
//   WHO     = "every rank r" | "each rank r in A–B" | "each rank r in {a, b, c}" | "rank A"
//   SLOT    = "i[EXPR]" | "i[A..B]" (several chunks, constant) | "K chunks from i[EXPR]"
//   EXPR    = an integer or a formula in r: "r+1", "(r-2) mod 4", "3-r", "r XOR 2", "8 + (r+1) mod
//   8" CONTENT = "nothing yet (uninitialised)" | "its own input i[EXPR]" | "the input i[EXPR] of
//   rank
//             EXPR" | "K of the N contributions[ of chunk EXPR]" | "the fully reduced chunk[ EXPR]"
//             | "the inputs i[EXPR] of ranks EXPR onward (one rank per chunk)"
//             | "a wrong value (double counted)" | "a wrong value (chunks mixed)"
//             | "contents that differ from chunk to chunk"
//
// CONTENT is what the source holds before the step (chunk states, engine/analysis/chunkstates.h);
// "of chunk" is written only when the chunk summed is not the slot's own index. After the
// transfers, one sentence without transfers says what changed for the collective's goal, derived
// from the postcondition (model/collectivespec.h) and the chunk states, never from a name.
// Start reading at narrateSchedule() (narration.cpp); grouping is narrationgroups.cpp, the words
// narrationtext.cpp, the goal narrationgoal.cpp.

#include "model/schedule.h"

#include <string>
#include <vector>

namespace cs {

/// One sentence and the transfers it covers (Transfer::id values; empty for the goal sentence).
struct NarrationSentence {
  std::string text;
  std::vector<int> transfers;
};

/// The sentences of one step: transfer sentences first, then at most one goal sentence.
struct NarrationStep {
  int step = 0;
  std::vector<NarrationSentence> sentences;
};

/// The narration of a whole Schedule: one entry per step 0 .. stepCount()-1 (empty steps have
/// no sentences), and an opening sentence that says what the collective must achieve.
struct Narration {
  std::string goal;
  std::vector<NarrationStep> steps;
};

/// Narrates `schedule`. Never throws; transfers the Schedule checks call malformed (a rank or
/// chunk out of range) are still covered, by a sentence naming them as they are written.
Narration narrateSchedule(const Schedule& schedule);

} // namespace cs
