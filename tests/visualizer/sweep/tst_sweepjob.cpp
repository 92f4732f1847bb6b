// The sweep job: a CPU sweep of the catalogue's 4-rank ring all-reduce over 1 KiB..16 KiB gives
// one verified point per size with algbw = bytes / time and busbw = algbw × 2(n−1)/n; the
// simulator's points form their own series; Cancel during a long sweep ends it with cancelled,
// its worker finished and no half point reported; the destructor of a running job leaves no
// thread behind.

#include "sweep/sweepjob.h"

#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace cs;
using namespace cs::visualizer;

namespace {

constexpr int kSweepTimeoutMs = 60000; // five tiny CPU points take well under a second

SweepRequest ringSweep(QStringList backends, std::int64_t minBytes, std::int64_t maxBytes)
{
  SweepRequest request;
  request.label = QStringLiteral("ring");
  request.program = makeRingAllReduce({4, 1, Protocol::Simple});
  request.topology = makePresetTopology("ring-4");
  request.backends = std::move(backends);
  request.minBytes = minBytes;
  request.maxBytes = maxBytes;
  request.options.iterations = 2;
  return request;
}

} // namespace

class Test_sweepjob : public QObject
{
  Q_OBJECT

private slots:
  void sizesDouble_data();
  void sizesDouble();
  void cpuSweepMeasuresEverySize();
  void simulatedPointsFormTheirOwnSeries();
  void ncclsOwnCallIsASeriesOfItsOwn();
  void failedPointIsListedButNotTimed();
  void cancelEndsALongSweepWithoutAHalfPoint();
  void destroyingARunningJobLeavesNoThread();
};

void Test_sweepjob::sizesDouble_data()
{
  QTest::addColumn<qint64>("minBytes");
  QTest::addColumn<qint64>("maxBytes");
  QTest::addColumn<QList<qint64>>("sizes");
  QTest::newRow("1K..16K") << qint64{1024} << qint64{16384}
                           << QList<qint64>{1024, 2048, 4096, 8192, 16384};
  QTest::newRow("one size") << qint64{4096} << qint64{4096} << QList<qint64>{4096};
  QTest::newRow("max not a doubling")
      << qint64{1000} << qint64{5000} << QList<qint64>{1000, 2000, 4000};
  QTest::newRow("min above max") << qint64{8192} << qint64{4096} << QList<qint64>{};
  QTest::newRow("zero") << qint64{0} << qint64{4096} << QList<qint64>{};
}

void Test_sweepjob::sizesDouble()
{
  QFETCH(qint64, minBytes);
  QFETCH(qint64, maxBytes);
  QFETCH(QList<qint64>, sizes);
  const std::vector<std::int64_t> got = sweepSizes(minBytes, maxBytes);
  QCOMPARE(QList<qint64>(got.begin(), got.end()), sizes);
}

void Test_sweepjob::cpuSweepMeasuresEverySize()
{
  SweepJob job;
  QSignalSpy started(&job, &SweepJob::pointStarted);
  QSignalSpy finished(&job, &SweepJob::finished);
  std::vector<SweepRun> runs;
  connect(&job, &SweepJob::pointFinished, this,
          [&runs](const SweepRun& run) { runs.push_back(run); });
  const SweepRequest request = ringSweep({QStringLiteral("cpu")}, 1024, 16384);
  QVERIFY(job.start(request));
  QVERIFY(!job.start(request)); // one sweep at a time
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kSweepTimeoutMs);
  QCOMPARE(finished.front().at(0).toBool(), false);
  QCOMPARE(finished.front().at(1).toInt(), 5);
  QCOMPARE(finished.front().at(2).toInt(), 5);
  QCOMPARE(started.count(), 5);
  QCOMPARE(started.at(2).at(2).toString(), QStringLiteral("cpu 4 KiB"));
  QVERIFY(!job.isRunning());

  QCOMPARE(runs.size(), std::size_t{5});
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::vector<SweepPoint> points = sweepPoints(request, runs[i].request, runs[i].outcome);
    QCOMPARE(points.size(), std::size_t{1}); // the CPU executor times no library call
    const SweepPoint& point = points.front();
    QCOMPARE(point.series, QStringLiteral("ring · cpu"));
    QCOMPARE(point.kind, SweepKind::Measured);
    QCOMPARE(point.bytes, std::int64_t{1024} << i);
    QCOMPARE(point.count, point.bytes / 4); // float, all-reduce: mult 1
    QCOMPARE(point.verdict, QStringLiteral("verified"));
    QCOMPARE(point.wrong, std::optional<std::int64_t>(0));
    QVERIFY(point.timeUs > 0);
    QCOMPARE(point.timeUs, runs[i].outcome.exec->meanUs());
    QCOMPARE(point.algbwGBps, static_cast<double>(point.bytes) / point.timeUs / 1e3);
    QCOMPARE(point.busbwGBps, point.algbwGBps * 2 * 3 / 4);
  }
}

