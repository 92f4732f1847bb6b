// Node grouping in the timeline (issue 18, item 5): a 16-rank ring on a 2-node fabric folds into
// two node rows, expanding one shows its ranks under a node header, a click on that header folds
// it again; without a topology, groups of 8 consecutive ranks stand for nodes (and the tooltip
// says so); only traffic between nodes keeps an arrow; Fit to Window groups the rows when they
// would be too low for their names; more than 64 ranks group on their own.

#include "timeline/timelineview.h"

#include "document/document.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"
#include "support/timelinefixture.h"

#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

using Kind = TimelineLayout::Row::Kind;

DocumentState ringState(int ranks, const char* topology = nullptr)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = ranks}).schedule;
  if (topology) {
    std::string error;
    state.design.topology = makePresetTopology(topology, {}, &error);
    if (!state.design.topology)
      qFatal("%s: %s", topology, error.c_str());
  }
  return state;
}

int countRows(const TimelineView& view, Kind kind)
{
  int count = 0;
  for (const TimelineLayout::Row& row : view.model().layout().rows())
    count += row.kind == kind ? 1 : 0;
  return count;
}

/// Transfers of `step` that are drawn as an arrow.
int arrowsOfStep(const TimelineView& view, int step)
{
  int count = 0;
  for (const int index : view.model().transfersOfStep(step))
    count += view.model().route(index) ? 1 : 0;
  return count;
}

/// The viewport point on the row header of visual row `row` (scrolled into view).
QPoint headerPoint(TimelineView& view, int row)
{
  const TimelineLayout& layout = view.model().layout();
  const TimelineLayout::Row& r = layout.rows()[static_cast<std::size_t>(row)];
  // The cell of the row's first chunk scrolls it into view and gives content → viewport.
  const ChunkRef first = view.model().states().rows()[static_cast<std::size_t>(r.firstRow)].ref;
  const QRect cell = view.cellRect(first, 0);
  const int dataTop = layout.rows()[static_cast<std::size_t>(layout.visualRowOf(r.firstRow))].top;
  return {30, cell.top() - dataTop + r.top + layout.rowHeight() / 2};
}

} // namespace

class TestTimelineNodes : public QObject
{
  Q_OBJECT

private slots:
  void twoNodesOfTheTopology();
  void groupsOfEightWithoutTopology();
  void arrowsOnlyBetweenNodes();
  void enterOpensANode();
  void fitGroupsWhenRowsLoseTheirNames();
  void manyRanksGroupOnTheirOwn();
};

void TestTimelineNodes::twoNodesOfTheTopology()
{
  test::TimelineFixture f(ringState(16, "fabric-h100-2x8"));
  TimelineView& view = f.view;
  QVERIFY(!view.nodesGrouped()); // 16 ranks: not automatically
  QVERIFY(view.groupByNodeAction() && !view.groupByNodeAction()->isChecked());
  view.groupByNodeAction()->trigger();
  QVERIFY(view.nodesGrouped());
  QVERIFY(view.groupByNodeAction()->isChecked());
  QVERIFY(view.nodeGroups().fromTopology);
  QCOMPARE(view.nodeGroups().nodeCount, 2);
  const std::vector<TimelineLayout::Row>& rows = view.model().layout().rows();
  QCOMPARE(rows.size(), std::size_t{2});
  QCOMPARE(rows[0].kind, Kind::Node);
  QCOMPARE(rows[0].rank, 0);
  QCOMPARE(rows[0].lastRank, 7);
  QCOMPARE(rows[1].rank, 8);
  QCOMPARE(rows[1].lastRank, 15);
  QVERIFY(view.toolTipAt(headerPoint(view, 1)).contains("node 1: ranks 8–15"));
  QVERIFY(view.toolTipAt(headerPoint(view, 1)).contains("topology"));

  // Every rank folded, then node 0 opened by a click on its name: its header and 8 rank rows,
  // and node 1's row.
  for (int r = 0; r < 16; ++r)
    view.setRankCollapsed(r, true);
  QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, headerPoint(view, 0));
  QVERIFY(view.isNodeExpanded(0));
  QCOMPARE(view.model().layout().rows().size(), std::size_t{8 + 1 + 1});
  QCOMPARE(countRows(view, Kind::Rank), 8);
  QCOMPARE(countRows(view, Kind::Node), 2);
  QVERIFY(view.model().layout().rows()[0].expanded);
  // A click on the open node's header folds it again.
  QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, headerPoint(view, 0));
  QVERIFY(!view.isNodeExpanded(0));
  QCOMPARE(view.model().layout().rows().size(), std::size_t{2});

  view.groupByNodeAction()->trigger(); // off again
  QVERIFY(!view.nodesGrouped());
  QCOMPARE(countRows(view, Kind::Node), 0);
  QCOMPARE(countRows(view, Kind::Rank), 16);
}

