// The program view: its lazy model has exactly the Program's rows, a cell edit is one
// ReplaceProgramCommand that changes exactly that instruction and undoes exactly, the row
// actions renumber and keep dependencies, dependencies are highlighted and followed by a
// double-click, and selection goes both ways between instructions and transfers.

#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "document/documentfiles.h"
#include "program/programedits.h"
#include "program/programmodel.h"
#include "program/programtreeview.h"
#include "program/programview.h"

#include "catalogue/catalogue.h"
#include "support/corpus.h"

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

// The largest corpus file (MANIFEST.md, section B): 16 ranks, 384 threadblocks, 11,904 steps.
const char* const kLargest = "repo_rccl_msccl-unit-test-algorithms_all-reduce-ring-simple.xml";

void openCorpusFile(Document& document, const QString& name)
{
  const QString path = test::corpusPath(name);
  LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));
  document.reset(std::move(*loaded.state), {.filePath = path});
}

void openRing(Document& document, int ranks)
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = ranks});
  QVERIFY(generated.schedule.has_value());
  DocumentState state;
  state.design.schedule = *generated.schedule;
  document.reset(std::move(state), {});
}

/// A one-rank Program: tb 0 has three sends; tb 1 waits for tb 0 step 1 and step 2.
Program dependencyProgram()
{
  Program program;
  program.ngpus = 1;
  Gpu gpu;
  gpu.id = 0;
  gpu.inputChunks = gpu.outputChunks = 4;
  ThreadBlock sender;
  sender.id = 0;
  sender.send = 0;
  for (int s = 0; s < 3; ++s) {
    Step step;
    step.s = s;
    step.type = OpType::Send;
    step.srcOff = s;
    step.cnt = 1;
    step.hasdep = s > 0;
    sender.steps.push_back(step);
  }
  ThreadBlock waiter;
  waiter.id = 1;
  waiter.recv = 0;
  for (int s = 0; s < 2; ++s) {
    Step step;
    step.s = s;
    step.type = OpType::Recv;
    step.dstOff = s;
    step.cnt = 1;
    step.depid = 0;
    step.deps = s + 1;
    waiter.steps.push_back(step);
  }
  gpu.threadblocks = {sender, waiter};
  program.gpus = {gpu};
  return program;
}

} // namespace

class TestProgramView : public QObject
{
  Q_OBJECT

private slots:
  void rowCountsEqualTheProgram();
  void summaryLineNamesTheShape();
  void editingCountIsOneCommandAndUndoesExactly();
  void typeEditFillsOperandsTheNewTypeUses();
  void rejectsMalformedCellText();
  void insertNopAndDeleteKeepDependencies();
  void rowActionsPushOneCommandEach();
  void moveKeepsDependenciesOnTheirInstructions();
  void movingSendsFirstFixesADeadlock();
  void cellEditorsCommitTypedValues();
  void dependenciesAreHighlightedAndFollowed();
  void selectingAnInstructionSelectsItsTransferAndBack();
  void programErrorsMarkTheirInstruction();
  void largeScheduleShowsItsProgramOnceLowered();
  void timelineProblemsMarkTheInstructionsOfTheirTransfer();
};

