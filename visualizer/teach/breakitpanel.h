#pragma once

// The "Break it" tab of teaching mode (issue 19 item 5): the exercises of the open algorithm
// (engine/teach/exercises.h), each a deliberate mistake with a question. "Break it" applies the
// mistake as one command on the document's undo stack, so the editor's views, the Problems panel
// and the simulated run all show the broken algorithm, and the panel reveals what the checker and
// the CPU executor say; "Show the fix" undoes it. Finding the exercises runs the executor per
// candidate (a fraction of a second per algorithm), so it runs off the UI thread and is redone
// when the algorithm changes — but not while an exercise is applied: that change is the exercise,
// and not while the tab is hidden: a hidden tab searches when it is shown again.

#include "breakitrun.h"

#include "teach/exercises.h"

#include <QFutureWatcher>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;
class QUndoCommand;

namespace cs::editor {
class Document;
} // namespace cs::editor

namespace cs::visualizer {

class BreakItPanel : public QWidget
{
  Q_OBJECT

public:
  explicit BreakItPanel(editor::Document* document, QWidget* parent = nullptr);
  ~BreakItPanel() override;

  /// The exercises listed (those of the last finished search).
  const ExerciseSet& exercises() const { return m_set; }
  /// Whether the exercises are being searched for in the background.
  bool isSearching() const { return m_searching; }
  /// How many background searches this panel has started.
  int searchesStarted() const { return m_searchesStarted; }
  /// The exercise selected in the list, or -1.
  int currentExercise() const;
  void setCurrentExercise(int index);
  /// Whether the exercise applied by "Break it" is still applied: its command the undo stack's
  /// latest, or (shrink the connections) its connection depth the run's.
  bool canShowFix() const;
  /// The connection depth the applied shrink-connections exercise runs with; absent otherwise.
  std::optional<int> appliedConnectionSlots() const { return m_appliedSlots; }
  /// Runs the applied exercise on the CPU and opens the replay (enabled after "Break it").
  BreakItRun* cpuRun() const { return m_run; }
  /// What the panel reveals below the list (hint, outcome), as plain text.
  QString revealText() const;

public slots:
  /// Applies the selected exercise as one undoable command and reveals its outcome.
  void breakIt();
  void showHint();
  /// Undoes the applied exercise.
  void showFix();

protected:
  void showEvent(QShowEvent* event) override;

private:
  void search();
  void searchFinished();
  void algorithmChanged();
  void fillList();
  void updateControls();
  void reveal(const Exercise& exercise, const QString& note);
  /// The Schedule the exercises are made for: the document's, or the imported Program's lifted.
  std::optional<Schedule> currentSchedule() const;
  /// Whether the exercises listed were found for another algorithm or lowering.
  bool isStale() const;
  bool pushEdit(const Exercise& exercise);
  void applyConnections(const Exercise& exercise);
  /// Arms the CPU run for what is applied now, or disarms it.
  void updateRun();

  editor::Document* m_document;
  ExerciseSet m_set;
  LowerOptions m_searchedLowering;
  QFutureWatcher<ExerciseSet> m_watcher;
  /// The algorithm changed while searching: search again once this search ends.
  bool m_searchAgain = false;
  /// From the start of a search until its result is listed (the future ends a little earlier).
  bool m_searching = false;
  bool m_pushing = false;
  /// A search was due while the tab was hidden: it starts when the tab is shown.
  bool m_searchWhenShown = false;
  int m_searchesStarted = 0;
  /// The command "Break it" pushed and the undo index right after it (valid while on the stack).
  const QUndoCommand* m_applied = nullptr;
  int m_appliedIndex = -1;
  /// The shrink-connections exercise applied: the run's connection depth (the document has none).
  std::optional<int> m_appliedSlots;
  QLabel* m_status = nullptr;
  QListWidget* m_list = nullptr;
  QLabel* m_question = nullptr;
  QPushButton* m_break = nullptr;
  QPushButton* m_hint = nullptr;
  QPushButton* m_fix = nullptr;
  QTextBrowser* m_reveal = nullptr;
  BreakItRun* m_run = nullptr;
};

} // namespace cs::visualizer
