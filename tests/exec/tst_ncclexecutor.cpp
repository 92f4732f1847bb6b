// The NCCL executor itself. Its schedule is tested everywhere by tst_ncclrounds; here a
// deadlocking program is reported before any GPU is looked for, a machine without enough GPUs
// is told what the run needs, and with two or more GPUs (label `gpu`) the ring all-reduce and the
// corpus run verified, the ring beside NCCL's own ncclAllReduce.

#include "catalogue/ringallreduce.h"
#include "exec/cancelrun.h"
#include "exec/cuda/cudaexecutor.h"
#include "exec/executor.h"
#include "exec/nccl/ncclexecutor.h"
#include "exec/ncclroundcheck.h"
#include "exec/wrongring.h"
#include "support/corpus.h"

#include <QTest>

#include <numeric>

using namespace cs;
using test::bothReceiveFirst;
using test::exchange;
using test::positionsOf;
using test::smallRun;

namespace {

int visibleGpus(std::string* why)
{
  return visibleCudaDevices(why).value_or(0);
}

#define CS_REQUIRE_GPUS(n)                                                                         \
  do {                                                                                             \
    std::string why;                                                                               \
    const int found = visibleGpus(&why);                                                           \
    if (found < (n))                                                                               \
      QSKIP(qPrintable(                                                                            \
          QString("the NCCL executor needs %1 GPUs; %2 found%3")                                   \
              .arg(n)                                                                              \
              .arg(found)                                                                          \
              .arg(why.empty() ? QString() : " (" + QString::fromStdString(why) + ")")));          \
  } while (false)

} // namespace

class TestNcclExecutor : public QObject
{
  Q_OBJECT

private slots:
  void deadlockIsReportedWithoutGpus()
  {
    // The executor says so before looking for GPUs, at the positions the scheduler names
    // (tst_ncclrounds checks those against the CPU executor's watchdog).
    const Program program = bothReceiveFirst();
    const ExecResult nccl = makeNcclExecutor()->run(program, smallRun(program, 16, DataType::F32));
    QCOMPARE(execStatusName(nccl.status), std::string_view("hung"));
    QCOMPARE(nccl.diagnostics.front().code, std::string("exec.hang"));
    QCOMPARE(nccl.diagnostics.front().related.size(), std::size_t(2));
    const std::set<std::tuple<int, int, int, int, int>> expected{
        {0, 0, 0, static_cast<int>(WaitKind::Message), 1},
        {1, 0, 0, static_cast<int>(WaitKind::Message), 0}};
    QCOMPARE(positionsOf(nccl.blocked), expected);
  }

  void withoutEnoughGpusItSaysWhatItNeeds()
  {
    std::string why;
    const int found = visibleGpus(&why);
    const int ranks = std::max(8, found + 1);
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    const ExecResult result = makeNcclExecutor()->run(program, smallRun(program, 4, DataType::F32));
    QCOMPARE(execStatusName(result.status), std::string_view("failed"));
    QVERIFY(!result.diagnostics.empty());
    const Diagnostic& first = result.diagnostics.front();
    QCOMPARE(first.code, std::string("exec.nccl-devices"));
    QVERIFY2(first.message.find("this program has " + std::to_string(ranks) + " ranks") !=
                 std::string::npos,
             first.message.c_str());
    QVERIFY(result.iterationUs.empty());
    QVERIFY(result.libraryUs.empty());
  }

  void ringAllReduceOnGpus_data()
  {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("op");
    QTest::newRow("float sum") << int(DataType::F32) << int(ReduceOp::Sum);
    QTest::newRow("int32 max") << int(DataType::I32) << int(ReduceOp::Max);
  }