void TestProgramView::rowCountsEqualTheProgram()
{
  CS_REQUIRE_CORPUS();
  Document document;
  openCorpusFile(document, kLargest);
  const Program& program = *document.shownProgram();
  ProgramModel model(&document);

  QCOMPARE(model.rowCount(), 16);
  int threadblocks = 0;
  int steps = 0;
  for (int r = 0; r < model.rowCount(); ++r) {
    const QModelIndex rank = model.index(r, 0);
    const Gpu& gpu = program.gpus[static_cast<std::size_t>(r)];
    QCOMPARE(model.rankAt(rank), std::optional<int>(gpu.id));
    QCOMPARE(model.rowCount(rank), static_cast<int>(gpu.threadblocks.size()));
    for (int t = 0; t < model.rowCount(rank); ++t) {
      const QModelIndex tb = model.index(t, 0, rank);
      const ThreadBlock& block = gpu.threadblocks[static_cast<std::size_t>(t)];
      QCOMPARE(model.rowCount(tb), static_cast<int>(block.steps.size()));
      QCOMPARE(model.parent(tb), rank);
      ++threadblocks;
      steps += model.rowCount(tb);
    }
  }
  QCOMPARE(threadblocks, 384);
  QCOMPARE(steps, 11904);

  // One deep cell reads exactly what the Program holds, and its index maps back.
  const InstructionRef at{15, 23, 30};
  const QModelIndex cell = model.instructionIndex(at, ProgramModel::TypeColumn);
  QVERIFY(cell.isValid());
  QCOMPARE(model.instructionAt(cell), std::optional(at));
  QCOMPARE(cell.data().toString(), QString::fromUtf8(opTypeName(stepAt(program, at)->type)));
  QCOMPARE(model.rowCount(cell.siblingAtColumn(0)), 0);
}

void TestProgramView::summaryLineNamesTheShape()
{
  CS_REQUIRE_CORPUS();
  Document document;
  openCorpusFile(document, kLargest);
  ProgramView view(&document);
  QCOMPARE(view.summaryText(),
           QStringLiteral("16 ranks  ·  384 threadblocks  ·  11,904 instructions  ·  executor  ·  "
                          "Simple  ·  imported from %1")
               .arg(QString::fromLatin1(kLargest)));

  openRing(document, 4);
  QVERIFY(view.summaryText().startsWith(QStringLiteral("4 ranks  ·  ")));
  QVERIFY(view.summaryText().endsWith(QStringLiteral("lowered from the timeline")));
}

void TestProgramView::editingCountIsOneCommandAndUndoesExactly()
{
  Document document;
  openRing(document, 4);
  QCOMPARE(document.source(), Source::Schedule);
  const DocumentState before = document.state();
  const Program lowered = *document.shownProgram();
  ProgramModel model(&document);

  const InstructionRef at{2, lowered.gpus[2].threadblocks[0].id, 1};
  const QModelIndex cnt = model.instructionIndex(at, ProgramModel::CountColumn);
  QCOMPARE(cnt.data().toInt(), stepAt(lowered, at)->cnt);
  QVERIFY(model.flags(cnt) & Qt::ItemIsEditable);

  QVERIFY(model.setData(cnt, 3));
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.source(), Source::Program);
  Program expected = lowered;
  expected.gpus[2].threadblocks[0].steps[1].cnt = 3;
  QCOMPARE(*document.state().program, expected);
  QCOMPARE(*document.shownProgram(), expected);
  QCOMPARE(model.instructionIndex(at, ProgramModel::CountColumn).data().toInt(), 3);

  // Spinning the same cell again merges into the same undo step.
  QVERIFY(model.setData(model.instructionIndex(at, ProgramModel::CountColumn), 5));
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(stepAt(*document.shownProgram(), at)->cnt, 5);

  document.undoStack()->undo();
  QCOMPARE(document.source(), Source::Schedule);
  QVERIFY(document.state() == before);
  QCOMPARE(*document.shownProgram(), lowered);
}

void TestProgramView::typeEditFillsOperandsTheNewTypeUses()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 1;
  state.design.schedule.setUniformBuffers({.input = 4, .output = 4});
  state.program = dependencyProgram();
  document.reset(std::move(state), {});
  ProgramModel model(&document);

  const InstructionRef at{0, 0, 0};
  QVERIFY(model.setData(model.instructionIndex(at, ProgramModel::TypeColumn), "cpy"));
  const Step* step = stepAt(*document.shownProgram(), at);
  QCOMPARE(step->type, OpType::Copy);
  QCOMPARE(step->srcOff, 0); // kept
  QCOMPARE(step->dstOff, 0); // was -1, a copy writes it
  QCOMPARE(model.instructionIndex(at, ProgramModel::DestinationColumn).data().toString(),
           QStringLiteral("o[0]"));

  QVERIFY(model.setData(model.instructionIndex(at, ProgramModel::SourceColumn), "s[3]"));
  step = stepAt(*document.shownProgram(), at);
  QCOMPARE(step->srcBuf, Buffer::Scratch);
  QCOMPARE(step->srcOff, 3);

  QVERIFY(model.setData(model.instructionIndex(at, ProgramModel::TypeColumn), "r"));
  step = stepAt(*document.shownProgram(), at);
  QCOMPARE(step->srcOff, -1); // a receive reads no local operand
  QVERIFY(
      !(model.flags(model.instructionIndex(at, ProgramModel::SourceColumn)) & Qt::ItemIsEditable));
  QCOMPARE(document.undoStack()->count(), 3);
}

