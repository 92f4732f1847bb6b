// What loads but hurts at run time (issue 16 item 5), with the verdict per dialect:
//
// - limit.scratch-size: the classic runtime sizes its scratch buffer when it loads the file, for
//   the largest size the algorithm may be selected for (msccl-format.md §2.2: "Scratch bytes =
//   total_bytes × s_chunks / nchunksperloop (OLD sizes it at init from maxBytes, init.cc
//   809-835; NEW grows it per call, msccl_setup.cc 66-75)"). The catalogue's 8-rank Bruck
//   all-to-all exported for classic with maxBytes=2147483647 has s_chunks=16, nchunksperloop=8:
//   4 GiB per rank. `export --max-bytes` caps it. The executors warn about nothing here.
// - a misspelled coll: the executors' parser fails on the file and, parsing every file in
//   MSCCL_ALGO_DIR, MSCCL initialisation fails (msccl-format pitfall P1): the reader's error
//   says so and offers the nearest spelling.
// - limit.protocol: RCCL has LL128 only on the GPUs its build enables it for (warning on rccl
//   only; the NCCL-based runtimes build every protocol).

#include "support/cli.h"
#include "support/files.h"

#include "check/checker.h"
#include "io/mscclxmlreader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cs;

namespace {

const Diagnostic* find(const std::vector<Diagnostic>& found, const std::string& code)
{
  for (const Diagnostic& d : found) {
    if (d.code == code)
      return &d;
  }
  return nullptr;
}

std::vector<Diagnostic> staticCheck(const Program& program, DialectId id)
{
  return checkProgram(program,
                      {.dialect = id, .fifoSlots = 2, .root = {}, .semantic = false, .gpu = {}});
}

} // namespace

class Test_runtimecosts : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void scratchForTheLargestSize();
  void exportCapsTheScratch();
  void misspelledCollSaysWhatTheExecutorDoes();
  void nearestSpelling();
  void protocolTheBuildMayLack();

private:
  Program readBack(const QString& path);
  QTemporaryDir m_dir;
  QString m_bruck; ///< the catalogue's 8-rank Bruck all-to-all, executor dialect
};

void Test_runtimecosts::initTestCase()
{
  QVERIFY(m_dir.isValid());
  m_bruck = m_dir.filePath("bruck.xml");
  QCOMPARE(test::cstudio({"generate", "bruck-alltoall", "--ranks", "8", "-o", m_bruck}).exitCode,
           0);
}

Program Test_runtimecosts::readBack(const QString& path)
{
  ReadResult read = readMscclXmlFile(path.toStdString());
  if (!read.program || read.hasErrors())
    qFatal("cannot read %s", qPrintable(path));
  return std::move(*read.program);
}

void Test_runtimecosts::scratchForTheLargestSize()
{
  const QString classic = m_dir.filePath("bruck-classic.xml");
  QCOMPARE(test::cstudio({"export", m_bruck, "-o", classic, "--dialect", "classic"}).exitCode, 0);
  Program program = readBack(classic);
  QCOMPARE(program.maxBytes, std::optional<std::int64_t>(2147483647));
  const std::vector<Diagnostic> found = staticCheck(program, DialectId::Classic);
  const Diagnostic* scratch = find(found, "limit.scratch-size");
  QVERIFY(scratch);
  QCOMPARE(scratch->severity, Severity::Warning);
  QVERIFY2(scratch->message.find("= 4.00 GiB on rank") != std::string::npos &&
               scratch->message.find("--max-bytes") != std::string::npos,
           scratch->message.c_str());
  // The executors grow scratch per call: nothing reserved up front.
  QVERIFY(!find(staticCheck(program, DialectId::Executor), "limit.scratch-size"));
  // 64 MiB calls need 128 MiB of scratch: not worth a warning.
  program.maxBytes = (std::int64_t{64} << 20) + 1;
  QVERIFY(!find(staticCheck(program, DialectId::Classic), "limit.scratch-size"));
}

