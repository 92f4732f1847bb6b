// The Run panel: a CPU run of a 4-rank ring from the panel finishes verified, opens its replay
// window and is stored with its trace in the library the document came from; a document that is
// not in the library says so; Cancel during a long run (CPU or simulated) ends it promptly with
// nothing stored and the worker finished, after the progress line showed it going; backends that
// cannot run here are disabled with a reason.

#include "run/runpanel.h"
#include "support/ringlibrary.h"

#include "catalogue/ringallreduce.h"
#include "document/document.h"
#include "io/mscclxmlwriter.h"
#include "library.h"
#include "replaywindow.h"
#include "run/runbackends.h"
#include "session/replaysession.h"

#include "model/topologypresets.h"

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace cs;
using namespace cs::visualizer;

namespace {

constexpr int kRunTimeoutMs = 60000; // a 4-rank 1 MiB CPU run takes well under a second

} // namespace

class Test_runpanel : public QObject
{
  Q_OBJECT

private slots:
  void init();
  void cleanup();
  void cpuRunIsVerifiedStoredAndReplayed();
  void runOutsideTheLibraryIsNotStored();
  void cancelStopsALongRun_data();
  void cancelStopsALongRun();
  void simulationProgressCountsEvents();
  void hungRunSaysWhereItStopped();
  void unavailableBackendsAreDisabledWithAReason();

private:
  test::RingWithLibrary m_ring;
  std::unique_ptr<QTemporaryDir> m_dir;
  std::unique_ptr<storage::Library> m_library;
  std::unique_ptr<editor::Document> m_document;
  std::unique_ptr<RunPanel> m_panel;
};

void Test_runpanel::init()
{
  m_ring.open();
  if (QTest::currentTestFailed())
    return;
  m_dir = std::move(m_ring.dir);
  m_library = std::move(m_ring.library);
  m_document = std::move(m_ring.document);
  m_panel = std::make_unique<RunPanel>(m_document.get(), [this] { return m_library.get(); });
  m_panel->show();
}

void Test_runpanel::cleanup()
{
  m_panel.reset();
  m_document.reset();
  m_library.reset();
  m_dir.reset();
}

void Test_runpanel::cpuRunIsVerifiedStoredAndReplayed()
{
  storage::SaveRequest save;
  save.name = "ring4";
  save.content.xml = writeMscclXml(*m_document->shownProgram(), {}).text;
  const auto saved = m_library->save(save);
  QVERIFY(saved.ok());
  m_document->setOrigin({{}, QStringLiteral("ring4"), 1});

  QVERIFY(m_panel->selectBackend(QStringLiteral("cpu")));
  m_panel->sizeEdit()->setText(QStringLiteral("1M"));
  QSignalSpy finished(m_panel.get(), &RunPanel::runFinished);
  QVERIFY(m_panel->run());
  QVERIFY(m_panel->job()->isRunning());
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);

  QVERIFY2(m_panel->verdictText().contains("verified"), qPrintable(m_panel->verdictText()));
  QVERIFY(!m_panel->job()->isRunning());
  QVERIFY(m_panel->replayWindow() != nullptr);
  QCOMPARE(m_panel->replayWindow()->session()->program().ngpus, 4);
  QVERIFY(m_panel->replayWindow()->session()->trace().events.size() > 0);

  const auto runs = m_library->runs(saved.value().algorithmId);
  QVERIFY(runs.ok());
  QCOMPARE(runs.value().size(), std::size_t{1});
  const storage::RunRecord& run = runs.value().front();
  QCOMPARE(run.backend, std::string("cpu"));
  QCOMPARE(run.bytes, std::int64_t{1} << 20);
  QCOMPARE(run.wrong, std::int64_t{0});
  QVERIFY(run.hasTrace);
  const auto trace = m_library->trace(run.id);
  QVERIFY(trace.ok());
  QCOMPARE(trace.value().events.size(), m_panel->replayWindow()->session()->trace().events.size());
  QVERIFY2(m_panel->storeText().contains("stored"), qPrintable(m_panel->storeText()));
  delete m_panel->replayWindow();
}

void Test_runpanel::runOutsideTheLibraryIsNotStored()
{
  QVERIFY(m_panel->selectBackend(QStringLiteral("simulate")));
  QSignalSpy finished(m_panel.get(), &RunPanel::runFinished);
  QVERIFY(m_panel->run());
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
  QVERIFY2(m_panel->verdictText().contains("simulated"), qPrintable(m_panel->verdictText()));
  QCOMPARE(m_panel->storeText(),
           QStringLiteral("not stored: save the algorithm to the library first"));
  QVERIFY(m_panel->replayWindow() != nullptr);
  QVERIFY(m_panel->replayWindow()->session()->topology() != nullptr);
  QVERIFY(m_library->list().value().empty());
  delete m_panel->replayWindow();
}

void Test_runpanel::cancelStopsALongRun_data()
{
  QTest::addColumn<QString>("backend");
  QTest::addColumn<QString>("size");
  QTest::addColumn<QString>("progress");
  // Long runs: only Cancel ends them within seconds. The simulator's 13 TiB are about 4.8e7
  // step executions of the ring in 2 MiB slices (tens of seconds).
  QTest::newRow("cpu") << QString("cpu") << QString("16M") << QString("iteration ");
  QTest::newRow("simulate") << QString("simulate") << QString("13T")
                            << QString(" events simulated");
}

