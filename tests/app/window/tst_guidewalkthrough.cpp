// The user guide's walk-through (issue 17, Tests): docs/editor.md's "Drawing a ring all-reduce"
// followed step by step in the main window as a user would (the New dialog's widgets, mouse drags
// on the timeline at the cells the guide names, the Timeline menu's Replicate… dialog, a double
// click in the Problems panel), checking what the guide says the user sees at each point. The
// finished document is the catalogue's ring all-reduce, transfer for transfer. Each check quotes
// the guide's sentence it checks; the slots run in order, as the chapter does.

#include "support/isolatedwindow.h"
#include "window/mainwindow.h"
#include "window/statussummary.h"

#include "document/document.h"
#include "document/documentfiles.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"
#include "program/programmodel.h"
#include "program/programtreeview.h"
#include "program/programview.h"
#include "timeline/timelineview.h"

#include "catalogue/catalogue.h"
#include "support/guidesteps.h"

#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QTreeView>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

using namespace cs;
using namespace cs::editor;
using namespace cs::test;

namespace {

ChunkRef in(int rank, int index)
{
  return {rank, Buffer::Input, index};
}

/// A transfer without its id and channel: what the guide's drags decide.
using TransferKey = std::tuple<ChunkRef, ChunkRef, int, TransferOp>;

/// Per step, the transfers of that step (ordering within a step does not matter).
std::map<int, std::multiset<TransferKey>> bySteps(const std::vector<Transfer>& transfers)
{
  std::map<int, std::multiset<TransferKey>> steps;
  for (const Transfer& t : transfers)
    steps[t.step].insert({t.src, t.dst, t.count, t.op});
  return steps;
}

/// Types `value` into a spin box as a user does: select what is there, type the digits.
void typeInto(QSpinBox* spin, int value)
{
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, QString::number(value));
}

/// Clicks the tab of `tabs` whose text is `text`; false when there is none.
bool clickTab(QTabWidget* tabs, const QString& text)
{
  for (int i = 0; i < tabs->count(); ++i) {
    if (shownText(tabs->tabText(i)) == text) {
      QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(i).center());
      return tabs->currentIndex() == i;
    }
  }
  return false;
}

/// Fills in File › New's Empty tab as the guide says (all-reduce, 4 ranks, 4 input chunks per
/// rank, in place) and clicks Create; the buffer preview it showed, or nullopt (the dialog left
/// open) when a field the guide names is missing.
std::optional<QString> fillInGuidesEmptyRing(QDialog* dialog)
{
  auto* tabs = dialog->findChild<QTabWidget*>();
  if (!tabs || !clickTab(tabs, "Empty"))
    return std::nullopt;
  QWidget* page = tabs->currentWidget();
  auto* collective = fieldLabelled<QComboBox>(page, "C&ollective:");
  auto* ranks = fieldLabelled<QSpinBox>(dialog, "&Ranks:");
  auto* chunks = fieldLabelled<QSpinBox>(page, "Input c&hunks per rank:");
  auto* inPlace = buttonStarting<QCheckBox>(page, "In place");
  auto* preview = dialog->findChild<QLabel*>("bufferPreview");
  auto* create = buttonStarting<QPushButton>(dialog, "Create");
  if (!collective || !ranks || !chunks || !inPlace || !preview || !create)
    return std::nullopt;
  collective->setCurrentIndex(collective->findText("all-reduce", Qt::MatchFixedString));
  typeInto(ranks, 4);
  typeInto(chunks, 4);
  if (!inPlace->isChecked())
    QTest::mouseClick(inPlace, Qt::LeftButton);
  const QString shown = preview->text();
  QTest::mouseClick(create, Qt::LeftButton);
  return shown;
}

QString problemsText(const Analysis& analysis)
{
  QStringList lines;
  for (const Problem& p : analysis.problems)
    lines << QString::fromStdString(p.diagnostic.code + ": " + p.diagnostic.message);
  return lines.join('\n');
}

} // namespace

class TestGuideWalkthrough : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void newEmptyDocumentThroughTheDialog();
  void drawRankZerosPart();
  void activatedProblemShowsTheFirstWrongCell();
  void replicateCompletesTheRing();
  void resultIsTheCataloguesRing();
  void programTabShowsFusedInstructions();
  void finishedRingIsTheExample();

private:
  /// The timeline's drag for one transfer of step `step`: from `src` in the column before it
  /// (column `step`; 0 is "start") to `dst` in the column after it.
  void dragTransfer(ChunkRef src, ChunkRef dst, int step, Qt::KeyboardModifiers release = {});
  /// A key typed with the keyboard focus on the timeline, through the window (so shortcuts
  /// apply as they do for a user); false when the window cannot be made active.
  bool pressKey(QKeyCombination key);
  TimelineView* timeline() const { return m_window->timelineView(); }
  Document* document() const { return m_window->document(); }

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

