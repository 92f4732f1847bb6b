#pragma once

// The Run panel (issue 14, "Run from the window"): runs the document's Program on a backend —
// the simulator on the document's topology (or a preset when it has none), the CPU executor,
// CUDA, NCCL — with a size, data type, reduction, call mode, iterations and timeout. Backends
// that cannot run here are listed disabled with the reason. The run goes on a worker (RunJob);
// when it ends the panel shows the verdict and time, stores the run with its trace in the
// library when the document came from there, and opens the replay window on the trace (a hung
// run at its stop). The main window shows it as the "Run" dock.
//
// Files: runpanel.cpp builds the form, runpanelrun.cpp starts runs and handles their end.

#include "replaywindow.h"
#include "runjob.h"
#include "runstore.h"

#include <QPointer>
#include <QWidget>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace cs::storage {
class Library;
}
namespace cs::editor {
class Document;
}

namespace cs::visualizer {

class RunPanel : public QWidget
{
  Q_OBJECT

public:
  /// The library runs are stored in, asked for at the end of each run (it may be reopened).
  using LibraryProvider = std::function<storage::Library*()>;

  RunPanel(editor::Document* document, LibraryProvider library, QWidget* parent = nullptr);
  ~RunPanel() override;

  /// Selects a backend by id ("simulate", "cpu", …); false when it is unknown or unavailable.
  bool selectBackend(const QString& id);
  /// Whether backend `id` is offered enabled, and the reason shown when it is not.
  bool isBackendEnabled(const QString& id) const;
  QString backendReason(const QString& id) const;

  /// Starts a run with the form's settings; false with the reason in the status when it cannot.
  bool run();
  /// Asks the running job to stop.
  void cancel();

  RunJob* job() const { return m_job; }
  /// The verdict line of the last run, and what storing it did.
  QString verdictText() const;
  QString storeText() const;
  /// The progress line of the run in progress ("2.4 s · iteration 3 of 5"), empty otherwise.
  QString progressText() const;
  /// The replay window the last run opened, or null.
  ReplayWindow* replayWindow() const { return m_replayWindow; }

  // The form's fields, for tests and the main window's defaults.
  QLineEdit* sizeEdit() const { return m_size; }
  QSpinBox* iterationsBox() const { return m_iterations; }
  QDoubleSpinBox* timeoutBox() const { return m_timeout; }

signals:
  /// Once per run, after the verdict, the store and the replay window are in place.
  void runFinished();

private:
  void buildForm();
  QWidget* buildButtons();
  void refreshBackends();
  void refreshTopology();
  void updateEnabled();
  std::optional<RunRequest> makeRequest(QString* error) const;
  void jobFinished(const RunOutcome& outcome);
  void openReplay(const RunRequest& request, const RunOutcome& outcome);
  /// The progress timer's tick: the bar and the line from the job's counters.
  void showProgress();

  editor::Document* m_document;
  LibraryProvider m_library;
  RunJob* m_job;
  std::optional<RunRequest> m_running; ///< the request of the run in progress
  QPointer<ReplayWindow> m_replayWindow;

  QFormLayout* m_form = nullptr;
  QComboBox* m_backend = nullptr;
  QLabel* m_backendNote = nullptr;
  QComboBox* m_preset = nullptr;
  QLabel* m_topologyNote = nullptr;
  QLineEdit* m_size = nullptr;
  QComboBox* m_dtype = nullptr;
  QComboBox* m_op = nullptr;
  QComboBox* m_mode = nullptr;
  QSpinBox* m_iterations = nullptr;
  QDoubleSpinBox* m_timeout = nullptr;
  QPushButton* m_runButton = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_progressLine = nullptr;
  QTimer* m_progressTimer = nullptr;
  QLabel* m_verdict = nullptr;
  QLabel* m_stored = nullptr;
};

} // namespace cs::visualizer
