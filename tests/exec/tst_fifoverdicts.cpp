// One FIFO depth (model/fifodepth.h), three models of it: the simulator, the checker's deadlock
// pass and the CPU executor's connections give the same deadlock verdict on every corpus file
// when a connection holds 1 or 2 messages.

#include "support/corpus.h"

#include "check/checker.h"
#include "exec/executor.h"
#include "io/mscclxmlreader.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <QFileInfo>
#include <QTest>

#include <algorithm>

using namespace cs;

namespace {

bool has(const std::vector<Diagnostic>& diagnostics, const std::string& code)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

/// A small size every chunk count divides: one slice of every protocol, 1 KiB float chunks.
std::int64_t smallSize(const Program& program)
{
  return std::int64_t{program.nchunksperloop} * 1024;
}

} // namespace

class TestFifoVerdicts : public QObject
{
  Q_OBJECT

private slots:
  void verdictsAgree_data()
  {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("depth");
    CS_REQUIRE_CORPUS();
    for (const QString& path : test::corpusFiles()) {
      for (const int depth : {1, 2})
        QTest::addRow("%s, %d", qPrintable(QFileInfo(path).fileName()), depth) << path << depth;
    }
  }

  void verdictsAgree()
  {
    QFETCH(QString, path);
    QFETCH(int, depth);
    const ReadResult read = readMscclXmlFile(path.toStdString());
    QVERIFY(read.program);
    const Program& program = *read.program;

    CheckOptions check;
    check.fifoSlots = depth;
    const std::vector<Diagnostic> checked = checkProgram(program, check);
    if (has(checked, "check.semantic-skipped") || has(checked, "check.too-large"))
      QSKIP("the checker does not judge this file's deadlocks");
    const bool checkerDeadlocks = has(checked, "deadlock");

    SimOptions sim;
    sim.bytes = smallSize(program);
    sim.fifoSlots = depth;
    sim.recordEvents = false;
    sim.recordUtilisation = false;
    const Topology topology =
        *makePresetTopology("fully-connected-" + std::to_string(program.ngpus));
    const SimResult simulated = simulateProgram(program, topology, sim);
    QCOMPARE(has(simulated.diagnostics, "sim.deadlock"), checkerDeadlocks);

    ExecOptions exec;
    exec.bytes = smallSize(program);
    exec.connectionSlots = depth;
    exec.timeoutSeconds = 1.0;
    const ExecResult executed = makeExecutor("cpu")->run(program, exec);
    if (executed.status == ExecStatus::Failed)
      QSKIP(qPrintable(QString("the CPU executor cannot run it: ") +
                       test::describeDiagnostics(executed.diagnostics)));
    QCOMPARE(executed.status == ExecStatus::Hung, checkerDeadlocks);
  }
};

QTEST_GUILESS_MAIN(TestFifoVerdicts)
#include "tst_fifoverdicts.moc"