void TestGuideWalkthrough::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_window = cs::test::openIsolatedWindow(m_dir, "tst_guidewalkthrough");
  m_window->resize(1400, 900);
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  m_window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestGuideWalkthrough::newEmptyDocumentThroughTheDialog()
{
  // "File › New…, Empty: all-reduce, 4 ranks, 4 input chunks per rank, in place."
  QAction* newAction = menuEntry(m_window.get(), "File", "New");
  QVERIFY(newAction);
  std::optional<QString> preview;
  const bool shown =
      withModalDialog([&] { newAction->trigger(); },
                      [&](QDialog* dialog) { preview = fillInGuidesEmptyRing(dialog); });
  QVERIFY(shown);
  QVERIFY2(preview, "the New dialog's Empty tab lacks a field the guide names");
  // "The dialog previews the buffers it will create — here "Per rank: i 4 chunks, o = i (in
  // place), s 0 — 16 timeline rows""
  QVERIFY2(preview->contains(QStringLiteral("Per rank: i 4 chunks, o = i (in place), s 0")),
           qPrintable(*preview));
  QVERIFY2(preview->contains(QStringLiteral("16 timeline rows")), qPrintable(*preview));

  const Schedule& schedule = document()->schedule();
  QCOMPARE(schedule.collective, Collective::AllReduce);
  QCOMPARE(schedule.ranks, 4);
  QVERIFY(schedule.inplace);
  QVERIFY(schedule.transfers.empty());
  // "there are no separate o[k] rows ... The timeline shows one row per chunk, grouped by rank,
  // and one column per step."
  m_window->showView(MainWindow::View::Timeline);
  const ChunkStates& states = timeline()->model().states();
  QCOMPARE(states.rowCount(), 16);
  for (const ChunkRow& row : states.rows())
    QCOMPARE(row.ref.buffer, Buffer::Input);
  // "`r2` is rank 2's own contribution": the start column holds each rank's own chunk.
  QCOMPARE(states.label(states.rowOf(in(2, 1)), 0), std::string("r2"));
}

void TestGuideWalkthrough::dragTransfer(ChunkRef src, ChunkRef dst, int step,
                                        Qt::KeyboardModifiers release)
{
  timeline()->cellRect(src, step);
  timeline()->cellRect(dst, step + 1);
  // Both are in view now; ask again so neither point is stale after a scroll.
  dragMouse(timeline()->viewport(), timeline()->cellRect(src, step).center(),
            timeline()->cellRect(dst, step + 1).center(), release);
}

bool TestGuideWalkthrough::pressKey(QKeyCombination key)
{
  // A closed modal dialog gives the focus back to the window it came from, as a window manager
  // does; the offscreen platform leaves no window active.
  m_window->activateWindow();
  if (!QTest::qWaitForWindowActive(m_window.get()))
    return false;
  timeline()->setFocus();
  QTest::keyClick(m_window->windowHandle(), key.key(), key.keyboardModifiers());
  return true;
}

void TestGuideWalkthrough::drawRankZerosPart()
{
  // "Pick Reduce in the toolbar (R)": a click on its toolbar button.
  auto* toolbar = m_window->findChild<QToolBar*>(QStringLiteral("viewToolBar"));
  QVERIFY(toolbar);
  QAction* reduce = nullptr;
  for (QAction* action : toolbar->actions())
    if (shownText(action->text()).startsWith("Reduce"))
      reduce = action;
  QVERIFY(reduce);
  QCOMPARE(reduce->shortcut(), QKeySequence(Qt::Key_R));
  QTest::mouseClick(toolbar->widgetForAction(reduce), Qt::LeftButton);
  QCOMPARE(timeline()->operation(), TransferOp::Reduce);

  // "drag from rank 0's i[3] in the start column to rank 1's i[3]: that is one transfer in step
  // 0 (rank 1 adds rank 0's chunk to its own)."
  dragTransfer(in(0, 3), in(1, 3), 0);
  QCOMPARE(document()->schedule().transfers.size(), std::size_t{1});
  const Transfer& first = document()->schedule().transfers.front();
  QCOMPARE(first.step, 0);
  QCOMPARE(first.op, TransferOp::Reduce);
  QCOMPARE(first.src, in(0, 3));
  QCOMPARE(first.dst, in(1, 3));
  // "`Σ01` the sum of ranks 0 and 1's"
  const ChunkStates& states = timeline()->model().states();
  QCOMPARE(states.label(states.rowOf(in(1, 3)), 1), std::string("Σ01"));

  // "Continue the ring's reduce-scatter for two more steps (rank 0's `i[2]` in the *step 0*
  // column to rank 1's `i[2]` in *step 1*, then `i[1]` from *step 1* to *step 2*)"
  dragTransfer(in(0, 2), in(1, 2), 1);
  dragTransfer(in(0, 1), in(1, 1), 2);
  // "then switch to *Copy* (C; or hold Shift while releasing) for the three all-gather steps
  // (`i[0]`, `i[3]`, then `i[2]`, each from the previous step's column to the next)": the key
  // for the first two, Reduce with Shift held on release for the last.
  QVERIFY(pressKey(Qt::Key_C));
  QCOMPARE(timeline()->operation(), TransferOp::Copy);
  dragTransfer(in(0, 0), in(1, 0), 3);
  dragTransfer(in(0, 3), in(1, 3), 4);
  QVERIFY(pressKey(Qt::Key_R));
  QCOMPARE(timeline()->operation(), TransferOp::Reduce);
  dragTransfer(in(0, 2), in(1, 2), 5, Qt::ShiftModifier);

  const std::vector<Transfer>& drawn = document()->schedule().transfers;
  QCOMPARE(drawn.size(), std::size_t{6});
  QCOMPARE(document()->undoStack()->count(), 6);
  int reduces = 0;
  for (const Transfer& t : drawn)
    reduces += t.op == TransferOp::Reduce ? 1 : 0;
  QCOMPARE(reduces, 3);

  // "The Problems panel already says what is still wrong": errors, listed.
  document()->waitForAnalysis();
  QVERIFY(document()->analysis().errors > 0);
  QVERIFY(m_window->problemsPanel()->problemCount() > 0);
  QVERIFY2(!m_window->problemsPanel()->isCompact(),
           qPrintable(problemsText(document()->analysis())));
}

