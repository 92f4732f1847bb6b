// `cstudio` on design documents (.json): validate prints exactly the problem list of the engine's
// analysis pipeline (the one the editor shows), with transfer ids; info and run take the Program
// the document lowers to.

#include "support/cli.h"
#include "support/diagnosticlines.h"

#include "analysis/analysis.h"
#include "catalogue/catalogue.h"
#include "io/designdocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;
using cs::test::cstudio;
using Run = cs::test::CliRun;

namespace {

Schedule generated(const char* key, int ranks)
{
  GenerateResult result = generateAlgorithm(key, {.ranks = ranks});
  return result.schedule.value_or(Schedule{});
}

/// A ring all-reduce whose transfer #0 reads a scratch chunk nobody wrote.
Schedule readsUnwrittenChunk()
{
  Schedule schedule = generated("ring-allreduce", 4);
  for (RankBuffers& buffers : schedule.buffers)
    buffers.scratch = 1;
  schedule.transfer(0)->src = {0, Buffer::Scratch, 0};
  return schedule;
}

/// A ring all-reduce missing one transfer: the result is wrong.
Schedule wrongResult()
{
  Schedule schedule = generated("ring-allreduce", 3);
  schedule.transfers.erase(schedule.transfers.begin() + 1);
  return schedule;
}

QJsonObject onlyObject(const QString& out)
{
  return QJsonDocument::fromJson(out.trimmed().toUtf8()).object();
}

} // namespace

class TestDesignCli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void generatedDesignValidates_data();
  void generatedDesignValidates();
  void seededErrorNamesItsTransfer();
  void problemListEqualsThePipeline_data();
  void problemListEqualsThePipeline();
  void unreadableDesignExitsTwo();
  void infoSummarisesTheLoweredProgram();
  void runVerifiesTheLoweredProgram();

private:
  QString write(const QString& name, const Schedule& schedule);

  QTemporaryDir m_dir;
};

QString TestDesignCli::write(const QString& name, const Schedule& schedule)
{
  DesignDocument document;
  document.schedule = schedule;
  const QString path = m_dir.filePath(name);
  if (!cs::test::writeFile(path, QByteArray::fromStdString(writeDesignDocument(document))))
    return {};
  return path;
}

void TestDesignCli::initTestCase()
{
  QVERIFY(m_dir.isValid());
}

void TestDesignCli::generatedDesignValidates_data()
{
  QTest::addColumn<QString>("key");
  QTest::addColumn<int>("ranks");
  QTest::newRow("ring all-reduce") << "ring-allreduce" << 4;
  QTest::newRow("ring all-gather") << "ring-allgather" << 5;
  QTest::newRow("binomial broadcast") << "binomial-broadcast" << 4;
  QTest::newRow("bruck all-to-all") << "bruck-alltoall" << 6;
}

void TestDesignCli::generatedDesignValidates()
{
  QFETCH(QString, key);
  QFETCH(int, ranks);
  const QString path = write(key + ".json", generated(qPrintable(key), ranks));
  QVERIFY(!path.isEmpty());
  const Run text = cstudio({"validate", path});
  QCOMPARE(text.exitCode, 0);
  QVERIFY2(text.out.contains(": ok ("), qPrintable(text.out));
  QVERIFY2(text.out.contains(QStringLiteral("%1 ranks").arg(ranks)), qPrintable(text.out));

  const Run json = cstudio({"validate", "--json", path});
  QCOMPARE(json.exitCode, 0);
  const QJsonObject object = onlyObject(json.out);
  QCOMPARE(object["ok"].toBool(), true);
  QCOMPARE(object["ngpus"].toInt(), ranks);
  QCOMPARE(object["dialect"].toString(), QStringLiteral("executor"));
  QCOMPARE(object["diagnostics"].toArray().size(), 0);
}

