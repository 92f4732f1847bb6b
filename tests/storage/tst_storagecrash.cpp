// Reliability across processes: a writer killed with SIGKILL at random moments loses nothing
// that it had reported saved and never damages the file; two writers at once both succeed.

#include "storagetestutil.h"
#include "support/corpus.h"

#include "library.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <map>

using namespace cs;
using namespace cs::storage;

namespace {

// "saved <i> <number>" lines that were completely written: each save that returned.
std::map<int, int> parseSaved(const QByteArray& output)
{
  std::map<int, int> saved; // version number -> writer index
  const QList<QByteArray> lines = output.split('\n');
  for (qsizetype i = 0; i + 1 < lines.size(); ++i) { // the last piece may be cut off
    const QList<QByteArray> parts = lines[i].split(' ');
    if (parts.size() == 3 && parts[0] == "saved")
      saved[parts[2].toInt()] = parts[1].toInt();
  }
  return saved;
}

void createLibrary(const std::string& path)
{
  OpenOptions options;
  options.seed = false;
  Result<Library> library = Library::open(path, options);
  QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
}

} // namespace

class Test_storagecrash : public QObject
{
  Q_OBJECT

private slots:
  void killedWriterLosesNothingReported();
  void twoWritersAtOnce();
};

void Test_storagecrash::killedWriterLosesNothingReported()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("library.sqlite");
  createLibrary(path.toStdString());
  const quint32 seed = QRandomGenerator::global()->generate();
  qInfo("kill moments from seed %u", seed);
  QRandomGenerator random(seed);
  std::map<int, std::string> expected; // version number -> marker of its content
  int killedMidRun = 0;
  for (int round = 0; round < 50; ++round) {
    QProcess writer;
    const QString marker = QString("round%1").arg(round);
    writer.start(STORAGE_WRITER, {path, "victim", marker, "0"});
    QVERIFY(writer.waitForStarted());
    // Even rounds kill at a random moment from the start (opening the library included); odd
    // rounds first wait for one reported save, so kills land among saves however slow the
    // machine (or a sanitizer build) makes start-up. Some land mid-transaction.
    QByteArray output;
    if (round % 2 == 1) {
      while (!output.contains("saved ") && writer.waitForReadyRead(30000))
        output += writer.readAllStandardOutput();
      QVERIFY2(output.contains("saved "), "the writer reported no save within 30 s");
    }
    QThread::usleep(random.bounded(2000, 40000));
    writer.kill(); // SIGKILL
    QVERIFY(writer.waitForFinished());
    killedMidRun += writer.exitStatus() == QProcess::CrashExit ? 1 : 0;
    const QByteArray errors = writer.readAllStandardError();
    QVERIFY2(errors.isEmpty(), errors.constData());
    output += writer.readAllStandardOutput();
    for (const auto& [number, index] : parseSaved(output))
      expected[number] = (marker + "-" + QString::number(index)).toStdString();
  }
  QCOMPARE(killedMidRun, 50);
  qInfo("%zu saves reported before the kills", expected.size());
  QVERIFY2(expected.size() >= 25, "every odd round waits for a reported save before the kill");

  Result<Library> library = Library::open(path.toStdString());
  QVERIFY2(library.ok(), library.ok() ? "" : library.error().message.c_str());
  QCOMPARE(*library->integrityCheck(), std::string("ok"));
  Result<AlgorithmRecord> victim = library->algorithm("victim");
  QVERIFY(victim.ok());
  const std::vector<VersionRecord> history = *library->history(victim->id);
  // Numbers have no gaps: a killed save left nothing half-done behind.
  for (std::size_t i = 0; i < history.size(); ++i)
    QCOMPARE(history[i].number, static_cast<int>(i) + 1);
  for (const auto& [number, marker] : expected) {
    QVERIFY2(number <= static_cast<int>(history.size()), marker.c_str());
    const VersionRecord& version = history[static_cast<std::size_t>(number - 1)];
    QCOMPARE(version.message, marker);
    QVERIFY(library->content(version.id)->xml.find("name=\"" + marker + "\"") != std::string::npos);
  }
}

void Test_storagecrash::twoWritersAtOnce()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("library.sqlite");
  createLibrary(path.toStdString());
  constexpr int kCount = 150;
  QProcess first;
  QProcess second;
  // Both write the same algorithm, so every save contends for the same rows.
  first.start(STORAGE_WRITER, {path, "shared", "first", QString::number(kCount)});
  second.start(STORAGE_WRITER, {path, "shared", "second", QString::number(kCount)});
  QVERIFY(first.waitForFinished(60000));
  QVERIFY(second.waitForFinished(60000));
  QCOMPARE(first.exitCode(), 0);
  QCOMPARE(second.exitCode(), 0);
  QCOMPARE(first.readAllStandardError(), QByteArray());
  QCOMPARE(second.readAllStandardError(), QByteArray());
  const std::map<int, int> a = parseSaved(first.readAllStandardOutput());
  const std::map<int, int> b = parseSaved(second.readAllStandardOutput());
  QCOMPARE(a.size(), std::size_t{kCount});
  QCOMPARE(b.size(), std::size_t{kCount});

  Result<Library> library = Library::open(path.toStdString());
  const std::vector<VersionRecord> history = *library->history(library->algorithm("shared")->id);
  QCOMPARE(history.size(), std::size_t{2 * kCount});
  int fromFirst = 0;
  for (const VersionRecord& version : history) {
    const bool isFirst = version.message.rfind("first-", 0) == 0;
    fromFirst += isFirst ? 1 : 0;
    const std::map<int, int>& reported = isFirst ? a : b;
    QVERIFY(reported.count(version.number) == 1); // each writer got the number it reported
  }
  QCOMPARE(fromFirst, kCount);
  QCOMPARE(*library->integrityCheck(), std::string("ok"));
}

QTEST_GUILESS_MAIN(Test_storagecrash)
#include "tst_storagecrash.moc"
