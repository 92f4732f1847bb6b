// Choosing the GPU a document is for (issue 18, item 2): the Inspector's GPU box lists every
// model of the GPU table, choosing one is one undoable edit that re-runs the checks (a GPU with
// too few SMs makes limit.residency appear in the Problems panel, undo removes it), the Problems
// row offers the smallest GPU that fits, and the choice survives a save and an open, also for a
// document opened from MSCCL XML.

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "document/documentfiles.h"
#include "panels/gpuchoice.h"
#include "panels/inspectorpage.h"
#include "panels/inspectorpanel.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"

#include "catalogue/catalogue.h"

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace cs;
using namespace cs::editor;

namespace {

// Direct all-to-all on 82 ranks needs 2 x 81 + 1 threadblocks per rank, more than any GPU keeps
// resident, so the lowering packs sends with receives; fully packed it has 81, one more than a
// V100's 80 SMs keep resident, and fewer than an A100's 108.
constexpr int kRanks = 82;

DocumentState allToAllState()
{
  GenerateResult generated = generateAlgorithm("direct-alltoall", {.ranks = kRanks});
  DocumentState state;
  if (generated.schedule)
    state.design.schedule = *generated.schedule;
  return state;
}

/// Top-level rows of the panel with code `code`, as their index in the Message column.
QModelIndex rowWithCode(const ProblemsPanel& panel, const char* code)
{
  const ProblemsModel* model = panel.model();
  for (int row = 0; row < panel.problemCount(); ++row) {
    const QModelIndex index = model->index(row, ProblemsModel::CodeColumn);
    if (index.data().toString() == QLatin1String(code))
      return index.siblingAtColumn(ProblemsModel::MessageColumn);
  }
  return {};
}

QComboBox* gpuBox(const InspectorPanel& panel)
{
  return panel.currentPage() ? panel.currentPage()->findChild<QComboBox*>(QStringLiteral("gpu"))
                             : nullptr;
}

/// Picks item `index` as a user does (activated is what the Inspector listens to).
void pick(QComboBox* box, int index)
{
  box->setCurrentIndex(index);
  emit box->activated(index);
}

} // namespace

class TestGpuChoice : public QObject
{
  Q_OBJECT

private slots:
  void theBoxListsEveryModel();
  void tooFewSmsShowResidencyAndUndoHidesIt();
  void theProblemOffersAGpuThatFits();
  void smallestFittingGpuIsOfTheRuntimesVendor();
  void saveAndOpenKeepTheGpu();
  void aDocumentFromXmlSavesItsGpu();
};

void TestGpuChoice::theBoxListsEveryModel()
{
  Document document;
  document.reset(allToAllState(), {});
  InspectorPanel panel(&document);
  QComboBox* box = gpuBox(panel);
  QVERIFY(box);
  QCOMPARE(box->count(), static_cast<int>(allGpuModels().size()) + 1);
  QCOMPARE(box->currentIndex(), 0);
  QCOMPARE(box->itemText(0), gpuChoiceText(std::nullopt));
  for (const GpuModel& model : allGpuModels()) {
    const int index = box->findData(static_cast<int>(model.id));
    QVERIFY2(index > 0, model.key.data());
    const QString text = box->itemText(index);
    const QString title = QString::fromUtf8(model.title.data(), model.title.size());
    QVERIFY2(text.startsWith(title.section(QStringLiteral(" ("), 0, 0)) &&
                 text.contains(QString::number(model.computeUnits)),
             qPrintable(text));
    // The tooltip names the resident-block limit for the document's runtime.
    const QString tip = box->itemData(index, Qt::ToolTipRole).toString();
    const int resident = residentThreadblocks(model, document.lowering().dialect);
    QVERIFY2(tip.contains(QStringLiteral("at most %1 ").arg(resident)), qPrintable(tip));
  }
}

void TestGpuChoice::tooFewSmsShowResidencyAndUndoHidesIt()
{
  Document document;
  document.reset(allToAllState(), {});
  document.waitForAnalysis();
  QVERIFY(document.shownProgram());
  // With no GPU chosen the lowering packs only as far as the largest known GPU needs (B200: 148).
  QCOMPARE(widestRankThreadblocks(*document.shownProgram()), 148);
  InspectorPanel inspector(&document);
  ProblemsPanel problems(&document);
  QVERIFY(!rowWithCode(problems, "limit.residency").isValid());
  const DocumentState before = document.state();

  QComboBox* box = gpuBox(inspector);
  pick(box, box->findData(static_cast<int>(GpuModelId::V100)));
  document.waitForAnalysis();
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.undoStack()->undoText(), QStringLiteral("Choose GPU V100"));
  QVERIFY(document.isModified());
  QCOMPARE(document.lowering().gpu, std::optional(GpuModelId::V100));
  QCOMPARE(document.state().design.gpu, std::optional(GpuModelId::V100));
  QVERIFY(rowWithCode(problems, "limit.residency").isValid());

  // Choosing the same GPU again is no edit.
  pick(box, box->currentIndex());
  QCOMPARE(document.undoStack()->count(), 1);

  document.undoStack()->undo();
  document.waitForAnalysis();
  QVERIFY(document.state() == before);
  QVERIFY(!document.isModified());
  QVERIFY(!rowWithCode(problems, "limit.residency").isValid());
  QCOMPARE(gpuChoice(box), std::nullopt);
}

