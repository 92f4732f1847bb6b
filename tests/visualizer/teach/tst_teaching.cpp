// Teaching mode's step-through (issue 19 item 3): the open algorithm simulated on its topology
// (a ring when it has none), stepped by the Schedule's own steps; each step ends when the last
// event of its transfers (and of every earlier step's) ends, found here by brute force over the
// trace; Next animates the cursor across one step, keys drive it as a presenter's remote does;
// an edit re-simulates, and an algorithm that cannot run says why instead of stepping.

#include "document/document.h"
#include "teach/predictpanel.h"
#include "teach/teachingpanel.h"
#include "teach/teachingrun.h"
#include "teach/teachingview.h"
#include "timeline/timelineview.h"
#include "views/topologyplaybackview.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"
#include "teach/narration.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <algorithm>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

void openAlgorithm(Document& document, const char* key, int ranks, bool withTopology)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm(key, {.ranks = ranks}).schedule;
  if (withTopology)
    state.design.topology = makePresetTopology("fully-connected-" + std::to_string(ranks));
  document.reset(state, {});
  document.waitForAnalysis();
}

/// Step k's end straight from the trace: the last end of an event of a transfer of step <= k.
std::vector<double> bruteForceStepEnds(const Document& document, const Trace& trace)
{
  const Schedule& schedule = document.state().design.schedule;
  std::vector<double> lastEnd(static_cast<std::size_t>(schedule.stepCount()), 0.0);
  for (const TraceEvent& event : trace.events) {
    const int transfer = document.analysis().transferAt(event.rank, event.tb, event.step);
    if (transfer < 0)
      continue;
    const auto it = std::ranges::find(schedule.transfers, transfer, &Transfer::id);
    double& end = lastEnd[static_cast<std::size_t>(it->step)];
    end = std::max(end, event.end);
  }
  for (std::size_t step = 1; step < lastEnd.size(); ++step)
    lastEnd[step] = std::max(lastEnd[step], lastEnd[step - 1]);
  return lastEnd;
}

} // namespace

class TestTeaching : public QObject
{
  Q_OBJECT

private slots:
  void stepEndsMatchTheTrace_data();
  void stepEndsMatchTheTrace();
  void withoutTopologyItRunsOnARing();
  void panelStepsAndAnimates();
  void keysDriveThePanel();
  void editsResimulateAndBrokenAlgorithmsSayWhy();
  void narratesEachStepFromTheSchedule();
  void predictingHidesTheAnswersOnTheTimeline();
};

void TestTeaching::stepEndsMatchTheTrace_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  QTest::newRow("ring all-reduce 4") << "ring-allreduce" << 4;
  QTest::newRow("halving-doubling 8") << "halving-doubling-allreduce" << 8;
  QTest::newRow("binomial broadcast 8") << "binomial-broadcast" << 8;
  QTest::newRow("bruck all-to-all 5") << "bruck-alltoall" << 5;
}

void TestTeaching::stepEndsMatchTheTrace()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  Document document;
  openAlgorithm(document, key.toUtf8().constData(), ranks, true);
  const TeachingRun run = simulateForTeaching(document);
  QVERIFY2(run.session, qPrintable(run.error));
  QCOMPARE(run.topologyName, QString("the document's topology"));
  const std::vector<double> expected = bruteForceStepEnds(document, run.session->trace());
  QCOMPARE(run.stepEnds.size(), expected.size());
  const double tolerance = run.session->endUs() * 1e-6;
  for (std::size_t step = 0; step < expected.size(); ++step)
    QVERIFY2(
        std::abs(run.stepEnds[step] - expected[step]) <= tolerance,
        qPrintable(
            QString("step %1: %2 vs %3").arg(step).arg(run.stepEnds[step]).arg(expected[step])));
  QVERIFY(std::ranges::is_sorted(run.stepEnds));
  QVERIFY(run.stepEnds.back() <= run.session->endUs() + tolerance);
}

void TestTeaching::withoutTopologyItRunsOnARing()
{
  Document document;
  openAlgorithm(document, "ring-allgather", 6, false);
  const TeachingRun run = simulateForTeaching(document);
  QVERIFY2(run.session, qPrintable(run.error));
  QCOMPARE(run.topologyName, QString("ring-6"));
  QCOMPARE(run.session->topology()->rankCount(), 6);
}

void TestTeaching::panelStepsAndAnimates()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4, true);
  TeachingRun run = simulateForTeaching(document);
  QVERIFY(run.session);
  TeachingPanel panel;
  TeachingText text;
  text.steps = {{"first sentence"}, {"second sentence"}};
  text.start = "everyone holds their input";
  panel.setText(text);
  panel.setRun(run.session.get(), run.stepEnds);
  QCOMPARE(panel.positionCount(), 7); // the start and 6 steps
  QCOMPARE(run.session->cursorUs(), 0.0);
  QVERIFY(panel.narrationText().contains("everyone holds their input"));

  QSignalSpy cursor(run.session.get(), &ReplaySession::cursorChanged);
  panel.next();
  QCOMPARE(panel.position(), 1);
  QVERIFY(panel.narrationText().contains("first sentence"));
  // The step plays: the cursor moves through intermediate times before reaching the step's end.
  QTRY_COMPARE(run.session->cursorUs(), run.stepEnds[0]);
  QVERIFY2(cursor.size() > 2, qPrintable(QString::number(cursor.size())));

  panel.next();
  panel.finishAnimation();
  QCOMPARE(run.session->cursorUs(), run.stepEnds[1]);
  QVERIFY(panel.narrationText().contains("second sentence"));
  panel.previous(); // back jumps, it does not replay backwards
  QCOMPARE(run.session->cursorUs(), run.stepEnds[0]);
  panel.goTo(99, false);
  QCOMPARE(panel.position(), 6);
  QCOMPARE(run.session->cursorUs(), run.stepEnds.back());
  panel.next(); // nothing past the end
  QCOMPARE(panel.position(), 6);
}

