// Copy, cut, paste and duplicate on the timeline (issue 17, item 6), on the catalogue's 4-rank
// ring: two copied transfers pasted at a step and rank offset are exactly those transfers shifted
// (the expectation computed here from the source transfers and the offset); each edit is one undo
// step that restores the Schedule exactly; cut then paste moves; a paste onto the transfers
// themselves adds no second copy; foreign clipboard text, damaged clipboard data and a paste onto
// chunks the target lacks change nothing and say why; the paste lands where the keyboard cursor
// or the mouse is; the operation toggles no longer read "Copy".

#include "timeline/timelineview.h"
#include "timeline/transferclipboard.h"

#include "document/document.h"

#include "catalogue/catalogue.h"
#include "support/timelinefixture.h"
#include "support/transferkeys.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <set>

using namespace cs;
using namespace cs::editor;

namespace {

using Key = test::TransferKey;
using test::keyOf;
using test::keys;

DocumentState ringState(int chunksPerRank = 0)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
  if (chunksPerRank > 0) {
    // The ring's shape on fewer chunks: a target that lacks the ring's higher chunks.
    state.design.schedule.setUniformBuffers({chunksPerRank, 0, 0});
    state.design.schedule.transfers.clear();
  }
  return state;
}

/// Rank 0's transfers of steps 0 and 1: one sender, two steps.
std::vector<Transfer> rankZeroFirstTwo(const Schedule& schedule)
{
  std::vector<Transfer> picked;
  for (const Transfer& t : schedule.transfers)
    if (t.src.rank == 0 && t.step <= 1)
      picked.push_back(t);
  return picked;
}

/// What a paste of `source` must add: every transfer moved so that the earliest one (lowest
/// source rank among the earliest step) starts at `at`, ranks wrapping around `ranks`.
std::set<Key> shifted(const std::vector<Transfer>& source, PasteAnchor at, int ranks)
{
  int firstStep = source.front().step;
  for (const Transfer& t : source)
    firstStep = std::min(firstStep, t.step);
  int firstRank = ranks;
  for (const Transfer& t : source)
    if (t.step == firstStep)
      firstRank = std::min(firstRank, t.src.rank);
  const auto move = [&](ChunkRef ref) {
    ref.rank = (ref.rank - firstRank + at.rank + 4 * ranks) % ranks;
    return ref;
  };
  std::set<Key> expected;
  for (const Transfer& t : source)
    expected.insert({t.step - firstStep + at.step, move(t.src), move(t.dst), t.count, t.op});
  return expected;
}

std::set<int> idsOf(const std::vector<Transfer>& transfers)
{
  std::set<int> ids;
  for (const Transfer& t : transfers)
    ids.insert(t.id);
  return ids;
}

/// The timeline on its document, with the selection set and read as a rubber band would.
class Fixture : public test::TimelineFixture
{
public:
  using TimelineFixture::TimelineFixture;
  void select(const std::vector<Transfer>& transfers)
  {
    Selection selection;
    selection.transfers = idsOf(transfers);
    document.setSelection(selection);
  }
  std::vector<Transfer> selected() const
  {
    std::vector<Transfer> transfers;
    for (const int id : document.selection().transfers)
      transfers.push_back(*document.schedule().transfer(id));
    return transfers;
  }
};

QAction* actionNamed(const QList<QAction*>& actions, const QString& text)
{
  for (QAction* action : actions)
    if (action->text().remove(QLatin1Char('&')) == text)
      return action;
  return nullptr;
}

} // namespace

class TestTimelineClipboard : public QObject
{
  Q_OBJECT

private slots:
  void pasteAddsTheCopiedTransfersShifted_data();
  void pasteAddsTheCopiedTransfersShifted();
  void duplicatePlacesACopyAfterTheLastStep();
  void cutThenPasteMoves();
  void pasteOntoItselfAddsNothing();
  void foreignClipboardTextChangesNothing();
  void damagedClipboardDataChangesNothing();
  void pasteOntoMissingChunksIsRefused();
  void pasteIntoAnotherDocumentWithTheChunks();
  void ctrlVPastesAtTheKeyboardCursor();
  void pasteGoesUnderTheMouse();
  void operationTogglesAreNamedAsOperations();
};

