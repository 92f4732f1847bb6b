// Every corpus file gets the verdict corpus/MANIFEST.md lists, judged by the whole checker:
// the expected column (postcondition, races, the one-slot deadlocks) and the runtime
// compatibility column (what each runtime generation rejects), read from the manifest itself.

#include "support/corpus.h"

#include "check/checker.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

using namespace cs;

namespace {

std::vector<Diagnostic> check(const Program& program, DialectId dialect, int fifoSlots = 2)
{
  CheckOptions options;
  options.dialect = dialect;
  options.fifoSlots = fifoSlots;
  return checkProgram(program, options);
}

QStringList errorCodes(const std::vector<Diagnostic>& diagnostics)
{
  QStringList codes;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error && !codes.contains(QString::fromStdString(d.code)))
      codes << QString::fromStdString(d.code);
  }
  return codes;
}

const Diagnostic* firstWith(const std::vector<Diagnostic>& diagnostics, const char* code)
{
  for (const Diagnostic& d : diagnostics) {
    if (codeInCategory(d.code, code) && d.severity == Severity::Error)
      return &d;
  }
  return nullptr;
}

} // namespace

class Test_corpus : public QObject
{
  Q_OBJECT

private slots:
  void expectedVerdict_data();
  void expectedVerdict();
  void oneSlotDeadlocks_data();
  void oneSlotDeadlocks();
  void runtimeCompatibility_data();
  void runtimeCompatibility();
  void knownBadFilesNameTheProblem();
};

void Test_corpus::expectedVerdict_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("expected");
  const QMap<QString, test::ManifestRow> manifest = test::readManifest();
  QVERIFY(manifest.size() >= 60);
  for (const QString& path : test::corpusFiles()) {
    const QString name = QFileInfo(path).fileName();
    QVERIFY2(manifest.contains(name), qPrintable(name + " is not in MANIFEST.md"));
    QTest::newRow(qPrintable(name)) << path << manifest.value(name).value("expected");
  }
}

void Test_corpus::expectedVerdict()
{
  QFETCH(QString, path);
  QFETCH(QString, expected);
  const Program program = test::loadProgram(path);
  const std::vector<Diagnostic> found = check(program, detectDialect(program));
  const QString report = test::describeDiagnostics(found);

  const bool postFails = expected.contains("post FAIL");
  const bool races = expected.contains("RACE");
  const bool noPostcondition = expected.contains("post n/a");
  QCOMPARE(test::hasCode(found, "postcondition", Severity::Error), postFails);
  QCOMPARE(test::hasCode(found, "race", Severity::Error), races);
  QVERIFY2(!test::hasCode(found, "deadlock", Severity::Error), qPrintable(report));
  QVERIFY2(!test::hasCode(found, "match", Severity::Error), qPrintable(report));
  QVERIFY2(!test::hasCode(found, "dep", Severity::Error), qPrintable(report));
  QVERIFY2(!test::hasCode(found, "structure", Severity::Error), qPrintable(report));
  QCOMPARE(test::hasCode(found, "postcondition.unknown", Severity::Warning), noPostcondition);
  if (postFails) {
    // "post FAIL (64 wrong chunk-slots)": the checker counts the same slots.
    const QRegularExpressionMatch wrong =
        QRegularExpression(R"(post FAIL \((\d+) wrong chunk-slots\))").match(expected);
    QVERIFY(wrong.hasMatch());
    const Diagnostic* post = firstWith(found, "postcondition");
    QVERIFY(post);
    QVERIFY2(QString::fromStdString(post->message).contains(wrong.captured(1) + " of "),
             post->message.c_str());
  }
  if (expected.contains("post PASS") && !races)
    QVERIFY2(errorCodes(found).isEmpty(), qPrintable(report));
}

void Test_corpus::oneSlotDeadlocks_data()
{
  expectedVerdict_data();
}

void Test_corpus::oneSlotDeadlocks()
{
  QFETCH(QString, path);
  QFETCH(QString, expected);
  // "deadlocks if each connection holds only 1 message (needs >=2 slots)"
  const bool needsTwoSlots = expected.contains("needs >=2 slots");
  const Program program = test::loadProgram(path);
  const std::vector<Diagnostic> found = check(program, detectDialect(program), 1);
  QCOMPARE(test::hasCode(found, "deadlock", Severity::Error), needsTwoSlots);
  if (needsTwoSlots) {
    const Diagnostic* deadlock = firstWith(found, "deadlock");
    QVERIFY(deadlock->related.size() >= 2); // a wait-for cycle has at least two positions
    QVERIFY(deadlock->location.rank >= 0 && deadlock->location.tb >= 0 &&
            deadlock->location.step >= 0);
  }
}

