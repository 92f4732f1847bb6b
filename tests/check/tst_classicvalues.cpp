// <algo> values the classic runtime (microsoft/msccl, NCCL 2.12 based) refuses or reads its own
// way (issue 16, item 4), judged by the checker per dialect and refused by `cstudio export`.
//
// The classic loader, mscclGetAlgoFromXmlFile in microsoft/msccl src/graph/topo.cc (msccl-format.md
// §0, OLD, parser lines 708-1280), refuses the whole file with ncclInvalidUsage on
//   if ((nThreads % WARP_SIZE) != 0){ WARN("MSCCL nthreads must be a multiplication of %d", ...
//   if (minBytes > maxBytes) { WARN("MSCCL: minBytes cannot be greater than maxBytes."); ...
//   if (minBytes < 0) { WARN("MSCCL: minBytes cannot be negative."); ...
//   if (maxBytes < 0) { WARN("MSCCL: maxBytes cannot be negative."); ...
// in that order, with an absent maxBytes read as 1 << 27 (so a negative maxBytes is always
// refused by the first check: minBytes <= maxBytes < 0 makes minBytes negative too)
// (C's remainder: -40 % 32 is -8, refused; -64 % 32 is 0, accepted). It then uses nthreads only
// when it is positive, as min(comm->maxThreads[MSCCL][proto], nthreads) (src/enqueue.cc,
// getAlgoInfo: `if (mscclAlgoNthreads > 0){ nt = std::min(nt, mscclAlgoNthreads); }`), so a
// negative multiple of 32 is ignored and a larger one capped (NCCL 2.12 devcomm.h:
// NCCL_SIMPLE_MAX_NTHREADS and NCCL_LL_MAX_NTHREADS 512, NCCL_LL128_MAX_NTHREADS 640): warnings.
// The executor runtimes do not read nthreads and compare sizes without refusing negative ones.

#include "support/cli.h"

#include "catalogue/ringallreduce.h"
#include "check/checker.h"
#include "io/mscclxmlwriter.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace cs;

Q_DECLARE_METATYPE(cs::DialectId)
Q_DECLARE_METATYPE(cs::Protocol)
Q_DECLARE_METATYPE(std::optional<cs::Severity>)

namespace {

// A classic ring all-reduce that every runtime loads: name and size bounds written out.
Program classicRing(Protocol protocol = Protocol::Simple)
{
  Program program = makeRingAllReduce({.ranks = 4, .channels = 1, .protocol = protocol});
  program.name = "ring";
  program.minBytes = 0;
  program.maxBytes = 1 << 20;
  program.outofplace = false;
  return program;
}

// The severity of the diagnostic with `code`, if the checker reports one (at most one expected).
std::optional<Severity> severityOf(const Program& program, DialectId dialect, const char* code,
                                   std::string* message = nullptr)
{
  const std::vector<Diagnostic> found = checkProgram(
      program, {.dialect = dialect, .fifoSlots = 2, .root = {}, .semantic = false, .gpu = {}});
  std::optional<Severity> severity;
  int count = 0;
  for (const Diagnostic& d : found) {
    if (d.code != code)
      continue;
    ++count;
    severity = d.severity;
    if (message)
      *message = d.message;
  }
  if (count > 1)
    return std::nullopt; // reported twice: the row's expectation fails loudly below
  return severity;
}

} // namespace

class Test_classicvalues : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void threads_data();
  void threads();
  void sizeBounds_data();
  void sizeBounds();
  void validateSaysWhy();
  void exportRefusesToWrite_data();
  void exportRefusesToWrite();

private:
  QTemporaryDir m_dir;
};

void Test_classicvalues::initTestCase()
{
  QVERIFY(m_dir.isValid());
  // The base program is clean for every dialect: each row below changes one value.
  const Program ring = classicRing();
  for (const DialectId id : allDialects()) {
    const std::vector<Diagnostic> found = checkProgram(
        ring, {.dialect = id, .fifoSlots = 2, .root = {}, .semantic = false, .gpu = {}});
    QVERIFY(std::none_of(found.begin(), found.end(),
                         [](const Diagnostic& d) { return d.severity == Severity::Error; }));
  }
}

void Test_classicvalues::threads_data()
{
  QTest::addColumn<DialectId>("dialect");
  QTest::addColumn<Protocol>("protocol");
  QTest::addColumn<int>("nthreads");
  QTest::addColumn<std::optional<Severity>>("expected"); // of limit.nthreads
  const std::optional<Severity> none;
  const DialectId classic = DialectId::Classic;
  QTest::newRow("256") << classic << Protocol::Simple << 256 << none;
  QTest::newRow("0, the default") << classic << Protocol::Simple << 0 << none;
  QTest::newRow("512, Simple's limit") << classic << Protocol::Simple << 512 << none;
  QTest::newRow("48 refused") << classic << Protocol::Simple << 48
                              << std::optional(Severity::Error);
  QTest::newRow("31 refused") << classic << Protocol::LL << 31 << std::optional(Severity::Error);
  QTest::newRow("-40 refused") << classic << Protocol::Simple << -40
                               << std::optional(Severity::Error);
  QTest::newRow("-64 ignored") << classic << Protocol::Simple << -64
                               << std::optional(Severity::Warning);
  QTest::newRow("544 capped for Simple")
      << classic << Protocol::Simple << 544 << std::optional(Severity::Warning);
  QTest::newRow("544 capped for LL")
      << classic << Protocol::LL << 544 << std::optional(Severity::Warning);
  QTest::newRow("640, LL128's limit") << classic << Protocol::LL128 << 640 << none;
  QTest::newRow("672 capped for LL128")
      << classic << Protocol::LL128 << 672 << std::optional(Severity::Warning);
  QTest::newRow("executor does not read it")
      << DialectId::Executor << Protocol::Simple << 48 << none;
  QTest::newRow("rccl does not read it") << DialectId::Rccl << Protocol::Simple << 48 << none;
}

