// `cstudio narrate`: the JSON has one entry per step with `step` and `sentences` (and the
// transfers each sentence covers), the cost derives busbw from the simulated time with
// nccl-tests' factor, a generated design document is recognised as its catalogue algorithm, an
// imported MSCCL XML file has no formula but still a simulated time, and bad input is refused
// with a message naming the file and exit code 2.

#include "support/cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using cs::test::cstudio;

namespace {

QJsonObject parsedJson(const cs::test::CliRun& run)
{
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
  if (error.error != QJsonParseError::NoError)
    qWarning("not JSON (%s): %s", qPrintable(error.errorString()), qPrintable(run.err));
  return document.object();
}

} // namespace

class TestNarrateCli : public QObject
{
  Q_OBJECT

private slots:
  void jsonOfCatalogueAlgorithm();
  void designDocumentIsRecognised();
  void importedXmlHasNoFormula();
  void textHasStepHeaders();
  void badInput();
};

void TestNarrateCli::jsonOfCatalogueAlgorithm()
{
  const cs::test::CliRun run =
      cstudio({"narrate", "--algorithm", "ring-allreduce", "--ranks", "4", "--json"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject json = parsedJson(run);
  const QJsonArray steps = json["steps"].toArray();
  QCOMPARE(steps.size(), 6); // 2(n-1) steps
  for (qsizetype k = 0; k < steps.size(); ++k) {
    const QJsonObject step = steps[k].toObject();
    QCOMPARE(step["step"].toInt(-1), static_cast<int>(k));
    const QJsonArray sentences = step["sentences"].toArray();
    QVERIFY(!sentences.isEmpty());
    QCOMPARE(step["transfers"].toArray().size(), sentences.size());
    QVERIFY(sentences[0].toString().startsWith("every rank r sends "));
    QCOMPARE(step["transfers"].toArray()[0].toArray().size(), 4); // one per rank
  }
  const QJsonObject cost = json["cost"].toObject();
  QCOMPARE(cost["algorithm"].toString(), QString("ring-allreduce"));
  QVERIFY(cost["formula_us"].toDouble() > 0);
  const double time = cost["simulated_us"].toDouble();
  QVERIFY(time > 0);
  const double algbw = cost["algbw_GBps"].toDouble();
  QVERIFY(qAbs(algbw - 1048576 / (time * 1e3)) < 1e-6 * algbw);
  QCOMPARE(cost["busbw_factor"].toDouble(), 1.5); // 2(n-1)/n at n = 4
  QVERIFY(qAbs(cost["busbw_GBps"].toDouble() - 1.5 * algbw) < 1e-6 * algbw);
}

void TestNarrateCli::designDocumentIsRecognised()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("hd.json");
  QCOMPARE(cstudio({"generate", "halving-doubling-allreduce", "--ranks", "8", "-o", path}).exitCode,
           0);
  const cs::test::CliRun run = cstudio({"narrate", path, "--json", "--topology", "ring-8"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject json = parsedJson(run);
  QCOMPARE(json["steps"].toArray().size(), 6); // 2·log2(8)
  QCOMPARE(json["cost"].toObject()["algorithm"].toString(), QString("halving-doubling-allreduce"));
}

void TestNarrateCli::importedXmlHasNoFormula()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("ring.xml");
  QCOMPARE(cstudio({"generate", "ring-allgather", "--ranks", "4", "-o", path}).exitCode, 0);
  const cs::test::CliRun run = cstudio({"narrate", path, "--json"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject cost = parsedJson(run)["cost"].toObject();
  QVERIFY(cost["formula"].isNull());
  QVERIFY(cost["sentences"].toArray()[0].toString().startsWith("No cost formula"));
  QVERIFY(cost["simulated_us"].toDouble() > 0);
  QCOMPARE(cost["busbw_factor"].toDouble(), 0.75); // (n-1)/n at n = 4
}

void TestNarrateCli::textHasStepHeaders()
{
  const cs::test::CliRun run =
      cstudio({"narrate", "--algorithm", "binomial-broadcast", "--ranks", "8"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY(run.out.contains("\nStep 0\n  rank 0 sends i[0]"));
  QVERIFY(run.out.contains("\nStep 2\n"));
  QVERIFY(!run.out.contains("\nStep 3\n"));
  QVERIFY(run.out.contains("After step 2 all 8 ranks hold the root's data: the broadcast is "
                           "complete."));
  QVERIFY(run.out.contains("busbw = algbw × 1"));
}

void TestNarrateCli::badInput()
{
  QTemporaryDir dir;
  const QString missing = dir.filePath("missing.xml");
  cs::test::CliRun run = cstudio({"narrate", missing});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(missing), qPrintable(run.err));
  const QString garbage = dir.filePath("garbage.xml");
  QVERIFY(cs::test::writeFile(garbage, "<algo name=\"x\" nranks=\"2\"><gpu"));
  run = cstudio({"narrate", garbage, "--json"});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(garbage), qPrintable(run.err));
  QVERIFY(run.out.isEmpty());
  run = cstudio({"narrate", "--algorithm", "no-such-algorithm"});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("no-such-algorithm"), qPrintable(run.err));
}

QTEST_GUILESS_MAIN(TestNarrateCli)
#include "tst_narratecli.moc"
