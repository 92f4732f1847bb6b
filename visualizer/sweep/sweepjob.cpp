#include "sweepjob.h"

#include <QThread>

namespace cs::visualizer {

bool runSweep(const SweepRequest& request, const std::atomic<bool>* cancel,
              const std::function<void(int index, int total, const QString& label)>& started,
              const std::function<void(std::shared_ptr<SweepRun>)>& done)
{
  const std::vector<SweepPlanPoint> plan = sweepPlan(request);
  const int total = static_cast<int>(plan.size());
  for (int i = 0; i < total; ++i) {
    if (cancel && cancel->load())
      return true;
    if (started)
      started(i, total, pointLabel(plan[i]));
    auto run = std::make_shared<SweepRun>();
    run->index = i;
    run->total = total;
    run->request = pointRequest(request, plan[i]);
    run->outcome = runRequest(run->request, cancel);
    if (run->outcome.cancelled)
      return true; // half a point: dropped, never reported
    if (done)
      done(std::move(run));
  }
  return cancel && cancel->load();
}

SweepJob::SweepJob(QObject* parent) : QObject(parent)
{
}

SweepJob::~SweepJob()
{
  if (m_thread) {
    m_cancel->store(true);
    m_thread->wait();
    delete m_thread;
  }
}

bool SweepJob::start(SweepRequest request)
{
  if (m_thread)
    return false;
  m_total = static_cast<int>(sweepPlan(request).size());
  if (m_total == 0)
    return false;
  m_done = 0;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  m_cancelled = std::make_shared<std::atomic<bool>>(false);
  // The worker reports through queued calls on this object: they run on the GUI thread, in order,
  // before QThread::finished reaches workerDone(), and are dropped if the job is gone.
  const auto started = [this](int index, int total, const QString& label) {
    QMetaObject::invokeMethod(
        this, [this, index, total, label] { emit pointStarted(index, total, label); },
        Qt::QueuedConnection);
  };
  const auto done = [this](std::shared_ptr<SweepRun> run) {
    QMetaObject::invokeMethod(
        this,
        [this, run = std::move(run)] {
          ++m_done;
          emit pointFinished(*run);
        },
        Qt::QueuedConnection);
  };
  m_thread = QThread::create(
      [request = std::move(request), cancel = m_cancel, cancelled = m_cancelled, started, done] {
        cancelled->store(runSweep(request, cancel.get(), started, done));
      });
  connect(m_thread, &QThread::finished, this, &SweepJob::workerDone);
  m_thread->start();
  return true;
}

void SweepJob::cancel()
{
  if (m_cancel)
    m_cancel->store(true);
}

void SweepJob::workerDone()
{
  QThread* thread = m_thread;
  m_thread = nullptr;
  thread->wait(); // finished() comes from the worker just before it ends
  thread->deleteLater();
  emit finished(m_cancelled->load(), m_done, m_total);
}

} // namespace cs::visualizer
