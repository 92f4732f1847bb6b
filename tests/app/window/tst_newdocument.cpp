// File › New › Empty (issue 17 item 1): the fields mean what docs/editor.md says ("4 input chunks
// per rank" gives 4 input chunks per rank, and for all-reduce 4 output chunks), an in-place
// document has no o[k] rows that only mirror i[k] (as the catalogue's documents), and the dialog
// previews the buffers it will create.

#include "window/newdocumentdialog.h"
#include "window/newdocuments.h"
#include "window/statussummary.h"

#include "document/document.h"

#include "analysis/chunkstates.h"
#include "catalogue/catalogue.h"
#include "support/guideshots.h"

#include <QTest>

using namespace cs;
using namespace cs::editor;

class TestNewDocument : public QObject
{
  Q_OBJECT

private slots:
  void emptyBuffersMatchTheCatalogue_data();
  void emptyBuffersMatchTheCatalogue();
  void guideExampleHasOneRowPerInputChunk();
  void previewFollowsTheFields();
  void splitCollectivesNeedAMultipleOfTheRanks();
  void catalogueChoiceExplainsUnsupportedRanks();
  void theGpuIsAnyUnlessChosen();
};

void TestNewDocument::emptyBuffersMatchTheCatalogue_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  QTest::newRow("ring all-reduce") << "ring-allreduce" << 4;
  QTest::newRow("ring all-gather") << "ring-allgather" << 4;
  QTest::newRow("ring reduce-scatter") << "ring-reducescatter" << 8;
  QTest::newRow("direct all-to-all") << "direct-alltoall" << 4;
  QTest::newRow("binomial broadcast") << "binomial-broadcast" << 4;
}

void TestNewDocument::emptyBuffersMatchTheCatalogue()
{
  // An empty document asked for with the catalogue algorithm's own input size and call mode gets
  // the buffers that algorithm declares (scratch aside: an empty document has none yet).
  QFETCH(QString, key);
  QFETCH(int, ranks);
  GeneratorOptions generator;
  generator.ranks = ranks;
  const GenerateResult generated = generateAlgorithm(key.toStdString(), generator);
  QVERIFY(generated.schedule);
  const Schedule& catalogue = *generated.schedule;
  EmptyDocumentOptions options;
  options.collective = catalogue.collective;
  options.ranks = ranks;
  options.inputChunks = catalogue.buffers[0].input;
  options.inPlace = catalogue.inplace;
  QCOMPARE(emptyDocumentProblem(options), QString());
  const Schedule empty = emptyDocumentState(options).design.schedule;
  QCOMPARE(empty.ranks, ranks);
  QCOMPARE(empty.buffers.size(), catalogue.buffers.size());
  QCOMPARE(empty.buffers[0].input, catalogue.buffers[0].input);
  QCOMPARE(empty.buffers[0].output, catalogue.buffers[0].output);
  QCOMPARE(empty.inplace, catalogue.inplace);
}

void TestNewDocument::guideExampleHasOneRowPerInputChunk()
{
  // docs/editor.md: "all-reduce, 4 ranks, 4 input chunks per rank, in place".
  NewDocumentDialog dialog;
  dialog.setMode(NewDocumentDialog::Mode::Empty);
  QVERIFY(dialog.selectCollective(Collective::AllReduce));
  dialog.setRanks(4);
  dialog.setInputChunks(4);
  dialog.setInPlace(true);
  QString error;
  const std::optional<DocumentState> state = dialog.state(&error);
  QVERIFY2(state, qPrintable(error));
  const Schedule& schedule = state->design.schedule;
  QCOMPARE(schedule.buffers[0], (RankBuffers{.input = 4, .output = 0, .scratch = 0}));
  const ChunkStates states(schedule);
  QCOMPARE(states.rowCount(), 4 * 4);
  for (const ChunkRow& row : states.rows())
    QCOMPARE(row.ref.buffer, Buffer::Input);

  dialog.setInPlace(false);
  const std::optional<DocumentState> outOfPlace = dialog.state(&error);
  QVERIFY2(outOfPlace, qPrintable(error));
  QCOMPARE(outOfPlace->design.schedule.buffers[0],
           (RankBuffers{.input = 4, .output = 4, .scratch = 0}));
  QCOMPARE(ChunkStates(outOfPlace->design.schedule).rowCount(), 4 * 8);

  dialog.setInPlace(true);
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  test::saveGuideShot(dialog.grab(), QStringLiteral("guide-new-empty.png"));
}

