#pragma once

// One run of a program started from the window: the simulator or an executor, on a worker
// thread, so the event loop never waits for it. Cancel sets the flag the executor's watchdog
// polls (ExecOptions::cancel, SimOptions::cancel); a cancelled run ends as RunOutcome::cancelled
// and its partial result is dropped. The job emits finished() once, on the GUI thread, after its
// worker ended. Progress is polled, not signalled: the backends bump atomic counters
// (RunProgress) and the panel's timer reads progress().

#include "exec/executor.h"
#include "model/program.h"
#include "model/topology.h"
#include "sim/simulator.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <cstdint>
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

/// What a running job has done so far: written by the worker (the backends' counters), read by
/// the GUI thread's progress timer; cheap enough to update on every launch or every few
/// thousand simulated events.
struct RunProgress {
  std::atomic<int> launchesDone{0};       ///< an executor's finished launches (warm-up + timed)
  std::atomic<std::int64_t> simEvents{0}; ///< the simulator's processed events
};

/// A snapshot of RunProgress for people.
struct RunProgressSnapshot {
  bool simulating = false;
  int launchesDone = 0;
  int launches = 0; ///< warm-up + timed launches the executor runs
  std::int64_t simEvents = 0;
  double elapsedSeconds = 0;
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
  /// How far the current run got; all zero when no run is going.
  RunProgressSnapshot progress() const;

signals:
  void started(const QString& backend);
  /// Emitted on the GUI thread once the worker has finished.
  void finished(const cs::visualizer::RunOutcome& outcome);

private:
  void workerDone();

  QThread* m_thread = nullptr;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  std::shared_ptr<RunProgress> m_progress;
  RunProgressSnapshot m_shape; ///< what progress() reports besides the counters
  std::chrono::steady_clock::time_point m_started;
  std::shared_ptr<RunOutcome> m_outcome;
};

/// "2.4 s · iteration 3 of 5", "0.8 s · 1,234,567 events simulated": the progress line.
QString runProgressText(const RunProgressSnapshot& progress);

/// Runs `request` on the calling thread (what the worker does); `cancel` may be null, and so may
/// `progress` (where the backend counts what it did).
RunOutcome runRequest(const RunRequest& request, const std::atomic<bool>* cancel,
                      RunProgress* progress = nullptr);

} // namespace cs::visualizer
