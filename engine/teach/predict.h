#pragma once

// Predict rounds (issue 19, item 4): before a step plays, the student says what each cell that
// the step changes will hold, choosing among a few options; the reveal marks each answer right or
// wrong and shows the right content, and a run-through adds the rounds up into a score.
//
// Cells and contents come from the timeline's own chunk states (engine/analysis/chunkstates.h),
// so the right answer is exactly what the timeline shows after the step. Wrong options are the
// mistakes students make: the old content (the step changes nothing), a neighbour's
// contributions (the ranks shifted by one), one contribution short (the newest one forgotten) and
// one too many. Options are plain text; each text appears once, the right one exactly once.

#include "analysis/chunkstates.h"

#include <string>
#include <vector>

namespace cs {

/// A cell the step changes, with the choices offered for it.
struct PredictCell {
  int row = 0;                      ///< the ChunkStates row
  ChunkRef ref;                     ///< the chunk the row shows
  std::string before;               ///< its content before the step
  std::string answer;               ///< its content after the step
  std::vector<std::string> options; ///< the choices, `answer` among them exactly once
};

/// The cells of one step.
struct PredictRound {
  int step = 0;
  std::vector<PredictCell> cells; ///< in row order; one per memory (aliased rows once)
};

/// The round of `step` (0 .. stepCount()-1); no cells for a step out of range, an empty step, or
/// a step past the memory budget.
PredictRound predictRound(const ChunkStates& states, int step);

/// The content of `row` in `column` as the options word it: "empty", "rank 2's chunk 1",
/// "chunk 1 from ranks 0, 2", "chunk 1 from all 4 ranks", or the timeline's label for a value
/// that mixes chunks or counts a contribution twice.
std::string cellContent(const ChunkStates& states, int row, int column);

/// A student's answer: the option chosen for the cell of `row`.
struct PredictAnswer {
  int row = 0;
  std::string choice;
};

/// The reveal of one cell.
struct CellVerdict {
  int row = 0;
  bool right = false;
  std::string given;  ///< what the student chose ("" when the cell was not answered)
  std::string answer; ///< the right content, always shown
};

/// The reveal of one round: every cell of the round, unanswered ones counted wrong.
struct RoundResult {
  int step = 0;
  std::vector<CellVerdict> cells;
  int right = 0;
  int total = 0;
};

/// Marks `answers` against `round`. Answers for rows not in the round are ignored; a row
/// answered twice counts its last answer.
RoundResult scoreRound(const PredictRound& round, const std::vector<PredictAnswer>& answers);

/// The score of one run-through: the rounds played so far, added up.
class PredictRun
{
public:
  /// Adds a round's result; playing the same step again replaces its earlier result.
  void add(RoundResult result);
  const std::vector<RoundResult>& rounds() const { return m_rounds; }
  int right() const;
  int total() const;
  /// right() / total() as a percentage, 0 before any cell was played.
  int percent() const;
  /// Starts a new run-through.
  void clear() { m_rounds.clear(); }

private:
  std::vector<RoundResult> m_rounds;
};

} // namespace cs