void Test_sweepjob::simulatedPointsFormTheirOwnSeries()
{
  const SweepRequest request =
      ringSweep({QStringLiteral("simulate"), QStringLiteral("cpu")}, 1024, 4096);
  std::vector<SweepPoint> points;
  std::vector<QString> labels;
  const bool cancelled = runSweep(
      request, nullptr, [&labels](int, int, const QString& label) { labels.push_back(label); },
      [&](std::shared_ptr<SweepRun> run) {
        for (const SweepPoint& point : sweepPoints(request, run->request, run->outcome))
          points.push_back(point);
      });
  QVERIFY(!cancelled);
  QCOMPARE(labels.front(), QStringLiteral("simulate 1 KiB")); // the prediction first
  QCOMPARE(points.size(), std::size_t{6});
  for (std::size_t i = 0; i < 3; ++i) {
    QCOMPARE(points[i].series, QStringLiteral("ring · simulated"));
    QCOMPARE(points[i].kind, SweepKind::Simulated);
    QCOMPARE(points[i].backend, QStringLiteral("simulator"));
    QVERIFY(!points[i].wrong.has_value());
    QVERIFY(points[i].timeUs > 0);
    QCOMPARE(points[i].busbwGBps, points[i].algbwGBps * 1.5);
    QCOMPARE(points[i + 3].series, QStringLiteral("ring · cpu"));
  }
}

void Test_sweepjob::ncclsOwnCallIsASeriesOfItsOwn()
{
  // What the NCCL executor reports on a GPU machine: the program's run and ncclAllReduce's own
  // times for the same call.
  const SweepRequest request = ringSweep({QStringLiteral("nccl")}, 1 << 20, 1 << 20);
  const RunRequest run = pointRequest(request, {QStringLiteral("nccl"), 1 << 20});
  RunOutcome outcome;
  outcome.backend = run.backend;
  outcome.exec.emplace();
  outcome.exec->status = ExecStatus::Verified;
  outcome.exec->count = (1 << 20) / 4;
  outcome.exec->iterationUs = {20, 30};
  outcome.exec->trace.events.push_back(TraceEvent{});
  outcome.exec->libraryCall = "ncclAllReduce";
  outcome.exec->libraryUs = {8, 12};
  const std::vector<SweepPoint> points = sweepPoints(request, run, outcome);
  QCOMPARE(points.size(), std::size_t{2});
  QCOMPARE(points[0].series, QStringLiteral("ring · nccl"));
  QCOMPARE(points[0].timeUs, 25.0);
  QCOMPARE(points[0].wrong, std::optional<std::int64_t>(0));
  const SweepPoint& library = points[1];
  QCOMPARE(library.series, QStringLiteral("ncclAllReduce"));
  QCOMPARE(library.kind, SweepKind::Library);
  QCOMPARE(library.backend, QStringLiteral("nccl"));
  QCOMPARE(library.bytes, std::int64_t{1} << 20);
  QCOMPARE(library.timeUs, 10.0);
  QCOMPARE(library.algbwGBps, (1 << 20) / 10.0 / 1e3);
  QCOMPARE(library.busbwGBps, library.algbwGBps * 1.5);
  QVERIFY(!library.wrong.has_value()); // the executor verifies the program, not NCCL's call
}

void Test_sweepjob::failedPointIsListedButNotTimed()
{
  // 2 bytes cannot be split into the ring's chunks of floats: the point fails, and says why.
  const SweepRequest request = ringSweep({QStringLiteral("cpu")}, 2, 2);
  std::vector<SweepPoint> points;
  QVERIFY(!runSweep(request, nullptr, {}, [&](std::shared_ptr<SweepRun> run) {
    points = sweepPoints(request, run->request, run->outcome);
  }));
  QCOMPARE(points.size(), std::size_t{1});
  QVERIFY(!points[0].timed());
  QVERIFY(!points[0].wrong.has_value());
  QVERIFY2(points[0].verdict.startsWith("failed: "), qPrintable(points[0].verdict));
}

void Test_sweepjob::cancelEndsALongSweepWithoutAHalfPoint()
{
  // Minutes of work per point: only Cancel ends it within the test's wait.
  SweepRequest request = ringSweep({QStringLiteral("cpu")}, 8 << 20, 16 << 20);
  request.options.iterations = 10000;
  request.options.timeoutSeconds = 3600;
  SweepJob job;
  QSignalSpy started(&job, &SweepJob::pointStarted);
  QSignalSpy points(&job, &SweepJob::pointFinished);
  QSignalSpy finished(&job, &SweepJob::finished);
  QVERIFY(job.start(request));
  QPointer<QThread> worker = job.thread();
  QVERIFY(worker);
  QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, kSweepTimeoutMs);
  job.cancel();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
  QCOMPARE(finished.front().at(0).toBool(), true);
  QCOMPARE(finished.front().at(1).toInt(), 0);
  QCOMPARE(finished.front().at(2).toInt(), 2);
  QCOMPARE(points.count(), 0);
  QCOMPARE(started.count(), 1); // no later point started
  QVERIFY(!job.isRunning());
  QTRY_VERIFY(worker.isNull()); // deleted once it ended
}

void Test_sweepjob::destroyingARunningJobLeavesNoThread()
{
  SweepRequest request = ringSweep({QStringLiteral("cpu")}, 8 << 20, 8 << 20);
  request.options.iterations = 10000;
  request.options.timeoutSeconds = 3600;
  auto job = std::make_unique<SweepJob>();
  QVERIFY(job->start(request));
  QPointer<QThread> worker = job->thread();
  QTRY_VERIFY(worker->isRunning());
  QElapsedTimer timer;
  timer.start();
  job.reset(); // cancels, waits for the worker to end and deletes it
  QVERIFY(worker.isNull());
  QVERIFY2(timer.elapsed() < 20000, "the destructor waited for the whole point");
}

QTEST_MAIN(Test_sweepjob)
#include "tst_sweepjob.moc"