void TestProgramView::rejectsMalformedCellText()
{
  Document document;
  openRing(document, 4);
  ProgramModel model(&document);
  const InstructionRef at{0, document.shownProgram()->gpus[0].threadblocks[0].id, 0};
  QVERIFY(!model.setData(model.instructionIndex(at, ProgramModel::TypeColumn), "jump"));
  QVERIFY(!model.setData(model.instructionIndex(at, ProgramModel::DependsColumn), "tb x"));
  QVERIFY(!model.setData(model.instructionIndex(at, ProgramModel::CountColumn), -2));
  QCOMPARE(document.undoStack()->count(), 0);
  QCOMPARE(document.source(), Source::Schedule);
}

void TestProgramView::insertNopAndDeleteKeepDependencies()
{
  const Program program = dependencyProgram();

  const std::optional<Program> inserted = insertNopAfter(program, {0, 0, 0});
  QVERIFY(inserted.has_value());
  const ThreadBlock& sender = inserted->gpus[0].threadblocks[0];
  QCOMPARE(static_cast<int>(sender.steps.size()), 4);
  for (int s = 0; s < 4; ++s)
    QCOMPARE(sender.steps[static_cast<std::size_t>(s)].s, s);
  QCOMPARE(sender.steps[1].type, OpType::Nop);
  QCOMPARE(sender.steps[1].cnt, 0);
  // The waiters still wait for the same sends, now one position later.
  QCOMPARE(inserted->gpus[0].threadblocks[1].steps[0].deps, 2);
  QCOMPARE(inserted->gpus[0].threadblocks[1].steps[1].deps, 3);

  // Deleting send 1 moves its waiter to send 0, which now publishes; send 2's waiter follows.
  const std::optional<Program> deleted = deleteInstruction(program, {0, 0, 1});
  QVERIFY(deleted.has_value());
  const ThreadBlock& shorter = deleted->gpus[0].threadblocks[0];
  QCOMPARE(static_cast<int>(shorter.steps.size()), 2);
  QCOMPARE(shorter.steps[1].s, 1);
  QCOMPARE(shorter.steps[1].srcOff, 2);
  QVERIFY(shorter.steps[0].hasdep);
  QCOMPARE(deleted->gpus[0].threadblocks[1].steps[0].deps, 0);
  QCOMPARE(deleted->gpus[0].threadblocks[1].steps[1].deps, 1);

  // Deleting the first step leaves its waiters waiting for nothing.
  const std::optional<Program> first = deleteInstruction(*deleted, {0, 0, 0});
  QCOMPARE(first->gpus[0].threadblocks[1].steps[0].depid, -1);
  QCOMPARE(first->gpus[0].threadblocks[1].steps[0].deps, -1);
  QCOMPARE(first->gpus[0].threadblocks[1].steps[1].deps, 0);

  QVERIFY(!insertNopAfter(program, {0, 0, 7}).has_value());
  QVERIFY(!deleteInstruction(program, {3, 0, 0}).has_value());
}