void Test_classicvalues::threads()
{
  QFETCH(DialectId, dialect);
  QFETCH(Protocol, protocol);
  QFETCH(int, nthreads);
  QFETCH(std::optional<Severity>, expected);
  Program program = classicRing(protocol);
  program.nthreads = nthreads;
  std::string message;
  QCOMPARE(severityOf(program, dialect, "limit.nthreads", &message), expected);
  if (expected)
    QVERIFY2(message.find("nthreads=" + std::to_string(nthreads)) != std::string::npos,
             message.c_str());
}

void Test_classicvalues::sizeBounds_data()
{
  QTest::addColumn<DialectId>("dialect");
  QTest::addColumn<qint64>("minBytes");
  QTest::addColumn<qint64>("maxBytes");
  QTest::addColumn<QString>("refused"); // the classic loader's message, or empty
  QTest::newRow("0 to 1 MiB") << DialectId::Classic << qint64(0) << qint64(1 << 20) << "";
  QTest::newRow("negative minBytes")
      << DialectId::Classic << qint64(-1) << qint64(1 << 20) << "minBytes cannot be negative";
  QTest::newRow("negative maxBytes") << DialectId::Classic << qint64(0) << qint64(-4096)
                                     << "minBytes cannot be greater than maxBytes";
  QTest::newRow("minBytes above maxBytes") << DialectId::Classic << qint64(8192) << qint64(4096)
                                           << "minBytes cannot be greater than maxBytes";
  QTest::newRow("minBytes equal to maxBytes: loads, never selected")
      << DialectId::Classic << qint64(4096) << qint64(4096) << "";
  QTest::newRow("executor, negative minBytes")
      << DialectId::Executor << qint64(-1) << qint64(1 << 20) << "";
  QTest::newRow("executor, minBytes above maxBytes")
      << DialectId::Executor << qint64(8192) << qint64(4096) << "";
}

void Test_classicvalues::sizeBounds()
{
  QFETCH(DialectId, dialect);
  QFETCH(qint64, minBytes);
  QFETCH(qint64, maxBytes);
  QFETCH(QString, refused);
  Program program = classicRing();
  program.minBytes = minBytes;
  program.maxBytes = maxBytes;
  std::string message;
  const std::optional<Severity> severity =
      severityOf(program, dialect, "limit.size-bounds", &message);
  if (refused.isEmpty()) {
    QCOMPARE(severity, std::optional<Severity>());
    return;
  }
  QCOMPARE(severity, std::optional(Severity::Error));
  QVERIFY2(message.find(refused.toStdString()) != std::string::npos, message.c_str());
}

// The command line says what the runtime will say, with the line of <algo>.
void Test_classicvalues::validateSaysWhy()
{
  Program program = classicRing();
  program.nthreads = 48;
  program.minBytes = -1;
  const QString file = m_dir.filePath("refused.xml");
  QVERIFY(test::writeFile(
      file, QByteArray::fromStdString(writeMscclXml(program, {DialectId::Classic}).text)));
  const test::CliRun classic = test::cstudio({"validate", "--dialect", "classic", file});
  QCOMPARE(classic.exitCode, 1);
  QVERIFY2(classic.out.contains("refused.xml:1: error: nthreads=48 is not a multiple of 32") &&
               classic.out.contains("[limit.nthreads]") &&
               classic.out.contains("minBytes=-1 is negative") &&
               classic.out.contains("[limit.size-bounds]"),
           qPrintable(classic.out));
  // The executor runtimes load the same file: neither value is an error there.
  const test::CliRun executor = test::cstudio({"validate", "--dialect", "executor", file});
  QVERIFY2(!executor.out.contains("limit.nthreads") && !executor.out.contains("limit.size-bounds"),
           qPrintable(executor.out));
}

void Test_classicvalues::exportRefusesToWrite_data()
{
  QTest::addColumn<QString>("attribute");
  QTest::addColumn<QString>("value");
  QTest::addColumn<int>("exitCode");
  QTest::newRow("nthreads 256") << "nthreads"
                                << "256" << 0;
  QTest::newRow("nthreads 48") << "nthreads"
                               << "48" << 1;
  QTest::newRow("minBytes -1") << "minBytes"
                               << "-1" << 1;
}

// An executor file carrying a value the classic runtime refuses: exporting it for classic writes
// nothing and says why (a file the runtime skips is worse than none).
void Test_classicvalues::exportRefusesToWrite()
{
  QFETCH(QString, attribute);
  QFETCH(QString, value);
  QFETCH(int, exitCode);
  Program program = classicRing();
  program.outofplace = false;
  if (attribute == "nthreads")
    program.nthreads = value.toInt();
  else
    program.minBytes = value.toLongLong();
  const QString input = m_dir.filePath("in-" + attribute + value + ".xml");
  QVERIFY(test::writeFile(
      input, QByteArray::fromStdString(writeMscclXml(program, {DialectId::Executor}).text)));
  const QString output = m_dir.filePath("out-" + attribute + value + ".xml");
  const test::CliRun run = test::cstudio({"export", input, "-o", output, "--dialect", "classic"});
  QCOMPARE(run.exitCode, exitCode);
  QCOMPARE(QFile::exists(output), exitCode == 0);
  if (exitCode != 0) {
    QVERIFY2(run.out.contains("not written: the classic") && run.out.contains("would reject"),
             qPrintable(run.out));
    QVERIFY2(run.err.contains(attribute + "=" + value), qPrintable(run.err));
  }
}

QTEST_GUILESS_MAIN(Test_classicvalues)
#include "tst_classicvalues.moc"
