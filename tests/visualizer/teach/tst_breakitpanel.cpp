// The "Break it" tab (issue 19 item 5): the exercises of the open algorithm are found in the
// background and listed; "Break it" applies one as a single command on the document's undo stack
// (a transfer edit to the Schedule, an instruction edit to the lowered Program), exactly the edit
// the engine describes, and the Problems then hold the codes it announces; "Show the fix" undoes
// it back to the same algorithm.

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "teach/breakitpanel.h"
#include "teach/teachingpanel.h"
#include "teach/teachingview.h"

#include "catalogue/catalogue.h"

#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

// Generous: finding the exercises runs the CPU executor per candidate, on a shared machine.
constexpr int kSearchTimeoutMs = 120000;

void openAlgorithm(Document& document, const char* key, int ranks)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm(key, {.ranks = ranks}).schedule;
  document.reset(state, {});
  document.waitForAnalysis();
}

int firstOfKind(const ExerciseSet& set, ExerciseKind kind)
{
  const auto it = std::ranges::find(set.exercises, kind, &Exercise::kind);
  return it == set.exercises.end() ? -1 : static_cast<int>(it - set.exercises.begin());
}

/// Whether the Problems list `code`, an exercise's announced code. The exercise is judged by the
/// Program checker; the document checks a Schedule first and, when it has errors, reports the
/// same finding as the Schedule checker's "schedule." code instead (engine/analysis/analysis.cpp).
bool problemsHold(const Document& document, const std::string& code)
{
  return std::ranges::any_of(document.analysis().problems, [&](const Problem& p) {
    return p.diagnostic.code == code || p.diagnostic.code == "schedule." + code;
  });
}

int firstProgramLevel(const ExerciseSet& set)
{
  const auto it = std::ranges::find_if(
      set.exercises, [](const Exercise& e) { return e.edit.instructions.has_value(); });
  return it == set.exercises.end() ? -1 : static_cast<int>(it - set.exercises.begin());
}

} // namespace

class TestBreakItPanel : public QObject
{
  Q_OBJECT

private slots:
  void removeTransferAppliesAndTheFixUndoesIt();
  void programLevelExerciseAppliesToTheProgram();
  void teachingViewHasTheTab();
  void searchesOnlyWhileTheTabIsShown();
};

void TestBreakItPanel::removeTransferAppliesAndTheFixUndoesIt()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4);
  BreakItPanel panel(&document);
  panel.show(); // a hidden panel does not search
  QVERIFY(panel.isSearching());
  QTRY_VERIFY_WITH_TIMEOUT(!panel.isSearching(), kSearchTimeoutMs);
  const ExerciseSet& set = panel.exercises();
  QVERIFY(!set.exercises.empty());
  QCOMPARE(set.schedule, document.schedule());
  QVERIFY(firstOfKind(set, ExerciseKind::WrongChunk) >= 0);
  const int remove = firstOfKind(set, ExerciseKind::RemoveTransfer);
  QVERIFY(remove >= 0);
  const Exercise exercise = set.exercises[static_cast<std::size_t>(remove)];
  QVERIFY(!exercise.outcome.checkCodes.empty());

  const Schedule original = document.schedule();
  const int indexBefore = document.undoStack()->index();
  panel.setCurrentExercise(remove);
  QVERIFY(!panel.canShowFix());
  panel.showHint();
  QVERIFY(panel.revealText().contains(QString::fromStdString(exercise.hint)));
  panel.breakIt();
  document.waitForAnalysis();
  QCOMPARE(document.undoStack()->index(), indexBefore + 1);
  QCOMPARE(document.schedule(), applyTransferEdit(original, *exercise.edit.transfer));
  QCOMPARE(document.schedule().transfers.size() + 1, original.transfers.size());
  for (const std::string& code : exercise.outcome.checkCodes)
    QVERIFY2(problemsHold(document, code), code.c_str());
  QVERIFY(panel.revealText().contains(QString::fromStdString(describeOutcome(exercise.outcome))));
  // The broken algorithm is the exercise, not a new algorithm to search.
  QVERIFY(!panel.isSearching());
  QVERIFY(panel.canShowFix());

  panel.showFix();
  document.waitForAnalysis();
  QCOMPARE(document.schedule(), original);
  QCOMPARE(document.undoStack()->index(), indexBefore);
  QVERIFY(!panel.canShowFix());
  QVERIFY(!panel.isSearching());
  QCOMPARE(panel.exercises().exercises.size(), set.exercises.size());

  // Another algorithm (an edit that is no exercise): its exercises are searched for.
  const Schedule other = *generateAlgorithm("ring-allreduce", {.ranks = 3}).schedule;
  document.undoStack()->push(new ReplaceScheduleCommand(&document, other, QStringLiteral("3")));
  QVERIFY(panel.isSearching());
  QTRY_VERIFY_WITH_TIMEOUT(!panel.isSearching(), kSearchTimeoutMs);
  QCOMPARE(panel.exercises().schedule, other);
  QVERIFY(!panel.exercises().exercises.empty());
}