void TestProgramView::rowActionsPushOneCommandEach()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 1;
  state.design.schedule.setUniformBuffers({.input = 4, .output = 4});
  state.program = dependencyProgram();
  document.reset(std::move(state), {});
  const DocumentState before = document.state();
  ProgramView view(&document);
  QAction* insert = nullptr;
  QAction* remove = nullptr;
  for (QAction* action : view.toolActions()) {
    if (action->text() == QStringLiteral("Insert nop after"))
      insert = action;
    if (action->text() == QStringLiteral("Delete instruction"))
      remove = action;
  }
  QVERIFY(insert && remove);
  QVERIFY(!insert->isEnabled()); // nothing selected yet

  Selection selection;
  selection.instruction = InstructionRef{0, 0, 2};
  document.setSelection(selection);
  QVERIFY(insert->isEnabled());
  insert->trigger();
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(static_cast<int>(document.shownProgram()->gpus[0].threadblocks[0].steps.size()), 4);
  QCOMPARE(document.shownProgram()->gpus[0].threadblocks[0].steps[3].type, OpType::Nop);
  // The new nop is selected, so a second Insert appends after it.
  QCOMPARE(document.selection().instruction, std::optional(InstructionRef{0, 0, 3}));

  remove->trigger();
  QCOMPARE(document.undoStack()->count(), 2);
  QCOMPARE(*document.shownProgram(), *before.program);
  document.undoStack()->undo();
  document.undoStack()->undo();
  QVERIFY(document.state() == before);
}

void TestProgramView::moveKeepsDependenciesOnTheirInstructions()
{
  const Program program = dependencyProgram();
  // Move tb 0 step 1 down: it becomes step 2, and the waiter on it (tb 1 step 0) follows.
  const std::optional<Program> moved = moveInstruction(program, {0, 0, 1}, 1);
  QVERIFY(moved.has_value());
  const ThreadBlock& sender = moved->gpus[0].threadblocks[0];
  QCOMPARE(sender.steps[2].srcOff, 1);
  QCOMPARE(sender.steps[1].srcOff, 2);
  QCOMPARE(sender.steps[2].s, 2);
  QCOMPARE(sender.steps[1].s, 1);
  QCOMPARE(moved->gpus[0].threadblocks[1].steps[0].deps, 2);
  QCOMPARE(moved->gpus[0].threadblocks[1].steps[1].deps, 1);
  QVERIFY(!moveInstruction(program, {0, 0, 0}, -1));
  QVERIFY(!moveInstruction(program, {0, 0, 2}, 1));
}

void TestProgramView::movingSendsFirstFixesADeadlock()
{
  // The guide's deadlock: every rank's ring threadblock receives before it sends.
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = 4});
  Program program = *lowerSchedule(*generated.schedule, {}).program;
  for (Gpu& gpu : program.gpus) {
    std::vector<Step>& steps = gpu.threadblocks[0].steps;
    std::swap(steps[0], steps[1]);
    steps[0].s = 0;
    steps[1].s = 1;
  }
  Document document;
  DocumentState state;
  state.program = program;
  document.reset(std::move(state), {});
  QVERIFY(document.analysis().errors > 0);
  const DocumentState before = document.state();

  ProgramView view(&document);
  QAction* moveUp = nullptr;
  for (QAction* action : view.toolActions())
    if (action->text() == QStringLiteral("Move instruction up"))
      moveUp = action;
  QVERIFY(moveUp);
  for (int rank = 0; rank < 4; ++rank) {
    Selection selection;
    selection.instruction = InstructionRef{rank, 0, 1};
    document.setSelection(selection);
    QVERIFY(moveUp->isEnabled());
    moveUp->trigger();
    QCOMPARE(document.selection().instruction, std::optional(InstructionRef{rank, 0, 0}));
  }
  QCOMPARE(document.undoStack()->count(), 4);
  QCOMPARE(document.analysis().errors, 0);
  QCOMPARE(document.source(), Source::Program);
  for (int i = 0; i < 4; ++i)
    document.undoStack()->undo();
  QVERIFY(document.state() == before);
}

