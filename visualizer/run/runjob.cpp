#include "runjob.h"

#include "runbackends.h"

#include <QLocale>
#include <QThread>

#include <algorithm>

#include <chrono>
#include <string>

namespace cs::visualizer {

RunOutcome runRequest(const RunRequest& request, const std::atomic<bool>* cancel,
                      RunProgress* progress)
{
  const auto begin = std::chrono::steady_clock::now();
  RunOutcome outcome;
  outcome.backend = request.backend;
  if (request.backend == QLatin1String(kSimulateBackend)) {
    SimOptions options;
    options.bytes = request.options.bytes;
    options.cancel = cancel;
    options.eventsDone = progress ? &progress->simEvents : nullptr;
    if (request.topology)
      outcome.sim = simulateProgram(request.program, *request.topology, options);
    else
      outcome.error = QStringLiteral("simulating needs a topology");
  } else {
    ExecOptions options = request.options;
    options.trace = true;
    options.cancel = cancel;
    options.launchesDone = progress ? &progress->launchesDone : nullptr;
    std::string error;
    if (std::unique_ptr<Executor> executor = makeExecutor(request.backend.toStdString(), &error)) {
      outcome.exec = executor->run(request.program, options);
    } else {
      outcome.error = QString::fromStdString(error);
    }
  }
  if (cancel && cancel->load()) {
    outcome.cancelled = true;
    outcome.exec.reset();
    outcome.sim.reset();
  }
  outcome.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return outcome;
}

QString runProgressText(const RunProgressSnapshot& progress)
{
  const QString elapsed = QObject::tr("%1 s").arg(progress.elapsedSeconds, 0, 'f', 1);
  if (progress.simulating) {
    return QObject::tr("%1 · %2 events simulated")
        .arg(elapsed, QLocale().toString(static_cast<qlonglong>(progress.simEvents)));
  }
  // The launch under way, counting warm-up ones: the last one is verified and traced.
  const int current = std::min(progress.launchesDone + 1, std::max(1, progress.launches));
  return QObject::tr("%1 · iteration %2 of %3").arg(elapsed).arg(current).arg(progress.launches);
}

RunJob::RunJob(QObject* parent) : QObject(parent)
{
}

RunJob::~RunJob()
{
  if (m_thread) {
    m_cancel->store(true);
    m_thread->wait();
  }
}

bool RunJob::start(RunRequest request)
{
  if (m_thread)
    return false;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  m_outcome = std::make_shared<RunOutcome>();
  m_progress = std::make_shared<RunProgress>();
  m_shape = {};
  m_shape.simulating = request.backend == QLatin1String(kSimulateBackend);
  m_shape.launches = m_shape.simulating ? 0 : request.options.warmup + request.options.iterations;
  m_started = std::chrono::steady_clock::now();
  const QString backend = request.backend;
  // The worker owns copies of what it reads, so the document may change while it runs.
  m_thread = QThread::create(
      [request = std::move(request), cancel = m_cancel, outcome = m_outcome,
       progress = m_progress] { *outcome = runRequest(request, cancel.get(), progress.get()); });
  connect(m_thread, &QThread::finished, this, &RunJob::workerDone);
  m_thread->start();
  emit started(backend);
  return true;
}

RunProgressSnapshot RunJob::progress() const
{
  if (!m_thread)
    return {};
  RunProgressSnapshot snapshot = m_shape;
  snapshot.launchesDone = m_progress->launchesDone.load(std::memory_order_relaxed);
  snapshot.simEvents = m_progress->simEvents.load(std::memory_order_relaxed);
  snapshot.elapsedSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
  return snapshot;
}

void RunJob::cancel()
{
  if (m_cancel)
    m_cancel->store(true);
}

void RunJob::workerDone()
{
  QThread* thread = m_thread;
  m_thread = nullptr;
  // finished() is emitted from the worker just before it ends: wait() returns at once.
  thread->wait();
  thread->deleteLater();
  const RunOutcome outcome = std::move(*m_outcome);
  m_outcome.reset();
  emit finished(outcome);
}

} // namespace cs::visualizer