void TestGuideWalkthrough::activatedProblemShowsTheFirstWrongCell()
{
  // "Double-click the problem: the timeline's cursor goes to the first wrong result cell, and the
  // row says on which ranks the result is wrong" (the picture: "ranks 0–3").
  QTreeView* tree = m_window->problemsPanel()->treeView();
  const QModelIndex row = tree->model()->index(0, ProblemsModel::MessageColumn);
  const QString message = row.data().toString();
  QVERIFY2(message.contains(QStringLiteral("ranks 0–3")), qPrintable(message));
  tree->scrollTo(row);
  const QPoint at = tree->visualRect(row).center();
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
  QCOMPARE(m_window->currentView(), MainWindow::View::Timeline);
  const std::optional<CellRef> cell = document()->selection().cell;
  QVERIFY(cell.has_value());
  const auto [slot, column] = timeline()->cursor();
  QCOMPARE(slot, cell->slot);
  QCOMPARE(column, cell->column);
  // A result cell (the last column) that does not hold what the result must.
  const ChunkStates& states = timeline()->model().states();
  QCOMPARE(column, states.columnCount() - 1);
  const int wrongRow = states.rowOf(slot);
  QVERIFY(states.label(wrongRow, column) != states.goalLabel(wrongRow));
  // The first one: every row above it holds its result.
  for (int r = 0; r < wrongRow; ++r)
    QCOMPARE(states.label(r, column), states.goalLabel(r));
}