void TestProgramView::cellEditorsCommitTypedValues()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 1;
  state.design.schedule.setUniformBuffers({.input = 4, .output = 4});
  state.program = dependencyProgram();
  document.reset(std::move(state), {});
  ProgramView view(&document);
  view.resize(1000, 600);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  ProgramTreeView* tree = view.treeView();
  tree->expandAll();
  const InstructionRef at{0, 0, 1};

  // Double-click cnt, type 4, Enter: one command, exactly that field.
  const QModelIndex cnt = view.model()->instructionIndex(at, ProgramModel::CountColumn);
  const QPoint cntCentre = tree->visualRect(cnt).center();
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, cntCentre);
  QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, cntCentre);
  QTest::mouseRelease(tree->viewport(), Qt::LeftButton, {}, cntCentre);
  auto* spin = tree->viewport()->findChild<QSpinBox*>(QStringLiteral("cnt"));
  QVERIFY(spin);
  QCOMPARE(spin->value(), 1);
  QCOMPARE(spin->maximum(), 71);
  QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(spin, QStringLiteral("4"));
  QTest::keyClick(spin, Qt::Key_Return);
  // The delegate commits on Enter through a queued call, as it does for a user.
  QTRY_COMPARE(document.undoStack()->count(), 1);
  Step expected = *stepAt(dependencyProgram(), at);
  expected.cnt = 4;
  QCOMPARE(*stepAt(*document.shownProgram(), at), expected);

  // F2 on the type cell opens the combo; choosing the next type commits at once.
  const QModelIndex type = view.model()->instructionIndex(at, ProgramModel::TypeColumn);
  tree->setCurrentIndex(type);
  tree->setFocus();
  QTest::keyClick(tree, Qt::Key_F2);
  auto* combo = tree->viewport()->findChild<QComboBox*>(QStringLiteral("type"));
  QVERIFY(combo);
  QCOMPARE(combo->currentText(), QStringLiteral("s"));
  QTest::keyClick(combo, Qt::Key_Down);
  QTRY_COMPARE(document.undoStack()->count(), 2);
  QCOMPARE(stepAt(*document.shownProgram(), at)->type, OpType::Recv);

  // A click on the hasdep box toggles it.
  const QModelIndex hasdep = view.model()->instructionIndex(at, ProgramModel::HasDepColumn);
  QVERIFY(stepAt(*document.shownProgram(), at)->hasdep);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(hasdep).center());
  QCOMPARE(document.undoStack()->count(), 3);
  QVERIFY(!stepAt(*document.shownProgram(), at)->hasdep);
}

void TestProgramView::dependenciesAreHighlightedAndFollowed()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 1;
  state.design.schedule.setUniformBuffers({.input = 4, .output = 4});
  state.program = dependencyProgram();
  document.reset(std::move(state), {});
  ProgramView view(&document);
  view.resize(1000, 600);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  ProgramModel* model = view.model();
  auto highlight = [model](const InstructionRef& at) {
    return static_cast<ProgramModel::Highlight>(
        model->instructionIndex(at).data(ProgramModel::HighlightRole).toInt());
  };

  Selection selection;
  selection.instruction = InstructionRef{0, 0, 1};
  document.setSelection(selection);
  QCOMPARE(highlight({0, 0, 1}), ProgramModel::Highlight::Focus);
  QCOMPARE(highlight({0, 1, 0}), ProgramModel::Highlight::Waiter);
  QCOMPARE(highlight({0, 1, 1}), ProgramModel::Highlight::None);
  QCOMPARE(highlight({0, 0, 2}), ProgramModel::Highlight::None);

  // A double-click on "depends on" of tb 1 s 1 (tb 0 s 2) jumps there.
  const QModelIndex depends = model->instructionIndex({0, 1, 1}, ProgramModel::DependsColumn);
  QCOMPARE(depends.data().toString(), QStringLiteral("tb 0 s 2"));
  view.treeView()->scrollTo(depends);
  const QPoint centre = view.treeView()->visualRect(depends).center();
  QTest::mouseClick(view.treeView()->viewport(), Qt::LeftButton, {}, centre);
  QCOMPARE(document.selection().instruction, std::optional(InstructionRef{0, 1, 1}));
  QCOMPARE(highlight({0, 0, 2}), ProgramModel::Highlight::WaitedFor);
  QTest::mouseClick(view.treeView()->viewport(), Qt::LeftButton, {}, centre);
  QTest::mouseDClick(view.treeView()->viewport(), Qt::LeftButton, {}, centre);
  QTest::mouseRelease(view.treeView()->viewport(), Qt::LeftButton, {}, centre);
  QCOMPARE(document.selection().instruction, std::optional(InstructionRef{0, 0, 2}));
  QCOMPARE(view.treeView()->currentIndex().siblingAtColumn(0), model->instructionIndex({0, 0, 2}));
  QCOMPARE(highlight({0, 1, 1}), ProgramModel::Highlight::Waiter);
  QCOMPARE(document.undoStack()->count(), 0); // jumping is not an edit
}