void TestTimelineNodes::groupsOfEightWithoutTopology()
{
  // A fabric of 4-GPU nodes groups by 4; without a topology, by 8.
  test::TimelineFixture fabric(ringState(16, "fabric-h100-4x4-nics4"));
  fabric.view.setNodeGrouping(TimelineView::NodeGrouping::On);
  QCOMPARE(countRows(fabric.view, Kind::Node), 4);
  QCOMPARE(fabric.view.model().layout().rows()[1].rank, 4);

  test::TimelineFixture f(ringState(24));
  f.view.setNodeGrouping(TimelineView::NodeGrouping::On);
  QVERIFY(!f.view.nodeGroups().fromTopology);
  QCOMPARE(countRows(f.view, Kind::Node), 3);
  QCOMPARE(f.view.model().layout().rows().size(), std::size_t{3});
  QCOMPARE(f.view.model().layout().rows()[2].rank, 16);
  QCOMPARE(f.view.model().layout().rows()[2].lastRank, 23);
  const QString tip = f.view.toolTipAt(headerPoint(f.view, 2));
  QVERIFY2(tip.contains("groups of 8 consecutive ranks"), qPrintable(tip));
}

void TestTimelineNodes::arrowsOnlyBetweenNodes()
{
  // Ring all-reduce: in every step rank r sends to rank r+1, so two of the 16 transfers cross
  // from one node to the other (7 → 8, 15 → 0).
  test::TimelineFixture f(ringState(16, "fabric-h100-2x8"));
  TimelineView& view = f.view;
  QCOMPARE(arrowsOfStep(view, 0), 16);
  view.setNodeGrouping(TimelineView::NodeGrouping::On);
  for (int step = 0; step < view.model().states().stepCount(); ++step)
    QCOMPARE(arrowsOfStep(view, step), 2);
  // Opening node 0 gives its ranks' arrows back (7 inside it, 2 out, 0 → … is inside).
  view.setNodeExpanded(0, true);
  QCOMPARE(arrowsOfStep(view, 0), 16 - 7);
}

void TestTimelineNodes::enterOpensANode()
{
  test::TimelineFixture f(ringState(16));
  TimelineView& view = f.view;
  view.setNodeGrouping(TimelineView::NodeGrouping::On);
  view.setFocus();
  QTest::keyClick(&view, Qt::Key_Down); // the cursor on node 1's row
  QTest::keyClick(&view, Qt::Key_Return);
  QVERIFY(view.isNodeExpanded(1));
  QVERIFY(!view.isNodeExpanded(0));
  QCOMPARE(view.cursor().first.rank, 8);
  QTest::keyClick(&view, Qt::Key_Return, Qt::ShiftModifier);
  QVERIFY(!view.isNodeExpanded(1));
}

void TestTimelineNodes::fitGroupsWhenRowsLoseTheirNames()
{
  // 16 ranks of 16 chunks: 256 rows do not fit 1280×800 at a legible height.
  test::TimelineFixture f(ringState(16));
  TimelineView& view = f.view;
  view.resize(1280, 800);
  view.fitToWindow();
  QVERIFY(view.nodesGrouped());
  QCOMPARE(countRows(view, Kind::Node), 2);
  const int gridHeight = view.viewport()->height() - headerMetrics(view.font(), 1000, true).top;
  QVERIFY(view.model().layout().contentHeight() <= gridHeight);
  QVERIFY(rowHeaderText(view.model().layout().rowHeight(), QFontMetrics(view.font())));
  // Grouping switched off by the user: the fit leaves the ranks as they are.
  view.setNodeGrouping(TimelineView::NodeGrouping::Off);
  view.fitToWindow();
  QVERIFY(!view.nodesGrouped());
  // A 4-rank program fits without grouping.
  test::TimelineFixture small(ringState(4));
  small.view.resize(1280, 800);
  small.view.fitToWindow();
  QVERIFY(!small.view.nodesGrouped());
}

void TestTimelineNodes::manyRanksGroupOnTheirOwn()
{
  test::TimelineFixture f(ringState(72));
  f.document.waitForAnalysis();
  QVERIFY(f.view.nodesGrouped());
  QCOMPARE(countRows(f.view, Kind::Node), 9);
  QVERIFY(f.view.groupByNodeAction()->isChecked());
  // Switched off, then a new document: automatic again.
  f.view.groupByNodeAction()->trigger();
  QVERIFY(!f.view.nodesGrouped());
  QCOMPARE(countRows(f.view, Kind::Node), 0);
  f.document.reset(ringState(80), {});
  QVERIFY(f.view.nodesGrouped());
  QCOMPARE(countRows(f.view, Kind::Node), 10);
}

QTEST_MAIN(TestTimelineNodes)
#include "tst_timelinenodes.moc"
