// Cancel stops every backend that runs on this machine: a run far too long to finish (16 MiB,
// thousands of iterations, no timeout to speak of) on the CPU executor and on the GPU executor's
// host emulation is cancelled from another thread and returns within seconds as Failed with
// `cancelled` and an exec.cancelled error, no trace and no verification; a flag set before the
// run starts stops it before its first launch; the run loop counts finished launches.

#include "catalogue/ringallreduce.h"
#include "exec/executor.h"
#include "exec/hostexecutors.h"
#include "support/cancelling.h"

#include <QTest>

#include <memory>

using namespace cs;

namespace {

ExecOptions endlessRun(const std::atomic<bool>* cancel, std::atomic<int>* launches)
{
  ExecOptions options;
  options.bytes = 16 << 20;
  options.iterations = 100000;
  options.timeoutSeconds = 3600;
  options.trace = true;
  options.cancel = cancel;
  options.launchesDone = launches;
  return options;
}

bool hasCancelError(const ExecResult& result)
{
  for (const Diagnostic& diagnostic : result.diagnostics) {
    if (diagnostic.code == "exec.cancelled")
      return true;
  }
  return false;
}

} // namespace

class TestExecCancel : public QObject
{
  Q_OBJECT

private slots:
  void cancelStopsALongRun_data() { test::addHostExecutorRows(); }
  void cancelStopsALongRun()
  {
    QFETCH(QString, backend);
    const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
    std::atomic<bool> cancel{false};
    std::atomic<int> launches{0};
    const ExecOptions options = endlessRun(&cancel, &launches);
    std::unique_ptr<Executor> executor = test::hostExecutor(backend);
    // Cancelled once it got going (at least one launch done).
    const auto cancelled = test::cancelWhileRunning(
        [&] { return executor->run(program, options); }, [&] { return launches.load() >= 1; },
        cancel, std::chrono::seconds(60), std::chrono::seconds(20));
    QVERIFY(cancelled);
    const ExecResult& result = cancelled->result;
    QVERIFY2(cancelled->seconds < 10, qPrintable(QString::number(cancelled->seconds)));
    QVERIFY(result.cancelled);
    QCOMPARE(result.status, ExecStatus::Failed);
    QVERIFY(hasCancelError(result));
    QVERIFY(launches.load() < options.iterations);
    QVERIFY(!result.trace.verification.has_value());
    QVERIFY(result.blocked.empty());
  }

  void aCancelBeforeTheStartRunsNothing_data() { test::addHostExecutorRows(); }
  void aCancelBeforeTheStartRunsNothing()
  {
    QFETCH(QString, backend);
    std::atomic<bool> cancel{true};
    std::atomic<int> launches{0};
    const ExecResult result = test::hostExecutor(backend)->run(
        makeRingAllReduce({4, 1, Protocol::Simple}), endlessRun(&cancel, &launches));
    QVERIFY(result.cancelled);
    QCOMPARE(result.status, ExecStatus::Failed);
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
