// The MSCCL XML writer: the runtimes' lexical subset, per-dialect attributes and spellings, and
// exact round trips of every corpus file.

#include "support/corpus.h"

#include "catalogue/ringallreduce.h"
#include "check/checker.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

using namespace cs;

namespace {

bool hasNote(const WriteResult& written, const char* code)
{
  for (const Diagnostic& d : written.notes) {
    if (d.code == code)
      return true;
  }
  return false;
}

/// MSCCL XML as the runtimes see it, for a byte comparison of two files: one element per line,
/// attributes sorted by name, comments, the XML declaration, blank lines and indentation dropped,
/// an empty element spelled as a start and an end tag.
QStringList runtimeView(const QString& text)
{
  static const QRegularExpression comment(R"(<!--.*?-->)",
                                          QRegularExpression::DotMatchesEverythingOption);
  static const QRegularExpression element(R"(^<(/?[A-Za-z]+)(.*?)(/?)>$)");
  static const QRegularExpression attribute("([A-Za-z_]+)=\"([^\"]*)\"");
  QStringList lines;
  for (QString line : QString(text).remove(comment).split('\n')) {
    line = line.trimmed();
    if (line.isEmpty() || line.startsWith("<?xml"))
      continue;
    const QRegularExpressionMatch match = element.match(line);
    if (!match.hasMatch()) {
      lines << line;
      continue;
    }
    QStringList attributes;
    for (auto it = attribute.globalMatch(match.captured(2)); it.hasNext();)
      attributes << it.next().captured(0);
    attributes.sort();
    attributes.prepend(match.captured(1));
    lines << "<" + attributes.join(' ') + ">";
    if (!match.captured(3).isEmpty()) // <tb .../> is <tb ...></tb>
      lines << "</" + match.captured(1) + ">";
  }
  return lines;
}

QString algoLine(const std::string& text)
{
  return QString::fromStdString(text.substr(0, text.find('\n')));
}

} // namespace

class Test_writer : public QObject
{
  Q_OBJECT

private slots:
  void runtimeSubset();
  void corpusRoundTrip_data();
  void corpusRoundTrip();
  void executorExportMakesFilesLoadable_data();
  void executorExportMakesFilesLoadable();
  void collSpellingsPerDialect();
  void customHasNoExecutorSpelling();
  void sizeBoundsKeepTheirMeaning();
  void bothModesForClassic();
  void namesAreSanitised();
  void atomicWrite();
  void streamedWriteIsTheText();
  void declinedWriteKeepsTheFile();
};

void Test_writer::runtimeSubset()
{
  const std::string text = writeMscclXml(makeRingAllReduce({.ranks = 4}), {}).text;
  QVERIFY(!QString::fromStdString(text).contains("<?xml"));
  QVERIFY(!QString::fromStdString(text).contains('\t'));
  QVERIFY(!QString::fromStdString(text).contains('\''));
  const QStringList lines = QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
  // One element per line: 1 algo + 4 × (gpu + tb + 7 steps + /tb + /gpu) + /algo.
  QCOMPARE(lines.size(), 1 + 4 * (1 + 1 + 7 + 1 + 1) + 1);
  static const QRegularExpression stepLine(
      R"(^      <step s="\d+" type="[a-z]+" srcbuf="[ios]" srcoff="-?\d+" dstbuf="[ios]" )"
      R"(dstoff="-?\d+" cnt="\d+" depid="-?\d+" deps="-?\d+" hasdep="[01]"/>$)");
  int steps = 0;
  for (const QString& line : lines) {
    QVERIFY2(!line.contains("  ", Qt::CaseSensitive) || line.startsWith(' '), qPrintable(line));
    if (line.trimmed().startsWith("<step")) {
      QVERIFY2(stepLine.match(line).hasMatch(), qPrintable(line));
      ++steps;
    }
  }
  QCOMPARE(steps, 28);
  // Reading it back gives no lexical complaint at all.
  const ReadResult back = readMscclXml(text);
  QVERIFY2(back.diagnostics.empty(), qPrintable(test::describeDiagnostics(back.diagnostics)));
  QVERIFY(*back.program == makeRingAllReduce({.ranks = 4}));
}

