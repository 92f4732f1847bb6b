// The cstudio command line as a user and a CI pipeline see it: exit codes, text and JSON output,
// help on every command.

#include "support/cli.h"
#include "support/corpus.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using cs::test::cstudio;
using cs::test::readFile;
using Run = cs::test::CliRun;

namespace {

void writeFile(const QString& path, const QByteArray& contents)
{
  QVERIFY(cs::test::writeFile(path, contents));
}

} // namespace

class Test_cli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void version();
  void helpOnEveryCommand_data();
  void helpOnEveryCommand();
  void usageErrors_data();
  void usageErrors();
  void validateGoodFile();
  void validateBadFileExitsOne();
  void validateUnreadableExitsTwo();
  void repeatedFaultsAreFoldedInText();
  void validateJson();
  void fifoSlotsChangeTheVerdict();
  void exportForExecutor();
  void exportRefusesBrokenInput();
  void info();
  void infoJsonOnCorpus();

private:
  QTemporaryDir m_dir;
  QString m_ring;   // a correct 4-rank ring all-reduce
  QString m_broken; // the same ring with one receive dropped
};

void Test_cli::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_ring = m_dir.filePath("ring4.xml");
  const Run generated = cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", m_ring});
  QCOMPARE(generated.exitCode, 0);
  QVERIFY(generated.out.contains("wrote"));
  QByteArray text = readFile(m_ring);
  QVERIFY(text.contains("coll=\"allreduce\""));
  // Drop rank 2's final receive (the last step of its only threadblock).
  const qsizetype gpu2 = text.indexOf("<gpu id=\"2\"");
  const qsizetype last = text.lastIndexOf("<step", text.indexOf("</tb>", gpu2));
  const qsizetype lineStart = text.lastIndexOf('\n', last) + 1;
  const qsizetype lineEnd = text.indexOf('\n', last) + 1;
  text.remove(lineStart, lineEnd - lineStart);
  m_broken = m_dir.filePath("broken.xml");
  writeFile(m_broken, text);
}

void Test_cli::version()
{
  const Run run = cstudio({"--version"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY(run.out.startsWith("cstudio "));
}

void Test_cli::helpOnEveryCommand_data()
{
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<QString>("mentions");
  QTest::newRow("top") << QStringList{"--help"} << "validate";
  QTest::newRow("validate") << QStringList{"validate", "--help"} << "--fifo-slots";
  QTest::newRow("info") << QStringList{"info", "--help"} << "--json";
  QTest::newRow("export") << QStringList{"export", "--help"} << "--dialect";
  QTest::newRow("generate") << QStringList{"generate", "--help"} << "--ranks";
  QTest::newRow("bench") << QStringList{"bench", "--help"} << "--repeat";
}

void Test_cli::helpOnEveryCommand()
{
  QFETCH(QStringList, arguments);
  QFETCH(QString, mentions);
  const Run run = cstudio(arguments);
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains(mentions), qPrintable(run.out));
}

void Test_cli::usageErrors_data()
{
  QTest::addColumn<QStringList>("arguments");
  QTest::newRow("no command") << QStringList{};
  QTest::newRow("unknown command") << QStringList{"frobnicate"};
  QTest::newRow("unknown option") << QStringList{"validate", "--frob", "x.xml"};
  QTest::newRow("bad dialect") << QStringList{"validate", "--dialect", "nccl", "x.xml"};
  QTest::newRow("zero fifo slots") << QStringList{"validate", "--fifo-slots", "0", "x.xml"};
  QTest::newRow("validate without files") << QStringList{"validate"};
  QTest::newRow("export without -o") << QStringList{"export", "x.xml"};
  QTest::newRow("generate unknown") << QStringList{"generate", "warp-drive", "-o", "x.xml"};
  QTest::newRow("bench without files") << QStringList{"bench"};
}

void Test_cli::usageErrors()
{
  QFETCH(QStringList, arguments);
  const Run run = cstudio(arguments);
  QCOMPARE(run.exitCode, 2);
  QVERIFY(!run.err.isEmpty());
}

void Test_cli::validateGoodFile()
{
  const Run run = cstudio({"validate", m_ring});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains(m_ring + ": ok"), qPrintable(run.out));
  QVERIFY(run.out.contains("0 errors"));
}

void Test_cli::validateBadFileExitsOne()
{
  const Run run = cstudio({"validate", m_ring, m_broken});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.out.contains(m_broken + ": FAILED"), qPrintable(run.out));
  QVERIFY2(run.out.contains("[match.missing-recv]"), qPrintable(run.out));
  // Compiler-style lines: FILE:LINE:COL: error: …
  QVERIFY2(run.out.contains(QRegularExpression(QRegularExpression::escape(m_broken) +
                                               R"(:\d+(:\d+)?: error: )")),
           qPrintable(run.out));
}

void Test_cli::validateUnreadableExitsTwo()
{
  const Run missing = cstudio({"validate", m_ring, m_dir.filePath("absent.xml")});
  QCOMPARE(missing.exitCode, 2);
  QVERIFY(missing.out.contains("absent.xml"));
  const QString garbage = m_dir.filePath("garbage.xml");
  writeFile(garbage, "<algo name=\"x\"");
  QCOMPARE(cstudio({"validate", garbage}).exitCode, 2);
}

