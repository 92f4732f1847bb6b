// RunPanel: starting a run from the form and handling its end (see runpanel.h).

#include "runpanel.h"

#include "document/document.h"
#include "io/bytesize.h"
#include "model/buffergeometry.h"
#include "model/topologypresets.h"
#include "replaywindow.h"
#include "runbackends.h"
#include "session/replaysession.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSpinBox>
#include <QTimer>

namespace cs::visualizer {

std::optional<RunRequest> RunPanel::makeRequest(QString* error) const
{
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program) {
    *error = tr("nothing to run: the document has no valid program");
    return std::nullopt;
  }
  const std::optional<std::int64_t> bytes = parseByteSize(m_size->text().trimmed().toStdString());
  if (!bytes || *bytes <= 0) {
    *error = tr("the size '%1' is not a byte size (4096, 64K, 64M)").arg(m_size->text());
    return std::nullopt;
  }
  RunRequest request;
  request.backend = m_backend->currentData().toString();
  request.program = *program;
  request.topology = m_document->topology();
  if (!request.topology && request.backend == QLatin1String(kSimulateBackend)) {
    std::string why;
    request.topology = makePresetTopology(m_preset->currentText().toStdString(), {}, &why);
    if (!request.topology) {
      *error = tr("no topology to simulate on: %1").arg(QString::fromStdString(why));
      return std::nullopt;
    }
  }
  request.options.bytes = *bytes;
  request.options.dtype = static_cast<DataType>(m_dtype->currentData().toInt());
  request.options.op = static_cast<ReduceOp>(m_op->currentData().toInt());
  if (const int mode = m_mode->currentData().toInt(); mode >= 0)
    request.options.mode = static_cast<CallMode>(mode);
  request.options.iterations = m_iterations->value();
  request.options.timeoutSeconds = m_timeout->value();
  request.options.trace = true;
  return request;
}

bool RunPanel::run()
{
  if (m_job->isRunning())
    return false;
  QString error;
  std::optional<RunRequest> request = makeRequest(&error);
  if (!request) {
    m_verdict->setText(error);
    m_stored->clear();
    return false;
  }
  m_running = request;
  m_job->start(std::move(*request));
  m_verdict->setText(tr("Running on %1…").arg(m_backend->currentText()));
  m_stored->clear();
  showProgress();
  m_progressLine->show();
  m_progressTimer->start();
  updateEnabled();
  return true;
}

void RunPanel::cancel()
{
  if (!m_job->isRunning())
    return;
  m_job->cancel();
  m_verdict->setText(tr("Cancelling…"));
}

void RunPanel::jobFinished(const RunOutcome& outcome)
{
  const RunRequest request = std::move(*m_running);
  m_running.reset();
  m_progressTimer->stop();
  m_progressLine->hide();
  m_progress->setRange(0, 1);
  m_progress->setValue(outcome.cancelled ? 0 : 1);
  m_verdict->setText(
      tr("%1 — %2 (%3 s wall)")
          .arg(m_backend->itemText(m_backend->findData(outcome.backend)), runVerdict(outcome))
          .arg(outcome.wallSeconds, 0, 'f', 2));
  if (outcome.cancelled) {
    m_stored->setText(tr("nothing stored"));
  } else {
    const editor::DocumentOrigin& origin = m_document->origin();
    m_stored->setText(storeRun(m_library ? m_library() : nullptr,
                               {origin.libraryName, origin.libraryVersion}, request, outcome));
    if (runHasTrace(outcome))
      openReplay(request, outcome);
  }
  updateEnabled();
  emit runFinished();
}

void RunPanel::showProgress()
{
  const RunProgressSnapshot progress = m_job->progress();
  // The simulator's total is unknown up front (a busy bar); an executor's is its launches.
  if (progress.simulating || progress.launches <= 0) {
    m_progress->setRange(0, 0);
  } else {
    m_progress->setRange(0, progress.launches);
    m_progress->setValue(progress.launchesDone);
  }
  m_progressLine->setText(runProgressText(progress));
}

void RunPanel::openReplay(const RunRequest& request, const RunOutcome& outcome)
{
  ReplayOpen opened = openRunReplay(request, outcome);
  if (!opened.session) {
    m_stored->setText(m_stored->text() + QLatin1Char('\n') +
                      tr("cannot replay: %1").arg(whyNoReplay(opened)));
    return;
  }
  const QString title =
      tr("%1 — Replay (%2)").arg(m_document->displayName(), opened.session->description());
  if (m_replayWindow)
    m_replayWindow->close();
  m_replayWindow = ReplayWindow::showWindow(std::move(opened.session), this->window(), title);
}

} // namespace cs::visualizer
