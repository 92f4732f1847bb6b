// cstudio run and cstudio bench as a user runs them, at sizes small enough for every CI run: the
// CPU executor on generated rings (JSON fields and the verdict, the text report), clear errors for
// a wrong backend or size, and both benchmarks (read/check ratios, the executor sweep).

#include "support/cli.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using cs::test::cstudio;
using Run = cs::test::CliRun;

class Test_runcli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void runJson_data();
  void runJson();
  void runText();
  void runRejects_data();
  void runRejects();
  void benchReadAndCheck();
  void benchBackendSweep();

private:
  /// A generated ring all-reduce on `ranks` ranks (one file per rank count).
  QString ring(int ranks);

  QTemporaryDir m_dir;
};

void Test_runcli::initTestCase()
{
  QVERIFY(m_dir.isValid());
}

QString Test_runcli::ring(int ranks)
{
  const QString path = m_dir.filePath(QStringLiteral("ring%1.xml").arg(ranks));
  if (!QFile::exists(path)) {
    const Run run = cstudio({"generate", "ring-allreduce", "--ranks", QString::number(ranks),
                             "--channels", "2", "-o", path});
    if (run.exitCode != 0)
      qWarning("cstudio generate: %s", qPrintable(run.err));
  }
  return path;
}

void Test_runcli::runJson_data()
{
  QTest::addColumn<int>("ranks");
  QTest::addColumn<QString>("dtype");
  QTest::addColumn<QString>("op");
  QTest::addColumn<QString>("typeName"); // nccl-tests' spelling, as the JSON reports it
  QTest::addColumn<int>("elementBytes");
  QTest::newRow("2 ranks f32 sum") << 2 << "f32"
                                   << "sum"
                                   << "float" << 4;
  QTest::newRow("4 ranks f32 sum") << 4 << "f32"
                                   << "sum"
                                   << "float" << 4;
  QTest::newRow("4 ranks bf16 max") << 4 << "bf16"
                                    << "max"
                                    << "bfloat16" << 2;
  QTest::newRow("3 ranks i32 prod") << 3 << "i32"
                                    << "prod"
                                    << "int32" << 4;
}