  void ringAllReduceOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    QFETCH(int, type);
    QFETCH(int, op);
    const int ranks = std::min(8, visibleGpus(nullptr));
    const Program program = makeRingAllReduce({ranks, 2, Protocol::Simple});
    // 1000 elements per chunk: the local kernels' vector loops and their tails both run.
    ExecOptions options = smallRun(program, 1000, static_cast<DataType>(type));
    options.op = static_cast<ReduceOp>(op);
    options.warmup = 1;
    options.iterations = 2;
    options.trace = true;
    options.timeoutSeconds = 20;
    const ExecResult result = makeNcclExecutor()->run(program, options);
    QVERIFY2(result.status == ExecStatus::Verified,
             qPrintable(test::describeDiagnostics(result.diagnostics)));
    QCOMPARE(result.wrong, 0);
    QCOMPARE(result.checked, qint64(ranks) * 2 * ranks * 1000);
    QCOMPARE(result.iterationUs.size(), std::size_t(2));
    QVERIFY(result.iterationUs[0] > 0);
    QCOMPARE(result.libraryCall, std::string("ncclAllReduce"));
    QCOMPARE(result.libraryUs.size(), std::size_t(2));
    QVERIFY(result.libraryUs[0] > 0);
    QVERIFY(test::hasCode(result.diagnostics, "exec.nccl-no-slicing"));
    QCOMPARE(result.trace.source, std::string("nccl"));
    QCOMPARE(result.trace.events.size(),
             std::size_t(ranks) * 2 * program.gpus[0].threadblocks[0].steps.size());
    for (const TraceEvent& event : result.trace.events) {
      QVERIFY(event.start <= event.end);
      QVERIFY(event.end <= result.trace.totalUs);
    }
  }

  void corpusOnGpus_data()
  {
    CS_REQUIRE_CORPUS();
    test::addCorpusRows();
  }

  void corpusOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const Program program = test::loadProgram(path);
    if (program.ngpus > visibleGpus(nullptr))
      QSKIP(qPrintable(QString("%1 ranks, more than this machine's GPUs").arg(program.ngpus)));
    const int mult = sizeMultiplier(program.collective, program.ngpus);
    const std::int64_t chunkElements =
        mult / std::gcd<std::int64_t>(program.nchunksperloop, mult) * 300;
    for (const CallMode mode : declaredModes(program)) {
      ExecOptions options = smallRun(program, chunkElements, DataType::I32);
      options.mode = mode;
      options.timeoutSeconds = 20;
      const ExecResult result = makeNcclExecutor()->run(program, options);
      const QString what =
          QString("%1: %2").arg(QString::fromStdString(std::string(callModeName(mode))),
                                test::describeDiagnostics(result.diagnostics));
      if (expected.startsWith("RACE")) // what it computes depends on timing
        QVERIFY2(result.status != ExecStatus::Failed && result.status != ExecStatus::Hung,
                 qPrintable(what));
      else if (expected.startsWith("post PASS"))
        QVERIFY2(result.status == ExecStatus::Verified, qPrintable(what));
      else if (expected.contains("post FAIL"))
        QVERIFY2(result.status == ExecStatus::Wrong && result.wrong > 0, qPrintable(what));
      else
        QVERIFY2(result.status == ExecStatus::NotVerified, qPrintable(what));
    }
  }

  void stagedExchangeOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    // Staged sends and a receive into scratch on real GPUs; a custom collective has nothing to
    // verify, so the run must simply end (overwrittenSourcesAreStagedOnlyWhenNeeded checks the
    // data of the same rounds on the host).
    const Program program = exchange();
    const ExecResult result =
        makeNcclExecutor()->run(program, smallRun(program, 96, DataType::I32));
    QCOMPARE(execStatusName(result.status), std::string_view("not-verified"));
    QVERIFY(result.libraryCall.empty());
  }

  void wrongChunksMatchTheCpuOnGpus()
  {
    CS_REQUIRE_GPUS(4);
    test::checkWrongChunksMatchTheCpu(*makeNcclExecutor());
  }

  void cancelAbortsTheCommunicators()
  {
    CS_REQUIRE_GPUS(2);
    const int ranks = std::min(8, visibleGpus(nullptr));
    test::checkCancelStops(*makeNcclExecutor(), makeRingAllReduce({ranks, 1, Protocol::Simple}));
  }
};

QTEST_APPLESS_MAIN(TestNcclExecutor)
#include "tst_ncclexecutor.moc"