void Test_corpus::runtimeCompatibility_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("compatibility");
  const QMap<QString, test::ManifestRow> manifest = test::readManifest();
  for (const QString& path : test::corpusFiles()) {
    const QString name = QFileInfo(path).fileName();
    QTest::newRow(qPrintable(name)) << path << manifest.value(name).value("runtime compatibility");
  }
}

void Test_corpus::runtimeCompatibility()
{
  QFETCH(QString, path);
  QFETCH(QString, compatibility);
  const Program program = test::loadProgram(path);
  const QStringList parts = compatibility.split('|');
  QString oldRuntime, newRuntime;
  for (const QString& part : parts) {
    if (part.trimmed().startsWith("old microsoft/msccl:"))
      oldRuntime = part;
    else if (part.trimmed().startsWith("new executor/RCCL:"))
      newRuntime = part;
  }
  const std::vector<Diagnostic> executor = check(program, DialectId::Executor);
  const std::vector<Diagnostic> classic = check(program, DialectId::Classic);
  const QString executorReport = test::describeDiagnostics(executor);
  const QString classicReport = test::describeDiagnostics(classic);

  // The new executor and RCCL: each missing attribute named, and the coll spelling.
  for (const char* attribute : {"maxBytes", "minBytes", "outofplace"}) {
    const bool listed =
        newRuntime.contains(QString("missing required algo attribute ") + attribute);
    bool reported = false;
    for (const Diagnostic& d : executor) {
      if (d.code == "format.missing-attribute" && d.location.attribute == attribute)
        reported = true;
    }
    QVERIFY2(reported == listed, qPrintable(QString(attribute) + "\n" + executorReport));
  }
  QCOMPARE(test::hasCode(executor, "select.coll", Severity::Error),
           newRuntime.contains("unknown to new runtime"));
  // The classic runtime: coll spelling, maxBytes 0, chunk consistency.
  QCOMPARE(test::hasCode(classic, "select.coll", Severity::Error),
           oldRuntime.contains("unknown to old runtime"));
  // maxBytes="0" is "never selected" unless minBytes is above it: the classic loader checks
  // `if (minBytes > maxBytes) { WARN("MSCCL: minBytes cannot be greater than maxBytes.");` first
  // and refuses the file (the RCCL unit-test rings, minBytes 393216).
  const bool minAboveMax = program.minBytes.value_or(0) > program.maxBytes.value_or(1 << 27);
  QCOMPARE(test::hasCode(classic, "select.never", Severity::Error),
           oldRuntime.contains("never selected") && !minAboveMax);
  QCOMPARE(test::hasCode(classic, "limit.size-bounds", Severity::Error),
           oldRuntime.contains("never selected") && minAboveMax);
  QCOMPARE(test::hasCode(classic, "limit.chunks-per-loop", Severity::Error),
           oldRuntime.contains("inconsistent with nchunksperloop"));
  if (compatibility.contains("loads in both")) {
    for (const DialectId id : {DialectId::Classic, DialectId::Executor}) {
      QVERIFY2(acceptedBy(program, id),
               qPrintable(QString(dialect(id).key.data()) + "\n" +
                          (id == DialectId::Classic ? classicReport : executorReport)));
    }
  }
}

void Test_corpus::knownBadFilesNameTheProblem()
{
  CS_REQUIRE_CORPUS();
  // MANIFEST: "race rank 1 ('i', 0): tb 1 vs tb 0 (write not ordered)"
  const Program forward =
      test::loadProgram(test::corpusPath("alltonext_forward_2x8r_1i_Simple.xml"));
  const std::vector<Diagnostic> found = check(forward, detectDialect(forward));
  const Diagnostic* race = firstWith(found, "race");
  QVERIFY(race);
  QCOMPARE(race->location.rank, 1);
  QVERIFY(race->location.tb == 0 || race->location.tb == 1);
  QCOMPARE(race->related.size(), std::size_t{1});
  QCOMPARE(race->related[0].tb, 1 - race->location.tb);
  QVERIFY2(QString::fromStdString(race->message).contains("i[0]"), race->message.c_str());
  QVERIFY2(QString::fromStdString(race->message).startsWith("in-place"), race->message.c_str());

  const Program hierarchical =
      test::loadProgram(test::corpusPath("allreduce_a100_pcie_hierarchical_4r_1i_LL.xml"));
  const std::vector<Diagnostic> wrong = check(hierarchical, DialectId::Classic);
  const Diagnostic* post = firstWith(wrong, "postcondition");
  QVERIFY(post);
  QCOMPARE(post->location.rank, 0); // the first wrong output chunk is on rank 0
  QVERIFY2(QString::fromStdString(post->message).contains("should hold"), post->message.c_str());
}

QTEST_GUILESS_MAIN(Test_corpus)
#include "tst_corpus.moc"
