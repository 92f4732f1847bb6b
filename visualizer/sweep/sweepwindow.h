#pragma once

// The Benchmark Sweep window (issue 14 item 8): runs the document's program at sizes MIN..MAX
// (doubling) on the chosen backends — the simulator's prediction, CPU, CUDA, NCCL; those that
// cannot run here are shown disabled with the reason — with progress and Cancel, and plots busbw
// or algbw against size. Every sweep run in the window keeps its own series, so versions and
// algorithms can be compared by opening each and sweeping into the same window (the legend hides
// lines). Each point that ran is stored as a run in the library under the document's version,
// and the window says what was stored. The table lists every point; CSV and PNG export.
//
// Files: sweepwindow.cpp lays the window out and runs sweeps, sweepwindowform.cpp builds the
// settings form.

#include "run/runstore.h"
#include "sweepjob.h"

#include <QWidget>

#include <functional>
#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTimer;

namespace cs::storage {
class Library;
}
namespace cs::editor {
class Document;
}

namespace cs::visualizer {

class SweepChart;
class SweepResults;

class SweepWindow : public QWidget
{
  Q_OBJECT

public:
  /// The library points are stored in, asked for as each point ends (it may be reopened).
  using LibraryProvider = std::function<storage::Library*()>;

  SweepWindow(editor::Document* document, LibraryProvider library, QWidget* parent = nullptr);
  ~SweepWindow() override;

  /// Ticks or clears a backend ("simulate", "cpu", …); false when it is unknown or unavailable.
  bool setBackendChecked(const QString& id, bool checked);
  bool isBackendEnabled(const QString& id) const;
  /// Why backend `id` cannot run here (empty when it can).
  QString backendReason(const QString& id) const;
  /// Selects the sizes MIN..MAX; false when either is not a power of two the form offers.
  bool setSizeRange(std::int64_t minBytes, std::int64_t maxBytes);

  /// Starts a sweep with the form's settings; false with the reason in the status when it cannot.
  bool start();
  /// Stops the point in progress; sweepFinished(true) follows.
  void cancel();

  /// The sweep the form describes now, or why there is none.
  std::optional<SweepRequest> makeRequest(QString* error) const;

  SweepJob* job() const { return m_job; }
  SweepResults* results() const { return m_results; }
  SweepChart* chart() const { return m_chart; }
  QTableView* table() const { return m_table; }
  QSpinBox* iterationsBox() const { return m_iterations; }
  QDoubleSpinBox* timeoutBox() const { return m_timeout; }
  /// The progress line ("cpu 4 MiB — point 7 of 24", "done: 24 points in 3.1 s").
  QString statusText() const;
  /// What storing did ("stored 12 runs under ring v3", or why nothing was stored).
  QString storeText() const;

  /// Writes the table as CSV / the chart as PNG; the error for people, empty on success.
  QString exportCsv(const QString& path) const;
  QString exportPng(const QString& path) const;

signals:
  /// Once per sweep, after its last point was plotted and stored.
  void sweepFinished(bool cancelled);

private:
  // sweepwindowform.cpp
  QWidget* buildForm();
  QWidget* buildBackends();
  QWidget* buildRunControls();
  void refreshBackends();
  void updateEnabled();
  void updatePlanNote();
  QString seriesLabel() const;

  // sweepwindow.cpp
  QWidget* buildResultsBar();
  void pointStarted(int index, int total, const QString& label);
  void pointFinished(const SweepRun& run);
  /// What arriving points change beyond the table's rows: the store line, the columns' widths
  /// and the scroll position.
  void showProgress();
  /// Sizes the table's columns to their contents.
  void fitColumns();
  void jobFinished(bool cancelled, int done, int total);
  void exportCsvFromDialog();
  void exportPngFromDialog();

  editor::Document* m_document;
  LibraryProvider m_library;
  SweepJob* m_job;
  SweepResults* m_results;
  SweepChart* m_chart = nullptr;
  QTableView* m_table = nullptr;
  QTimer* m_viewTimer = nullptr;

  /// The sweep in progress: what it runs, where its points are stored, what storing did.
  struct Running {
    SweepRequest request;
    RunTarget target;
    int stored = 0;
    QString storedUnder; ///< "ring v3"
    QString notStored;   ///< the first reason a point was not stored
    qint64 startedMs = 0;
  };
  std::optional<Running> m_running;

  std::map<QString, QCheckBox*> m_backends;
  std::map<QString, QString> m_unavailable; ///< backend → why it cannot run here
  QGridLayout* m_backendGrid = nullptr;
  QLabel* m_topologyNote = nullptr;
  QComboBox* m_minSize = nullptr;
  QComboBox* m_maxSize = nullptr;
  QLabel* m_planNote = nullptr;
  QComboBox* m_dtype = nullptr;
  QComboBox* m_op = nullptr;
  QComboBox* m_mode = nullptr;
  QSpinBox* m_iterations = nullptr;
  QSpinBox* m_warmup = nullptr;
  QDoubleSpinBox* m_timeout = nullptr;
  QPushButton* m_startButton = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QPushButton* m_clearButton = nullptr;
  QPushButton* m_csvButton = nullptr;
  QPushButton* m_pngButton = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_status = nullptr;
  QLabel* m_stored = nullptr;
};

} // namespace cs::visualizer
