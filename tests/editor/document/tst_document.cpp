// The editor's document core: every edit is an undoable command that restores the exact previous
// state, the Analysis follows each edit, the first timeline edit of an imported Program switches
// the source and undo brings the imported Program back, and files load with clear errors.

#include "document/commands/statecommands.h"
#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "document/documentfiles.h"

#include "catalogue/catalogue.h"
#include "io/mscclxmlwriter.h"
#include "support/corpus.h"
#include "support/files.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

DocumentState ringState(int ranks)
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = ranks});
  DocumentState state;
  state.design.schedule = *generated.schedule;
  return state;
}

int errorsWithCode(const Analysis& analysis, const std::string& code)
{
  int n = 0;
  for (const Problem& problem : analysis.problems)
    if (problem.diagnostic.severity == Severity::Error &&
        codeInCategory(problem.diagnostic.code, code))
      ++n;
  return n;
}

} // namespace

class TestDocument : public QObject
{
  Q_OBJECT

private slots:
  void generatedRingIsCorrectAndLowered();
  void removingATransferIsFlaggedAndUndoRestoresExactly();
  void mergedChangesAreOneUndoStep();
  void firstTimelineEditOfImportedProgramSwitchesSourceAndUndoesExactly();
  void resetClearsHistoryAndRecoveredDocumentIsModified();
  void malformedFilesGiveAnErrorNamingThem();
  void designFileRoundTrip();
  void largeSchedulesAnalyseTheProgramInTheBackground();
};

void TestDocument::generatedRingIsCorrectAndLowered()
{
  Document document;
  document.reset(ringState(4), {});
  const Analysis& analysis = document.analysis();
  QCOMPARE(analysis.errors, 0);
  QVERIFY(analysis.program.has_value());
  QCOMPARE(analysis.program->ngpus, 4);
  // Every transfer became at least one instruction, and the mapping works both ways.
  for (const Transfer& transfer : document.schedule().transfers) {
    const std::vector<InstructionOrigin> instructions = analysis.instructionsOf(transfer.id);
    QVERIFY2(!instructions.empty(), qPrintable(QString("transfer %1").arg(transfer.id)));
    const InstructionOrigin& first = instructions.front();
    QCOMPARE(analysis.transferAt(first.rank, first.tb, first.step), transfer.id);
  }
  QVERIFY(!document.isModified());
}

void TestDocument::removingATransferIsFlaggedAndUndoRestoresExactly()
{
  Document document;
  document.reset(ringState(4), {});
  const DocumentState before = document.state();
  const int transferCount = static_cast<int>(before.design.schedule.transfers.size());
  QSignalSpy analysed(&document, &Document::analysisChanged);

  // Removing the first reduce of the ring loses a contribution: the postcondition fails.
  const int doomed = before.design.schedule.transfers.front().id;
  document.undoStack()->push(new RemoveTransfersCommand(&document, {doomed}));
  QCOMPARE(int(document.schedule().transfers.size()), transferCount - 1);
  QCOMPARE(analysed.count(), 1);
  QVERIFY(errorsWithCode(document.analysis(), "schedule.postcondition") > 0);
  QVERIFY(document.isModified());

  document.undoStack()->undo();
  QVERIFY(document.state() == before);
  QCOMPARE(document.analysis().errors, 0);
  QVERIFY(!document.isModified());

  document.undoStack()->redo();
  QCOMPARE(int(document.schedule().transfers.size()), transferCount - 1);
  QVERIFY(document.schedule().transfer(doomed) == nullptr);
}

void TestDocument::mergedChangesAreOneUndoStep()
{
  Document document;
  document.reset(ringState(3), {});
  const DocumentState before = document.state();
  Transfer moved = document.schedule().transfers.back();
  for (int step = 10; step < 13; ++step) {
    moved.step = step;
    document.undoStack()->push(
        new ChangeTransfersCommand(&document, {moved}, QStringLiteral("Change step")));
  }
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.schedule().transfer(moved.id)->step, 12);
  document.undoStack()->undo();
  QVERIFY(document.state() == before);

  // Two drags of the same transfer are two steps, whatever their texts.
  moved.step = 20;
  document.undoStack()->push(
      new ChangeTransfersCommand(&document, {moved}, "Move", MergePolicy::Separate));
  moved.step = 21;
  document.undoStack()->push(
      new ChangeTransfersCommand(&document, {moved}, "Move", MergePolicy::Separate));
  QCOMPARE(document.undoStack()->count(), 2);
  document.undoStack()->undo();
  QCOMPARE(document.schedule().transfer(moved.id)->step, 20);
}