void TestGpuChoice::theProblemOffersAGpuThatFits()
{
  Document document;
  DocumentState state = allToAllState();
  state.lowering.gpu = state.design.gpu = GpuModelId::V100;
  document.reset(state, {});
  document.waitForAnalysis();
  ProblemsPanel problems(&document);
  const QModelIndex residency = rowWithCode(problems, "limit.residency");
  QVERIFY(residency.isValid());
  problems.treeView()->setCurrentIndex(residency);
  QVERIFY(problems.fixAction()->isVisible());
  QCOMPARE(problems.fixAction()->text(), QStringLiteral("Choose GPU A100 (108 SMs)"));

  problems.fixAction()->trigger();
  document.waitForAnalysis();
  QCOMPARE(document.lowering().gpu, std::optional(GpuModelId::A100));
  QVERIFY(!rowWithCode(problems, "limit.residency").isValid());
  QVERIFY(!problems.fixAction()->isVisible());
  document.undoStack()->undo();
  document.waitForAnalysis();
  QCOMPARE(document.lowering().gpu, std::optional(GpuModelId::V100));
}

void TestGpuChoice::smallestFittingGpuIsOfTheRuntimesVendor()
{
  QCOMPARE(smallestGpuFitting(80, DialectId::Executor), std::optional(GpuModelId::V100));
  QCOMPARE(smallestGpuFitting(81, DialectId::Executor), std::optional(GpuModelId::A100));
  QCOMPARE(smallestGpuFitting(81, DialectId::Rccl), std::optional(GpuModelId::Mi250x));
  QCOMPARE(smallestGpuFitting(111, DialectId::Rccl), std::optional(GpuModelId::Mi300x));
  QCOMPARE(smallestGpuFitting(149, DialectId::Classic), std::nullopt);
}

void TestGpuChoice::saveAndOpenKeepTheGpu()
{
  Document document;
  document.reset(allToAllState(), {});
  document.undoStack()->push(makeChooseGpuCommand(&document, GpuModelId::H100Sxm));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("a2a.csdesign.json"));
  QCOMPARE(saveDesignFile(document.state(), document.shownSchedule(), path), QString());

  const LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state, qPrintable(loaded.error));
  QCOMPARE(loaded.state->lowering.gpu, std::optional(GpuModelId::H100Sxm));
  Document opened;
  opened.reset(*loaded.state, {});
  InspectorPanel inspector(&opened);
  QCOMPARE(gpuChoice(gpuBox(inspector)), std::optional(GpuModelId::H100Sxm));
}

void TestGpuChoice::aDocumentFromXmlSavesItsGpu()
{
  Document lowered;
  lowered.reset(allToAllState(), {});
  lowered.waitForAnalysis();
  QVERIFY(lowered.shownProgram());
  QTemporaryDir dir;
  const QString xmlPath = dir.filePath(QStringLiteral("a2a.xml"));
  QFile xml(xmlPath);
  QVERIFY(xml.open(QIODevice::WriteOnly));
  xml.write(
      QByteArray::fromStdString(exportXml(*lowered.shownProgram(), DialectId::Executor).text));
  xml.close();

  const LoadResult fromXml = loadDocumentFile(xmlPath);
  QVERIFY2(fromXml.state && fromXml.state->program, qPrintable(fromXml.error));
  Document document;
  document.reset(*fromXml.state, {});
  QCOMPARE(document.lowering().gpu, std::nullopt);
  document.undoStack()->push(makeChooseGpuCommand(&document, GpuModelId::Mi300x));
  const QString path = dir.filePath(QStringLiteral("a2a.csdesign.json"));
  QCOMPARE(saveDesignFile(document.state(), document.shownSchedule(), path), QString());
  const LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state, qPrintable(loaded.error));
  QCOMPARE(loaded.state->lowering.gpu, std::optional(GpuModelId::Mi300x));
}

QTEST_MAIN(TestGpuChoice)
#include "tst_gpuchoice.moc"
