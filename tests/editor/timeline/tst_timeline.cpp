// The timeline editor driven like a user: a 4-rank ring all-reduce drawn by mouse drags and the
// replicate action is exactly the catalogue's ring and passes every check; undo and redo restore
// the exact documents; Delete removes, dragging an arrow moves it to another step; rubber bands
// and clicks select; a bad transfer is marked with its diagnostic; an unliftable Program says why.

#include "timeline/timelineview.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "document/documentfiles.h"

#include "catalogue/catalogue.h"
#include "catalogue/ringallreduce.h"
#include "check/checker.h"
#include "support/corpus.h"
#include "support/timelinefixture.h"
#include "support/transferkeys.h"

#include <QApplication>
#include <QFileInfo>
#include <QScrollBar>
#include <QTest>
#include <QWheelEvent>

#include <set>
#include <tuple>

using namespace cs;
using namespace cs::editor;

namespace {

using test::keys;

ChunkRef in(int rank, int index)
{
  return {rank, Buffer::Input, index};
}

DocumentState emptyRingState()
{
  DocumentState state;
  Schedule& schedule = state.design.schedule;
  schedule.name = "my_ring";
  schedule.collective = Collective::AllReduce;
  schedule.ranks = 4;
  schedule.setUniformBuffers({.input = 4, .output = 0, .scratch = 0});
  schedule.inplace = true;
  schedule.outofplace = false;
  return state;
}

DocumentState catalogueRingState()
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
  return state;
}

/// A user's drag: press, move past the drag distance, move to the target, release.
void drag(QWidget* viewport, QPoint from, QPoint to, Qt::KeyboardModifiers release = {})
{
  QTest::mousePress(viewport, Qt::LeftButton, {}, from);
  QTest::mouseMove(viewport, from + QPoint(6, 3));
  QTest::mouseMove(viewport, (from + to) / 2);
  QTest::mouseMove(viewport, to);
  QTest::mouseRelease(viewport, Qt::LeftButton, release, to);
}

/// Drags from `src` in the column before `step` to `dst` in the column after it.
void dragTransfer(TimelineView& view, ChunkRef src, ChunkRef dst, int step,
                  Qt::KeyboardModifiers release = {})
{
  view.cellRect(src, step);
  view.cellRect(dst, step + 1);
  // Both are in view now; ask again so neither point is stale after a scroll.
  const QPoint from = view.cellRect(src, step).center();
  const QPoint to = view.cellRect(dst, step + 1).center();
  drag(view.viewport(), from, to, release);
}

int errorsIn(const std::vector<Diagnostic>& diagnostics)
{
  return static_cast<int>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

QString describe(const Analysis& analysis)
{
  QStringList lines;
  for (const Problem& p : analysis.problems)
    lines << QString::fromStdString(p.diagnostic.code + ": " + p.diagnostic.message);
  return lines.join('\n');
}

using Fixture = test::TimelineFixture;

} // namespace

class TestTimeline : public QObject
{
  Q_OBJECT

private slots:
  void drawRingByDragsAndReplicate();
  void deleteByKeyAndUndo();
  void dragArrowsToAnotherStep();
  void clicksAndRubberBandsSelect();
  void badTransferIsMarkedWithItsDiagnostic();
  void selectionFromElsewhereScrollsIntoView();
  void collapsingARankFoldsItsRows();
  void hoverHighlightsTheArrowUnderTheMouse();
  void keyboardMovesTheCursorAndSelectsWhatWroteACell();
  void ctrlWheelZoomsAroundTheMouse();
  void unliftableProgramSaysWhy();
  void everyCorpusFileIsShown_data();
  void everyCorpusFileIsShown();
};

