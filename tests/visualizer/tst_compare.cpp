// The compare window (designed vs measured) over a simulated and a CPU run of the 4-rank ring:
// one step row per step position in loss order, zero deltas against itself, an overlay lane
// per threadblock; a calibration chosen in the controls makes run A the calibrated simulation
// (half the bandwidth: every step of A twice as long; None: A as opened); and the replay window of
// a 1-slot CPU ring the watchdog stopped: it opens at the stop, names it in the header, lists the 4
// blocked threadblocks and the predicted cycle, marks the 4 blocked lanes in the Gantt chart, and a
// click on an entry selects that lane.

#include "compare/comparewindow.h"
#include "compare/overlaygantt.h"
#include "comparefixture.h"
#include "replayfixture.h"
#include "replaywindow.h"
#include "views/ganttblockedlist.h"
#include "views/ganttview.h"

#include <QComboBox>
#include <QTableWidget>
#include <QTest>

#include <set>

using namespace cs;
using namespace cs::visualizer;

namespace {

/// Step positions of the ring: the longest threadblock's step list.
int stepPositions(const Program& program)
{
  std::size_t most = 0;
  for (const Gpu& gpu : program.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks)
      most = std::max(most, tb.steps.size());
  }
  return static_cast<int>(most);
}

/// A calibration of ring-4's NVLink links at `betaGBps`, without latency (times ∝ 1/β).
CompareCalibration nvlinkCalibration(const char* name, double betaGBps)
{
  Calibration calibration;
  calibration.backend = "test";
  calibration.links = {{LinkKind::NvLink, 0, betaGBps, 1}};
  return {QString::fromLatin1(name), calibration};
}

} // namespace

class TestCompare : public QObject
{
  Q_OBJECT

private slots:
  void stepTableHasOneRowPerPositionInLossOrder()
  {
    CompareWindow window(test::simulatedRing(4, "ring-4"), test::openRing(test::cpuRingTrace()));
    const replay::Comparison& comparison = window.comparison();
    QTableWidget* steps = window.stepTable();
    QCOMPARE(steps->rowCount(), stepPositions(makeRingAllReduce({4, 1, Protocol::Simple})));
    std::set<int> positions;
    for (int row = 0; row < steps->rowCount(); ++row) {
      const int position = steps->item(row, 0)->data(Qt::UserRole).toInt();
      QCOMPARE(position, comparison.steps[static_cast<std::size_t>(row)].position);
      positions.insert(position);
      if (row > 0)
        QVERIFY(comparison.steps[static_cast<std::size_t>(row) - 1].time.deltaUs >=
                comparison.steps[static_cast<std::size_t>(row)].time.deltaUs);
    }
    QCOMPARE(static_cast<int>(positions.size()), steps->rowCount());
    QCOMPARE(window.linkTable()->rowCount(), static_cast<int>(comparison.links.size()));
    QVERIFY(window.linkTable()->rowCount() > 0);
    QCOMPARE(window.overlay()->laneCount(), 4);
    const QString cpu = test::openRing(test::cpuRingTrace())->description();
    QVERIFY2(!cpu.isEmpty() && window.headerText().contains(cpu), qPrintable(window.headerText()));
  }