void TestDocument::firstTimelineEditOfImportedProgramSwitchesSourceAndUndoesExactly()
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = 4});
  LowerResult lowered = lowerSchedule(*generated.schedule, {});
  const std::string xml = writeMscclXml(*lowered.program, {}).text;

  QTemporaryDir dir;
  const QString path = dir.filePath("ring.xml");
  QVERIFY(test::writeFile(path, QByteArray::fromStdString(xml)));
  LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));

  Document document;
  document.reset(*loaded.state, {.filePath = path});
  QCOMPARE(document.source(), Source::Program);
  QVERIFY(document.shownSchedule().has_value()); // lifted onto the timeline
  const DocumentState imported = document.state();

  Transfer extra = document.shownSchedule()->transfers.front();
  extra.id = -1;
  extra.step = document.shownSchedule()->stepCount();
  auto* add = new AddTransfersCommand(&document, {extra});
  const int newId = add->ids().front();
  document.undoStack()->push(add);
  QCOMPARE(document.source(), Source::Schedule);
  QVERIFY(document.schedule().transfer(newId) != nullptr);

  document.undoStack()->undo();
  QCOMPARE(document.source(), Source::Program);
  QVERIFY(document.state() == imported);
}

void TestDocument::resetClearsHistoryAndRecoveredDocumentIsModified()
{
  Document document;
  document.reset(ringState(4), {});
  document.undoStack()->push(new RemoveTransfersCommand(&document, {0}));
  QCOMPARE(document.undoStack()->count(), 1);

  QSignalSpy modified(&document, &Document::modifiedChanged);
  document.reset(ringState(5), {}, /*modified=*/true);
  QCOMPARE(document.undoStack()->count(), 0);
  QVERIFY(document.isModified());
  QCOMPARE(document.schedule().ranks, 5);
  document.markSaved();
  QVERIFY(!document.isModified());
}

void TestDocument::malformedFilesGiveAnErrorNamingThem()
{
  QTemporaryDir dir;
  const QString xml = dir.filePath("broken.xml");
  QVERIFY(test::writeFile(xml, "<algo name=\"x\" ngpus=\"2\">\n<gpu id=\"0\"\n"));
  LoadResult result = loadDocumentFile(xml);
  QVERIFY(!result.state);
  QVERIFY2(result.error.contains("broken.xml"), qPrintable(result.error));

  const QString json = dir.filePath("broken.json");
  QVERIFY(test::writeFile(json, "{\"format\": \"collective-studio-design\", \"version\": 99}"));
  result = loadDocumentFile(json);
  QVERIFY(!result.state);
  QVERIFY2(result.error.contains("broken.json"), qPrintable(result.error));

  result = loadDocumentFile(dir.filePath("missing.xml"));
  QVERIFY(!result.state);
  QVERIFY2(result.error.contains("missing.xml"), qPrintable(result.error));
}

void TestDocument::designFileRoundTrip()
{
  DocumentState state = ringState(4);
  state.design.notes = "drawn by hand";
  QTemporaryDir dir;
  const QString path = dir.filePath("ring.json");
  QCOMPARE(saveDesignFile(state, state.design.schedule, path), QString());
  LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));
  QVERIFY(loaded.state->design == state.design);
}

void TestDocument::largeSchedulesAnalyseTheProgramInTheBackground()
{
  Document document;
  document.reset(ringState(64), {});
  document.waitForAnalysis();
  QVERIFY(!document.analysis().programPending);
  QCOMPARE(document.analysis().errors, 0);
  QCOMPARE(document.analysis().program->ngpus, 64);

  const int doomed = document.schedule().transfers.front().id;
  QSignalSpy analysed(&document, &Document::analysisChanged);
  document.undoStack()->push(new RemoveTransfersCommand(&document, {doomed}));
  // The Schedule checks are in place at once and already mark the broken postcondition …
  QCOMPARE(analysed.count(), 1);
  QVERIFY(document.analysis().programPending);
  QVERIFY(errorsWithCode(document.analysis(), "schedule.postcondition") > 0);
  // … and the lowered Program follows: the removed transfer no longer has instructions.
  document.waitForAnalysis();
  QCOMPARE(analysed.count(), 2);
  QVERIFY(!document.analysis().programPending);
  QVERIFY(document.analysis().instructionsOf(doomed).empty());
  QVERIFY(!document.analysis().instructionsOf(doomed + 1).empty());
}

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
