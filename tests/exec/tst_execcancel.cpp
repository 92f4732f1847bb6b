// Cancel stops every backend that runs on this machine: a run far too long to finish (16 MiB,
// 100,000 iterations, no timeout to speak of) on the CPU executor and on the GPU executor's
// host emulation is cancelled from another thread and returns within seconds as Failed with
// `cancelled` and an exec.cancelled error, no trace and no verification; a flag set before the
// run starts stops it before its first launch; the run loop counts finished launches.

#include "catalogue/ringallreduce.h"
#include "exec/cancelrun.h"
#include "exec/executor.h"
#include "exec/hostexecutors.h"

#include <QTest>

using namespace cs;

class TestExecCancel : public QObject
{
  Q_OBJECT

private slots:
  void cancelStopsALongRun_data() { test::addHostExecutorRows(); }
  void cancelStopsALongRun()
  {
    QFETCH(QString, backend);
    test::checkCancelStops(*test::hostExecutor(backend),
                           makeRingAllReduce({4, 1, Protocol::Simple}));
  }

  void aCancelBeforeTheStartRunsNothing_data() { test::addHostExecutorRows(); }
  void aCancelBeforeTheStartRunsNothing()
  {
    QFETCH(QString, backend);
    std::atomic<bool> cancel{true};
    std::atomic<int> launches{0};
    const ExecResult result = test::hostExecutor(backend)->run(
        makeRingAllReduce({4, 1, Protocol::Simple}), test::endlessRun(&cancel, &launches));
    QVERIFY(test::isCancelled(result));
    QCOMPARE(launches.load(), 0);
    QVERIFY(result.iterationUs.empty());
  }

  void launchesAreCounted()
  {
    std::atomic<int> launches{0};
    ExecOptions options;
    options.bytes = 4 * 1024;
    options.warmup = 2;
    options.iterations = 3;
    options.launchesDone = &launches;
    const ExecResult result =
        makeExecutor("cpu")->run(makeRingAllReduce({4, 1, Protocol::Simple}), options);
    QCOMPARE(result.status, ExecStatus::Verified);
    QVERIFY(!result.cancelled);
    QCOMPARE(launches.load(), 5);
  }
};

QTEST_MAIN(TestExecCancel)
#include "tst_execcancel.moc"
