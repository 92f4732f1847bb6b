// Break it on the CPU (issue 19 item 5): after an exercise is applied, "Run on the CPU" runs the
// broken algorithm on the CPU executor (a RunJob with its watchdog, off the UI thread) and opens
// the traced run in the visual debugger's views. A removed transfer on the ring ends wrong and
// the buffer view marks exactly the wrong chunks the exercise announces; shrinking the
// connections (a setting of the run, not of the document) hangs, and the replay opens at the stop
// with the blocked positions the exercise announces.

#include "document/document.h"
#include "replaywindow.h"
#include "session/replaysession.h"
#include "teach/breakitpanel.h"
#include "views/bufferview.h"

#include "catalogue/catalogue.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

// Generous: the search runs the executor per candidate and a hang waits for the watchdog, on a
// shared machine. Nothing here measures time.
constexpr int kTimeoutMs = 120000;

/// The ring all-reduce on 4 ranks, its Break it panel shown and searched, and where the panel's
/// CPU runs open their replay.
struct BrokenRing {
  Document document;
  BreakItPanel panel{&document};
  std::unique_ptr<ReplaySession> replay;
  QString replayTitle;

  BrokenRing()
  {
    DocumentState state;
    state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
    document.reset(state, {});
    document.waitForAnalysis();
    panel.cpuRun()->setReplayOpener(
        [this](std::unique_ptr<ReplaySession> session, const QString& title) {
          replay = std::move(session);
          replayTitle = title;
        });
    panel.show();
  }

  /// The first exercise of `kind` whose announced executor status is `status`, or -1.
  int exercise(ExerciseKind kind, ExecStatus status) const
  {
    const std::vector<Exercise>& all = panel.exercises().exercises;
    const auto it = std::ranges::find_if(
        all, [&](const Exercise& e) { return e.kind == kind && e.outcome.execStatus == status; });
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
  }

  /// Applies exercise `index`, runs it on the CPU and waits for the run to end.
  bool breakAndRun(int index)
  {
    panel.setCurrentExercise(index);
    panel.breakIt();
    QSignalSpy finished(panel.cpuRun(), &BreakItRun::runFinished);
    if (!panel.cpuRun()->start())
      return false;
    return finished.wait(kTimeoutMs) || finished.count() == 1;
  }
};

} // namespace

class TestBreakItRun : public QObject
{
  Q_OBJECT

private slots:
  void removedTransferRunsWrongAndShowsTheWrongChunks();
  void shrunkConnectionsHangAtTheBlockedPositions();
};

void TestBreakItRun::removedTransferRunsWrongAndShowsTheWrongChunks()
{
  BrokenRing ring;
  QTRY_VERIFY_WITH_TIMEOUT(!ring.panel.isSearching(), kTimeoutMs);
  QVERIFY(!ring.panel.cpuRun()->start()); // nothing applied yet: nothing to run
  const int index = ring.exercise(ExerciseKind::RemoveTransfer, ExecStatus::Wrong);
  QVERIFY(index >= 0);
  const Exercise exercise = ring.panel.exercises().exercises[static_cast<std::size_t>(index)];
  QVERIFY(!exercise.outcome.wrongChunks.empty());

  QVERIFY(ring.breakAndRun(index));
  const RunOutcome* outcome = ring.panel.cpuRun()->lastOutcome();
  QVERIFY(outcome && outcome->exec);
  QCOMPARE(outcome->exec->status, ExecStatus::Wrong);
  QVERIFY(ring.replay);
  QVERIFY(ring.replayTitle.contains("Break it"));

  // It opens at the end, where the result is, with the buffer view shown.
  QCOMPARE(ring.replay->cursorUs(), ring.replay->endUs());
  ReplayWindow window(std::move(ring.replay));
  BufferView* buffers = window.bufferView();
  QVERIFY(buffers->isVisibleTo(&window));
  for (const ChunkRef& wrong : exercise.outcome.wrongChunks)
    QVERIFY2(buffers->wrongAt(wrong.rank, wrong.buffer, wrong.index),
             qPrintable(QString("rank %1 chunk %2").arg(wrong.rank).arg(wrong.index)));
  QCOMPARE(static_cast<std::size_t>(outcome->exec->wrongChunkCount),
           exercise.outcome.wrongChunks.size());
  QVERIFY(!window.blockedList()); // it ran to the end
}

void TestBreakItRun::shrunkConnectionsHangAtTheBlockedPositions()
{
  BrokenRing ring;
  QTRY_VERIFY_WITH_TIMEOUT(!ring.panel.isSearching(), kTimeoutMs);
  const int index = ring.exercise(ExerciseKind::ShrinkConnections, ExecStatus::Hung);
  QVERIFY(index >= 0);
  const Exercise exercise = ring.panel.exercises().exercises[static_cast<std::size_t>(index)];
  const int undoIndex = ring.document.undoStack()->index();

  QVERIFY(ring.breakAndRun(index));
  // Applied as a setting of the run: the document did not change.
  QCOMPARE(ring.panel.appliedConnectionSlots(),
           std::optional<int>(exercise.edit.connections->afterSlots));
  QCOMPARE(ring.document.undoStack()->index(), undoIndex);
  QVERIFY(ring.panel.canShowFix());
  QVERIFY(ring.panel.revealText().contains("setting of the run"));

  const RunOutcome* outcome = ring.panel.cpuRun()->lastOutcome();
  QVERIFY(outcome && outcome->exec);
  QCOMPARE(outcome->exec->status, ExecStatus::Hung);
  QVERIFY(ring.replay);
  std::vector<BlockedStep> blocked;
  for (const BlockedPosition& position : ring.replay->trace().blocked)
    blocked.push_back({position.rank, position.tb, position.step});
  std::sort(blocked.begin(), blocked.end());
  blocked.erase(std::unique(blocked.begin(), blocked.end()), blocked.end());
  QVERIFY(blocked == exercise.outcome.blocked);
  // The replay opens at the stop, with the Blocked tab.
  QVERIFY(ring.replay->trace().stoppedUs.has_value());
  ReplayWindow window(std::move(ring.replay));
  QVERIFY(window.blockedList());

  // The fix puts the depth back; nothing is applied, nothing to run.
  ring.panel.showFix();
  QVERIFY(!ring.panel.appliedConnectionSlots());
  QVERIFY(!ring.panel.canShowFix());
  QVERIFY(!ring.panel.cpuRun()->start());
}

QTEST_MAIN(TestBreakItRun)
#include "tst_breakitrun.moc"