void TestTimelineClipboard::pasteAddsTheCopiedTransfersShifted_data()
{
  QTest::addColumn<int>("stepOffset");
  QTest::addColumn<int>("rankOffset");
  // A ring transfer at step s on rank r moves chunk (r - s + c) mod 4: a paste whose rank offset
  // differs from its step offset (mod 4) repeats none of them.
  QTest::newRow("two steps later, next rank") << 2 << 1;
  QTest::newRow("ranks wrap") << 1 << 3;
  QTest::newRow("new steps appended") << 6 << 0;
}

void TestTimelineClipboard::pasteAddsTheCopiedTransfersShifted()
{
  QFETCH(int, stepOffset);
  QFETCH(int, rankOffset);
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  const std::vector<Transfer> source = rankZeroFirstTwo(before);
  QCOMPARE(source.size(), std::size_t{2});
  f.select(source);
  QVERIFY(f.view.copySelection());

  const PasteAnchor at{stepOffset, rankOffset}; // the source group starts at step 0, rank 0
  const std::set<Key> expected = shifted(source, at, before.ranks);
  for (const Key& key : expected)
    QVERIFY2(!keys(before.transfers).contains(key), "the paste must not repeat a ring transfer");

  const int undoSteps = f.document.undoStack()->count();
  QVERIFY(f.view.pasteAt(at));
  QCOMPARE(f.document.undoStack()->count(), undoSteps + 1);
  const Schedule& after = f.document.schedule();
  QCOMPARE(after.transfers.size(), before.transfers.size() + 2);
  std::set<Key> wanted = keys(before.transfers);
  wanted.insert(expected.begin(), expected.end());
  QCOMPARE(keys(after.transfers), wanted);
  QCOMPARE(keys(f.selected()), expected);
  QCOMPARE(after.stepCount(), std::max(before.stepCount(), stepOffset + 2));

  f.document.undoStack()->undo();
  QCOMPARE(f.document.schedule(), before);
  f.document.undoStack()->redo();
  QCOMPARE(keys(f.document.schedule().transfers), wanted);
}

void TestTimelineClipboard::duplicatePlacesACopyAfterTheLastStep()
{
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  const std::vector<Transfer> source = rankZeroFirstTwo(before);
  f.select(source);
  const std::set<Key> expected = shifted(source, {2, 0}, before.ranks); // steps 0–1 → 2–3
  QVERIFY(f.view.duplicateSelection());
  std::set<Key> wanted = keys(before.transfers);
  wanted.insert(expected.begin(), expected.end());
  QCOMPARE(keys(f.document.schedule().transfers), wanted);
  QCOMPARE(f.document.schedule().transfers.size(), before.transfers.size() + 2);
  QCOMPARE(keys(f.selected()), expected);
  QCOMPARE(f.document.undoStack()->count(), 1);
  QCOMPARE(f.document.undoStack()->undoText(), QStringLiteral("Duplicate 2 transfers"));

  // Duplicating the copies goes on after them: steps 4–5.
  QVERIFY(f.view.duplicateSelection());
  const std::set<Key> next = shifted(source, {4, 0}, before.ranks);
  QCOMPARE(keys(f.selected()), next);

  f.document.undoStack()->undo();
  f.document.undoStack()->undo();
  QCOMPARE(f.document.schedule(), before);
}

void TestTimelineClipboard::cutThenPasteMoves()
{
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  const std::vector<Transfer> source = rankZeroFirstTwo(before);
  f.select(source);
  QVERIFY(f.view.cutSelection());
  QCOMPARE(f.document.undoStack()->count(), 1);
  QCOMPARE(f.document.schedule().transfers.size(), before.transfers.size() - 2);
  for (const Transfer& t : source)
    QVERIFY(!f.document.schedule().transfer(t.id));
  QVERIFY(f.document.selection().transfers.empty());

  const PasteAnchor at{2, 1};
  QVERIFY(f.view.pasteAt(at));
  std::set<Key> wanted = keys(before.transfers);
  for (const Transfer& t : source)
    wanted.erase(keyOf(t));
  const std::set<Key> moved = shifted(source, at, before.ranks);
  wanted.insert(moved.begin(), moved.end());
  QCOMPARE(keys(f.document.schedule().transfers), wanted);
  QCOMPARE(f.document.undoStack()->count(), 2);

  f.document.undoStack()->undo();
  f.document.undoStack()->undo();
  QCOMPARE(f.document.schedule(), before);
}