void Test_writer::corpusRoundTrip_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_writer::corpusRoundTrip()
{
  QFETCH(QString, path);
  const Program original = test::loadProgram(path);
  const DialectId readAs = detectDialect(original);
  const WriteResult written = writeMscclXml(original, {readAs});
  const ReadResult back = readMscclXml(written.text);
  QVERIFY(back.program.has_value());
  QVERIFY2(!back.hasErrors(), qPrintable(test::describeDiagnostics(back.diagnostics)));
  QVERIFY(*back.program == original);
  QCOMPARE(detectDialect(*back.program), readAs);
  // Streamed (as cstudio generate writes), the bytes and the notes are the same.
  std::ostringstream streamed;
  const WriteResult piecewise = writeMscclXml(original, {readAs}, streamed);
  QCOMPARE(streamed.str(), written.text);
  QVERIFY(piecewise.text.empty());
  QCOMPARE(piecewise.notes.size(), written.notes.size());
  // Writing the re-read program again is byte-identical: the output is canonical.
  QCOMPARE(writeMscclXml(*back.program, {readAs}).text, written.text);
  // And the written bytes are the file's, but for what no runtime reads (comments, attribute
  // order, layout): no attribute is lost, added or spelled another way.
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(runtimeView(QString::fromStdString(written.text)), runtimeView(file.readAll()));
}

void Test_writer::executorExportMakesFilesLoadable_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles()) {
    const Program program = test::loadProgram(path);
    if (detectDialect(program) == DialectId::Classic && program.collective != Collective::Custom)
      QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
  }
}

void Test_writer::executorExportMakesFilesLoadable()
{
  QFETCH(QString, path);
  const Program original = test::loadProgram(path);
  CheckOptions executor;
  executor.dialect = DialectId::Executor;
  executor.semantic = false;
  // Classic files lack what the executor requires …
  QVERIFY(
      test::hasCode(checkProgram(original, executor), "format.missing-attribute", Severity::Error));
  const WriteResult written = writeMscclXml(original, {DialectId::Executor});
  const QString algo = algoLine(written.text);
  QVERIFY2(algo.contains(" outofplace=\""), qPrintable(algo));
  QVERIFY2(algo.contains(" minBytes=\""), qPrintable(algo));
  QVERIFY2(algo.contains(" maxBytes=\""), qPrintable(algo));
  // The writer says which attributes it had to fill in (outofplace, minBytes, maxBytes).
  int filled = 0;
  for (const Diagnostic& note : written.notes)
    filled += note.code == "export.filled" ? 1 : 0;
  QCOMPARE(filled, (original.outofplace ? 0 : 1) + (original.minBytes ? 0 : 1) +
                       (original.maxBytes ? 0 : 1));
  // … and the exported file has all of it, in the executor's spelling.
  const ReadResult back = readMscclXml(written.text);
  QVERIFY(back.program.has_value());
  QCOMPARE(detectDialect(*back.program), DialectId::Executor);
  const std::vector<Diagnostic> after = checkProgram(*back.program, executor);
  QVERIFY2(!test::hasCode(after, "format.missing-attribute"),
           qPrintable(test::describeDiagnostics(after)));
  QVERIFY2(!test::hasCode(after, "select.coll"), qPrintable(test::describeDiagnostics(after)));
  QCOMPARE(back.program->usableInPlace(), original.usableInPlace());
  QCOMPARE(back.program->usableOutOfPlace(), original.usableOutOfPlace());
  QCOMPARE(back.program->gpus, original.gpus);
}

void Test_writer::collSpellingsPerDialect()
{
  Program program = makeRingAllReduce({.ranks = 2});
  program.collective = Collective::ReduceScatter;
  program.collSpelling = "reducescatter";
  const WriteResult classic = writeMscclXml(program, {DialectId::Classic});
  QVERIFY(algoLine(classic.text).contains("coll=\"reduce_scatter\""));
  // A changed spelling is a decision the writer reports (the program no longer reads back equal).
  QVERIFY(hasNote(classic, "export.coll"));
  const WriteResult rccl = writeMscclXml(program, {DialectId::Rccl});
  QVERIFY(algoLine(rccl.text).contains("coll=\"reducescatter\""));
  QVERIFY(!hasNote(rccl, "export.coll"));
}

void Test_writer::customHasNoExecutorSpelling()
{
  Program program = makeRingAllReduce({.ranks = 2});
  program.collective = Collective::Custom;
  program.collSpelling = "custom";
  const WriteResult written = writeMscclXml(program, {DialectId::Executor});
  QVERIFY(hasNote(written, "export.coll"));
  QVERIFY(!hasNote(writeMscclXml(program, {DialectId::Classic}), "export.coll"));
}

