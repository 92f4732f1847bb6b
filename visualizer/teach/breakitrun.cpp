#include "breakitrun.h"

#include "document/document.h"
#include "replaywindow.h"
#include "run/runstore.h"
#include "session/replaysession.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

#include <algorithm>

namespace cs::visualizer {

namespace {

/// The executor of the exercises' announced outcome (engine/teach/exercisejudge.cpp).
constexpr const char* kCpuBackend = "cpu";
// Seconds without progress before the watchdog calls it a hang: longer than the exercise search's
// (a shared machine must not turn a slow run into a hang), short enough for a class to wait.
constexpr double kWatchdogSeconds = 2.0;
constexpr int kProgressIntervalMs = 100;

/// A size every chunk count divides and one slice of every protocol covers (as the exercises
/// were judged), so the run is quick and a hang is found at its first slice.
std::int64_t runBytes(const Program& program)
{
  return std::int64_t{std::max(program.nchunksperloop, 1)} * 1024;
}

} // namespace

BreakItRun::BreakItRun(editor::Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_job(new RunJob(this)), m_progress(new QTimer(this))
{
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_run = new QPushButton(tr("Run on the CPU"), this);
  m_run->setToolTip(tr("Run the broken algorithm on the CPU executor and open the run in the "
                       "visual debugger: the wrong chunks, or where it hangs"));
  m_cancel = new QPushButton(tr("Cancel"), this);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  layout->addWidget(m_run);
  layout->addWidget(m_cancel);
  layout->addWidget(m_status, 1);
  m_progress->setInterval(kProgressIntervalMs);

  connect(m_run, &QPushButton::clicked, this, &BreakItRun::start);
  connect(m_cancel, &QPushButton::clicked, this, &BreakItRun::cancel);
  connect(m_job, &RunJob::finished, this, &BreakItRun::finished);
  connect(m_progress, &QTimer::timeout, this,
          [this] { m_status->setText(runProgressText(m_job->progress())); });
  updateEnabled();
}

void BreakItRun::setExercise(std::optional<int> connectionSlots, std::optional<int> root)
{
  m_armed = true;
  m_connectionSlots = connectionSlots;
  m_root = root;
  updateEnabled();
}

void BreakItRun::clearExercise()
{
  m_armed = false;
  updateEnabled();
}

QString BreakItRun::statusText() const
{
  return m_status->text();
}

bool BreakItRun::start()
{
  if (!m_armed || isRunning())
    return false;
  m_document->waitForAnalysis(); // the broken algorithm's Program
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program) {
    m_status->setText(tr("Nothing to run: the broken algorithm does not lower to a program."));
    return false;
  }
  RunRequest request;
  request.backend = QString::fromLatin1(kCpuBackend);
  request.program = *program;
  request.topology = m_document->topology();
  request.options.bytes = runBytes(*program);
  request.options.timeoutSeconds = kWatchdogSeconds;
  request.options.trace = true;
  request.options.root = m_root;
  request.options.connectionSlots = m_connectionSlots;
  if (!m_job->start(request))
    return false;
  m_request = std::move(request);
  m_status->setText(tr("Running on the CPU…"));
  m_progress->start();
  updateEnabled();
  return true;
}

void BreakItRun::cancel()
{
  m_job->cancel();
}

void BreakItRun::finished(const RunOutcome& outcome)
{
  m_progress->stop();
  m_outcome = outcome;
  if (outcome.cancelled)
    m_status->setText(tr("Cancelled."));
  else if (!outcome.error.isEmpty())
    m_status->setText(outcome.error);
  else
    m_status->setText(runVerdict(outcome));
  if (!outcome.cancelled && runHasTrace(outcome))
    openReplay(outcome);
  m_request.reset();
  updateEnabled();
  emit runFinished();
}

void BreakItRun::openReplay(const RunOutcome& outcome)
{
  ReplayOpen opened = openRunReplay(*m_request, outcome);
  if (!opened.session) {
    m_status->setText(m_status->text() + QLatin1Char('\n') +
                      tr("Cannot replay: %1").arg(whyNoReplay(opened)));
    return;
  }
  // A wrong result opens at the end, where the buffer view marks the wrong chunks (they turn red
  // once they hold their final values); a hang opens at the stop (openRunReplay).
  if (outcome.exec && outcome.exec->status == ExecStatus::Wrong)
    opened.session->setCursor(opened.session->endUs());
  const QString title = tr("%1 — Break it on the CPU (%2)")
                            .arg(m_document->displayName(), opened.session->description());
  if (m_opener)
    m_opener(std::move(opened.session), title);
  else
    ReplayWindow::showWindow(std::move(opened.session), window(), title);
}

void BreakItRun::updateEnabled()
{
  m_run->setEnabled(m_armed && !isRunning());
  m_cancel->setEnabled(isRunning());
}

} // namespace cs::visualizer