void TestTimeline::drawRingByDragsAndReplicate()
{
  Fixture f(emptyRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  const DocumentState initial = f.document.state();
  QCOMPARE(f.view.model().columnCount(), 2); // "start" and the empty column of step 0

  // Reduce-scatter: in step s rank 0 reduces chunk (-s-1) mod 4 into rank 1.
  f.view.setOperation(TransferOp::Reduce);
  dragTransfer(f.view, in(0, 3), in(1, 3), 0);
  dragTransfer(f.view, in(0, 2), in(1, 2), 1);
  // The last reduce with the Copy toggle and Shift held on release: the other mode.
  f.view.setOperation(TransferOp::Copy);
  dragTransfer(f.view, in(0, 1), in(1, 1), 2, Qt::ShiftModifier);
  // All-gather: in step 3+s rank 0 forwards chunk (-s) mod 4.
  dragTransfer(f.view, in(0, 0), in(1, 0), 3);
  dragTransfer(f.view, in(0, 3), in(1, 3), 4);
  dragTransfer(f.view, in(0, 2), in(1, 2), 5);

  const std::vector<Transfer>& drawn = f.document.schedule().transfers;
  QCOMPARE(drawn.size(), std::size_t{6});
  QCOMPARE(f.document.undoStack()->count(), 6);
  const Schedule catalogue = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
  std::vector<Transfer> rankZero;
  for (const Transfer& t : catalogue.transfers)
    if (t.src.rank == 0)
      rankZero.push_back(t);
  QCOMPARE(keys(drawn), keys(rankZero));
  // The newest transfer is selected, ready to be replicated or moved.
  QCOMPARE(f.document.selection().transfers, (std::set<int>{drawn.back().id}));
  // The cells follow: rank 1's i[3] after step 0 is the partial sum of ranks 0 and 1.
  const ChunkStates& states = f.view.model().states();
  QCOMPARE(states.label(states.rowOf(in(1, 3)), 1), std::string("Σ01"));

  // Rubber band from the step header over every step down to rank 1: rank 0's six arrows.
  const QPoint bandStart = f.view.headerRect(0).topLeft() + QPoint(2, 4);
  const QRect lastCell = f.view.cellRect(in(1, 3), f.view.model().columnCount() - 1);
  QCOMPARE(f.view.headerRect(0).topLeft() + QPoint(2, 4), bandStart); // no scroll in between
  drag(f.view.viewport(), bandStart, lastCell.bottomRight());
  QCOMPARE(f.document.selection().transfers.size(), std::size_t{6});

  // Replicate, shifted by one rank and one chunk: the whole ring, as one undo step.
  QCOMPARE(f.view.replicateSelection(1, true), 18);
  QCOMPARE(f.document.undoStack()->count(), 7);
  const QUndoCommand* replicate = f.document.undoStack()->command(6);
  QCOMPARE(replicate->text(), QStringLiteral("Replicate 18 transfers"));
  QCOMPARE(replicate->childCount(), 1);
  QCOMPARE(keys(f.document.schedule().transfers), keys(catalogue.transfers));
  QCOMPARE(f.document.selection().transfers.size(), std::size_t{24});

  const Analysis& analysis = f.document.analysis();
  QVERIFY2(analysis.errors == 0, qPrintable(describe(analysis)));
  QVERIFY(analysis.program.has_value());
  const std::vector<Diagnostic> checked = checkProgram(*analysis.program, {});
  QCOMPARE(errorsIn(checked), 0);
  const ChunkStates& finalStates = f.view.model().states();
  for (int row = 0; row < finalStates.rowCount(); ++row)
    QCOMPARE(finalStates.label(row, finalStates.columnCount() - 1), std::string("Σ all"));

  // Undo everything: the exact empty document; redo everything: the exact ring.
  const DocumentState final = f.document.state();
  while (f.document.undoStack()->canUndo())
    f.document.undoStack()->undo();
  QVERIFY(f.document.state() == initial);
  QVERIFY(!f.document.isModified());
  while (f.document.undoStack()->canRedo())
    f.document.undoStack()->redo();
  QVERIFY(f.document.state() == final);
  QCOMPARE(f.view.model().states().stepCount(), 6);
}

void TestTimeline::deleteByKeyAndUndo()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  const DocumentState before = f.document.state();
  const Transfer victim = *std::find_if(before.design.schedule.transfers.begin(),
                                        before.design.schedule.transfers.end(),
                                        [](const Transfer& t) { return t.step == 1; });
  const QPoint point = f.view.arrowPoint(victim.id);
  QCOMPARE(f.view.transferAt(point), victim.id);
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, point);
  QCOMPARE(f.document.selection().transfers, (std::set<int>{victim.id}));
  QTest::keyClick(&f.view, Qt::Key_Delete);
  QCOMPARE(f.document.schedule().transfers.size(), before.design.schedule.transfers.size() - 1);
  QVERIFY(f.document.schedule().transfer(victim.id) == nullptr);
  QVERIFY(f.document.selection().transfers.empty());
  QVERIFY(f.document.analysis().errors > 0); // the ring is broken now
  f.document.undoStack()->undo();
  QVERIFY(f.document.state() == before);
  // Backspace deletes too.
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.arrowPoint(victim.id));
  QTest::keyClick(&f.view, Qt::Key_Backspace);
  QVERIFY(f.document.schedule().transfer(victim.id) == nullptr);
}