void Test_writer::sizeBoundsKeepTheirMeaning()
{
  // A classic file: maxBytes is an exclusive bound there, inclusive in the executor.
  Program classic = makeRingAllReduce({.ranks = 2});
  classic.outofplace.reset();
  classic.minBytes = 8;
  classic.maxBytes = 409600;
  QVERIFY(algoLine(writeMscclXml(classic, {DialectId::Executor}).text)
              .contains("minBytes=\"8\" maxBytes=\"409599\""));
  QVERIFY(algoLine(writeMscclXml(classic, {DialectId::Classic}).text)
              .contains("minBytes=\"8\" maxBytes=\"409600\""));
  classic.maxBytes.reset(); // the classic runtime's silent 128 MiB cap
  const WriteResult uncapped = writeMscclXml(classic, {DialectId::Executor});
  QVERIFY(algoLine(uncapped.text).contains("maxBytes=\"0\""));
  QVERIFY(hasNote(uncapped, "export.max-bytes"));

  // An executor file: maxBytes 0 means unlimited, which the classic runtime cannot say.
  Program executor = makeRingAllReduce({.ranks = 2});
  executor.maxBytes = 0;
  const WriteResult toClassic = writeMscclXml(executor, {DialectId::Classic});
  QVERIFY(algoLine(toClassic.text).contains("maxBytes=\"2147483647\""));
  QVERIFY(hasNote(toClassic, "export.max-bytes"));
  executor.maxBytes = 1000;
  QVERIFY(
      algoLine(writeMscclXml(executor, {DialectId::Classic}).text).contains("maxBytes=\"1001\""));
}

void Test_writer::bothModesForClassic()
{
  Program program = makeRingAllReduce({.ranks = 2});
  program.outofplace = true;
  const WriteResult written = writeMscclXml(program, {DialectId::Classic});
  QVERIFY(hasNote(written, "export.inplace"));
  QVERIFY(algoLine(written.text).contains("inplace=\"1\""));
  const WriteResult executor = writeMscclXml(program, {DialectId::Executor});
  QVERIFY(algoLine(executor.text).contains("inplace=\"1\" outofplace=\"1\""));
}

void Test_writer::namesAreSanitised()
{
  Program program = makeRingAllReduce({.ranks = 2});
  program.name = "ring \"fast\"\n<v2>";
  const WriteResult written = writeMscclXml(program, {});
  QVERIFY(hasNote(written, "export.name"));
  const ReadResult back = readMscclXml(written.text);
  QVERIFY(!back.hasErrors());
  QCOMPARE(back.program->name, std::string("ring _fast__<v2>"));
  program.name.clear();
  // The classic runtime needs a name: the writer invents one and says so (a file read without a
  // name then reads back with that name, which the fuzz target's round trip must allow).
  const WriteResult classic = writeMscclXml(program, {DialectId::Classic});
  QVERIFY(algoLine(classic.text).contains("name=\"allreduce_2r\""));
  QVERIFY(hasNote(classic, "export.name"));
  const WriteResult executor = writeMscclXml(program, {DialectId::Executor});
  QVERIFY(!algoLine(executor.text).contains("name="));
  QVERIFY(!hasNote(executor, "export.name"));
}

void Test_writer::atomicWrite()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("out.xml");
  QVERIFY(writeTextFileAtomically(path.toStdString(), "first").empty());
  QVERIFY(writeTextFileAtomically(path.toStdString(), "second").empty());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), QByteArray("second"));
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporaries
  const std::string failure =
      writeTextFileAtomically(dir.filePath("missing/out.xml").toStdString(), "x");
  QVERIFY(!failure.empty());
  QVERIFY(QString::fromStdString(failure).contains("missing"));
}

void Test_writer::streamedWriteIsTheText()
{
  // Large enough to be written out in several pieces, with every dialect's attributes.
  const Program program = makeRingAllReduce({.ranks = 96});
  for (const DialectId id : allDialects()) {
    const WriteResult whole = writeMscclXml(program, {id});
    QVERIFY2(whole.text.size() > (std::size_t{2} << 20),
             qPrintable(QString::number(whole.text.size())));
    std::ostringstream streamed;
    const WriteResult piecewise = writeMscclXml(program, {id}, streamed);
    QVERIFY(streamed.str() == whole.text);
    QCOMPARE(piecewise.notes.size(), whole.notes.size());
    QCOMPARE(piecewise.changes.size(), whole.changes.size());
  }
}

void Test_writer::declinedWriteKeepsTheFile()
{
  QTemporaryDir dir;
  const QString path = dir.filePath("out.xml");
  QVERIFY(writeTextFileAtomically(path.toStdString(), "kept").empty());
  const std::string declined = writeFileAtomically(path.toStdString(), [](std::ostream& file) {
    file << "half-written";
    return std::string("the check failed");
  });
  QCOMPARE(QString::fromStdString(declined), QString("the check failed"));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), QByteArray("kept"));
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporaries
}

QTEST_GUILESS_MAIN(Test_writer)
#include "tst_writer.moc"
