// Lifting: every corpus file lifts, and lowering the lifted schedule again (same dialect, same
// protocol) keeps the original's verdict; malformed programs give lift.* diagnostics.

#include "compile/compileutil.h"
#include "support/corpus.h"

#include "catalogue/ringallreduce.h"
#include "check/checker.h"
#include "compile/lift.h"
#include "compile/lower.h"

#include <QFileInfo>
#include <QTest>

#include <set>

using namespace cs;

namespace {

bool hasErrorIn(const std::vector<Diagnostic>& diagnostics, const char* category)
{
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error && codeInCategory(d.code, category))
      return true;
  return false;
}

} // namespace

class Test_lift : public QObject
{
  Q_OBJECT

private slots:
  void corpusRoundTrip_data();
  void corpusRoundTrip();
  void ringProgramLiftsToRingSchedule();
  void deadlockingProgramGetsCompactSteps();
  void malformed_data();
  void malformed();
};

void Test_lift::corpusRoundTrip_data()
{
  QTest::addColumn<QString>("path");
  CS_REQUIRE_CORPUS();
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_lift::corpusRoundTrip()
{
  QFETCH(QString, path);
  const Program original = test::loadProgram(path);
  const DialectId target = detectDialect(original);
  CheckOptions options;
  options.dialect = target;
  const std::vector<Diagnostic> before = checkProgram(original, options);

  const LiftResult lifted = liftProgram(original);
  QVERIFY2(lifted.schedule, qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  const LowerResult lowered = lowerSchedule(*lifted.schedule, {target, original.proto, 1, {}});
  QVERIFY2(lowered.program, qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  const std::vector<Diagnostic> after = checkProgram(*lowered.program, options);

  const bool wrongBefore = hasErrorIn(before, "postcondition");
  QCOMPARE(hasErrorIn(after, "postcondition"), wrongBefore);
  const QString name = QFileInfo(path).fileName();
  if (name.startsWith("allreduce_a100_pcie_hierarchical_") ||
      name.startsWith("pipeline_a100_ring_"))
    QVERIFY(wrongBefore);
  for (const char* category : {"deadlock", "race", "match", "structure", "dependency"}) {
    if (!hasErrorIn(before, category))
      QVERIFY2(!hasErrorIn(after, category),
               qPrintable(QString("%1 errors appeared:\n%2")
                              .arg(category, test::describeDiagnostics(test::errorsOf(after)))));
  }
  QCOMPARE(lowered.program->ngpus, original.ngpus);
  QCOMPARE(lowered.program->proto, original.proto);

  // Every data-moving instruction names an existing transfer that involves its rank, and every
  // message is carried by some instruction (a fused rrc/rrcs's copy of its local operand is a
  // local transfer named by none: the instruction names the message it receives).
  std::set<int> carried;
  for (const InstructionOrigin& origin : lifted.origins) {
    const Transfer* t = lifted.schedule->transfer(origin.transferId);
    QVERIFY(t != nullptr);
    QVERIFY(t->src.rank == origin.rank || t->dst.rank == origin.rank);
    carried.insert(origin.transferId);
  }
  for (const Transfer& t : lifted.schedule->transfers)
    if (!t.isLocal())
      QVERIFY2(carried.contains(t.id), qPrintable(QString("transfer #%1").arg(t.id)));
}

void Test_lift::ringProgramLiftsToRingSchedule()
{
  const Program ring = makeRingAllReduce({4, 1, Protocol::Simple});
  const LiftResult lifted = liftProgram(ring);
  QVERIFY2(lifted.schedule, qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  const Schedule& s = *lifted.schedule;
  // 4 ranks × (3 reduce-scatter + 3 all-gather hops), one hop per step on every rank.
  QCOMPARE(s.transfers.size(), std::size_t(24));
  QCOMPARE(s.stepCount(), 6);
  int reduces = 0;
  for (const Transfer& t : s.transfers) {
    QCOMPARE(t.dst.rank, (t.src.rank + 1) % 4);
    QCOMPARE(t.src.index, t.dst.index);
    QCOMPARE(t.op == TransferOp::Reduce, t.step < 3);
    reduces += t.op == TransferOp::Reduce;
    QCOMPARE(t.pins.channel, std::optional<int>(0));
    QCOMPARE(t.pins.threadblock, std::optional<int>(0));
  }
  QCOMPARE(reduces, 12);

  // Origins: every instruction carries a transfer; a send and the receive it matches carry the
  // same one, whose source is the sender's rank and destination the receiver's.
  QCOMPARE(lifted.origins.size(), std::size_t(4 * 7));
  for (const InstructionOrigin& origin : lifted.origins) {
    const Transfer* t = s.transfer(origin.transferId);
    QVERIFY(t != nullptr);
    const Step& step =
        ring.gpus[std::size_t(origin.rank)].threadblocks[0].steps[std::size_t(origin.step)];
    if (opTraits(step.type).receives)
      QCOMPARE(t->dst.rank, origin.rank);
    else
      QCOMPARE(t->src.rank, origin.rank);
  }
}

void Test_lift::deadlockingProgramGetsCompactSteps()
{
  // Every rank receives before it sends: the first instructions wait for each other in a cycle.
  Program ring = makeRingAllReduce({4, 1, Protocol::Simple});
  for (Gpu& gpu : ring.gpus) {
    std::vector<Step>& steps = gpu.threadblocks[0].steps;
    std::swap(steps[0], steps[1]);
    steps[0].s = 0;
    steps[1].s = 1;
  }
  const LiftResult lifted = liftProgram(ring);
  QVERIFY2(lifted.schedule, qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  QVERIFY(test::hasCode(lifted.diagnostics, "lift.cycle"));
  // The cycle shares one step instead of the relaxation running up to its round limit; the
  // ring's 24 transfers still fit in at most its 6 steps.
  QCOMPARE(lifted.schedule->transfers.size(), std::size_t(24));
  QVERIFY2(lifted.schedule->stepCount() <= 6,
           qPrintable(QString::number(lifted.schedule->stepCount())));
}

void Test_lift::malformed_data()
{
  QTest::addColumn<int>("mutation");
  QTest::addColumn<QString>("code");
  QTest::newRow("receive dropped") << 0 << "lift.unmatched-send";
  QTest::newRow("send dropped") << 1 << "lift.unmatched-receive";
  QTest::newRow("count mismatch") << 2 << "lift.count-mismatch";
  QTest::newRow("offset out of range") << 3 << "lift.operand";
  QTest::newRow("gpu missing") << 4 << "lift.structure";
  QTest::newRow("peer out of range") << 5 << "lift.structure";
  QTest::newRow("two senders on a connection") << 6 << "lift.connection";
}

void Test_lift::malformed()
{
  QFETCH(int, mutation);
  QFETCH(QString, code);
  Program p = makeRingAllReduce({4, 1, Protocol::Simple});
  ThreadBlock& tb1 = p.gpus[1].threadblocks[0];
  switch (mutation) {
  case 0:
    tb1.steps.pop_back();
    break; // the final r
  case 1:
    p.gpus[0].threadblocks[0].steps.erase(p.gpus[0].threadblocks[0].steps.begin());
    break;
  case 2:
    tb1.steps[0].cnt = 2;
    break;
  case 3:
    tb1.steps[0].srcOff = 40;
    break;
  case 4:
    p.gpus.pop_back();
    break;
  case 5:
    tb1.send = 7;
    break;
  case 6: {
    ThreadBlock extra = tb1;
    extra.id = 1;
    extra.recv = -1;
    p.gpus[1].threadblocks.push_back(extra);
    break;
  }
  }
  const LiftResult lifted = liftProgram(p);
  QVERIFY(!lifted.schedule);
  QVERIFY2(test::hasCode(lifted.diagnostics, qPrintable(code), Severity::Error),
           qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  QVERIFY(!liftProgram(Program{}).schedule);
}

QTEST_GUILESS_MAIN(Test_lift)
#include "tst_lift.moc"
