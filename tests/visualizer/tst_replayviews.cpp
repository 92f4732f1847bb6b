// The replay window's views over a simulated ring all-reduce: the Gantt chart has one bar per
// trace event in its (rank, tb) lane, a click selects the event under it and a double-click moves
// the cursor there; at the end of the run every output chunk of the buffer view reads the full
// sum over all ranks, and a cell written during the current step is marked; the window's header
// names the run, and addView() shows further views.

#include "replayfixture.h"
#include "replaywindow.h"
#include "views/bufferview.h"
#include "views/ganttlayout_p.h"
#include "views/ganttview.h"
#include "views/linkchart.h"
#include "views/topologyplaybackview.h"

#include <QLabel>
#include <QTabWidget>
#include <QTest>

using namespace cs;
using namespace cs::visualizer;

class Test_replayviews : public QObject
{
  Q_OBJECT

private slots:
  void ganttHasOneBarPerEvent();
  void ganttClickSelectsAndDoubleClickMovesTheCursor();
  void ganttZoomKeepsTheTimeUnderTheMouse();
  void buffersReadTheFullSumAtTheEnd_data();
  void buffersReadTheFullSumAtTheEnd();
  void buffersMarkWhatTheStepWrote();
  void windowHeaderAndExtraViews();
};

void Test_replayviews::ganttHasOneBarPerEvent()
{
  const auto session = test::simulatedRing(4, "ring-4");
  GanttView gantt(session.get());
  gantt.resize(900, 400);
  QCOMPARE(gantt.barCount(), session->trace().events.size());
  // Bars of one lane share a row; lanes of different threadblocks do not.
  const std::vector<TraceEvent>& events = session->trace().events;
  for (std::size_t i = 1; i < events.size(); ++i) {
    const bool sameLane = events[i].rank == events[0].rank && events[i].tb == events[0].tb;
    QCOMPARE(gantt.barRect(i).top() == gantt.barRect(0).top(), sameLane);
  }
}

void Test_replayviews::ganttClickSelectsAndDoubleClickMovesTheCursor()
{
  const auto session = test::simulatedRing(4, "ring-4");
  GanttView gantt(session.get());
  gantt.resize(900, 400);
  gantt.show();
  QVERIFY(QTest::qWaitForWindowExposed(&gantt));
  const std::size_t pick = session->trace().events.size() / 2;
  const QRectF bar = gantt.barRect(pick);
  QVERIFY2(bar.width() >= 2, "the bar is wide enough to click");
  const QPoint centre = bar.center().toPoint();
  QTest::mouseClick(gantt.viewport(), Qt::LeftButton, {}, centre);
  const TraceEvent& event = session->trace().events[pick];
  QCOMPARE(session->selection().event, static_cast<long>(pick));
  QCOMPARE(session->selection().rank, event.rank);
  QCOMPARE(session->selection().tb, event.tb);
  QTest::mouseDClick(gantt.viewport(), Qt::LeftButton, {}, centre);
  QVERIFY(std::abs(session->cursorUs() - gantt.timeAt(centre.x())) < 1e-9);
  QVERIFY(session->cursorUs() >= event.start - 1 / gantt.zoom());
  QVERIFY(session->cursorUs() <= event.end + 1 / gantt.zoom());
}

void Test_replayviews::ganttZoomKeepsTheTimeUnderTheMouse()
{
  const auto session = test::simulatedRing(4, "ring-4");
  GanttView gantt(session.get());
  gantt.resize(900, 400);
  gantt.show();
  const double x = 500;
  const double before = gantt.timeAt(x);
  const double zoom = gantt.zoom();
  gantt.setZoom(zoom * 8, x);
  QCOMPARE(gantt.zoom(), zoom * 8);
  QVERIFY(std::abs(gantt.timeAt(x) - before) < 2 / gantt.zoom());
  // A cursor moved out of view (by the scrub bar, by playing) brings the view along.
  session->setCursor(session->endUs());
  const double cursorX = gantt.xOf(session->cursorUs());
  QVERIFY(cursorX > gantt::kLabelWidth && cursorX < gantt.viewport()->width());
}

