// The user guide's later chapters followed in the main window with the examples the build writes
// (packaging/examples.cmake): "Fixing a deadlock" (the deadlocking ring's cycle in the Problems
// panel, its first instruction selected by a double click, and the fix the guide describes, one
// Move instruction up per rank, until "No problems"), "Comparing two runs" (the simulated run
// against the CPU executor's) and "A run that hangs" (the watchdog's stop in the replay window and
// the main window's Problems panel). Each check quotes the guide's sentence it checks.

#include "support/isolatedwindow.h"
#include "window/mainwindow.h"

#include "compare/comparewindow.h"
#include "document/document.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"
#include "program/programmodel.h"
#include "program/programtreeview.h"
#include "program/programview.h"
#include "replaywindow.h"
#include "timeline/timelineview.h"

#include "support/guidesteps.h"

#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>

#include <memory>

using namespace cs;
using namespace cs::editor;
using namespace cs::test;

class TestGuideChapters : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void deadlockExampleShowsTheCycle();
  void movingEachSendUpFixesTheDeadlock();
  void aTimelineEditLowersAgainAndUndoBringsTheImportBack();
  void comparingTheSimulatedAndTheCpuRun();
  void aRunThatHangsShowsWhereItStopped();

private:
  /// The path of the example `name` the build wrote.
  static QString example(const QString& name);
  Document* document() const { return m_window->document(); }
  /// Clicks the Program tab's row of `at`, as a user selects an instruction.
  void clickInstruction(const InstructionRef& at);
  /// The codes of the document's problems.
  QStringList problemCodes() const;

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

QString TestGuideChapters::example(const QString& name)
{
#ifdef CSTUDIO_EXAMPLES_DIR
  return QStringLiteral(CSTUDIO_EXAMPLES_DIR "/") + name;
#else
  return name;
#endif
}

