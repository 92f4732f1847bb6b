#pragma once

// Teaching mode's Predict tab (issue 19 item 4): before the next step runs, the student says what
// each cell that step changes will hold, choosing among the round's options; Reveal marks every
// row right (green) or wrong (red, with the right content beside it) and adds the round to the
// run-through's score. The rounds come from the engine (engine/teach/predict.h) on the document's
// own chunk states, so the right answer is what the timeline shows after the step.
//
// The panel follows the step it is given (setStep, kept in sync with the Teaching panel's
// position) and the document: a new analysis with other chunk states (the algorithm changed)
// starts a new run-through.

#include "teach/predict.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QVBoxLayout;

namespace cs::editor {
class Document;
} // namespace cs::editor

namespace cs::visualizer {

class PredictPanel : public QWidget
{
  Q_OBJECT

public:
  explicit PredictPanel(editor::Document* document, QWidget* parent = nullptr);

  /// Shows the round of Schedule step `nextStep` (the step about to run), nothing chosen yet.
  void setStep(int nextStep);
  int step() const { return m_round.step; }
  /// The round shown: one row per cell, in the order of the rows on the panel.
  const PredictRound& round() const { return m_round; }
  int rowCount() const { return static_cast<int>(m_round.cells.size()); }

  /// Chooses option `option` (an index into the row's options; -1 clears) for row `row`.
  /// Ignored once the round is revealed or for a row or option out of range.
  void choose(int row, int option);
  /// The row of the round showing `cell` (a chunk the timeline shows, or one sharing its
  /// memory), or -1 when the round does not ask about it.
  int rowOf(const ChunkRef& cell) const;
  /// Opens a menu of `cell`'s options at `globalPos` (the timeline's hidden cell was clicked);
  /// choosing one is choose() on its row. Null when the round does not ask about the cell or is
  /// revealed. The menu deletes itself when it closes.
  QMenu* openPicker(const ChunkRef& cell, const QPoint& globalPos);
  /// Scores the choices, marks each row and adds the round to the run-through.
  void reveal();
  bool isRevealed() const { return m_result.has_value(); }
  /// The revealed round's result; null before the reveal.
  const RoundResult* result() const { return m_result ? &*m_result : nullptr; }
  /// The run-through so far (every revealed round since the algorithm last changed).
  const PredictRun& run() const { return m_run; }
  /// The score line shown ("Step 3: 5 of 7 right · this run-through: 12 of 16").
  QString scoreText() const;
  /// The verdict of row `row` after the reveal ("✓ right", "✗ it holds …"): the tooltip of the
  /// row's mark, and below the rows for the wrong ones.
  QString verdictText(int row) const;
  /// The step whose results the student is predicting right now (a round with cells, not yet
  /// revealed): the timeline hides what it writes meanwhile. nullopt otherwise.
  std::optional<int> openStep() const;

signals:
  /// A new round was shown or the shown one revealed (openStep() may have changed).
  void roundChanged();

private:
  void followAnalysis();
  void clearRows();
  void addRow(const PredictCell& cell);
  void markRow(int row, const CellVerdict& verdict);
  void updateScore();
  /// The details below the rows: each wrong cell with what it holds.
  void updateDetails();

  editor::Document* m_document;
  std::shared_ptr<const ChunkStates> m_states;
  PredictRound m_round;
  std::optional<RoundResult> m_result;
  PredictRun m_run;

  QLabel* m_heading = nullptr;
  QVBoxLayout* m_rowsLayout = nullptr;
  std::vector<QWidget*> m_rows;
  std::vector<QComboBox*> m_choices;
  std::vector<QLabel*> m_verdicts;
  QPushButton* m_reveal = nullptr;
  QLabel* m_details = nullptr;
  QLabel* m_score = nullptr;
};

} // namespace cs::visualizer
