#pragma once

// The Break it tab's "Run on the CPU and open the replay" (issue 19 item 5): after an exercise is
// applied, the broken algorithm runs on the CPU executor as the Run panel runs it (a RunJob: off
// the UI thread, with progress, Cancel and the executor's watchdog) and the traced run opens in
// the visual debugger, so a wrong result shows its wrong chunks in the buffer view and a hang
// opens at the stop with its blocked positions. The connection depth is a setting of the run
// (the shrink-connections exercise sets it), not of the document, which has none.

#include "run/runjob.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTimer;

namespace cs::editor {
class Document;
} // namespace cs::editor

namespace cs::visualizer {

class ReplaySession;

class BreakItRun : public QWidget
{
  Q_OBJECT

public:
  /// Shows a finished run's replay: the main window's (Replay › Open Trace's) where there is one.
  using ReplayOpener = std::function<void(std::unique_ptr<ReplaySession>, const QString& title)>;

  explicit BreakItRun(editor::Document* document, QWidget* parent = nullptr);

  /// Where the replay opens; without one it opens as a window of its own over this one's window.
  void setReplayOpener(ReplayOpener opener) { m_opener = std::move(opener); }
  /// The run settings of the applied exercise: the connections' depth (absent: the protocol's)
  /// and the root a broadcast or reduce is verified for. Enables the button.
  void setExercise(std::optional<int> connectionSlots, std::optional<int> root);
  /// No exercise is applied: nothing to run (a running job goes on and still opens its replay).
  void clearExercise();

  /// Runs the document's program as it is now; false when nothing can run or a run is going.
  bool start();
  void cancel();
  bool isRunning() const { return m_job->isRunning(); }
  /// How the last run ended; null before the first one ends.
  const RunOutcome* lastOutcome() const { return m_outcome ? &*m_outcome : nullptr; }
  /// The progress or verdict line shown beside the buttons.
  QString statusText() const;

signals:
  /// Once per run, after the replay was opened (or why it could not be was shown).
  void runFinished();

private:
  void finished(const RunOutcome& outcome);
  void openReplay(const RunOutcome& outcome);
  void updateEnabled();

  editor::Document* m_document;
  ReplayOpener m_opener;
  RunJob* m_job;
  QTimer* m_progress;
  bool m_armed = false;
  std::optional<int> m_connectionSlots;
  std::optional<int> m_root;
  /// The program and topology of the run going, for the replay.
  std::optional<RunRequest> m_request;
  std::optional<RunOutcome> m_outcome;
  QPushButton* m_run;
  QPushButton* m_cancel;
  QLabel* m_status;
};

} // namespace cs::visualizer