void TestTimelineClipboard::pasteOntoItselfAddsNothing()
{
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  const std::vector<Transfer> source = rankZeroFirstTwo(before);
  f.select(source);
  QVERIFY(f.view.copySelection());
  f.select({});
  QSignalSpy messages(&f.view, &TimelineView::statusMessage);
  QVERIFY(!f.view.pasteAt(anchorOf(source)));
  QCOMPARE(f.document.schedule(), before);
  QCOMPARE(f.document.undoStack()->count(), 0);
  // What is already there is selected, as if it had been pasted.
  QCOMPARE(f.document.selection().transfers, idsOf(source));
  QVERIFY2(messages.back().front().toString().endsWith(QStringLiteral("(2 already there)")),
           qPrintable(messages.back().front().toString()));
}

void TestTimelineClipboard::foreignClipboardTextChangesNothing()
{
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  QGuiApplication::clipboard()->setText(QStringLiteral("rank 0 i[0] -> rank 1 i[0], step 0"));
  QSignalSpy messages(&f.view, &TimelineView::statusMessage);
  QVERIFY(!f.view.pasteAt({0, 0}));
  QCOMPARE(f.document.schedule(), before);
  QCOMPARE(f.document.undoStack()->count(), 0);
  QCOMPARE(messages.count(), 1);
  const QString message = messages.front().front().toString();
  QVERIFY2(message.contains(QStringLiteral("holds no transfers")) &&
               message.contains(QStringLiteral("nothing was pasted")),
           qPrintable(message));
}

void TestTimelineClipboard::damagedClipboardDataChangesNothing()
{
  Fixture f(ringState());
  const Schedule before = f.document.schedule();
  f.select(rankZeroFirstTwo(before));
  QVERIFY(f.view.copySelection());
  const QString type = QString::fromLatin1(kTransfersMimeType);
  QByteArray bytes = QGuiApplication::clipboard()->mimeData()->data(type);
  QVERIFY(bytes.contains("\"step\": 1"));
  bytes.replace("\"step\": 1", "\"step\": -1");
  auto* damaged = new QMimeData;
  damaged->setData(type, bytes);
  QGuiApplication::clipboard()->setMimeData(damaged);
  QSignalSpy messages(&f.view, &TimelineView::statusMessage);
  QVERIFY(!f.view.pasteAt({3, 2}));
  QCOMPARE(f.document.schedule(), before);
  QCOMPARE(messages.count(), 1);
  QVERIFY2(messages.front().front().toString().contains(QStringLiteral("cannot be read")),
           qPrintable(messages.front().front().toString()));
}

void TestTimelineClipboard::pasteOntoMissingChunksIsRefused()
{
  Fixture source(ringState());
  std::vector<Transfer> high;
  for (const Transfer& t : source.document.schedule().transfers)
    if (t.src.index == 3 && t.step == 0)
      high.push_back(t);
  QCOMPARE(high.size(), std::size_t{1});
  source.select(high);
  QVERIFY(source.view.copySelection());

  Fixture target(ringState(2)); // chunks 0 and 1 only
  const Schedule before = target.document.schedule();
  QSignalSpy messages(&target.view, &TimelineView::statusMessage);
  QVERIFY(!target.view.pasteAt({0, 1}));
  QCOMPARE(target.document.schedule(), before);
  QCOMPARE(target.document.undoStack()->count(), 0);
  QCOMPARE(messages.count(), 1);
  const QString message = messages.front().front().toString();
  // The copied transfer's source lands on rank 1, the paste's rank.
  const QString expected =
      QStringLiteral("rank 1 has no i[3] (its input buffer has 2 chunks); nothing was changed");
  QVERIFY2(message.contains(expected), qPrintable(message));
}

void TestTimelineClipboard::pasteIntoAnotherDocumentWithTheChunks()
{
  Fixture source(ringState());
  std::vector<Transfer> low;
  for (const Transfer& t : source.document.schedule().transfers)
    if (t.src.index < 2 && t.dst.index < 2 && t.step < 2)
      low.push_back(t);
  QVERIFY(low.size() >= 2);
  source.select(low);
  QVERIFY(source.view.copySelection());

  Fixture target(ringState(2));
  const PasteAnchor at{1, 2};
  QVERIFY(target.view.pasteAt(at));
  QCOMPARE(keys(target.document.schedule().transfers), shifted(low, at, 4));
}