void TestGuideChapters::initTestCase()
{
#ifndef CSTUDIO_EXAMPLES_DIR
  QSKIP("this build writes no examples (sanitizer and fuzzing builds)");
#endif
  QVERIFY(m_dir.isValid());
  m_window = cs::test::openIsolatedWindow(m_dir, "tst_guidechapters");
  m_window->resize(1400, 900);
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

QStringList TestGuideChapters::problemCodes() const
{
  QStringList codes;
  for (const Problem& problem : document()->analysis().problems)
    codes << QString::fromStdString(problem.diagnostic.code);
  return codes;
}

void TestGuideChapters::clickInstruction(const InstructionRef& at)
{
  ProgramView* view = m_window->programView();
  const QModelIndex row = view->model()->instructionIndex(at);
  QVERIFY(row.isValid());
  view->treeView()->scrollTo(row);
  QTest::mouseClick(view->treeView()->viewport(), Qt::LeftButton, {},
                    view->treeView()->visualRect(row).center());
  QCOMPARE(document()->selection().instruction, std::optional<InstructionRef>(at));
}

void TestGuideChapters::deadlockExampleShowsTheCycle()
{
  // "Open an XML file (File › Open…) whose threadblocks all receive before they send — the example
  // `ring-allreduce-4-deadlock.xml` is one" (the file dialog's answer, given directly).
  QVERIFY(m_window->openFile(example("ring-allreduce-4-deadlock.xml")).isEmpty());
  document()->waitForAnalysis();
  // "the Problems panel lists `dep.cycle` and `deadlock` with the whole cycle as related rows"
  const QStringList codes = problemCodes();
  QVERIFY2(codes.contains("dep.cycle") && codes.contains("deadlock"), qPrintable(codes.join(' ')));
  ProblemsModel* model = m_window->problemsPanel()->model();
  QModelIndex deadlockRow;
  for (int row = 0; row < model->rowCount(); ++row) {
    const QModelIndex index = model->index(row, ProblemsModel::MessageColumn);
    if (model->problemAt(index)->diagnostic.code == "deadlock")
      deadlockRow = index;
  }
  QVERIFY(deadlockRow.isValid());
  QCOMPARE(model->rowCount(deadlockRow), 4); // a 4-rank cycle: one related row per rank

  // "double-clicking the problem selects the first instruction of the cycle in the *Program* tab
  // (rank 0, threadblock 0, step 0: an `rrs` before the `s`)"
  QTreeView* tree = m_window->problemsPanel()->treeView();
  const QModelIndex first = tree->model()->index(0, ProblemsModel::MessageColumn);
  tree->scrollTo(first);
  // A double click is a click and a second press.
  const QPoint at = tree->visualRect(first).center();
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
  QCOMPARE(m_window->currentView(), MainWindow::View::Program);
  const InstructionRef expected{.rank = 0, .tb = 0, .step = 0};
  QCOMPARE(document()->selection().instruction, std::optional<InstructionRef>(expected));
  const ThreadBlock& tb = document()->analysis().program->gpus[0].threadblocks[0];
  QCOMPARE(opTypeName(tb.steps[0].type), std::string_view("rrs"));
  QCOMPARE(opTypeName(tb.steps[1].type), std::string_view("s"));
}

void TestGuideChapters::movingEachSendUpFixesTheDeadlock()
{
  // "on each rank select the `s` (step 1) and choose *Move instruction up* (Ctrl+Up): ... each
  // move is one undoable edit. After the fourth the Problems panel has no errors or warnings left,
  // only the info that the file brings no topology to check the algorithm against."
  QAction* moveUp = menuEntry(m_window.get(), "Program", "Move instruction up");
  QVERIFY(moveUp);
  QCOMPARE(moveUp->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Up));
  const int edits = document()->undoStack()->count();
  const int ranks = static_cast<int>(document()->analysis().program->gpus.size());
  QCOMPARE(ranks, 4);
  for (int rank = 0; rank < ranks; ++rank) {
    QVERIFY(document()->analysis().errors > 0);
    clickInstruction({.rank = rank, .tb = 0, .step = 1});
    moveUp->trigger();
    document()->waitForAnalysis();
    QCOMPARE(document()->undoStack()->count(), edits + rank + 1);
    const ThreadBlock& tb = document()->analysis().program->gpus[rank].threadblocks[0];
    QCOMPARE(opTypeName(tb.steps[0].type), std::string_view("s"));
  }
  QCOMPARE(document()->analysis().errors, 0);
  QCOMPARE(document()->analysis().warnings, 0);
  for (const Problem& problem : document()->analysis().problems) {
    QCOMPARE(problem.diagnostic.severity, Severity::Info);
    QVERIFY2(problem.diagnostic.message.find("no topology") != std::string::npos,
             problem.diagnostic.message.c_str());
  }
  const QString summary = m_window->problemsPanel()->summary();
  QVERIFY2(summary.startsWith(QStringLiteral("0 errors, 0 warnings")), qPrintable(summary));
}

void TestGuideChapters::aTimelineEditLowersAgainAndUndoBringsTheImportBack()
{
  // The four moves undone: the imported program deadlocks again.
  for (int move = 0; move < 4; ++move)
    document()->undoStack()->undo();
  document()->waitForAnalysis();
  QVERIFY2(problemCodes().contains("deadlock"), qPrintable(problemCodes().join(' ')));
  const Program imported = *document()->analysis().program;

  // "Edit any transfer there and the timeline becomes the source: it is lowered again, with sends
  // and receives ordered so that they cannot deadlock. Undo brings the imported program back."
  // The edit: a transfer clicked on the timeline and deleted.
  m_window->showView(MainWindow::View::Timeline);
  TimelineView* timeline = m_window->timelineView();
  const int victim = document()->shownSchedule()->transfers.back().id;
  QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, timeline->arrowPoint(victim));
  QCOMPARE(document()->selection().transfers, std::set<int>{victim});
  QTest::keyClick(timeline, Qt::Key_Delete);
  document()->waitForAnalysis();
  QVERIFY(document()->shownSchedule()->transfer(victim) == nullptr);
  QVERIFY2(!problemCodes().contains("deadlock") && !problemCodes().contains("dep.cycle"),
           qPrintable(problemCodes().join(' ')));

  document()->undoStack()->undo();
  document()->waitForAnalysis();
  QVERIFY(*document()->analysis().program == imported);
  QVERIFY2(problemCodes().contains("deadlock"), qPrintable(problemCodes().join(' ')));
}