void TestTimeline::dragArrowsToAnotherStep()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  const Schedule& schedule = f.document.schedule();
  std::vector<int> stepTwo;
  for (const Transfer& t : schedule.transfers)
    if (t.step == 2)
      stepTwo.push_back(t.id);
  QCOMPARE(stepTwo.size(), std::size_t{4});
  const int pitch = f.view.model().layout().columnPitch();

  // One arrow, two steps to the right.
  const int moved = stepTwo[0];
  QPoint from = f.view.arrowPoint(moved);
  drag(f.view.viewport(), from, from + QPoint(2 * pitch, 5));
  QCOMPARE(f.document.schedule().transfer(moved)->step, 4);
  QCOMPARE(f.document.schedule().transfer(stepTwo[1])->step, 2);

  // Two selected arrows (click, Ctrl-click), dragged one step to the left by one of them.
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.arrowPoint(stepTwo[1]));
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, Qt::ControlModifier,
                    f.view.arrowPoint(stepTwo[2]));
  QCOMPARE(f.document.selection().transfers, (std::set<int>{stepTwo[1], stepTwo[2]}));
  from = f.view.arrowPoint(stepTwo[2]);
  drag(f.view.viewport(), from, from - QPoint(pitch, 0));
  QCOMPARE(f.document.schedule().transfer(stepTwo[1])->step, 1);
  QCOMPARE(f.document.schedule().transfer(stepTwo[2])->step, 1);
  QCOMPARE(f.document.schedule().transfer(stepTwo[3])->step, 2);
  QCOMPARE(f.document.undoStack()->count(), 2);
  QCOMPARE(f.document.undoStack()->text(1), QStringLiteral("Move 2 transfers by -1 step"));

  // A drag that would move before step 0 stops at step 0.
  from = f.view.arrowPoint(stepTwo[1]);
  drag(f.view.viewport(), from, from - QPoint(5 * pitch, 0));
  QCOMPARE(f.document.schedule().transfer(stepTwo[1])->step, 0);
  QCOMPARE(f.document.schedule().transfer(stepTwo[2])->step, 0);

  // A Ctrl-click toggles an arrow out of the selection again.
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, Qt::ControlModifier,
                    f.view.arrowPoint(stepTwo[1]));
  QCOMPARE(f.document.selection().transfers, (std::set<int>{stepTwo[2]}));
}

void TestTimeline::clicksAndRubberBandsSelect()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  const Schedule& schedule = f.document.schedule();

  // Clicking a step header selects that step's transfers.
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.headerRect(3).center());
  std::set<int> stepTwo;
  for (const Transfer& t : schedule.transfers)
    if (t.step == 2)
      stepTwo.insert(t.id);
  QCOMPARE(f.document.selection().transfers, stepTwo);

  // Clicking a cell selects the transfer that wrote it; a click on nothing clears.
  const Transfer& first = *std::find_if(schedule.transfers.begin(), schedule.transfers.end(),
                                        [](const Transfer& t) { return t.step == 0; });
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.cellRect(first.dst, 1).center());
  QCOMPARE(f.document.selection().transfers, (std::set<int>{first.id}));
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.cellRect(in(0, 0), 0).center());
  QVERIFY(f.document.selection().transfers.empty());

  // The Select tool: a band over the gap of step 0, from rank 0's top to rank 1's bottom, takes
  // the step-0 arrows whose runs cross those rows (the wrap-around 3 -> 0 included, 2 -> 3 not).
  f.view.setTool(TimelineView::Tool::Select);
  const QRect topLeft = f.view.cellRect(in(0, 0), 0);
  const QRect bottomRight = f.view.cellRect(in(1, 3), 1);
  const QPoint a(topLeft.center().x(), topLeft.top() + 1);
  const QPoint b(bottomRight.center().x(), bottomRight.bottom() - 1);
  drag(f.view.viewport(), a, b);
  std::set<int> expected;
  for (const Transfer& t : schedule.transfers)
    if (t.step == 0 && std::min(t.src.rank, t.dst.rank) <= 1)
      expected.insert(t.id);
  QCOMPARE(expected.size(), std::size_t{3});
  QCOMPARE(f.document.selection().transfers, expected);
  // A drag in the Select tool never creates a transfer.
  QCOMPARE(f.document.undoStack()->count(), 0);
}

