// Teaching mode's Predict tab (issue 19 item 4): the cells of the step about to run, each with
// the round's options; Reveal marks right and wrong (the right content beside a wrong row), adds
// the round to the run-through, and locks the choices until the step changes. The expected cells
// are counted here from the chunk states themselves, not from the engine's round.

#include "document/document.h"
#include "style/rankpalette.h"
#include "teach/predictpanel.h"
#include "teach/teachingpanel.h"
#include "teach/teachingview.h"

#include "catalogue/catalogue.h"

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <set>

using namespace cs;
using namespace cs::editor;
using namespace cs::visualizer;

namespace {

void openCatalogue(Document& document, const char* key, int ranks)
{
  DocumentState state;
  state.design.schedule = *generateAlgorithm(key, {.ranks = ranks}).schedule;
  document.reset(state, {});
  document.waitForAnalysis();
}

/// The memories step `step` writes a new value into: one cell each (aliased rows count once).
int changedMemories(const ChunkStates& states, int step)
{
  std::set<std::uint32_t> memories;
  for (int row = 0; row < states.rowCount(); ++row) {
    if (states.changed(row, step + 1))
      memories.insert(states.rows()[static_cast<std::size_t>(row)].memory);
  }
  return static_cast<int>(memories.size());
}

int answerIndex(const PredictCell& cell)
{
  const auto it = std::ranges::find(cell.options, cell.answer);
  return static_cast<int>(it - cell.options.begin());
}

int wrongIndex(const PredictCell& cell)
{
  return answerIndex(cell) == 0 ? 1 : 0;
}

void chooseAllRight(PredictPanel& panel)
{
  for (int row = 0; row < panel.rowCount(); ++row)
    panel.choose(row, answerIndex(panel.round().cells[static_cast<std::size_t>(row)]));
}

QList<QComboBox*> choiceBoxes(const PredictPanel& panel)
{
  return panel.findChildren<QComboBox*>();
}

double luma(const QColor& colour)
{
  return 0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue();
}

} // namespace

class TestPredictPanel : public QObject
{
  Q_OBJECT

private slots:
  void listsTheCellsOfTheNextStep();
  void rightAnswersScoreAllRight();
  void wrongChoiceShowsTheRightContent_data();
  void wrongChoiceShowsTheRightContent();
  void nextStepResetsRowsAndKeepsTheRunThrough();
  void afterTheLastStepNothingIsLeft();
  void newAlgorithmStartsANewRunThrough();
  void teachingViewKeepsThePredictTabOnItsStep();
};

void TestPredictPanel::listsTheCellsOfTheNextStep()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  panel.setStep(1);
  const ChunkStates& states = *document.analysis().states;
  QCOMPARE(panel.step(), 1);
  QVERIFY(panel.rowCount() > 0);
  QCOMPARE(panel.rowCount(), changedMemories(states, 1));
  for (const PredictCell& cell : panel.round().cells)
    QVERIFY2(states.changed(cell.row, 2), qPrintable(QString("row %1").arg(cell.row)));
  const QList<QComboBox*> boxes = choiceBoxes(panel);
  QCOMPARE(boxes.size(), panel.rowCount());
  for (int row = 0; row < panel.rowCount(); ++row) {
    QComboBox* box = boxes[row];
    const PredictCell& cell = panel.round().cells[static_cast<std::size_t>(row)];
    QCOMPARE(box->currentIndex(), -1);
    QVERIFY(box->isEnabled());
    QCOMPARE(box->count(), static_cast<int>(cell.options.size()));
  }
  QVERIFY(!panel.isRevealed());
  QCOMPARE(panel.scoreText(), QString("This run-through: no step revealed yet"));
}

void TestPredictPanel::rightAnswersScoreAllRight()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  panel.setStep(1);
  const int cells = panel.rowCount();
  chooseAllRight(panel);
  panel.reveal();
  QVERIFY(panel.isRevealed());
  QCOMPARE(panel.result()->right, cells);
  QCOMPARE(panel.result()->total, cells);
  QCOMPARE(panel.run().right(), cells);
  QCOMPARE(panel.run().total(), cells);
  QCOMPARE(panel.scoreText(),
           QString("Step 1: %1 of %1 right · this run-through: %1 of %1").arg(cells));
  for (int row = 0; row < cells; ++row)
    QCOMPARE(panel.verdictText(row), QString("✓ right"));
  for (QComboBox* box : choiceBoxes(panel))
    QVERIFY(!box->isEnabled());
  // Locked until the step changes: neither a choice nor a second reveal changes the score.
  panel.choose(0, wrongIndex(panel.round().cells[0]));
  panel.reveal();
  QCOMPARE(panel.run().right(), cells);
  QCOMPARE(panel.run().total(), cells);
  QCOMPARE(choiceBoxes(panel)[0]->currentIndex(), answerIndex(panel.round().cells[0]));
}

void TestPredictPanel::wrongChoiceShowsTheRightContent_data()
{
  QTest::addColumn<bool>("dark");
  QTest::newRow("light palette") << false;
  QTest::newRow("dark palette") << true;
}