void TestGuideChapters::comparingTheSimulatedAndTheCpuRun()
{
  // "The examples hold a pair: open `ring-allreduce-4.csdesign.json`, then compare its simulated
  // run `ring-allreduce-4.trace.json` (A) with `ring-allreduce-4.cpu.trace.json` (B)"
  QVERIFY(m_window->openFile(example("ring-allreduce-4.csdesign.json")).isEmpty());
  const QString error = m_window->openComparison(example("ring-allreduce-4.trace.json"),
                                                 example("ring-allreduce-4.cpu.trace.json"));
  QVERIFY2(error.isEmpty(), qPrintable(error));
  const auto windows = m_window->findChildren<visualizer::CompareWindow*>();
  QCOMPARE(windows.size(), 1);
  visualizer::CompareWindow* compare = windows.front();
  // "Steps has a row per step position": the ring's threadblocks have seven instructions (a send,
  // five fused receives and the last receive) for its six timeline steps.
  const std::size_t positions =
      document()->analysis().program->gpus[0].threadblocks[0].steps.size();
  QCOMPARE(positions, std::size_t{7});
  QCOMPARE(compare->stepTable()->rowCount(), static_cast<int>(positions));
  // "A run whose trace routes no message over a link (a measured run of a program without a
  // topology) shows zero": the simulated run routed its messages over the ring's links.
  QVERIFY(compare->linkTable()->rowCount() > 0);
  compare->close();
}

void TestGuideChapters::aRunThatHangsShowsWhereItStopped()
{
  // "The example `ring-allreduce-4-hang.trace.json` is one: ... (open the design, then the
  // trace)."
  QVERIFY(m_window->openFile(example("ring-allreduce-4.csdesign.json")).isEmpty());
  const QString error = m_window->openTrace(example("ring-allreduce-4-hang.trace.json"));
  QVERIFY2(error.isEmpty(), qPrintable(error));
  auto* replay = qobject_cast<visualizer::ReplayWindow*>(m_window->replayWindow());
  QVERIFY(replay);
  // "the header says "stopped by the watchdog at T µs: N threadblocks blocked""
  const QString header = replay->headerText();
  QVERIFY2(header.contains(QStringLiteral("stopped by the watchdog at")), qPrintable(header));
  QVERIFY2(header.contains(QStringLiteral(": 4 threadblocks blocked")), qPrintable(header));
  // "The **Blocked** tab ... lists the blocked positions"
  QVERIFY(replay->blockedList());

  // "The **Problems** panel lists one "run" row per blocked position and one for the cycle"
  ProblemsModel* model = m_window->problemsPanel()->model();
  int runRows = 0;
  for (int row = 0; row < model->rowCount(); ++row)
    runRows += model->isRunRow(model->index(row, 0)) ? 1 : 0;
  QCOMPARE(runRows, 4 + 1);
  // "activating a row selects its instruction and transfer": every rank's threadblock stopped at
  // its second send (step 1), waiting for room.
  int firstRunRow = 0;
  while (!model->isRunRow(model->index(firstRunRow, 0)))
    ++firstRunRow;
  QVERIFY(m_window->problemsPanel()->activateRow(firstRunRow));
  const std::optional<InstructionRef> blocked = document()->selection().instruction;
  QVERIFY(blocked.has_value());
  QCOMPARE(blocked->step, 1);
  QCOMPARE(document()->selection().transfers.size(), std::size_t{1});
  replay->close();
}

QTEST_MAIN(TestGuideChapters)
#include "tst_guidechapters.moc"