void Test_cli::repeatedFaultsAreFoldedInText()
{
  // One bad rule on every rank of 64: the text shows three and counts the rest by rank; --json
  // keeps every one.
  const QString ring = m_dir.filePath("ring64.xml");
  QCOMPARE(cstudio({"generate", "ring-allreduce", "--ranks", "64", "-o", ring}).exitCode, 0);
  const QByteArray text = readFile(ring);
  const QString bad = m_dir.filePath("ring64-bad.xml");
  writeFile(bad, QByteArray(text).replace("type=\"s\" srcbuf=\"i\"", "type=\"s\" srcbuf=\"q\""));
  const Run run = cstudio({"validate", bad});
  QCOMPARE(run.exitCode, 1);
  QCOMPARE(run.out.count("[format.bad-value] (rank"), 3);
  QVERIFY2(run.out.contains("note: and 61 more like it on ranks 3-63 [format.bad-value]"),
           qPrintable(run.out));
  const Run json = cstudio({"validate", "--json", bad});
  QCOMPARE(json.out.count("\"format.bad-value\""), 64);
}

void Test_cli::validateJson()
{
  const Run run = cstudio({"validate", "--json", m_ring, m_broken});
  QCOMPARE(run.exitCode, 1);
  const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 2); // one object per file
  const QJsonObject good = QJsonDocument::fromJson(lines[0].toUtf8()).object();
  QCOMPARE(good.value("file").toString(), m_ring);
  QCOMPARE(good.value("ok").toBool(), true);
  QCOMPARE(good.value("collective").toString(), QString("allreduce"));
  QCOMPARE(good.value("ngpus").toInt(), 4);
  const QJsonObject bad = QJsonDocument::fromJson(lines[1].toUtf8()).object();
  QCOMPARE(bad.value("ok").toBool(), false);
  bool found = false;
  for (const QJsonValue& value : bad.value("diagnostics").toArray()) {
    const QJsonObject d = value.toObject();
    for (const char* key : {"severity", "code", "message", "rank", "tb", "step", "line"})
      QVERIFY2(d.contains(key), key);
    if (d.value("code").toString() == "match.missing-recv") {
      found = true;
      QCOMPARE(d.value("severity").toString(), QString("error"));
      QCOMPARE(d.value("rank").toInt(), 1); // rank 1 sends a message rank 2 never receives
      QVERIFY(d.value("line").toInt() > 0);
    }
  }
  QVERIFY(found);
}

void Test_cli::fifoSlotsChangeTheVerdict()
{
  // A ring's fused receive-and-send needs a free outgoing slot: one-message connections deadlock.
  QCOMPARE(cstudio({"validate", m_ring, "--fifo-slots", "2"}).exitCode, 0);
  const Run tight = cstudio({"validate", m_ring, "--fifo-slots", "1"});
  QCOMPARE(tight.exitCode, 1);
  QVERIFY2(tight.out.contains("[deadlock]"), qPrintable(tight.out));
}

void Test_cli::exportForExecutor()
{
  const QString classic = m_dir.filePath("ring-classic.xml");
  QCOMPARE(
      cstudio({"generate", "ring-allreduce", "--ranks", "3", "--dialect", "classic", "-o", classic})
          .exitCode,
      0);
  QVERIFY(!readFile(classic).contains("outofplace"));
  const Run before = cstudio({"validate", "--dialect", "executor", classic});
  QCOMPARE(before.exitCode, 1);
  QVERIFY2(before.out.contains("missing required algo attribute outofplace"),
           qPrintable(before.out));

  const QString exported = m_dir.filePath("ring-executor.xml");
  const Run run = cstudio({"export", classic, "-o", exported, "--dialect", "executor"});
  QCOMPARE(run.exitCode, 0);
  const QByteArray text = readFile(exported);
  QVERIFY(text.contains("outofplace=\"0\""));
  QVERIFY(text.contains("minBytes=\"0\""));
  // The classic file says 2147483647, the stand-in for "unlimited": back to 0 for the executor.
  QVERIFY(text.contains("maxBytes=\"0\""));
  QCOMPARE(cstudio({"validate", "--dialect", "executor", exported}).exitCode, 0);
}

void Test_cli::exportRefusesBrokenInput()
{
  const QString garbage = m_dir.filePath("garbage2.xml");
  writeFile(garbage, "<algo name=\"x\" proto=\"Simple\"><gpu");
  const QString out = m_dir.filePath("never.xml");
  QCOMPARE(cstudio({"export", garbage, "-o", out}).exitCode, 2);
  QVERIFY(!QFile::exists(out));
}

void Test_cli::info()
{
  const Run run = cstudio({"info", m_ring});
  QCOMPARE(run.exitCode, 0);
  QVERIFY(run.out.contains("allreduce"));
  QVERIFY(run.out.contains("executor: loads and is selected"));
  // maxBytes="0" is "unlimited" to the executor but "never selected" to the classic runtime,
  // which still loads the file.
  QVERIFY2(run.out.contains("classic: loads, never selected"), qPrintable(run.out));
}

void Test_cli::infoJsonOnCorpus()
{
  CS_REQUIRE_CORPUS();
  const Run run = cstudio(
      {"info", "--json", cs::test::corpusPath("allreduce_ring_simple_4r_1ch_1i_Simple.xml")});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject info = QJsonDocument::fromJson(run.out.toUtf8()).object();
  QCOMPARE(info.value("ngpus").toInt(), 4);
  QCOMPARE(info.value("steps").toInt(), 28);
  QCOMPARE(info.value("threadblocks").toInt(), 4);
  QCOMPARE(info.value("written_for").toString(), QString("classic"));
  const QJsonObject accepted = info.value("accepted_by").toObject();
  QCOMPARE(accepted.value("classic").toBool(), true);
  QCOMPARE(accepted.value("executor").toBool(), false); // lacks minBytes, maxBytes, outofplace
  QCOMPARE(info.value("ranks").toArray().at(2).toObject().value("steps").toInt(), 7);
}

QTEST_GUILESS_MAIN(Test_cli)
#include "tst_cli.moc"