void TestGuideWalkthrough::replicateCompletesTheRing()
{
  // "Select the six arrows (drag a rubber band from the step header, or Ctrl+A)": the band from
  // the header of the start column over every step down to rank 1's last row.
  timeline()->setFocus();
  const QRect last = timeline()->cellRect(in(1, 3), timeline()->model().columnCount() - 1);
  dragMouse(timeline()->viewport(), timeline()->headerRect(0).topLeft() + QPoint(2, 4),
            last.bottomRight());
  QCOMPARE(document()->selection().transfers.size(), std::size_t{6});

  // "choose Timeline › Replicate… (Ctrl+R) with shift 1 and "shift chunks too""
  QAction* replicate = menuEntry(m_window.get(), "Timeline", "Replicate");
  QVERIFY(replicate);
  QCOMPARE(replicate->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
  bool asked = false;
  QVERIFY(withModalDialog([&] { replicate->trigger(); },
                          [&](QDialog* dialog) {
                            auto* shift = fieldLabelled<QSpinBox>(dialog, "Shift by &k ranks:");
                            auto* chunks = buttonStarting<QCheckBox>(dialog, "Shift chunk");
                            auto* ok = buttonStarting<QPushButton>(dialog, "Replicate");
                            if (!shift || !chunks || !ok)
                              return;
                            typeInto(shift, 1);
                            if (!chunks->isChecked())
                              QTest::mouseClick(chunks, Qt::LeftButton);
                            asked = true;
                            QTest::mouseClick(ok, Qt::LeftButton);
                          }));
  QVERIFY2(asked, "the Replicate dialog lacks the shift or the \"shift chunks\" field");
  // "every rank gets the same pattern, moved by one rank and one chunk. It is one undoable edit."
  QCOMPARE(document()->schedule().transfers.size(), std::size_t{24});
  QCOMPARE(document()->undoStack()->count(), 7);
  document()->waitForAnalysis();

  // "The last column shows `Σ all` with a ✓ in every result row and the status bar says ✔
  // correct"
  const ChunkStates& states = timeline()->model().states();
  for (int r = 0; r < states.rowCount(); ++r)
    QCOMPARE(states.label(r, states.columnCount() - 1), std::string("Σ all"));
  const QString verdict = m_window->statusSummary()->verdictText();
  QVERIFY2(verdict.contains(QStringLiteral("✔ correct")), qPrintable(verdict));
}

void TestGuideWalkthrough::resultIsTheCataloguesRing()
{
  // The drawn ring is the catalogue's ring all-reduce, transfer for transfer (in any order
  // within a step), and the Problems panel reports no errors.
  const GenerateResult catalogue = generateAlgorithm("ring-allreduce", {.ranks = 4});
  QVERIFY(catalogue.schedule);
  QCOMPARE(bySteps(document()->schedule().transfers), bySteps(catalogue.schedule->transfers));
  QCOMPARE(document()->analysis().errors, 0);
  int listedErrors = 0;
  for (const Problem& problem : document()->analysis().problems)
    listedErrors += problem.diagnostic.severity == Severity::Error ? 1 : 0;
  QCOMPARE(listedErrors, 0);
  QVERIFY2(!m_window->problemsPanel()->summary().contains("error"),
           qPrintable(m_window->problemsPanel()->summary()));
}

void TestGuideWalkthrough::programTabShowsFusedInstructions()
{
  // "Ctrl+1, Ctrl+2 and Ctrl+3 switch between them"
  QVERIFY(pressKey(Qt::CTRL | Qt::Key_3));
  QCOMPARE(m_window->currentView(), MainWindow::View::Program);
  // "The Program tab shows what the timeline was lowered to: one threadblock per rank with fused
  // `rrs`, `rrcs` and `rcs` instructions."
  const std::optional<Program>& program = document()->analysis().program;
  QVERIFY(program.has_value());
  QSet<QString> types;
  for (const Gpu& gpu : program->gpus) {
    QCOMPARE(gpu.threadblocks.size(), std::size_t{1});
    for (const Step& step : gpu.threadblocks.front().steps)
      types.insert(QString::fromUtf8(opTypeName(step.type)));
  }
  for (const char* fused : {"rrs", "rrcs", "rcs"})
    QVERIFY2(types.contains(fused), qPrintable(QStringList(types.values()).join(' ')));

  // "Selecting an instruction selects its transfer on the timeline and the reverse": a click on
  // rank 1's step 2 in the Program tab, then a click on another arrow on the timeline.
  ProgramView* programView = m_window->programView();
  const InstructionRef instruction{.rank = 1, .tb = 0, .step = 2};
  const QModelIndex row = programView->model()->instructionIndex(instruction);
  QVERIFY(row.isValid());
  programView->treeView()->scrollTo(row);
  QTest::mouseClick(programView->treeView()->viewport(), Qt::LeftButton, {},
                    programView->treeView()->visualRect(row).center());
  const int transfer = programView->model()->transferAt(instruction);
  QVERIFY(transfer >= 0);
  QCOMPARE(document()->selection().transfers, std::set<int>{transfer});

  QVERIFY(pressKey(Qt::CTRL | Qt::Key_2));
  QCOMPARE(m_window->currentView(), MainWindow::View::Timeline);
  const int other = document()->schedule().transfers.front().id;
  QTest::mouseClick(timeline()->viewport(), Qt::LeftButton, {}, timeline()->arrowPoint(other));
  QCOMPARE(document()->selection().transfers, std::set<int>{other});
  QVERIFY(document()->selection().instruction.has_value());
  QCOMPARE(programView->model()->transferAt(*document()->selection().instruction), other);
}

void TestGuideWalkthrough::finishedRingIsTheExample()
{
#ifndef CSTUDIO_EXAMPLES_DIR
  QSKIP("this build writes no examples (sanitizer and fuzzing builds)");
#else
  // "The finished algorithm is the example `ring-allreduce-4.csdesign.json`."
  const std::vector<Transfer> drawn = document()->schedule().transfers;
  const QString example = QStringLiteral(CSTUDIO_EXAMPLES_DIR "/ring-allreduce-4.csdesign.json");
  QVERIFY(m_window->openFile(example).isEmpty());
  QCOMPARE(bySteps(document()->schedule().transfers), bySteps(drawn));
#endif
}

QTEST_MAIN(TestGuideWalkthrough)
#include "tst_guidewalkthrough.moc"