void Test_runcli::runJson()
{
  QFETCH(int, ranks);
  QFETCH(QString, dtype);
  QFETCH(QString, op);
  QFETCH(QString, typeName);
  QFETCH(int, elementBytes);
  const QString file = ring(ranks);
  const Run run = cstudio({"run", file, "--backend", "cpu", "--bytes", "12K", "--dtype", dtype,
                           "--op", op, "--iters", "2", "--warmup", "1", "--json"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
  const nlohmann::json result = nlohmann::json::parse(run.out.toStdString(), nullptr, false);
  QVERIFY2(result.is_object(), qPrintable(run.out));
  QCOMPARE(result.at("file").get<std::string>(), file.toStdString());
  QCOMPARE(result.at("backend").get<std::string>(), std::string("cpu"));
  QCOMPARE(result.at("bytes").get<std::int64_t>(), std::int64_t(12288));
  QCOMPARE(result.at("type").get<std::string>(), typeName.toStdString());
  QCOMPARE(result.at("status").get<std::string>(), std::string("verified"));
  QCOMPARE(result.at("redop").get<std::string>(), op.toStdString());
  // 12 KiB (chunks divide it on 2, 3 and 4 ranks) of the element type per rank, every element of
  // every rank's output checked.
  const std::int64_t count = result.at("count").get<std::int64_t>();
  QCOMPARE(count, std::int64_t(12288 / elementBytes));
  QCOMPARE(result.at("wrong").get<std::int64_t>(), std::int64_t(0));
  QCOMPARE(result.at("checked").get<std::int64_t>(), count * ranks);
  QVERIFY(result.at("firstWrong").is_null());
  QVERIFY(result.at("blocked").empty());
  QCOMPARE(result.at("timesUs").size(), std::size_t(2));
  QVERIFY(result.at("meanUs").get<double>() > 0);
  QVERIFY(result.at("algbwGBs").get<double>() > 0);
  // busbw of an all-reduce is algbw · 2(n-1)/n.
  QVERIFY(std::abs(result.at("busbwGBs").get<double>() -
                   result.at("algbwGBs").get<double>() * 2 * (ranks - 1) / ranks) <=
          1e-9 * result.at("algbwGBs").get<double>());
}

void Test_runcli::runText()
{
  const Run run = cstudio({"run", ring(4), "--backend", "cpu", "--bytes", "8K", "--iters", "1"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
  QVERIFY2(run.out.contains("4 ranks on cpu, 8192 bytes (2048 float per rank)"),
           qPrintable(run.out));
  QVERIFY2(run.out.contains("verified: 0 wrong of 8192 elements"), qPrintable(run.out));
  QVERIFY2(QRegularExpression(R"(time [0-9.e+-]+ us \(mean of 1\))").match(run.out).hasMatch(),
           qPrintable(run.out));
}

void Test_runcli::runRejects_data()
{
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<QString>("message");
  QTest::newRow("unknown backend") << QStringList{"--backend", "gpu"} << "--backend";
  QTest::newRow("bad size") << QStringList{"--backend", "cpu", "--bytes", "lots"}
                            << "--bytes lots is not a size";
  QTest::newRow("bad type") << QStringList{"--backend", "cpu", "--dtype", "f8"}
                            << "--dtype f8 is unknown";
  QTest::newRow("threads not a warp multiple")
      << QStringList{"--backend", "cpu", "--threads-per-block", "48"}
      << "48 is not a multiple of 32 (a GPU warp)";
  QTest::newRow("threads past a block")
      << QStringList{"--threads-per-block", "1024"} << "--threads-per-block";
}

void Test_runcli::runRejects()
{
  QFETCH(QStringList, arguments);
  QFETCH(QString, message);
  const Run run = cstudio(QStringList{"run", ring(2)} + arguments);
  QVERIFY2(run.exitCode != 0 && run.exitCode != -1, qPrintable(run.err));
  QVERIFY2(run.err.contains(message), qPrintable(run.err));
  QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
}

void Test_runcli::benchReadAndCheck()
{
  const Run run = cstudio({"bench", ring(2), ring(4), "--repeat", "2"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
  const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 4); // header, one row per file, the footnote
  QVERIFY2(lines[0].contains("parse ms") && lines[0].contains("ratio"), qPrintable(lines[0]));
  // file, steps, parse ms, read ms, ratio, check ms, ratio, goals.
  static const QRegularExpression row(
      R"(ring(\d)\.xml +(\d+) +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+ +[0-9.]+x  \w+)");
  for (int i : {1, 2}) {
    const QRegularExpressionMatch match = row.match(lines[i]);
    QVERIFY2(match.hasMatch(), qPrintable(lines[i]));
    const int ranks = match.captured(1).toInt();
    // A ring all-reduce on n ranks, 2 channels: 2 tbs a rank, 2(n-1)+1 steps each.
    QCOMPARE(match.captured(2).toInt(), ranks * 2 * (2 * (ranks - 1) + 1));
  }
  QVERIFY2(lines[3].startsWith("medians of 2 runs"), qPrintable(lines[3]));
}

void Test_runcli::benchBackendSweep()
{
  const Run run = cstudio({"bench", ring(4), "--backend", "cpu", "--min-bytes", "1K", "--max-bytes",
                           "4K", "--factor", "2"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
  QVERIFY2(run.out.contains(" on cpu, 4 ranks"), qPrintable(run.out));
  static const QRegularExpression row(
      R"(^ +(\d+) +(\d+) +float +sum +(in|out) +[0-9.]+ +[0-9.]+ +[0-9.]+ +(\d+) +[0-9.]+$)",
      QRegularExpression::MultilineOption);
  QList<int> sizes;
  for (auto it = row.globalMatch(run.out); it.hasNext();) {
    const QRegularExpressionMatch match = it.next();
    sizes << match.captured(1).toInt();
    QCOMPARE(match.captured(2).toInt(), match.captured(1).toInt() / 4); // f32 elements
    QCOMPARE(match.captured(4), QString("0"));                          // nothing wrong
  }
  QCOMPARE(sizes, QList<int>({1024, 2048, 4096}));
  QVERIFY2(run.out.contains("% of memcpy bandwidth"), qPrintable(run.out));
}

QTEST_GUILESS_MAIN(Test_runcli)
#include "tst_runcli.moc"