void Test_runpanel::cancelStopsALongRun()
{
  QFETCH(QString, backend);
  QFETCH(QString, size);
  QFETCH(QString, progress);
  storage::SaveRequest save;
  save.name = "ring4";
  save.content.xml = writeMscclXml(*m_document->shownProgram(), {}).text;
  const auto saved = m_library->save(save);
  QVERIFY(saved.ok());
  m_document->setOrigin({{}, QStringLiteral("ring4"), 1});

  QVERIFY(m_panel->selectBackend(backend));
  m_panel->sizeEdit()->setText(size);
  m_panel->iterationsBox()->setValue(m_panel->iterationsBox()->maximum());
  m_panel->timeoutBox()->setValue(m_panel->timeoutBox()->maximum());
  QSignalSpy finished(m_panel.get(), &RunPanel::runFinished);
  QVERIFY(m_panel->run());
  QPointer<QThread> worker = m_panel->job()->thread();
  QVERIFY(worker);
  QTRY_VERIFY(worker->isRunning());
  // The progress line moves while it runs: elapsed time, and iterations or events.
  QTRY_VERIFY2_WITH_TIMEOUT(m_panel->progressText().contains(progress) &&
                                !m_panel->progressText().startsWith("0.0 s"),
                            qPrintable(m_panel->progressText()), 20000);
  // With the most iterations and the longest timeout the run would go on for hours: ending at
  // all is the cancel's doing.
  m_panel->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);

  QVERIFY2(m_panel->verdictText().contains("cancelled"), qPrintable(m_panel->verdictText()));
  QCOMPARE(m_panel->storeText(), QStringLiteral("nothing stored"));
  QVERIFY(m_panel->progressText().isEmpty());
  QVERIFY(m_panel->replayWindow() == nullptr);
  QVERIFY(!m_panel->job()->isRunning());
  QTRY_VERIFY(worker.isNull()); // deleted once it ended
  QVERIFY(m_library->runs(saved.value().algorithmId).value().empty());
}

void Test_runpanel::simulationProgressCountsEvents()
{
  // The worker publishes the simulator's events through RunProgress as it goes.
  RunRequest request;
  request.backend = QStringLiteral("simulate");
  request.program = *m_document->shownProgram();
  request.topology = makePresetTopology("ring-4");
  request.options.bytes = std::int64_t{1} << 30;
  RunProgress progress;
  const RunOutcome outcome = runRequest(request, nullptr, &progress);
  QVERIFY(outcome.sim.has_value());
  QVERIFY(outcome.sim->ok);
  QVERIFY(progress.simEvents.load() >= kSimPollEvents);
  QCOMPARE(progress.launchesDone.load(), 0);
  const QString line = runProgressText({true, 0, 0, progress.simEvents.load(), 1.25});
  QVERIFY2(line.startsWith("1.2 s · ") || line.startsWith("1.3 s · "), qPrintable(line));
  QVERIFY2(line.endsWith(" events simulated"), qPrintable(line));
  QCOMPARE(runProgressText({false, 2, 5, 0, 3}), QString("3.0 s · iteration 3 of 5"));
  QCOMPARE(runProgressText({false, 5, 5, 0, 3}), QString("3.0 s · iteration 5 of 5"));
}

void Test_runpanel::hungRunSaysWhereItStopped()
{
  // One message per connection deadlocks the ring (the checker predicts it); the watchdog stops
  // it after the short timeout and the trace ends at the stop, where the replay opens.
  RunRequest request;
  request.backend = QStringLiteral("cpu");
  request.program = *m_document->shownProgram();
  request.options.connectionSlots = 1;
  request.options.timeoutSeconds = 0.2;
  const RunOutcome outcome = runRequest(request, nullptr);
  QVERIFY(!outcome.cancelled);
  QVERIFY(outcome.exec.has_value());
  QCOMPARE(outcome.exec->status, ExecStatus::Hung);
  QVERIFY2(runVerdict(outcome).startsWith("hung: "), qPrintable(runVerdict(outcome)));
  QVERIFY(runHasTrace(outcome));
  QVERIFY(runTrace(outcome).stoppedUs.has_value());
}

void Test_runpanel::unavailableBackendsAreDisabledWithAReason()
{
  QVERIFY(m_panel->isBackendEnabled(QStringLiteral("simulate")));
  QVERIFY(m_panel->isBackendEnabled(QStringLiteral("cpu")));
  for (const RunBackendChoice& choice : runBackendChoices(4)) {
    QCOMPARE(m_panel->isBackendEnabled(choice.id), choice.available);
    if (!choice.available) {
      QVERIFY(!choice.reason.isEmpty()); // "not built with CUDA", "no GPU visible", …
      QCOMPARE(m_panel->backendReason(choice.id), choice.reason);
      QVERIFY(!m_panel->selectBackend(choice.id));
    }
  }
}

QTEST_MAIN(Test_runpanel)
#include "tst_runpanel.moc"