void TestProgramView::selectingAnInstructionSelectsItsTransferAndBack()
{
  Document document;
  openRing(document, 4);
  ProgramView view(&document);
  view.resize(1000, 700);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  const Analysis& analysis = document.analysis();
  QVERIFY(!analysis.origins.empty());

  // Click an instruction: the document selects it and the transfer it was lowered from.
  const InstructionOrigin origin = analysis.origins[5];
  const InstructionRef at{origin.rank, origin.tb, origin.step};
  view.treeView()->expandAll();
  const QModelIndex row = view.model()->instructionIndex(at, ProgramModel::TypeColumn);
  view.treeView()->scrollTo(row);
  QTest::mouseClick(view.treeView()->viewport(), Qt::LeftButton, {},
                    view.treeView()->visualRect(row).center());
  QCOMPARE(document.selection().instruction, std::optional(at));
  QCOMPARE(document.selection().transfers, std::set<int>{origin.transferId});
  QCOMPARE(view.model()->instructionIndex(at, ProgramModel::TransferColumn).data().toString(),
           QStringLiteral("#%1").arg(origin.transferId));

  // The reverse: selecting a transfer (as the timeline does) selects its first instruction.
  view.treeView()->collapseAll();
  const Transfer& last = document.schedule().transfers.back();
  document.selectTransfer(last.id);
  const InstructionOrigin first = analysis.instructionsOf(last.id).front();
  const QModelIndex expected = view.model()->instructionIndex({first.rank, first.tb, first.step});
  QCOMPARE(view.treeView()->currentIndex(), expected);
  QVERIFY(view.treeView()->selectionModel()->isRowSelected(expected.row(), expected.parent()));
  QVERIFY(view.treeView()->isExpanded(expected.parent()));
  QVERIFY(view.treeView()->isExpanded(expected.parent().parent()));

  // Only transfers selected (no instruction): the first instruction of the transfer.
  Selection onlyTransfer;
  onlyTransfer.transfers.insert(origin.transferId);
  document.setSelection(onlyTransfer);
  const InstructionOrigin firstOfOrigin = analysis.instructionsOf(origin.transferId).front();
  QCOMPARE(
      view.treeView()->currentIndex(),
      view.model()->instructionIndex({firstOfOrigin.rank, firstOfOrigin.tb, firstOfOrigin.step}));
}

void TestProgramView::programErrorsMarkTheirInstruction()
{
  Document document;
  DocumentState state;
  state.design.schedule.ranks = 1;
  state.design.schedule.setUniformBuffers({.input = 4, .output = 4});
  Program program = dependencyProgram();
  // Waiting for a step that does not exist is a Program-stage error located at the waiter.
  program.gpus[0].threadblocks[1].steps[1].deps = 9;
  state.program = program;
  document.reset(std::move(state), {});
  ProgramModel model(&document);

  const Problem* located = nullptr;
  for (const Problem& problem : document.analysis().problems)
    if (problem.stage == ProblemStage::Program && problem.step &&
        problem.diagnostic.severity == Severity::Error && problem.rank == 0 && problem.tb == 1 &&
        problem.step == 1)
      located = &problem;
  QVERIFY2(located, "the checker reports the dangling dependency at tb 1 step 1");
  const QModelIndex row = model.instructionIndex({0, 1, 1});
  QCOMPARE(row.data(ProgramModel::SeverityRole).toInt(), static_cast<int>(Severity::Error));
  QVERIFY(row.data(Qt::ToolTipRole)
              .toString()
              .contains(QString::fromStdString(located->diagnostic.message)));
  QVERIFY(!row.data(Qt::DecorationRole).isNull());
  QCOMPARE(model.instructionIndex({0, 0, 0}).data(ProgramModel::SeverityRole).toInt(), -1);
  QCOMPARE(model.threadBlockIndex(0, 1).data(ProgramModel::SeverityRole).toInt(),
           static_cast<int>(Severity::Error));
}