void TestTimeline::badTransferIsMarkedWithItsDiagnostic()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  QCOMPARE(f.document.analysis().errors, 0);
  // Rank 2 copies into rank 1's i[3] in step 0, which the ring's rank 0 already reduces into.
  f.view.setOperation(TransferOp::Copy);
  dragTransfer(f.view, in(2, 0), in(1, 3), 0);
  const int bad = *f.document.selection().transfers.begin();
  QCOMPARE(f.document.schedule().transfer(bad)->dst, in(1, 3));
  QCOMPARE(f.view.model().severity(bad), ArrowSeverity::Error);
  const QStringList problems = f.view.problemsOf(bad);
  QVERIFY2(!problems.filter(QStringLiteral("schedule.write-conflict")).isEmpty(),
           qPrintable(problems.join('\n')));
  QVERIFY(f.view.model().stepHasError(0));
  const QPoint point = f.view.arrowPoint(bad);
  QCOMPARE(f.view.transferAt(point), bad);
  const QString tip = f.view.toolTipAt(point);
  QVERIFY2(tip.contains(QStringLiteral("schedule.write-conflict")), qPrintable(tip));
  QVERIFY2(tip.contains(QStringLiteral("transfer #%1").arg(bad)), qPrintable(tip));
  // A good arrow's tooltip has no problem, and a cell's tooltip spells its value out.
  const Transfer& good = f.document.schedule().transfers.front();
  QVERIFY(f.view.problemsOf(good.id).isEmpty());
  QCOMPARE(f.view.model().severity(good.id), ArrowSeverity::None);
  const QString cellTip = f.view.toolTipAt(f.view.cellRect(in(2, 1), 0).center());
  QVERIFY2(cellTip.contains(QStringLiteral("r2·c1: rank 2's own contribution")),
           qPrintable(cellTip));
}

void TestTimeline::selectionFromElsewhereScrollsIntoView()
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 16}).schedule;
  Fixture f(std::move(state));
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  QCOMPARE(f.view.verticalScrollBar()->value(), 0);
  // The last rank's arrow of the last step lies far below and to the right.
  const Schedule& schedule = f.document.schedule();
  const Transfer& far =
      *std::max_element(schedule.transfers.begin(), schedule.transfers.end(),
                        [](const Transfer& a, const Transfer& b) {
                          return std::tie(a.step, a.src.rank) < std::tie(b.step, b.src.rank);
                        });
  QCOMPARE(far.src.rank, 15);
  f.document.selectTransfer(far.id); // as the program view or the problems panel would
  QVERIFY(f.view.verticalScrollBar()->value() > 0);
  QVERIFY(f.view.horizontalScrollBar()->value() > 0);
  // Its source end is now inside the grid.
  const std::optional<ArrowRoute> route = f.view.model().route(f.view.model().indexOf(far.id));
  QVERIFY(route);
  const int y = static_cast<int>(route->from.y()) - f.view.verticalScrollBar()->value();
  QVERIFY(y >= 0 && y < f.view.viewport()->height());
}

void TestTimeline::collapsingARankFoldsItsRows()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  QCOMPARE(f.view.model().layout().rows().size(), std::size_t{16});
  // Clicking rank 1's name folds its four rows into one; clicking again unfolds them.
  const QRect cell = f.view.cellRect(in(1, 0), 0);
  const QPoint label(20, cell.center().y());
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, label);
  QVERIFY(f.view.isRankCollapsed(1));
  QCOMPARE(f.view.model().layout().rows().size(), std::size_t{13});
  // Arrows into the folded rank end on its summary row and stay clickable.
  const Transfer& into =
      *std::find_if(f.document.schedule().transfers.begin(), f.document.schedule().transfers.end(),
                    [](const Transfer& t) { return t.dst.rank == 1 && t.step == 0; });
  QCOMPARE(f.view.transferAt(f.view.arrowPoint(into.id)), into.id);
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, label);
  QVERIFY(!f.view.isRankCollapsed(1));
  QCOMPARE(f.view.model().layout().rows().size(), std::size_t{16});
}

void TestTimeline::hoverHighlightsTheArrowUnderTheMouse()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  const Transfer& t = f.document.schedule().transfers[5];
  const QPoint on = f.view.arrowPoint(t.id);
  QTest::mouseMove(f.view.viewport(), on);
  QCOMPARE(f.view.hoveredTransfer(), t.id);
  QTest::mouseMove(f.view.viewport(), f.view.cellRect(in(0, 0), 0).center());
  QCOMPARE(f.view.hoveredTransfer(), -1);
}