void TestNewDocument::previewFollowsTheFields()
{
  NewDocumentDialog dialog;
  dialog.setMode(NewDocumentDialog::Mode::Empty);
  QVERIFY(dialog.selectCollective(Collective::AllReduce));
  dialog.setRanks(4);
  dialog.setInputChunks(4);
  dialog.setInPlace(false);
  QCOMPARE(dialog.bufferPreview(), describeEmptyDocument(dialog.emptyOptions()));
  QVERIFY2(dialog.bufferPreview().contains("i 4 chunks, o 4 chunks, s 0"),
           qPrintable(dialog.bufferPreview()));
  QVERIFY2(dialog.bufferPreview().contains("32 timeline rows"), qPrintable(dialog.bufferPreview()));

  dialog.setInPlace(true);
  QVERIFY2(dialog.bufferPreview().contains("o = i (in place)"), qPrintable(dialog.bufferPreview()));
  QVERIFY2(dialog.bufferPreview().contains("16 timeline rows"), qPrintable(dialog.bufferPreview()));

  QVERIFY(dialog.selectCollective(Collective::AllGather));
  dialog.setInputChunks(2);
  dialog.setRanks(8);
  QVERIFY2(dialog.bufferPreview().contains("i 2 chunks, o 16 chunks"),
           qPrintable(dialog.bufferPreview()));
  QVERIFY2(dialog.bufferPreview().contains("144 timeline rows (8 ranks × 18)"),
           qPrintable(dialog.bufferPreview()));
}

void TestNewDocument::splitCollectivesNeedAMultipleOfTheRanks()
{
  NewDocumentDialog dialog;
  dialog.setMode(NewDocumentDialog::Mode::Empty);
  QVERIFY(dialog.selectCollective(Collective::ReduceScatter));
  dialog.setRanks(4);
  dialog.setInputChunks(6);
  QVERIFY2(dialog.problem().contains("multiple of 4"), qPrintable(dialog.problem()));
  QString error;
  QVERIFY(!dialog.state(&error));
  QCOMPARE(error, dialog.problem());

  dialog.setInputChunks(8);
  QCOMPARE(dialog.problem(), QString());
  const std::optional<DocumentState> state = dialog.state(&error);
  QVERIFY2(state, qPrintable(error));
  QCOMPARE(state->design.schedule.buffers[0].input, 8);
  QCOMPARE(state->design.schedule.buffers[0].output, 2);
}

void TestNewDocument::catalogueChoiceExplainsUnsupportedRanks()
{
  NewDocumentDialog dialog;
  QVERIFY(dialog.selectAlgorithm("halving-doubling-allreduce"));
  dialog.setRanks(6);
  QVERIFY2(dialog.problem().contains("power of two"), qPrintable(dialog.problem()));
  QString error;
  QVERIFY(!dialog.state(&error).has_value());
  dialog.setRanks(8);
  QCOMPARE(dialog.problem(), QString());
  QCOMPARE(dialog.presetName(), QString("ring-8"));
  QVERIFY(dialog.selectPreset("dgx-h100"));
  const std::optional<DocumentState> state = dialog.state(&error);
  QVERIFY2(state.has_value(), qPrintable(error));
  QCOMPARE(state->design.schedule.ranks, 8);
  QCOMPARE(state->design.schedule.name, std::string("halving-doubling-allreduce-8"));
  QCOMPARE(state->design.topology->name, std::string("dgx-h100"));

  dialog.setMode(NewDocumentDialog::Mode::Empty);
  dialog.setRanks(4);
  const std::optional<DocumentState> empty = dialog.state();
  QVERIFY(empty.has_value());
  QCOMPARE(empty->design.schedule.ranks, 4);
  QCOMPARE(empty->design.schedule.transfers.size(), std::size_t{0});
  QCOMPARE(empty->design.schedule.buffers[0].input, 4);
  QCOMPARE(empty->design.topology->rankCount(), 4);
}

void TestNewDocument::theGpuIsAnyUnlessChosen()
{
  NewDocumentDialog dialog;
  QVERIFY(dialog.selectAlgorithm("ring-allreduce"));
  QCOMPARE(dialog.gpu(), std::nullopt);
  std::optional<DocumentState> state = dialog.state();
  QVERIFY(state.has_value());
  QCOMPARE(state->lowering.gpu, std::nullopt);

  dialog.setGpu(GpuModelId::H200);
  QCOMPARE(dialog.gpu(), std::optional(GpuModelId::H200));
  state = dialog.state();
  QVERIFY(state.has_value());
  QCOMPARE(state->lowering.gpu, std::optional(GpuModelId::H200));
  QCOMPARE(state->design.gpu, std::optional(GpuModelId::H200));
  // The status bar says which GPU the new document is checked for.
  Document document;
  const StatusSummary status(&document);
  QCOMPARE(status.gpuText(), QString("GPU: any"));
  document.reset(*state, {});
  QCOMPARE(status.gpuText(), QString("GPU: H200"));
  dialog.setMode(NewDocumentDialog::Mode::Empty);
  state = dialog.state();
  QVERIFY(state.has_value());
  QCOMPARE(state->lowering.gpu, std::optional(GpuModelId::H200));
}

QTEST_MAIN(TestNewDocument)
#include "tst_newdocument.moc"
