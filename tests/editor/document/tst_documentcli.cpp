// The editor and `cstudio validate` share one analysis pipeline (engine/analysis): a saved design
// document shows the same problems in the editor's Problems list as the CLI prints, and the
// editor's background analysis of a large Schedule ends where the synchronous one does.

#include "document/analysis.h"
#include "document/document.h"
#include "document/documentfiles.h"

#include "support/cli.h"
#include "support/diagnosticlines.h"

#include "catalogue/catalogue.h"
#include "model/topologypresets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using namespace cs::editor;

namespace {

Schedule generated(const char* key, int ranks)
{
  return generateAlgorithm(key, {.ranks = ranks}).schedule.value_or(Schedule{});
}

QStringList problemLines(const Analysis& analysis)
{
  return cs::test::diagnosticLines(analysis.diagnostics());
}

} // namespace

class TestDocumentCli : public QObject
{
  Q_OBJECT

private slots:
  void savedDesignShowsWhatTheCliPrints_data();
  void savedDesignShowsWhatTheCliPrints();
  void backgroundAnalysisEqualsTheSynchronousOne();
};

void TestDocumentCli::savedDesignShowsWhatTheCliPrints_data()
{
  QTest::addColumn<int>("seed");
  QTest::newRow("correct") << 0;
  QTest::newRow("reads an unwritten chunk") << 1;
  QTest::newRow("missing transfer") << 2;
}

void TestDocumentCli::savedDesignShowsWhatTheCliPrints()
{
  QFETCH(int, seed);
  DocumentState state;
  state.design.schedule = generated("ring-allreduce", 4);
  // Saved with the ring of GPUs it is drawn for: both check the algorithm against it.
  state.design.topology = makePresetTopology("ring-4");
  if (seed == 1) {
    for (RankBuffers& buffers : state.design.schedule.buffers)
      buffers.scratch = 1;
    state.design.schedule.transfer(3)->src = {2, Buffer::Scratch, 0};
  }
  if (seed == 2)
    state.design.schedule.transfers.pop_back();

  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = dir.filePath("design.json");
  QCOMPARE(saveDesignFile(state, std::nullopt, path), QString());
  LoadResult loaded = loadDocumentFile(path);
  QVERIFY(loaded.state);
  Document document;
  document.reset(std::move(*loaded.state), {path});
  document.waitForAnalysis();
  const QStringList shown = problemLines(document.analysis());
  QCOMPARE(shown.isEmpty(), seed == 0);

  const cs::test::CliRun run = cs::test::cstudio({"validate", "--json", path});
  QCOMPARE(run.exitCode, document.analysis().errors > 0 ? 1 : 0);
  const QJsonObject object = QJsonDocument::fromJson(run.out.trimmed().toUtf8()).object();
  QCOMPARE(cs::test::diagnosticLines(object["diagnostics"].toArray()), shown);
  // Every Schedule problem the editor marks on the timeline names its transfer in the output.
  for (const Problem& problem : document.analysis().problems)
    QCOMPARE(problem.diagnostic.location.transfer, problem.transferId);
}

void TestDocumentCli::backgroundAnalysisEqualsTheSynchronousOne()
{
  DocumentState state;
  state.design.schedule = generated("ring-allgather", 64); // 4,032 transfers: analysed in two parts
  state.design.schedule.transfers.erase(state.design.schedule.transfers.begin() + 100);
  QVERIFY(analysisIsExpensive(state));

  const Analysis whole = analyse(state);
  const Analysis scheduleOnly = analyseScheduleOnly(state, Analysis{});
  QVERIFY(scheduleOnly.programPending);
  QVERIFY(!scheduleOnly.program);
  const Analysis finished = finishAnalysis(scheduleOnly, state);
  QVERIFY(!finished.programPending);
  QCOMPARE(problemLines(finished), problemLines(whole));
  QCOMPARE(finished.errors, whole.errors);
  QCOMPARE(finished.warnings, whole.warnings);
  QCOMPARE(finished.problemsByTransfer, whole.problemsByTransfer);
  QVERIFY(finished.program && whole.program);
  QVERIFY(*finished.program == *whole.program);
  // The Schedule was executed once: the finished analysis keeps the Schedule level's states.
  QCOMPARE(finished.states.get(), scheduleOnly.states.get());
  QCOMPARE(finished.states->label(0, finished.states->columnCount() - 1),
           whole.states->label(0, whole.states->columnCount() - 1));
}

QTEST_MAIN(TestDocumentCli)
#include "tst_documentcli.moc"