void TestPredictPanel::wrongChoiceShowsTheRightContent()
{
  QFETCH(bool, dark);
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  QPalette palette;
  palette.setColor(QPalette::Base, dark ? QColor(0x1e, 0x1e, 0x1e) : QColor(Qt::white));
  palette.setColor(QPalette::WindowText, dark ? QColor(0xee, 0xee, 0xee) : QColor(Qt::black));
  palette.setColor(QPalette::Window, dark ? QColor(0x2d, 0x2d, 0x2d) : QColor(0xef, 0xef, 0xef));
  panel.setPalette(palette);
  panel.setStep(1);
  QVERIFY(panel.rowCount() >= 2);
  chooseAllRight(panel);
  const PredictCell& wrongCell = panel.round().cells[0];
  panel.choose(0, wrongIndex(wrongCell));
  panel.reveal();
  QCOMPARE(panel.result()->right, panel.rowCount() - 1);
  QCOMPARE(panel.run().total(), panel.rowCount());
  QVERIFY(!panel.result()->cells[0].right);
  QCOMPARE(panel.verdictText(0),
           QString("✗ it holds %1").arg(QString::fromStdString(wrongCell.answer)));
  QCOMPARE(panel.verdictText(1), QString("✓ right"));
  // The wrong cell's right content is spelled out below the rows, once.
  const QList<QLabel*> labels = panel.findChildren<QLabel*>();
  QCOMPARE(std::ranges::count_if(
               labels,
               [&](const QLabel* label) { return label->text().contains(panel.verdictText(0)); }),
           1);

  // Each row's background says its verdict, and the text stays readable on it.
  const QList<QComboBox*> boxes = choiceBoxes(panel);
  const QColor wrongFill = boxes[0]->parentWidget()->palette().color(QPalette::Window);
  const QColor rightFill = boxes[1]->parentWidget()->palette().color(QPalette::Window);
  QVERIFY(wrongFill.red() > wrongFill.green());
  QVERIFY(rightFill.green() > rightFill.red());
  const double text = luma(palette.color(QPalette::WindowText));
  QVERIFY2(std::abs(luma(wrongFill) - text) > 100, qPrintable(wrongFill.name()));
  QVERIFY2(std::abs(luma(rightFill) - text) > 100, qPrintable(rightFill.name()));
}

void TestPredictPanel::nextStepResetsRowsAndKeepsTheRunThrough()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  panel.setStep(1);
  const int firstCells = panel.rowCount();
  chooseAllRight(panel);
  panel.reveal();

  panel.setStep(2);
  QVERIFY(!panel.isRevealed());
  QCOMPARE(panel.rowCount(), changedMemories(*document.analysis().states, 2));
  for (QComboBox* box : choiceBoxes(panel)) {
    QVERIFY(box->isEnabled());
    QCOMPARE(box->currentIndex(), -1);
  }
  QCOMPARE(panel.run().total(), firstCells);
  QCOMPARE(panel.scoreText(),
           QString("This run-through: %1 of %1").arg(firstCells)); // nothing revealed at step 2

  // Revealing with nothing chosen counts every cell wrong, and adds to the total.
  panel.reveal();
  QCOMPARE(panel.result()->right, 0);
  QCOMPARE(panel.run().right(), firstCells);
  QCOMPARE(panel.run().total(), firstCells + panel.rowCount());
  QVERIFY(panel.verdictText(0).startsWith("✗ not answered: it holds "));
}

void TestPredictPanel::afterTheLastStepNothingIsLeft()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  panel.setStep(document.analysis().states->stepCount());
  QCOMPARE(panel.rowCount(), 0);
  QVERIFY(choiceBoxes(panel).isEmpty());
  panel.reveal();
  QVERIFY(!panel.isRevealed());
  QCOMPARE(panel.run().total(), 0);
}

void TestPredictPanel::newAlgorithmStartsANewRunThrough()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  PredictPanel panel(&document);
  panel.setStep(0);
  chooseAllRight(panel);
  panel.reveal();
  QVERIFY(panel.run().total() > 0);
  openCatalogue(document, "ring-allgather", 4);
  QCOMPARE(panel.run().total(), 0);
  QVERIFY(!panel.isRevealed());
  QCOMPARE(panel.rowCount(), changedMemories(*document.analysis().states, 0));
}

void TestPredictPanel::teachingViewKeepsThePredictTabOnItsStep()
{
  Document document;
  openCatalogue(document, "ring-allreduce", 4);
  TeachingView view(&document, nullptr, nullptr);
  QTabWidget* tabs = view.panel()->tabs();
  // Found by its name: the Break it tab follows it.
  int index = 0;
  while (index < tabs->count() && tabs->tabText(index) != QLatin1String("Predict"))
    ++index;
  QVERIFY(index < tabs->count());
  auto* predict = qobject_cast<PredictPanel*>(tabs->widget(index));
  QVERIFY(predict);
  QCOMPARE(predict->step(), 0);
  view.panel()->goTo(2, false);
  QCOMPARE(predict->step(), 2);
  QCOMPARE(predict->rowCount(), changedMemories(*document.analysis().states, 2));
  view.panel()->next();
  QCOMPARE(predict->step(), 3);
  view.rebuildNow(); // a rebuilt run starts again at step 0
  QCOMPARE(view.panel()->position(), 0);
  QCOMPARE(predict->step(), 0);
}

QTEST_MAIN(TestPredictPanel)
#include "tst_predictpanel.moc"