void TestProgramView::largeScheduleShowsItsProgramOnceLowered()
{
  Document document;
  ProgramView view(&document);
  auto* placeholder = view.findChild<QLabel*>(QStringLiteral("programPlaceholder"));
  openRing(document, 64);
  // 8,064 transfers are lowered in the background (Document::analysisIsExpensive); until then
  // the Program in the Analysis is the previous document's: hidden and not editable.
  QVERIFY(document.analysis().programPending);
  QVERIFY(placeholder->isVisibleTo(&view));
  QCOMPARE(placeholder->text(), QStringLiteral("Lowering the timeline to a program…"));
  QVERIFY(!view.model()->isEditable());
  document.waitForAnalysis();
  QVERIFY(!document.analysis().programPending);
  QVERIFY(!placeholder->isVisibleTo(&view));
  QVERIFY(view.model()->isEditable());
  QCOMPARE(view.model()->rowCount(), 64);
  int steps = 0;
  for (int r = 0; r < 64; ++r)
    for (int t = 0; t < view.model()->rowCount(view.model()->index(r, 0)); ++t)
      steps += view.model()->rowCount(view.model()->index(t, 0, view.model()->index(r, 0)));
  QCOMPARE(steps, document.shownProgram()->stepCount());
  QVERIFY(view.summaryText().startsWith(QStringLiteral("64 ranks  ·  ")));
}

void TestProgramView::timelineProblemsMarkTheInstructionsOfTheirTransfer()
{
  Document document;
  openRing(document, 8);
  ProgramModel model(&document);
  // Moving a later ring transfer to step 0 reads a chunk while another transfer writes it.
  Transfer moved = document.schedule().transfers[9];
  QVERIFY(moved.step > 0);
  moved.step = 0;
  document.undoStack()->push(new ChangeTransfersCommand(&document, {moved}, "Change step"));
  const Analysis& analysis = document.analysis();
  QVERIFY(analysis.problemsByTransfer.contains(moved.id));
  const std::vector<InstructionOrigin> instructions = analysis.instructionsOf(moved.id);
  QVERIFY(!instructions.empty());
  for (const InstructionOrigin& origin : instructions) {
    const QModelIndex row = model.instructionIndex({origin.rank, origin.tb, origin.step});
    QCOMPARE(row.data(ProgramModel::SeverityRole).toInt(), static_cast<int>(Severity::Error));
    QCOMPARE(model.rankIndex(origin.rank).data(ProgramModel::SeverityRole).toInt(),
             static_cast<int>(Severity::Error));
  }
  // An instruction of an untouched transfer on a clean rank stays unmarked.
  int cleanRank = -1;
  for (int r = 0; r < 8 && cleanRank < 0; ++r)
    if (model.rankIndex(r).data(ProgramModel::ProblemCountRole).toInt() == 0)
      cleanRank = r;
  QVERIFY(cleanRank >= 0);
  const int tb =
      document.shownProgram()->gpus[static_cast<std::size_t>(cleanRank)].threadblocks[0].id;
  QCOMPARE(model.instructionIndex({cleanRank, tb, 0}).data(ProgramModel::SeverityRole).toInt(), -1);
}

QTEST_MAIN(TestProgramView)
#include "tst_programview.moc"
