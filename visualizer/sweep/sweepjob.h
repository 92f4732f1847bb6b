#pragma once

// A benchmark sweep on ONE worker thread: the points of a SweepRequest one after another, each
// through runRequest() (run/runjob.h) as the Run panel runs one. The job reports each point as it
// starts and as it ends, on the GUI thread, so the window can plot and store while the next
// point runs. Cancel stops the point in progress the way Cancel stops a run (ExecOptions::cancel;
// a simulation is not interruptible and its result is dropped): a cancelled point is never
// reported, and finished() follows once the worker has ended.

#include "sweeprequest.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace cs::visualizer {

/// A finished point: which one, its run and what came of it.
struct SweepRun {
  int index = 0; ///< in sweepPlan() order
  int total = 0;
  RunRequest request;
  RunOutcome outcome;
};

/// Runs every point of `request` on the calling thread (what the worker does), calling `started`
/// before and `done` after each point that was not cancelled; `cancel` may be null. Returns
/// whether it was cancelled.
bool runSweep(const SweepRequest& request, const std::atomic<bool>* cancel,
              const std::function<void(int index, int total, const QString& label)>& started,
              const std::function<void(std::shared_ptr<SweepRun>)>& done);

class SweepJob : public QObject
{
  Q_OBJECT

public:
  explicit SweepJob(QObject* parent = nullptr);
  /// Cancels a running sweep and waits for its worker: no thread outlives the job.
  ~SweepJob() override;

  /// Starts `request` on a worker thread; false when a sweep is already going or it has no point.
  bool start(SweepRequest request);
  /// Asks the point in progress to stop and no later one to start.
  void cancel();
  bool isRunning() const { return m_thread != nullptr; }
  /// The worker of the current sweep (tests check that it ended), or null.
  QThread* thread() const { return m_thread; }

signals:
  /// Point `index` of `total` begins ("cpu 4 MiB").
  void pointStarted(int index, int total, const QString& label);
  /// A point ran to its end (verified, wrong, hung or failed alike); never a cancelled one.
  void pointFinished(const cs::visualizer::SweepRun& run);
  /// Once, after the worker ended: `done` points of `total` were reported.
  void finished(bool cancelled, int done, int total);

private:
  void workerDone();

  QThread* m_thread = nullptr;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  std::shared_ptr<std::atomic<bool>> m_cancelled; ///< what runSweep returned
  int m_done = 0;
  int m_total = 0;
};

} // namespace cs::visualizer