  void aCalibrationMakesRunATheCalibratedSimulation()
  {
    CompareWindow window(test::simulatedRing(4, "ring-4"), test::openRing(test::cpuRingTrace()));
    QVERIFY(window.calibrationChooser()->parentWidget()->isHidden());
    const double opened = window.comparison().totalUs[0];
    Calibration wrongKind;
    wrongKind.backend = "test";
    wrongKind.links = {{LinkKind::Network, 0, 10, 1}};
    window.offerCalibrations({nvlinkCalibration("fast", 20),
                              nvlinkCalibration("slow", 10),
                              {QStringLiteral("network"), wrongKind}},
                             *makePresetTopology("ring-4"));
    QVERIFY(!window.calibrationChooser()->parentWidget()->isHidden());
    QCOMPARE(window.calibrationChooser()->count(), 4);
    QVERIFY(window.chooseCalibration(1).isEmpty());
    const replay::Comparison fast = window.comparison();
    window.calibrationChooser()->setCurrentIndex(2); // through the chooser's signal
    const replay::Comparison& slow = window.comparison();
    QVERIFY(qFuzzyCompare(slow.totalUs[0], 2 * fast.totalUs[0]));
    QCOMPARE(slow.steps.size(), fast.steps.size());
    int doubled = 0;
    int timed = 0; // a position of run A that takes no time stays at none
    for (const replay::StepComparison& step : fast.steps)
      timed += step.time.us[0] > 0 ? 1 : 0;
    QVERIFY(timed > 0);
    for (const replay::StepComparison& step : slow.steps) {
      for (const replay::StepComparison& before : fast.steps) {
        if (before.position == step.position && before.time.us[0] > 0)
          doubled += qFuzzyCompare(step.time.us[0], 2 * before.time.us[0]) ? 1 : 0;
      }
    }
    QCOMPARE(doubled, timed);
    QCOMPARE(slow.totalUs[1], fast.totalUs[1]); // run B, the measurement, stays
    QVERIFY(window.headerText().contains(QStringLiteral("calibration slow")));
    // A calibration that does not fit the topology leaves run A as it was.
    QVERIFY(window.chooseCalibration(3).contains(QStringLiteral("lacks")));
    QCOMPARE(window.comparison().totalUs[0], slow.totalUs[0]);
    QVERIFY(window.chooseCalibration(0).isEmpty());
    QCOMPARE(window.comparison().totalUs[0], opened);
  }

  void aTraceAgainstItselfHasZeroDeltas()
  {
    const Trace cpu = test::cpuRingTrace();
    CompareWindow window(test::openRing(cpu), test::openRing(cpu));
    QVERIFY(!window.comparison().steps.empty());
    for (const replay::StepComparison& step : window.comparison().steps) {
      QCOMPARE(step.time.deltaUs, 0.0);
      QCOMPARE(step.time.deltaNormalised, 0.0);
    }
    for (int row = 0; row < window.stepTable()->rowCount(); ++row)
      QCOMPARE(window.stepTable()->item(row, 3)->text(), QString("0.00"));
    for (const replay::LinkComparison& link : window.comparison().links)
      QCOMPARE(link.busy.deltaUs, 0.0);
  }

  void aStoppedRunOpensAtItsStop()
  {
    const Trace stopped = test::cpuRingTrace(1);
    QVERIFY(stopped.stoppedUs.has_value());
    QCOMPARE(stopped.blocked.size(), std::size_t(4));
    ReplayWindow window(test::openRing(stopped));
    QCOMPARE(window.session()->cursorUs(), *stopped.stoppedUs);
    QVERIFY2(window.headerText().contains("stopped by the watchdog at") &&
                 window.headerText().contains("4 threadblocks blocked"),
             qPrintable(window.headerText()));
    BlockedList* blocked = window.blockedList();
    QVERIFY(blocked != nullptr);
    QCOMPARE(blocked->blockedCount(), 4);
    QCOMPARE(blocked->cycle().size(), std::size_t(4));
    window.resize(1200, 800);
    window.show();
    QCOMPARE(window.gantt()->blockedMarkerCount(), std::size_t(4));
    for (std::size_t i = 0; i < stopped.blocked.size(); ++i)
      QVERIFY(!window.gantt()->blockedRect(i).isEmpty());

    // The second entry is the first blocked position (the first is the heading).
    QListWidgetItem* entry = blocked->item(1);
    blocked->itemClicked(entry);
    QCOMPARE(window.session()->selection().rank, stopped.blocked[0].rank);
    QCOMPARE(window.session()->selection().tb, stopped.blocked[0].tb);
  }

  void aRunThatEndedHasNoBlockedTab()
  {
    ReplayWindow window(test::simulatedRing(4, "ring-4"));
    QVERIFY(window.blockedList() == nullptr);
    QCOMPARE(window.gantt()->blockedMarkerCount(), std::size_t(0));
    QVERIFY(!window.headerText().contains("watchdog"));
  }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
