#include "runjob.h"

#include "runbackends.h"

#include <QThread>

#include <chrono>
#include <string>

namespace cs::visualizer {

RunOutcome runRequest(const RunRequest& request, const std::atomic<bool>* cancel)
{
  const auto begin = std::chrono::steady_clock::now();
  RunOutcome outcome;
  outcome.backend = request.backend;
  if (request.backend == QLatin1String(kSimulateBackend)) {
    // The simulator is quick and cannot be interrupted; a cancel during it drops its result.
    SimOptions options;
    options.bytes = request.options.bytes;
    if (request.topology)
      outcome.sim = simulateProgram(request.program, *request.topology, options);
    else
      outcome.error = QStringLiteral("simulating needs a topology");
  } else {
    ExecOptions options = request.options;
    options.trace = true;
    options.cancel = cancel;
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
  const QString backend = request.backend;
  // The worker owns copies of what it reads, so the document may change while it runs.
  m_thread =
      QThread::create([request = std::move(request), cancel = m_cancel, outcome = m_outcome] {
        *outcome = runRequest(request, cancel.get());
      });
  connect(m_thread, &QThread::finished, this, &RunJob::workerDone);
  m_thread->start();
  emit started(backend);
  return true;
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
