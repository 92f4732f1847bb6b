// MainWindow: the Replay menu, which opens recorded runs of the shown program in the visual
// debugger, one at a time or two side by side (see mainwindow.h for the map).

#include "mainwindow.h"

#include "compare/comparewindow.h"
#include "document/document.h"
#include "follow/editorfollower.h"
#include "library.h"
#include "librarypanel.h"
#include "mainwindowactions.h"
#include "replaywindow.h"
#include "run/runpanel.h"
#include "session/documenttrace.h"
#include "sweep/sweepwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace cs::editor {

namespace {

/// The library's calibrations measured for `topology`, for the compare view's chooser; those
/// that no longer read are left out (the Library panel shows them).
std::vector<visualizer::CompareCalibration> calibrationsFor(storage::Library* library,
                                                            const Topology& topology)
{
  std::vector<visualizer::CompareCalibration> offered;
  if (!library)
    return offered;
  storage::Result<std::vector<storage::CalibrationRecord>> records = library->calibrations();
  if (!records)
    return offered;
  for (const storage::CalibrationRecord& record : records.value()) {
    if (record.topology != topology.name)
      continue;
    CalibrationReadResult read = readCalibrationJson(record.json);
    if (read.calibration)
      offered.push_back({QString::fromStdString(record.name), std::move(*read.calibration)});
  }
  return offered;
}

} // namespace

QString MainWindow::openTrace(const QString& path)
{
  visualizer::DocumentReplay opened = visualizer::openDocumentTrace(*m_document, path);
  if (!opened.session)
    return opened.error;
  showReplayWindow(
      std::move(opened.session),
      tr("%1 — Replay of %2").arg(QFileInfo(path).fileName(), m_document->displayName()));
  return {};
}

void MainWindow::followReplay(visualizer::ReplayWindow* window)
{
  // One replay drives the editor's views at a time: the newest.
  if (m_replayWindow)
    delete m_replayWindow->findChild<visualizer::EditorFollower*>();
  new visualizer::EditorFollower(
      window->session(), m_document,
      {.timeline = m_timelineView, .program = m_programView, .problems = m_problemsPanel}, window);
}

void MainWindow::openTraceFromDialog()
{
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Trace"), QFileInfo(m_document->origin().filePath).absolutePath(),
      tr("Chrome traces (*.json);;All files (*)"));
  if (path.isEmpty())
    return;
  const QString error = openTrace(path);
  if (!error.isEmpty())
    showError(tr("Open Trace"), error);
}

void MainWindow::showRunPanel()
{
  m_runDock->show();
  m_runDock->raise();
  m_runPanel->setFocus();
}

QString MainWindow::openComparison(const QString& first, const QString& second)
{
  visualizer::DocumentReplay a = visualizer::openDocumentTrace(*m_document, first);
  if (!a.session)
    return a.error;
  visualizer::DocumentReplay b = visualizer::openDocumentTrace(*m_document, second);
  if (!b.session)
    return b.error;
  auto* window = new visualizer::CompareWindow(std::move(a.session), std::move(b.session), this);
  if (const std::optional<Topology>& topology = m_document->topology())
    window->offerCalibrations(calibrationsFor(m_libraryPanel->library(), *topology), *topology);
  window->setWindowFlag(Qt::Window);
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->setWindowTitle(tr("%1 vs %2 — Compare runs of %3")
                             .arg(QFileInfo(first).fileName(), QFileInfo(second).fileName(),
                                  m_document->displayName()));
  window->resize(1300, 860);
  window->show();
  return {};
}

void MainWindow::compareTracesFromDialog()
{
  const QString folder = QFileInfo(m_document->origin().filePath).absolutePath();
  const QString filter = tr("Chrome traces (*.json);;All files (*)");
  const QString first =
      QFileDialog::getOpenFileName(this, tr("Compare Traces: first run (A)"), folder, filter);
  if (first.isEmpty())
    return;
  const QString second = QFileDialog::getOpenFileName(this, tr("Compare Traces: second run (B)"),
                                                      QFileInfo(first).absolutePath(), filter);
  if (second.isEmpty())
    return;
  const QString error = openComparison(first, second);
  if (!error.isEmpty())
    showError(tr("Compare Traces"), error);
}

void MainWindow::addCompareAction(QMenu* replay)
{
  auto* compare = new QAction(tr("&Compare Traces…"), this);
  compare->setStatusTip(tr("Compare two recorded runs of this program (designed vs measured)"));
  compare->setEnabled(m_actions->openTrace->isEnabled());
  connect(m_actions->openTrace, &QAction::enabledChanged, compare, &QAction::setEnabled);
  connect(compare, &QAction::triggered, this, &MainWindow::compareTracesFromDialog);
  replay->addAction(compare);
}

visualizer::SweepWindow* MainWindow::showSweepWindow()
{
  auto* window = qobject_cast<visualizer::SweepWindow*>(m_sweepWindow.data());
  if (!window) {
    window = new visualizer::SweepWindow(
        m_document, [this] { return m_libraryPanel->library(); }, this);
    window->setWindowFlag(Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->resize(1300, 820);
    m_sweepWindow = window;
  }
  window->setWindowTitle(tr("%1 — Benchmark Sweep").arg(m_document->displayName()));
  window->show();
  window->raise();
  window->activateWindow();
  return window;
}

void MainWindow::addSweepAction(QMenu* replay)
{
  auto* sweep = new QAction(tr("Benchmark &Sweep…"), this);
  sweep->setStatusTip(tr("Run this program at sizes MIN..MAX on chosen backends and plot its "
                         "bus bandwidth against size"));
  connect(sweep, &QAction::triggered, this, [this] { showSweepWindow(); });
  replay->addAction(sweep);
}

} // namespace cs::editor