void Test_runtimecosts::exportCapsTheScratch()
{
  const QString uncapped = m_dir.filePath("uncapped.xml");
  const test::CliRun warned =
      test::cstudio({"export", m_bruck, "-o", uncapped, "--dialect", "classic"});
  QCOMPARE(warned.exitCode, 0);
  QVERIFY2(warned.err.contains("warning: ") && warned.err.contains("[limit.scratch-size]"),
           qPrintable(warned.err));
  const QString capped = m_dir.filePath("capped.xml");
  const test::CliRun run = test::cstudio(
      {"export", m_bruck, "-o", capped, "--dialect", "classic", "--max-bytes", "64M"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(!run.err.contains("limit.scratch-size"), qPrintable(run.err));
  QVERIFY2(run.err.contains("maxBytes 2147483647 -> 67108865"), qPrintable(run.err));
  // Exclusive for classic: 64 MiB calls are still selected, larger ones not.
  QCOMPARE(readBack(capped).maxBytes, std::optional<std::int64_t>((std::int64_t{64} << 20) + 1));
  const QString executor = m_dir.filePath("capped-executor.xml");
  QCOMPARE(test::cstudio({"export", m_bruck, "-o", executor, "--max-bytes", "64M"}).exitCode, 0);
  QCOMPARE(readBack(executor).maxBytes, std::optional<std::int64_t>(std::int64_t{64} << 20));
  QCOMPARE(test::cstudio({"export", m_bruck, "-o", executor, "--max-bytes", "lots"}).exitCode, 2);
}

void Test_runtimecosts::misspelledCollSaysWhatTheExecutorDoes()
{
  QByteArray text = test::readFile(m_bruck);
  text.replace("coll=\"alltoall\"", "coll=\"alltoal\"");
  const ReadResult read = readMscclXml(text.toStdString());
  const Diagnostic* bad = find(read.diagnostics, "format.bad-value");
  QVERIFY(bad);
  QCOMPARE(bad->severity, Severity::Error);
  QVERIFY2(bad->message.find("did you mean \"alltoall\"?") != std::string::npos &&
               bad->message.find("fail MSCCL initialisation at start-up") != std::string::npos,
           bad->message.c_str());
  // Spelled for the classic runtime: the executor's select.coll says it fails at start-up too.
  Program program = readBack(m_bruck);
  program.collSpelling = "reduce_scatter";
  program.collective = Collective::ReduceScatter;
  const std::vector<Diagnostic> found = staticCheck(program, DialectId::Executor);
  const Diagnostic* coll = find(found, "select.coll");
  QVERIFY(coll);
  QVERIFY2(coll->message.find("MSCCL initialisation fails") != std::string::npos,
           coll->message.c_str());
}

void Test_runtimecosts::nearestSpelling()
{
  QCOMPARE(nearestCollSpelling("AllReduce"), std::optional<std::string_view>("allreduce"));
  QCOMPARE(nearestCollSpelling("alltoal"), std::optional<std::string_view>("alltoall"));
  QCOMPARE(nearestCollSpelling("reduce-scatter"),
           std::optional<std::string_view>("reduce_scatter"));
  QCOMPARE(nearestCollSpelling("matmul"), std::optional<std::string_view>());
  QCOMPARE(nearestCollSpelling(std::string(1000, 'a')), std::optional<std::string_view>());
}

void Test_runtimecosts::protocolTheBuildMayLack()
{
  Program program = readBack(m_bruck);
  program.proto = Protocol::LL128;
  const std::vector<Diagnostic> found = staticCheck(program, DialectId::Rccl);
  const Diagnostic* rccl = find(found, "limit.protocol");
  QVERIFY(rccl);
  QCOMPARE(rccl->severity, Severity::Warning);
  QVERIFY(!find(staticCheck(program, DialectId::Executor), "limit.protocol"));
  QVERIFY(!find(staticCheck(program, DialectId::Classic), "limit.protocol"));
  program.proto = Protocol::LL;
  QVERIFY(!find(staticCheck(program, DialectId::Rccl), "limit.protocol"));
}

QTEST_GUILESS_MAIN(Test_runtimecosts)
#include "tst_runtimecosts.moc"