void TestTeaching::keysDriveThePanel()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4, true);
  TeachingRun run = simulateForTeaching(document);
  TeachingPanel panel;
  panel.setRun(run.session.get(), run.stepEnds);
  QTest::keyClick(&panel, Qt::Key_PageDown);
  QTest::keyClick(&panel, Qt::Key_Right);
  QTest::keyClick(&panel, Qt::Key_Space);
  QCOMPARE(panel.position(), 3);
  QTest::keyClick(&panel, Qt::Key_PageUp);
  QTest::keyClick(&panel, Qt::Key_Left);
  QCOMPARE(panel.position(), 1);
  QTest::keyClick(&panel, Qt::Key_End);
  QCOMPARE(panel.position(), 6);
  QTest::keyClick(&panel, Qt::Key_Home);
  QCOMPARE(panel.position(), 0);
  QCOMPARE(run.session->cursorUs(), 0.0);
}

void TestTeaching::editsResimulateAndBrokenAlgorithmsSayWhy()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4, true);
  TeachingView view(&document, nullptr, nullptr);
  QVERIFY(view.session());
  QVERIFY(view.topologyView());
  const ReplaySession* before = view.session();
  view.panel()->goTo(3, false);

  openAlgorithm(document, "ring-allreduce", 8, true);
  view.rebuildNow();
  QVERIFY(view.session());
  QVERIFY(view.session() != before);
  QCOMPARE(view.session()->program().ngpus, 8);
  QCOMPARE(view.panel()->position(), 0); // back at the start of the new run
  QCOMPARE(view.panel()->positionCount(), 15);

  // Two transfers writing one chunk in one step: the Schedule has an error, so there is no
  // program to simulate, and the panel says what to do instead of stepping.
  Schedule broken = document.state().design.schedule;
  Transfer clash = broken.transfers.front();
  clash.id = broken.nextTransferId();
  clash.src.rank = (clash.src.rank + 1) % broken.ranks;
  broken.transfers.push_back(clash);
  document.setSchedule(broken);
  document.waitForAnalysis();
  QVERIFY(!document.shownProgram());
  view.rebuildNow();
  QVERIFY(!view.session());
  QVERIFY(!view.topologyView());
  QVERIFY2(view.panel()->narrationText().contains("fix its problems"),
           qPrintable(view.panel()->narrationText()));
}

void TestTeaching::narratesEachStepFromTheSchedule()
{
  Document document;
  openAlgorithm(document, "halving-doubling-allreduce", 8, true);
  TeachingView view(&document, nullptr, nullptr);
  QVERIFY(view.session());
  const Narration narration = narrateSchedule(document.state().design.schedule);
  QVERIFY(view.panel()->narrationText().contains(QString::fromStdString(narration.goal).mid(1)));
  for (const NarrationStep& step : narration.steps) {
    view.panel()->goTo(step.step + 1, false);
    const QString shown = view.panel()->narrationText();
    QVERIFY2(shown.startsWith(QString("Step %1").arg(step.step)), qPrintable(shown));
    for (const NarrationSentence& sentence : step.sentences) {
      // Shown as a sentence: the first letter capitalised, the rest exactly the engine's.
      const QString text = QString::fromStdString(sentence.text);
      QVERIFY2(shown.contains(text.left(1).toUpper() + text.mid(1)), qPrintable(text));
    }
  }
  // The catalogue algorithm is recognised: its title, and its formula in the Cost tab.
  QTabWidget* tabs = view.panel()->tabs();
  QCOMPARE(tabs->tabText(1), QString("Cost"));
  const auto* cost = qobject_cast<QLabel*>(tabs->widget(1));
  QVERIFY(cost);
  QVERIFY2(cost->text().contains("Cost formula of halving-doubling-allreduce"),
           qPrintable(cost->text()));
  QVERIFY(cost->text().contains("busbw"));
}

void TestTeaching::predictingHidesTheAnswersOnTheTimeline()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4, true);
  TimelineView timeline(&document);
  TeachingView view(&document, &timeline, nullptr);
  auto* predict = view.findChild<PredictPanel*>();
  QVERIFY(predict);
  view.panel()->goTo(1, false);                     // step 1 runs next
  QCOMPARE(timeline.concealedStep(), std::nullopt); // the Narration tab is shown
  view.panel()->tabs()->setCurrentWidget(predict);
  QCOMPARE(timeline.concealedStep(), std::optional<int>(1));
  view.panel()->next();
  view.panel()->finishAnimation();
  QCOMPARE(timeline.concealedStep(), std::optional<int>(2));
  predict->reveal(); // the answers may show now
  QCOMPARE(timeline.concealedStep(), std::nullopt);
  view.panel()->goTo(6, false); // after the last step there is nothing to predict
  QCOMPARE(timeline.concealedStep(), std::nullopt);
  view.panel()->goTo(3, false);
  QCOMPARE(timeline.concealedStep(), std::optional<int>(3));
  view.panel()->tabs()->setCurrentIndex(0);
  QCOMPARE(timeline.concealedStep(), std::nullopt);
}

QTEST_MAIN(TestTeaching)
#include "tst_teaching.moc"
