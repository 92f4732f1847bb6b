// `cstudio export` says what it changed (issue 16 item 6): every <algo> value converted, filled in
// or dropped for the target runtime, in its log and in --json; an attribute no runtime reads that
// the target's parser would not keep is dropped with a warning and the file is written (exit 0);
// a refused export prints no "written as" note for a file it did not write.
//
// The runtime lines mirrored: the classic selection keeps `nbytes < mscclAlgo->maxBytes`
// (exclusive), the executor `nBytes <= maxBytes` (inclusive; msccl-format.md §4.6), hence
// maxBytes 409600 -> 409599; the runtimes' XML reader keeps at most 16 attributes per element
// (msccl_parser.h, MAX_ATTR_COUNT; msccl-format.md §1), hence the 17th dropped.

#include "support/cli.h"
#include "support/files.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

namespace {

// A classic ring all-reduce (no outofplace) for 4 ranks with an exclusive maxBytes.
Program classicRing()
{
  Program program = makeRingAllReduce({.ranks = 4, .channels = 1, .protocol = Protocol::Simple});
  program.name = "ring";
  program.outofplace.reset();
  program.minBytes = 0;
  program.maxBytes = 409600;
  return program;
}

QJsonObject findChange(const QJsonObject& report, const QString& attribute)
{
  for (const QJsonValue change : report["changes"].toArray()) {
    if (change["attribute"].toString() == attribute)
      return change.toObject();
  }
  return {};
}

} // namespace

class Test_exportchanges : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase() { QVERIFY(m_dir.isValid()); }
  void writerRecordsEveryChangeAsANote();
  void logListsConvertedValues();
  void jsonListsConvertedValues();
  void unreadAttributePastTheLimitIsDropped();
  void refusedExportPrintsNoWrittenNotes();

private:
  QString write(const QString& name, const Program& program, DialectId dialect);
  QTemporaryDir m_dir;
};

QString Test_exportchanges::write(const QString& name, const Program& program, DialectId dialect)
{
  const QString path = m_dir.filePath(name);
  if (!test::writeFile(path, QByteArray::fromStdString(writeMscclXml(program, {dialect}).text)))
    qFatal("cannot write %s", qPrintable(path));
  return path;
}

void Test_exportchanges::writerRecordsEveryChangeAsANote()
{
  const WriteResult written = writeMscclXml(classicRing(), {DialectId::Executor});
  QCOMPARE(written.changes.size(), std::size_t{2}); // outofplace filled, maxBytes made inclusive
  for (const ValueChange& change : written.changes) {
    const std::string line = describeChange(change);
    QVERIFY2(std::any_of(written.notes.begin(), written.notes.end(),
                         [&](const Diagnostic& d) { return d.message.starts_with(line); }),
             line.c_str());
  }
  QCOMPARE(describeChange(written.changes.back()), std::string("maxBytes 409600 -> 409599"));
  // Back to classic: inclusive 1000 is exclusive 1001, and outofplace is not written.
  Program executor = classicRing();
  executor.outofplace = true;
  executor.maxBytes = 1000;
  const WriteResult toClassic = writeMscclXml(executor, {DialectId::Classic});
  QStringList lines;
  for (const ValueChange& change : toClassic.changes)
    lines << QString::fromStdString(describeChange(change));
  QCOMPARE(lines, (QStringList{"outofplace 1 -> (dropped)", "maxBytes 1000 -> 1001"}));
}

void Test_exportchanges::logListsConvertedValues()
{
  const QString input = write("classic.xml", classicRing(), DialectId::Classic);
  const test::CliRun run = test::cstudio(
      {"export", input, "-o", m_dir.filePath("executor.xml"), "--dialect", "executor"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.err.contains("info: maxBytes 409600 -> 409599: ") &&
               run.err.contains("[export.max-bytes]") &&
               run.err.contains("info: outofplace (absent) -> 0: "),
           qPrintable(run.err));
  QVERIFY2(run.out.contains("2 values changed"), qPrintable(run.out));
}

void Test_exportchanges::jsonListsConvertedValues()
{
  const QString input = write("classic-json.xml", classicRing(), DialectId::Classic);
  const test::CliRun run = test::cstudio(
      {"export", input, "-o", m_dir.filePath("executor-json.xml"), "--dialect", "rccl", "--json"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject report = QJsonDocument::fromJson(run.out.toUtf8()).object();
  QCOMPARE(report["written"].toBool(), true);
  const QJsonObject maxBytes = findChange(report, "maxBytes");
  QCOMPARE(maxBytes["from"].toString(), QString("409600"));
  QCOMPARE(maxBytes["to"].toString(), QString("409599"));
  const QJsonObject outofplace = findChange(report, "outofplace");
  QVERIFY(outofplace["from"].isNull());
  QCOMPARE(outofplace["to"].toString(), QString("0"));
  QCOMPARE(report["errors"].toArray().size(), 0);
}

// A classic file with 16 <algo> attributes, 7 of them read by no runtime: the executor needs
// outofplace too, which would make 17. The last unread one is dropped, with a warning, exit 0.
void Test_exportchanges::unreadAttributePastTheLimitIsDropped()
{
  Program program = classicRing();
  for (int i = 1; i <= 7; ++i)
    program.extraAttributes.push_back({"extra" + std::to_string(i), std::to_string(i)});
  const QString input = write("many.xml", program, DialectId::Classic);
  const QString output = m_dir.filePath("many-executor.xml");
  const test::CliRun run = test::cstudio({"export", input, "-o", output, "--json"});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject dropped =
      findChange(QJsonDocument::fromJson(run.out.toUtf8()).object(), "extra7");
  QCOMPARE(dropped["severity"].toString(), QString("warning"));
  QVERIFY(dropped["to"].isNull());
  const QByteArray text = test::readFile(output);
  const QByteArray algo = text.left(text.indexOf('\n'));
  QCOMPARE(QString(algo).count(QRegularExpression(" \\w+=\"")), 16);
  QVERIFY(!algo.contains("extra7") && algo.contains("extra6=\"6\""));
  QCOMPARE(test::cstudio({"validate", "--dialect", "executor", output}).exitCode, 0);
}

// nthreads=48 is refused by the classic loader: nothing is written, and the notes of the
// conversion (which describe the file that would have been written) are not printed.
void Test_exportchanges::refusedExportPrintsNoWrittenNotes()
{
  Program program = classicRing();
  program.outofplace = false;
  program.nthreads = 48;
  const QString input = write("refused.xml", program, DialectId::Executor);
  const QString output = m_dir.filePath("refused-classic.xml");
  const test::CliRun run = test::cstudio({"export", input, "-o", output, "--dialect", "classic"});
  QCOMPARE(run.exitCode, 1);
  QVERIFY(!QFile::exists(output));
  QVERIFY2(run.err.contains("[limit.nthreads]"), qPrintable(run.err));
  QVERIFY2(!run.err.contains("->") && !run.err.contains("[export."), qPrintable(run.err));
  const test::CliRun json =
      test::cstudio({"export", input, "-o", output, "--dialect", "classic", "--json"});
  QCOMPARE(json.exitCode, 1);
  const QJsonObject report = QJsonDocument::fromJson(json.out.toUtf8()).object();
  QCOMPARE(report["written"].toBool(), false);
  QVERIFY(!report["errors"].toArray().isEmpty());
}

QTEST_GUILESS_MAIN(Test_exportchanges)
#include "tst_exportchanges.moc"