void TestTimelineClipboard::ctrlVPastesAtTheKeyboardCursor()
{
  Fixture f(ringState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  f.view.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&f.view));
  f.view.setFocus();
  const Schedule before = f.document.schedule();
  const std::vector<Transfer> source = rankZeroFirstTwo(before);
  f.select(source);
  QTest::keyClick(&f.view, Qt::Key_C, Qt::ControlModifier);
  QVERIFY(QGuiApplication::clipboard()->mimeData()->hasFormat(kTransfersMimeType));

  // The cursor on rank 3's i[1] in column 2: the group starts at step 2 on rank 3.
  f.view.showCell({{3, Buffer::Input, 1}, 2});
  QCOMPARE(f.view.pasteTarget(), (PasteAnchor{2, 3}));
  QTest::keyClick(&f.view, Qt::Key_V, Qt::ControlModifier);
  std::set<Key> wanted = keys(before.transfers);
  const std::set<Key> expected = shifted(source, {2, 3}, before.ranks);
  wanted.insert(expected.begin(), expected.end());
  QCOMPARE(keys(f.document.schedule().transfers), wanted);

  // Ctrl+D duplicates the pasted selection; Ctrl+X cuts it again.
  QTest::keyClick(&f.view, Qt::Key_D, Qt::ControlModifier);
  QCOMPARE(keys(f.selected()), shifted(source, {4, 3}, before.ranks));
  QTest::keyClick(&f.view, Qt::Key_X, Qt::ControlModifier);
  QCOMPARE(keys(f.document.schedule().transfers), wanted);
  QCOMPARE(f.document.undoStack()->count(), 3);
}

void TestTimelineClipboard::pasteGoesUnderTheMouse()
{
  Fixture f(ringState());
  QVERIFY(QTest::qWaitForWindowExposed(&f.view));
  f.select(rankZeroFirstTwo(f.document.schedule()));
  QVERIFY(f.view.copySelection());
  f.view.showCell({{0, Buffer::Input, 0}, 0});
  const QPoint cell = f.view.cellRect({1, Buffer::Input, 2}, 3).center();
  QTest::mouseMove(f.view.viewport(), cell);
  QCOMPARE(f.view.pasteTarget(), (PasteAnchor{3, 1}));
  // A column past the last step pastes into the next new step, not after an empty one.
  const int steps = f.document.schedule().stepCount();
  QTest::mouseMove(f.view.viewport(), f.view.cellRect({2, Buffer::Input, 0}, steps + 1).center());
  QCOMPARE(f.view.pasteTarget(), (PasteAnchor{steps, 2}));
  // Moving the keyboard cursor afterwards makes it the target again.
  QTest::keyClick(&f.view, Qt::Key_Down);
  QCOMPARE(f.view.pasteTarget(), (PasteAnchor{0, 0}));
}

void TestTimelineClipboard::operationTogglesAreNamedAsOperations()
{
  Fixture f(ringState());
  const QList<QAction*> tools = f.view.toolActions();
  QVERIFY(actionNamed(tools, QStringLiteral("Copy Operation")));
  QVERIFY(actionNamed(tools, QStringLiteral("Reduce Operation")));
  QVERIFY(!actionNamed(tools, QStringLiteral("Copy")));
  QVERIFY(!actionNamed(tools, QStringLiteral("Reduce")));
  QCOMPARE(actionNamed(tools, QStringLiteral("Copy Operation"))->shortcut(),
           QKeySequence(Qt::Key_C));
  QCOMPARE(actionNamed(tools, QStringLiteral("Reduce Operation"))->shortcut(),
           QKeySequence(Qt::Key_R));
  const QList<QAction*> clipboard = f.view.clipboardActions();
  QCOMPARE(clipboard.size(), 4);
  QCOMPARE(actionNamed(clipboard, QStringLiteral("Copy Transfers"))->shortcut(),
           QKeySequence(QKeySequence::Copy));
  QCOMPARE(actionNamed(clipboard, QStringLiteral("Duplicate Transfers"))->shortcut(),
           QKeySequence(Qt::CTRL | Qt::Key_D));
}

QTEST_MAIN(TestTimelineClipboard)
#include "tst_timelineclipboard.moc"