void Test_replayviews::buffersReadTheFullSumAtTheEnd_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<QString>("preset");
  QTest::addColumn<QString>("sum");
  QTest::newRow("ring-4") << 4 << "ring-4" << QStringLiteral("Σ0123");
  QTest::newRow("dgx-h100, 8 ranks") << 8 << "dgx-h100" << QStringLiteral("Σ01234567");
}

void Test_replayviews::buffersReadTheFullSumAtTheEnd()
{
  QFETCH(int, ranks);
  QFETCH(QString, preset);
  QFETCH(QString, sum);
  const auto session = test::simulatedRing(ranks, qPrintable(preset));
  BufferView view(session.get());
  QCOMPARE(view.cellText(0, Buffer::Output, 0), QStringLiteral("r0")); // before the run
  session->setCursor(session->endUs());
  for (int rank = 0; rank < ranks; ++rank) {
    const int chunks = session->buffers().chunks(rank, Buffer::Output);
    QVERIFY(chunks > 0);
    for (int k = 0; k < chunks; ++k)
      QCOMPARE(view.cellText(rank, Buffer::Output, k), sum);
  }
  int rank = -1;
  Buffer buffer = Buffer::Input;
  int chunk = -1;
  QVERIFY(view.cellAt(view.cellRect(1, Buffer::Output, 2).center(), rank, buffer, chunk));
  QCOMPARE(rank, 1);
  QCOMPARE(buffer, Buffer::Output);
  QCOMPARE(chunk, 2);
}

void Test_replayviews::buffersMarkWhatTheStepWrote()
{
  const auto session = test::simulatedRing(4, "ring-4");
  BufferView view(session.get());
  session->setCursor(session->endUs());
  int changed = 0;
  int chunks = 0;
  for (int rank = 0; rank < 4; ++rank) {
    for (int k = 0; k < session->buffers().chunks(rank, Buffer::Output); ++k) {
      ++chunks;
      const double at = session->buffers().changedAt(rank, Buffer::Output, k, session->endUs());
      const bool marked = view.cellChanged(rank, Buffer::Output, k);
      QCOMPARE(marked, at >= session->stepStarts().back());
      changed += marked ? 1 : 0;
    }
  }
  QVERIFY2(changed > 0 && changed < chunks, "the last step wrote some chunks, not all");
  session->setCursor(0);
  QVERIFY(!view.cellChanged(0, Buffer::Output, 0));
}

void Test_replayviews::windowHeaderAndExtraViews()
{
  ReplayWindow window(test::simulatedRing(4, "ring-4"));
  window.resize(1200, 800);
  QVERIFY(window.headerText().contains(window.session()->description()));
  QVERIFY(window.headerText().contains(QStringLiteral("4 ranks")));
  QVERIFY(!window.headerText().contains(QStringLiteral("inferred"))); // simulated: traced paths
  window.show();
  // The topology playback is the first tab beside the buffers; the link chart the second.
  QVERIFY(window.topologyView()->isVisible());
  const auto tabs = window.findChildren<QTabWidget*>();
  const auto views = std::find_if(tabs.begin(), tabs.end(), [&window](QTabWidget* t) {
    return t->indexOf(window.topologyView()) >= 0;
  });
  QVERIFY(views != tabs.end());
  QCOMPARE((*views)->tabText(0), QStringLiteral("Topology"));
  QCOMPARE((*views)->tabText(1), QStringLiteral("Link Utilisation"));
  QCOMPARE((*views)->indexOf(window.linkChart()), 1);
  auto* extra = new QLabel(QStringLiteral("another view"));
  window.addView(extra, QStringLiteral("Another"));
  QCOMPARE((*views)->count(), 3);
  QCOMPARE((*views)->tabText(2), QStringLiteral("Another"));
}

QTEST_MAIN(Test_replayviews)
#include "tst_replayviews.moc"
