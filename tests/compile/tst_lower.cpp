// Lowering: what it emits for correct schedules passes the whole checker, fuses ring chains the
// way msccl-tools does, stays inside the runtimes' limits, maps steps back to transfers, lifts
// back to the same transfers, and refuses broken schedules with lower.* diagnostics.

#include "compile/compileutil.h"
#include "compile/schedules.h"
#include "support/corpus.h"

#include "check/checker.h"
#include "compile/lift.h"
#include "compile/lower.h"

#include <QTest>

#include <functional>

using namespace cs;

namespace {

using Builder = std::function<Schedule(int)>;

Builder builder(const QString& kind)
{
  if (kind == "ring-allreduce")
    return test::ringAllReduceSchedule;
  if (kind == "ring-allgather")
    return test::ringAllGatherSchedule;
  if (kind == "direct-alltoall")
    return test::directAllToAllSchedule;
  return test::scratchAllReduceSchedule;
}

void addDesignRows()
{
  QTest::addColumn<QString>("kind");
  QTest::addColumn<int>("ranks");
  for (const char* kind :
       {"ring-allreduce", "ring-allgather", "direct-alltoall", "scratch-allreduce"})
    for (int n : {2, 3, 4, 5, 8})
      QTest::addRow("%s-%d", kind, n) << QString(kind) << n;
}

Program lowerOrFail(const Schedule& schedule, const LowerOptions& options)
{
  const LowerResult lowered = lowerSchedule(schedule, options);
  if (!lowered.program || !test::errorsOf(lowered.diagnostics).empty())
    qWarning("%s", qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  return lowered.program.value_or(Program{});
}

std::vector<OpType> typesOf(const ThreadBlock& tb)
{
  std::vector<OpType> types;
  for (const Step& s : tb.steps)
    types.push_back(s.type);
  return types;
}

} // namespace

class Test_lower : public QObject
{
  Q_OBJECT

private slots:
  void passesChecker_data() { addDesignRows(); }
  void passesChecker();
  void liftGivesBackTheTransfers_data() { addDesignRows(); }
  void liftGivesBackTheTransfers();
  void ringFusesLikeMscclTools();
  void classicAttributes();
  void stepLimitSpreadsOverChannels();
  void instances();
  void twoMessagesPerStep_data();
  void twoMessagesPerStep();
  void originsNameTheTransfer();
  void sparseSlotsFuseAlike();
  void brokenSchedules_data();
  void brokenSchedules();
};

void Test_lower::passesChecker()
{
  QFETCH(QString, kind);
  QFETCH(int, ranks);
  const Schedule schedule = builder(kind)(ranks);
  for (DialectId d : {DialectId::Executor, DialectId::Classic, DialectId::Rccl}) {
    const Program program = lowerOrFail(schedule, {d, Protocol::Simple, 1, {}});
    QVERIFY(!program.gpus.empty());
    CheckOptions options;
    options.dialect = d;
    const auto errors = test::errorsOf(checkProgram(program, options));
    QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
  }
}

void Test_lower::liftGivesBackTheTransfers()
{
  QFETCH(QString, kind);
  QFETCH(int, ranks);
  const Schedule schedule = builder(kind)(ranks);
  const Program program = lowerOrFail(schedule, {});
  const LiftResult lifted = liftProgram(program);
  QVERIFY2(lifted.schedule, qPrintable(test::describeDiagnostics(lifted.diagnostics)));
  QCOMPARE(test::transferSummary(*lifted.schedule), test::transferSummary(schedule));
  QCOMPARE(lifted.schedule->collective, schedule.collective);
  QCOMPARE(lifted.schedule->buffers, schedule.buffers);
  QCOMPARE(lifted.schedule->inplace, schedule.inplace);
}

// msccl-format §8.3: a ring all-reduce lowers to one threadblock per rank that sends to the next
// rank and receives from the previous: s, then rrs for the n-2 intermediate reductions, rrcs
// where the sum is complete, rcs for the n-2 forwards of the all-gather and a final r.
void Test_lower::ringFusesLikeMscclTools()
{
  const Program program = lowerOrFail(test::ringAllReduceSchedule(4), {});
  QCOMPARE(program.gpus.size(), std::size_t(4));
  QCOMPARE(program.nchannels, 1);
  QCOMPARE(program.nchunksperloop, 4);
  const std::vector<OpType> expected{OpType::Send,
                                     OpType::RecvReduceSend,
                                     OpType::RecvReduceSend,
                                     OpType::RecvReduceCopySend,
                                     OpType::RecvCopySend,
                                     OpType::RecvCopySend,
                                     OpType::Recv};
  for (const Gpu& gpu : program.gpus) {
    QCOMPARE(gpu.threadblocks.size(), std::size_t(1));
    const ThreadBlock& tb = gpu.threadblocks.front();
    QCOMPARE(tb.send, (gpu.id + 1) % 4);
    QCOMPARE(tb.recv, (gpu.id + 3) % 4);
    QCOMPARE(typesOf(tb), expected);
    // Receive-reduce reads the local destination (pitfall P7).
    for (const Step& s : tb.steps) {
      if (opTraits(s.type).reduces) {
        QCOMPARE(s.srcBuf, Buffer::Input);
        QCOMPARE(s.srcOff, s.dstOff);
      }
    }
  }
  QCOMPARE(program.collSpelling, std::string("allreduce"));
  QCOMPARE(program.outofplace, std::optional<bool>(false));
  QCOMPARE(program.minBytes, std::optional<std::int64_t>(0));
  QCOMPARE(program.maxBytes, std::optional<std::int64_t>(0));
}

void Test_lower::classicAttributes()
{
  Schedule schedule = test::ringAllReduceSchedule(3);
  schedule.collective = Collective::AllReduce;
  const Program program = lowerOrFail(schedule, {DialectId::Classic, Protocol::LL, 1, {}});
  QCOMPARE(program.proto, Protocol::LL);
  QVERIFY(!program.outofplace);
  QVERIFY(program.maxBytes && *program.maxBytes > (std::int64_t{1} << 30));
  QCOMPARE(detectDialect(program), DialectId::Classic);
}

// 64 ranks with 64 chunks: each rank would need 126 steps on one threadblock, twice the
// executor's 64; lowering must spread the chains over channels instead of failing.
void Test_lower::stepLimitSpreadsOverChannels()
{
  const Schedule schedule = test::ringAllReduceSchedule(64);
  QCOMPARE(schedule.transfers.size(), std::size_t(64 * 126));
  const LowerResult lowered = lowerSchedule(schedule, {});
  QVERIFY2(lowered.program && test::errorsOf(lowered.diagnostics).empty(),
           qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  const Program& program = *lowered.program;
  QCOMPARE(program.nchannels, 2);
  QVERIFY(program.maxStepsPerThreadblock() <= dialect(DialectId::Executor).maxStepsPerThreadblock);
  CheckOptions options;
  options.semantic = false;
  const auto errors = test::errorsOf(checkProgram(program, options));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
}

void Test_lower::instances()
{
  const Schedule schedule = test::ringAllReduceSchedule(4);
  const LowerResult lowered =
      lowerSchedule(schedule, {DialectId::Executor, Protocol::Simple, 3, {}});
  QVERIFY(lowered.program);
  const Program& program = *lowered.program;
  QCOMPARE(program.nchannels, 3);
  QCOMPARE(program.nchunksperloop, 12);
  QCOMPARE(program.gpus[0].inputChunks, 12);
  QCOMPARE(program.gpus[0].threadblocks.size(), std::size_t(3));
  const auto errors = test::errorsOf(checkProgram(program, {}));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
  QCOMPARE(lowered.origins.size(), std::size_t(program.stepCount()));
  for (const InstructionOrigin& o : lowered.origins)
    QCOMPARE(o.instance, o.tb % 3);
}

// A ring all-reduce on 2n chunks where every step moves two single-chunk transfers over each
// connection (chunks c and c+n). Sending both before receiving would leave a fused rrs needing
// a third FIFO slot on every rank at once (the runtime has two, msccl-format §4.5): a deadlock.
// Lowering must alternate the messages (lowerplan_p.h, rounds) and never emit that.
void Test_lower::twoMessagesPerStep_data()
{
  QTest::addColumn<int>("ranks");
  for (int n : {3, 4, 5})
    QTest::addRow("%d", n) << n;
}

void Test_lower::twoMessagesPerStep()
{
  QFETCH(int, ranks);
  Schedule schedule = test::ringAllReduceSchedule(ranks);
  schedule.setUniformBuffers({2 * ranks, 0, 0});
  const std::vector<Transfer> first = schedule.transfers;
  for (Transfer t : first) {
    t.src.index += ranks;
    t.dst.index += ranks;
    schedule.add(t);
  }
  const Program program = lowerOrFail(schedule, {});
  QVERIFY(!program.gpus.empty());
  const auto errors = test::errorsOf(checkProgram(program, {}));
  QVERIFY2(errors.empty(), qPrintable(test::describeDiagnostics(errors)));
  const LiftResult lifted = liftProgram(program);
  QVERIFY(lifted.schedule);
  QCOMPARE(test::transferSummary(*lifted.schedule), test::transferSummary(schedule));
}

void Test_lower::originsNameTheTransfer()
{
  const Schedule schedule = test::scratchAllReduceSchedule(4);
  const LowerResult lowered = lowerSchedule(schedule, {});
  QVERIFY(lowered.program);
  QCOMPARE(lowered.origins.size(), std::size_t(lowered.program->stepCount()));
  for (const Gpu& gpu : lowered.program->gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      for (const Step& step : tb.steps) {
        const int id = lowered.transferAt(gpu.id, tb.id, step.s);
        if (step.type == OpType::Nop) {
          QCOMPARE(id, -1);
          continue;
        }
        const Transfer* t = schedule.transfer(id);
        QVERIFY(t);
        QVERIFY(t->src.rank == gpu.id || t->dst.rank == gpu.id);
        QCOMPARE(step.cnt, t->count);
      }
    }
  }
  QCOMPARE(lowered.transferAt(9, 0, 0), -1);
}

void Test_lower::brokenSchedules_data()
{
  QTest::addColumn<int>("mutation");
  QTest::addColumn<QString>("code");
  QTest::newRow("destination rank out of range") << 0 << "lower.rank-out-of-range";
  QTest::newRow("source index out of range") << 1 << "lower.index-out-of-range";
  QTest::newRow("count 0") << 2 << "lower.count";
  QTest::newRow("negative index") << 3 << "lower.index-out-of-range";
  QTest::newRow("buffers for too few ranks") << 4 << "lower.ranks";
  QTest::newRow("pinned channel out of range") << 5 << "lower.pin-channel";
  QTest::newRow("threadblock pinned to two peers") << 6 << "lower.pin-conflict";
}

void Test_lower::brokenSchedules()
{
  QFETCH(int, mutation);
  QFETCH(QString, code);
  Schedule schedule = test::ringAllReduceSchedule(4);
  Transfer& t = schedule.transfers[5];
  switch (mutation) {
  case 0:
    t.dst.rank = 4;
    break;
  case 1:
    t.src.index = 4;
    break;
  case 2:
    t.count = 0;
    break;
  case 3:
    t.dst.index = -1;
    break;
  case 4:
    schedule.buffers.pop_back();
    break;
  case 5:
    t.pins.channel = 999;
    break;
  case 6:
    // Rank 0 sends to rank 1 in transfer 0; pin a send to rank 2 onto the same threadblock.
    schedule.transfers[0].pins.threadblock = 0;
    schedule.add({0, 9, {0, Buffer::Input, 1}, {2, Buffer::Input, 1}, 1, TransferOp::Copy, {}});
    schedule.transfers.back().pins.threadblock = 0;
    break;
  }
  const LowerResult lowered = lowerSchedule(schedule, {});
  QVERIFY(!lowered.program);
  QVERIFY2(test::hasCode(lowered.diagnostics, qPrintable(code), Severity::Error),
           qPrintable(test::describeDiagnostics(lowered.diagnostics)));
  if (mutation != 4) {
    bool located = false;
    for (const Diagnostic& d : lowered.diagnostics)
      located =
          located || d.location.transfer == (mutation == 6 ? schedule.transfers.back().id : t.id);
    QVERIFY(located);
  }
}

// Fusion places buffer accesses by slot (a counting sort over rank, buffer and chunk) while the
// slots are dense, and sorts them when they are sparse: a 12-rank ring whose chunks sit at the
// end of 32,768-chunk buffers takes the sorting path and must lower exactly like the dense ring,
// offsets shifted.
void Test_lower::sparseSlotsFuseAlike()
{
  constexpr int kRanks = 12;
  constexpr int kChunks = 32768; // the executor's largest buffer (int16 offsets)
  constexpr int kShift = kChunks - kRanks;
  const Schedule dense = test::ringAllReduceSchedule(kRanks);
  Schedule sparse = dense;
  sparse.setUniformBuffers({kChunks, 0, 0});
  for (Transfer& t : sparse.transfers) {
    t.src.index += kShift;
    t.dst.index += kShift;
  }
  const Program a = lowerOrFail(dense, {});
  const Program b = lowerOrFail(sparse, {});
  QCOMPARE(b.gpus.size(), a.gpus.size());
  int fused = 0;
  for (std::size_t g = 0; g < a.gpus.size(); ++g) {
    QCOMPARE(b.gpus[g].threadblocks.size(), a.gpus[g].threadblocks.size());
    for (std::size_t t = 0; t < a.gpus[g].threadblocks.size(); ++t) {
      const ThreadBlock& x = a.gpus[g].threadblocks[t];
      const ThreadBlock& y = b.gpus[g].threadblocks[t];
      QCOMPARE(typesOf(y), typesOf(x));
      for (std::size_t k = 0; k < x.steps.size(); ++k) {
        if (x.steps[k].type != OpType::Nop)
          QCOMPARE(y.steps[k].dstOff, x.steps[k].dstOff + kShift);
        fused += opTraits(x.steps[k].type).sends && opTraits(x.steps[k].type).receives ? 1 : 0;
      }
    }
  }
  QVERIFY(fused > 0);
}

QTEST_GUILESS_MAIN(Test_lower)
#include "tst_lower.moc"
