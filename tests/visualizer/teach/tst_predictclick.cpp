// Predicting on the timeline (issue 19 item 4): while the Predict tab has a round open, a click on
// a hidden cell of the timeline opens a menu of that cell's options, and the choice is recorded in
// the Predict tab's row for the cell (so Reveal scores it). A click on a cell that is not hidden
// asks nothing, and a press on a hidden cell never starts an edit.

#include "document/document.h"
#include "teach/predictpanel.h"
#include "teach/teachingpanel.h"
#include "teach/teachingview.h"
#include "timeline/timelineview.h"

#include "catalogue/catalogue.h"

#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QTabWidget>
#include <QTest>

#include <algorithm>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

constexpr int kStep = 1; // the step predicted: its results are column kStep + 1

/// A timeline and the teaching view over a 4-rank ring all-reduce, Predict tab open on kStep.
struct PredictingTimeline {
  Document document;
  TimelineView timeline{&document};
  std::unique_ptr<TeachingView> view;
  PredictPanel* predict = nullptr;
  std::vector<ChunkRef> clicked; ///< what concealedCellClicked reported

  PredictingTimeline()
  {
    DocumentState state;
    state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
    document.reset(state, {});
    document.waitForAnalysis();
    view = std::make_unique<TeachingView>(&document, &timeline, nullptr);
    predict = view->findChild<PredictPanel*>();
    view->panel()->goTo(kStep, false);
    view->panel()->tabs()->setCurrentWidget(predict);
    timeline.resize(1400, 900);
    timeline.show();
    QObject::connect(&timeline, &TimelineView::concealedCellClicked,
                     [this](const ChunkRef& cell, const QPoint&) { clicked.push_back(cell); });
  }

  void click(const ChunkRef& cell, int column)
  {
    const QPoint centre = timeline.cellRect(cell, column).center();
    QTest::mouseClick(timeline.viewport(), Qt::LeftButton, {}, centre);
  }

  /// The picker the last click opened (the newest menu of the Predict tab).
  QMenu* picker() const
  {
    const QList<QMenu*> menus = predict->findChildren<QMenu*>();
    return menus.isEmpty() ? nullptr : menus.back();
  }
};

int answerIndex(const PredictCell& cell)
{
  return static_cast<int>(std::ranges::find(cell.options, cell.answer) - cell.options.begin());
}

/// Chooses `option` in the open picker and closes it (gone for good before the next click).
void pick(QMenu* menu, int option)
{
  const QList<QAction*> choices = [menu] {
    QList<QAction*> checkable;
    for (QAction* action : menu->actions()) {
      if (action->isCheckable())
        checkable.push_back(action);
    }
    return checkable;
  }();
  QVERIFY(option < choices.size());
  choices[option]->trigger();
  menu->close();
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

} // namespace

class TestPredictClick : public QObject
{
  Q_OBJECT

private slots:
  void clickingHiddenCellsRecordsThePredictions();
  void otherCellsAskNothingAndHiddenCellsNeverEdit();
};

void TestPredictClick::clickingHiddenCellsRecordsThePredictions()
{
  PredictingTimeline t;
  QVERIFY(QTest::qWaitForWindowExposed(&t.timeline));
  QCOMPARE(t.timeline.concealedStep(), std::optional<int>(kStep));
  const std::vector<PredictCell> cells = t.predict->round().cells;
  QVERIFY(cells.size() >= 2);
  const QList<QComboBox*> boxes = t.predict->findChildren<QComboBox*>();
  QCOMPARE(boxes.size(), static_cast<qsizetype>(cells.size()));

  // Every cell but the last is answered right on the timeline, the last one wrong.
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const PredictCell& cell = cells[i];
    QVERIFY(t.timeline.isConcealed(cell.ref, kStep + 1));
    t.click(cell.ref, kStep + 1);
    QCOMPARE(t.clicked.size(), i + 1);
    QCOMPARE(t.clicked.back(), cell.ref);
    QMenu* menu = t.picker();
    QVERIFY(menu);
    const bool last = i + 1 == cells.size();
    const int answer = answerIndex(cell);
    const int option = last ? (answer == 0 ? 1 : 0) : answer;
    pick(menu, option);
    QCOMPARE(boxes[static_cast<qsizetype>(i)]->currentIndex(), option); // the row shows it
  }
  t.predict->reveal();
  QVERIFY(t.predict->result());
  QCOMPARE(t.predict->result()->total, static_cast<int>(cells.size()));
  QCOMPARE(t.predict->result()->right, static_cast<int>(cells.size()) - 1);
  QVERIFY(!t.predict->result()->cells.back().right);

  // Once revealed nothing is hidden, so a click asks nothing.
  t.click(cells.front().ref, kStep + 1);
  QCOMPARE(t.clicked.size(), cells.size());
}

void TestPredictClick::otherCellsAskNothingAndHiddenCellsNeverEdit()
{
  PredictingTimeline t;
  QVERIFY(QTest::qWaitForWindowExposed(&t.timeline));
  const ChunkStates& states = *t.document.analysis().states;
  const std::vector<PredictCell>& cells = t.predict->round().cells;
  QVERIFY(!cells.empty());
  const auto unchanged = std::ranges::find_if(states.rows(), [&](const ChunkRow& row) {
    return !states.changed(states.rowOf(row.ref), kStep + 1);
  });
  QVERIFY(unchanged != states.rows().end());

  t.click(unchanged->ref, kStep + 1);    // same column, a cell the step does not write
  t.click(cells.front().ref, kStep);     // a written cell, the column before the step
  t.click(cells.front().ref, kStep + 2); // and the column after
  QVERIFY(t.clicked.empty());
  QVERIFY(!t.picker());

  // A drag from a hidden cell to another cell adds no transfer.
  const std::size_t transfers = t.document.state().design.schedule.transfers.size();
  const QPoint from = t.timeline.cellRect(cells.front().ref, kStep + 1).center();
  const QPoint to = t.timeline.cellRect(unchanged->ref, kStep + 2).center();
  QTest::mousePress(t.timeline.viewport(), Qt::LeftButton, {}, from);
  QTest::mouseMove(t.timeline.viewport(), (from + to) / 2);
  QTest::mouseMove(t.timeline.viewport(), to);
  QTest::mouseRelease(t.timeline.viewport(), Qt::LeftButton, {}, to);
  QCOMPARE(t.document.state().design.schedule.transfers.size(), transfers);
  QCOMPARE(t.document.undoStack()->count(), 0);
}

QTEST_MAIN(TestPredictClick)
#include "tst_predictclick.moc"