void TestTimeline::keyboardMovesTheCursorAndSelectsWhatWroteACell()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  // Click rank 0's i[3] before step 0, then walk: down into rank 1, right to after step 0.
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.cellRect(in(0, 3), 0).center());
  QCOMPARE(f.view.cursor(), std::pair(in(0, 3), 0));
  QTest::keyClick(&f.view, Qt::Key_Down);
  QTest::keyClick(&f.view, Qt::Key_Down);
  QTest::keyClick(&f.view, Qt::Key_Down);
  QTest::keyClick(&f.view, Qt::Key_Down);
  QTest::keyClick(&f.view, Qt::Key_Right);
  QCOMPARE(f.view.cursor(), std::pair(in(1, 3), 1));
  QTest::keyClick(&f.view, Qt::Key_Return);
  // Rank 1's i[3] is written in step 0 by rank 0's reduce.
  std::set<int> writers;
  for (const Transfer& t : f.document.schedule().transfers)
    if (t.step == 0 && t.dst == in(1, 3))
      writers.insert(t.id);
  QCOMPARE(writers.size(), std::size_t{1});
  QCOMPARE(f.document.selection().transfers, writers);
  QTest::keyClick(&f.view, Qt::Key_End);
  QCOMPARE(f.view.cursor().second, f.view.model().columnCount() - 1);
  QTest::keyClick(&f.view, Qt::Key_Escape);
  QVERIFY(f.document.selection().transfers.empty());
}

void TestTimeline::ctrlWheelZoomsAroundTheMouse()
{
  Fixture f(catalogueRingState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  QCOMPARE(f.view.zoom(), 1.0);
  const int pitch = f.view.model().layout().columnPitch();
  const QPoint at = f.view.cellRect(in(1, 0), 1).center();
  QWheelEvent wheel(at, f.view.viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::ControlModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(f.view.viewport(), &wheel);
  QCOMPARE(f.view.zoom(), 1.15);
  QVERIFY(f.view.model().layout().columnPitch() > pitch);
  // Zoom out again by the action.
  QAction* zoomOut = nullptr;
  for (QAction* action : f.view.toolActions())
    if (action->text() == QStringLiteral("Zoom Out"))
      zoomOut = action;
  QVERIFY(zoomOut);
  zoomOut->trigger();
  QCOMPARE(f.view.zoom(), 1.15 / 1.25);
}

void TestTimeline::unliftableProgramSaysWhy()
{
  Program program = makeRingAllReduce({.ranks = 2});
  // Drop rank 1's last receive: rank 0's last send has nobody to match it.
  program.gpus[1].threadblocks[0].steps.pop_back();
  DocumentState state;
  state.program = program;
  Fixture f(std::move(state));
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  QVERIFY(!f.document.shownSchedule().has_value());
  QVERIFY(!f.view.model().hasSchedule());
  const QString message = f.view.unavailableMessage();
  QVERIFY2(message.contains(QStringLiteral("cannot be shown on the timeline")),
           qPrintable(message));
  bool named = false;
  for (const Problem& problem : f.document.analysis().problems)
    if (problem.stage == ProblemStage::Lifting)
      named = named || message.contains(QString::fromStdString(problem.diagnostic.message));
  QVERIFY2(named, qPrintable(message));
  // Nothing to hit, nothing to edit.
  QCOMPARE(f.view.transferAt(QPoint(400, 300)), -1);
  QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, QPoint(400, 300));
  QCOMPARE(f.document.undoStack()->count(), 0);
}

void TestTimeline::everyCorpusFileIsShown_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : cs::test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void TestTimeline::everyCorpusFileIsShown()
{
  QFETCH(QString, path);
  const LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state, qPrintable(loaded.error));
  Fixture f(*loaded.state);
  f.document.waitForAnalysis();
  const std::optional<Schedule>& schedule = f.document.shownSchedule();
  if (!schedule) {
    // Unliftable files say why instead of showing an empty grid.
    QVERIFY(!f.view.unavailableMessage().isEmpty());
    return;
  }
  const ChunkStates& states = f.view.model().states();
  int chunks = 0;
  for (const RankBuffers& buffers : schedule->buffers)
    chunks += buffers.input + buffers.output + buffers.scratch;
  QCOMPARE(states.rowCount(), chunks);
  QCOMPARE(states.stepCount(), schedule->stepCount());
  QCOMPARE(f.view.model().columnCount(), schedule->stepCount() + 2);
  // Every transfer of the first step is drawn and can be picked by its arrow.
  for (const int index : f.view.model().transfersOfStep(0)) {
    const Transfer& t = schedule->transfers[static_cast<std::size_t>(index)];
    const QPoint point = f.view.arrowPoint(t.id);
    QVERIFY2(!point.isNull(), qPrintable(QStringLiteral("transfer #%1").arg(t.id)));
    const int hit = f.view.transferAt(point);
    // Arrows of one step may share a lane end; the one found is of the same step at that point.
    QVERIFY(hit >= 0);
    QCOMPARE(schedule->transfer(hit)->step, 0);
  }
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