void TestBreakItPanel::programLevelExerciseAppliesToTheProgram()
{
  Document document;
  openAlgorithm(document, "halving-doubling-allreduce", 8);
  BreakItPanel panel(&document);
  panel.show(); // a hidden panel does not search
  QTRY_VERIFY_WITH_TIMEOUT(!panel.isSearching(), kSearchTimeoutMs);
  // Swapped sends or a dropped dependency: the edits that exist only in the Program.
  const int programLevel = firstProgramLevel(panel.exercises());
  QVERIFY(programLevel >= 0);
  const Exercise exercise = panel.exercises().exercises[static_cast<std::size_t>(programLevel)];
  QVERIFY(document.shownProgram().has_value());
  const Program original = *document.shownProgram();
  const int indexBefore = document.undoStack()->index();

  panel.setCurrentExercise(programLevel);
  panel.breakIt();
  document.waitForAnalysis();
  QCOMPARE(document.undoStack()->index(), indexBefore + 1);
  QVERIFY(document.state().program.has_value());
  QVERIFY(*document.state().program == applyInstructionEdit(original, *exercise.edit.instructions));
  QVERIFY(!(*document.state().program == original));
  QVERIFY(panel.canShowFix());

  panel.showFix();
  document.waitForAnalysis();
  QVERIFY(!document.state().program.has_value());
  QVERIFY(*document.shownProgram() == original);
  QCOMPARE(document.undoStack()->index(), indexBefore);
  QVERIFY(!panel.canShowFix());

  // Another protocol lowers to another Program: its Program-level exercises are searched again.
  LowerOptions lowering = document.lowering();
  lowering.protocol = lowering.protocol == Protocol::LL ? Protocol::Simple : Protocol::LL;
  document.undoStack()->push(new ChangeLoweringCommand(&document, lowering));
  QVERIFY(panel.isSearching());
  QTRY_VERIFY_WITH_TIMEOUT(!panel.isSearching(), kSearchTimeoutMs);
  QCOMPARE(panel.exercises().program->proto, lowering.protocol);
}

void TestBreakItPanel::teachingViewHasTheTab()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4);
  TeachingView view(&document, nullptr, nullptr);
  QTabWidget* tabs = view.panel()->tabs();
  BreakItPanel* panel = nullptr;
  for (int i = 0; i < tabs->count(); ++i) {
    if (tabs->tabText(i) == QLatin1String("Break it"))
      panel = qobject_cast<BreakItPanel*>(tabs->widget(i));
  }
  QVERIFY(panel);
  view.show();
  tabs->setCurrentWidget(panel);
  QTRY_VERIFY_WITH_TIMEOUT(!panel->isSearching(), kSearchTimeoutMs);
  QCOMPARE(panel->exercises().schedule, document.schedule());
}

void TestBreakItPanel::searchesOnlyWhileTheTabIsShown()
{
  Document document;
  openAlgorithm(document, "ring-allreduce", 4);
  TeachingView view(&document, nullptr, nullptr);
  view.show();
  QTabWidget* tabs = view.panel()->tabs();
  auto* panel = view.findChild<BreakItPanel*>();
  QVERIFY(panel);
  QVERIFY(tabs->currentWidget() != panel);
  QCoreApplication::processEvents();
  QCOMPARE(panel->searchesStarted(), 0); // hidden from the start

  openAlgorithm(document, "ring-allgather", 4); // an algorithm change while hidden
  QCoreApplication::processEvents();
  QCOMPARE(panel->searchesStarted(), 0);

  tabs->setCurrentWidget(panel); // shown with a stale list: one search
  QCOMPARE(panel->searchesStarted(), 1);
  QTRY_VERIFY_WITH_TIMEOUT(!panel->isSearching(), kSearchTimeoutMs);
  QCOMPARE(panel->exercises().schedule, document.schedule());

  tabs->setCurrentIndex(0);
  tabs->setCurrentWidget(panel); // shown again, nothing changed: no search
  QCOMPARE(panel->searchesStarted(), 1);

  tabs->setCurrentIndex(0);
  openAlgorithm(document, "ring-allreduce", 4);
  openAlgorithm(document, "ring-allgather", 8); // two changes while hidden
  QCoreApplication::processEvents();
  QCOMPARE(panel->searchesStarted(), 1);
  tabs->setCurrentWidget(panel); // one search, for the algorithm shown now
  QCOMPARE(panel->searchesStarted(), 2);
  QTRY_VERIFY_WITH_TIMEOUT(!panel->isSearching(), kSearchTimeoutMs);
  QCOMPARE(panel->exercises().schedule, document.schedule());
}

QTEST_MAIN(TestBreakItPanel)
#include "tst_breakitpanel.moc"
