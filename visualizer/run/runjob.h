#pragma once

// One run of a program started from the window: the simulator or an executor, on a worker
// thread, so the event loop never waits for it. Cancel sets the flag the executor's watchdog
// polls (ExecOptions::cancel); a cancelled run ends as RunOutcome::cancelled and its partial
// result is dropped. The job emits finished() once, on the GUI thread, after its worker ended.

#include "exec/executor.h"
#include "model/program.h"
#include "model/topology.h"
#include "sim/simulator.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

class QThread;

namespace cs::visualizer {

/// What to run and how.
struct RunRequest {
  QString backend; ///< "simulate" (kSimulateBackend) or an executor name
  Program program;
  std::optional<Topology> topology; ///< the simulator's machine (required for "simulate")
  ExecOptions options;              ///< bytes, dtype, op, mode, iterations, timeout
};

/// How a run ended: a result of the backend that ran, or cancelled.
struct RunOutcome {
  QString backend;
  bool cancelled = false;
  std::optional<ExecResult> exec; ///< an executor's result
  std::optional<SimResult> sim;   ///< the simulator's result
  QString error;                  ///< why nothing ran (unknown backend, no topology)
  double wallSeconds = 0;         ///< how long the job took
};

class RunJob : public QObject
{
  Q_OBJECT

public:
  explicit RunJob(QObject* parent = nullptr);
  /// Cancels a running job and waits for its worker (the window is closing).
  ~RunJob() override;

  /// Starts `request` on a worker thread; false when a run is already going.
  bool start(RunRequest request);
  /// Asks the running backend to stop; finished() follows with a cancelled outcome.
  void cancel();
  bool isRunning() const { return m_thread != nullptr; }
  /// The worker of the current run (tests check that it ended), or null.
  QThread* thread() const { return m_thread; }

signals:
  void started(const QString& backend);
  /// Emitted on the GUI thread once the worker has finished.
  void finished(const cs::visualizer::RunOutcome& outcome);

private:
  void workerDone();

  QThread* m_thread = nullptr;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  std::shared_ptr<RunOutcome> m_outcome;
};

/// Runs `request` on the calling thread (what the worker does); `cancel` may be null.
RunOutcome runRequest(const RunRequest& request, const std::atomic<bool>* cancel);

} // namespace cs::visualizer