void TestDesignCli::seededErrorNamesItsTransfer()
{
  const QString path = write("unwritten.json", readsUnwrittenChunk());
  const Run text = cstudio({"validate", path});
  QCOMPARE(text.exitCode, 1);
  QVERIFY2(text.out.contains("error: transfer #0 reads rank 0 s[0] in step 0, which nobody has "
                             "written yet [schedule.uninitialised] (rank 0 step 0 transfer 0)"),
           qPrintable(text.out));
  QVERIFY(text.out.contains(": FAILED ("));

  const Run json = cstudio({"validate", "--json", path});
  QCOMPARE(json.exitCode, 1);
  const QJsonArray diagnostics = onlyObject(json.out)["diagnostics"].toArray();
  QVERIFY(!diagnostics.isEmpty());
  const QJsonObject first = diagnostics.first().toObject();
  QCOMPARE(first["code"].toString(), QStringLiteral("schedule.uninitialised"));
  QCOMPARE(first["transfer"].toInt(), 0);
  QCOMPARE(first["severity"].toString(), QStringLiteral("error"));

  // A wrong result is reported once, at the transfer that last wrote the first wrong chunk.
  const QString wrong = write("wrong.json", wrongResult());
  const Run postcondition = cstudio({"validate", "--json", wrong});
  QCOMPARE(postcondition.exitCode, 1);
  QStringList codes;
  for (const QJsonValue& d : onlyObject(postcondition.out)["diagnostics"].toArray())
    codes << d["code"].toString();
  QVERIFY2(codes.contains("schedule.postcondition"), qPrintable(codes.join(',')));
}

void TestDesignCli::problemListEqualsThePipeline_data()
{
  QTest::addColumn<QString>("name");
  QTest::addColumn<QString>("dialect");
  QTest::newRow("unwritten chunk") << "unwritten"
                                   << "executor";
  QTest::newRow("wrong result") << "wrong"
                                << "executor";
  QTest::newRow("wrong result, classic") << "wrong"
                                         << "classic";
  QTest::newRow("correct ring, rccl") << "ring"
                                      << "rccl";
}

void TestDesignCli::problemListEqualsThePipeline()
{
  QFETCH(QString, name);
  QFETCH(QString, dialect);
  const Schedule schedule = name == "unwritten" ? readsUnwrittenChunk()
                            : name == "wrong"   ? wrongResult()
                                                : generated("ring-allreduce", 4);
  const QString path = write(name + ".json", schedule);
  LowerOptions lowering;
  lowering.dialect = *parseDialect(dialect.toStdString());
  const Analysis analysis = analyseSchedule(schedule, lowering);

  const Run json = cstudio({"validate", "--json", "--dialect", dialect, path});
  QCOMPARE(json.exitCode, analysis.errors > 0 ? 1 : 0);
  const QStringList printed =
      cs::test::diagnosticLines(onlyObject(json.out)["diagnostics"].toArray());
  QCOMPARE(printed, cs::test::diagnosticLines(analysis.diagnostics()));
  QCOMPARE(printed.size(), static_cast<qsizetype>(analysis.problems.size()));
}

void TestDesignCli::unreadableDesignExitsTwo()
{
  const QString path = m_dir.filePath("broken.json");
  QVERIFY(cs::test::writeFile(path, "{\"format\": \"collective-studio-design\", \"version\""));
  const Run run = cstudio({"validate", path});
  QCOMPARE(run.exitCode, 2);
  QVERIFY(run.out.contains(": FAILED"));
  const Run missing = cstudio({"validate", "--json", m_dir.filePath("absent.json")});
  QCOMPARE(missing.exitCode, 2);
  QCOMPARE(onlyObject(missing.out)["diagnostics"].toArray().first()["code"].toString(),
           QStringLiteral("design.io"));
}

void TestDesignCli::infoSummarisesTheLoweredProgram()
{
  const QString path = write("info.json", generated("ring-allreduce", 4));
  const Run run = cstudio({"info", "--json", "--proto", "LL", path});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject object = onlyObject(run.out);
  QCOMPARE(object["ngpus"].toInt(), 4);
  QCOMPARE(object["protocol"].toString(), QStringLiteral("LL"));
  QCOMPARE(object["collective"].toString(), QStringLiteral("allreduce"));
  QVERIFY(object["threadblocks"].toInt() > 0);
}

void TestDesignCli::runVerifiesTheLoweredProgram()
{
  const QString path = write("run.json", generated("ring-allreduce", 4));
  const Run run = cstudio({"run", path, "--backend", "cpu", "--bytes", "64K", "--iters", "1",
                           "--warmup", "0", "--json"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject object = onlyObject(run.out);
  QCOMPARE(object["status"].toString(), QStringLiteral("verified"));
  QCOMPARE(object["wrong"].toInteger(), 0);
  QCOMPARE(object["bytes"].toInteger(), 65536);

  // A design that cannot be lowered is refused before anything runs.
  Schedule broken = generated("ring-allreduce", 4);
  broken.transfer(0)->src.rank = 9;
  const Run refused = cstudio({"run", write("broken-run.json", broken), "--iters", "1"});
  QCOMPARE(refused.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestDesignCli)
#include "tst_designcli.moc"
