// The NCCL executor's round scheduler (exec/nccl/ncclrounds_p.h) and device assignment: plain
// C++, tested on every machine and under the sanitizers. The schedule is checked on the ring
// all-reduce of engine/catalogue, on hand-written programs with dependencies, deadlocks,
// overwritten sources and wrong sizes, and on every corpus file, whose rounds are also executed
// on the host and verified like a run. tst_ncclexecutor runs the executor itself.

#include "catalogue/ringallreduce.h"
#include "exec/execprograms.h"
#include "exec/executor.h"
#include "exec/nccl/ncclrounds_p.h"
#include "exec/nccl/rankdevices_p.h"
#include "exec/ncclroundcheck.h"
#include "exec/plan/reference.h"
#include "support/corpus.h"

#include <QTest>

#include <numeric>

using namespace cs;
using test::bothReceiveFirst;
using test::emulatedRun;
using test::emulateRounds;
using test::exchange;
using test::forwardWithDependency;
using test::inPlaceStep;
using test::planOf;
using test::positionsOf;
using test::scheduleViolation;
using test::smallRun;
using test::twoRankProgram;

class TestNcclRounds : public QObject
{
  Q_OBJECT

private slots:
  void ringAllReduceRounds_data()
  {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("channels");
    QTest::newRow("2 ranks") << 2 << 1;
    QTest::newRow("3 ranks") << 3 << 1;
    QTest::newRow("4 ranks") << 4 << 1;
    QTest::newRow("4 ranks 2 channels") << 4 << 2;
  }

  void ringAllReduceRounds()
  {
    QFETCH(int, ranks);
    QFETCH(int, channels);
    const Program program = makeRingAllReduce({ranks, channels, Protocol::Simple});
    const plan::RunPlan plan = planOf(program, smallRun(program, 64, DataType::F32));
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(plan, blocked, out);
    QVERIFY(schedule.has_value());
    QVERIFY(blocked.empty());
    QVERIFY(out.empty());
    const QString violation = scheduleViolation(plan, *schedule);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    // Each rank sends 2(n-1) messages per channel, one per round: the ring runs at its depth,
    // with every hop of a round in one group, and nothing needs staging.
    QCOMPARE(schedule->messages.size(), std::size_t(ranks * channels * 2 * (ranks - 1)));
    QCOMPARE(schedule->rounds, 2 * (ranks - 1));
    QCOMPARE(schedule->stagedSends, 0);
    for (int r = 0; r < ranks; ++r) {
      for (int round = 0; round < schedule->rounds; ++round) {
        const nccl::RankRound& work =
            schedule->ranks[static_cast<std::size_t>(r)][static_cast<std::size_t>(round)];
        QCOMPARE(work.sends.size(), std::size_t(channels));
        QCOMPARE(work.recvs.size(), std::size_t(channels));
      }
      // Temporaries of reductions whose lifetimes do not overlap share memory: two live at once
      // per channel (one being forwarded while the next arrives).
      QCOMPARE(schedule->temporaryChunks[static_cast<std::size_t>(r)],
               qint64(channels * std::min(2, ranks - 1)));
    }
  }

  void ringAllReduceEmulated_data() { test::addTypeAndOpRows(); }

  void ringAllReduceEmulated()
  {
    QFETCH(int, type);
    QFETCH(int, op);
    const Program program = makeRingAllReduce({5, 2, Protocol::LL});
    ExecOptions options = smallRun(program, 37, static_cast<DataType>(type));
    options.op = static_cast<ReduceOp>(op);
    QString problem;
    const plan::Verification verification = emulatedRun(program, options, &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QCOMPARE(execStatusName(verification.status), std::string_view("verified"));
    QCOMPARE(verification.wrong, 0);
    QCOMPARE(verification.checked, qint64(5 * 10 * 37));
  }

  void dependencyOrdersTheForward()
  {
    const Program program = forwardWithDependency();
    const plan::RunPlan plan = planOf(program, smallRun(program, 8, DataType::I32));
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(plan, blocked, out);
    QVERIFY(schedule.has_value());
    QVERIFY2(scheduleViolation(plan, *schedule).isEmpty(),
             qPrintable(scheduleViolation(plan, *schedule)));
    // Rank 0's tb 1 forwards i[1] only after tb 0 received it: the receive in round 0, the
    // forward in round 1, and rank 1 receives it in round 1 too.
    const nccl::StepTimes& received = schedule->steps[0][0];
    const nccl::StepTimes& forwarded = schedule->steps[1][0];
    QCOMPARE(received.recv, 0);
    QCOMPARE(forwarded.send, 2);
    QCOMPARE(schedule->steps[3][0].recv, 2);
    QCOMPARE(schedule->rounds, 2);
    // Forwarding the received chunk verifies as data: rank 1's i[1] becomes its own i[0].
    plan::HostMemory state(plan);
    plan::initialiseMemory(program, DataType::I32, ReduceOp::Sum, state);
    QString problem;
    QVERIFY2(emulateRounds(*schedule, state, DataType::I32, ReduceOp::Sum, &problem),
             qPrintable(problem));
    const auto* rank1 = reinterpret_cast<const std::int32_t*>(state.memory[1][0].data());
    for (int e = 0; e < 8; ++e)
      QCOMPARE(rank1[8 + e], std::int32_t(plan::inputValue(DataType::I32, ReduceOp::Sum, 2, 1, e)));
  }

  void overwrittenSourcesAreStagedOnlyWhenNeeded()
  {
    // Both ranks overwrite the chunk they have just sent and receive into it from the other:
    // unless the message leaves from a copy, each write waits for the other rank's receive.
    const Program program = exchange();
    const plan::RunPlan plan = planOf(program, smallRun(program, 16, DataType::I32));
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(plan, blocked, out);
    QVERIFY(schedule.has_value());
    QVERIFY2(scheduleViolation(plan, *schedule).isEmpty(),
             qPrintable(scheduleViolation(plan, *schedule)));
    QCOMPARE(schedule->stagedSends, 2);
    for (const std::vector<nccl::StepTimes>& steps : schedule->steps) {
      QVERIFY(steps[0].stage >= 0);
      QVERIFY(steps[2].stage < 0); // i[1] is never written
      QVERIFY(steps[1].recv > steps[0].stage);
    }
    // After the exchange each rank holds the other's i[0] in i[0] and its i[1] in s[0].
    plan::HostMemory state(plan);
    plan::initialiseMemory(program, DataType::I32, ReduceOp::Sum, state);
    QString problem;
    QVERIFY2(emulateRounds(*schedule, state, DataType::I32, ReduceOp::Sum, &problem),
             qPrintable(problem));
    for (int r = 0; r < 2; ++r) {
      const auto* input = reinterpret_cast<const std::int32_t*>(state.memory[r][0].data());
      const auto* scratch = reinterpret_cast<const std::int32_t*>(state.memory[r][2].data());
      QCOMPARE(input[3], std::int32_t(plan::inputValue(DataType::I32, ReduceOp::Sum, 2, 1 - r, 3)));
      QCOMPARE(scratch[5],
               std::int32_t(plan::inputValue(DataType::I32, ReduceOp::Sum, 2, 1 - r, 16 + 5)));
    }
  }

  void receiveFirstCycleIsADeadlock()
  {
    const Program program = bothReceiveFirst();
    const ExecOptions options = smallRun(program, 16, DataType::F32);
    const plan::RunPlan plan = planOf(program, options);
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    QVERIFY(!nccl::scheduleRounds(plan, blocked, out).has_value());
    const std::set<std::tuple<int, int, int, int, int>> expected{
        {0, 0, 0, static_cast<int>(WaitKind::Message), 1},
        {1, 0, 0, static_cast<int>(WaitKind::Message), 0}};
    QCOMPARE(positionsOf(blocked), expected);
    // The CPU executor's watchdog names the same positions after running into it.
    ExecOptions quick = options;
    quick.timeoutSeconds = 0.3;
    const ExecResult cpu = makeExecutor("cpu")->run(program, quick);
    QCOMPARE(execStatusName(cpu.status), std::string_view("hung"));
    QCOMPARE(positionsOf(cpu.blocked), expected);
  }

  void waitsForNothingAreDeadlocks()
  {
    // Rank 0 receives twice but rank 1 sends once: the second receive waits forever.
    Program unmatched = twoRankProgram("unmatched", Collective::Custom, 2, [](int r) {
      std::vector<Step> steps{inPlaceStep(0, OpType::Send, r, -1),
                              inPlaceStep(1, OpType::Recv, -1, 1 - r)};
      if (r == 0)
        steps.push_back(inPlaceStep(2, OpType::Recv, -1, 0));
      return steps;
    });
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    QVERIFY(!nccl::scheduleRounds(planOf(unmatched, smallRun(unmatched, 4, DataType::F32)), blocked,
                                  out)
                 .has_value());
    QCOMPARE(positionsOf(blocked), (std::set<std::tuple<int, int, int, int, int>>{
                                       {0, 0, 2, static_cast<int>(WaitKind::Message), 1}}));
    // A dependency on a position no later step publishes: the flag never comes.
    Program unpublished = forwardWithDependency();
    unpublished.gpus[0].threadblocks[0].steps[0].hasdep = false;
    blocked.clear();
    QVERIFY(!nccl::scheduleRounds(planOf(unpublished, smallRun(unpublished, 4, DataType::F32)),
                                  blocked, out)
                 .has_value());
    QCOMPARE(blocked.size(), std::size_t(2)); // rank 0 tb 1 on the flag, rank 1 tb 1 on it
    QCOMPARE(blocked[0].rank, 0);
    QCOMPARE(blocked[0].tb, 1);
    QCOMPARE(blocked[0].waitsFor, WaitKind::Flag);
    QCOMPARE(blocked[0].depTb, 0);
    QCOMPARE(blocked[1].rank, 1);
    QCOMPARE(blocked[1].waitsFor, WaitKind::Message);
  }

  void messageOfTheWrongSizeFails()
  {
    Program program = exchange();
    program.gpus[1].threadblocks[0].steps[0].cnt = 2; // rank 1 sends i[0..2), rank 0 takes one
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    QVERIFY(
        !nccl::scheduleRounds(planOf(program, smallRun(program, 4, DataType::F32)), blocked, out)
             .has_value());
    QVERIFY(blocked.empty());
    QCOMPARE(out.items().front().code, std::string("exec.message-size"));
    QCOMPARE(out.items().front().location.rank, 0);
    QCOMPARE(out.items().front().location.step, 1);
  }

  void unmatchedSendIsLeftOutWithAWarning()
  {
    Program program = exchange();
    program.gpus[0].threadblocks[0].steps.push_back(inPlaceStep(4, OpType::Send, 1, -1));
    const plan::RunPlan plan = planOf(program, smallRun(program, 4, DataType::F32));
    Diagnostics out;
    std::vector<BlockedPosition> blocked;
    const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(plan, blocked, out);
    QVERIFY(schedule.has_value());
    QCOMPARE(schedule->unmatchedSends, 1);
    QCOMPARE(schedule->steps[0][4].send, -1);
    QVERIFY(out.contains("exec.unmatched-send"));
    QCOMPARE(out.count(Severity::Error), 0);
  }

  void corpusSchedulesAndEmulates_data()
  {
    CS_REQUIRE_CORPUS();
    test::addCorpusRows();
  }

  void corpusSchedulesAndEmulates()
  {
    QFETCH(QString, path);
    QFETCH(QString, expected);
    // MANIFEST.md's verdicts assume unbounded connections, as the rounds do: every file runs.
    const Program program = test::loadProgram(path);
    const int mult = sizeMultiplier(program.collective, program.ngpus);
    const std::int64_t chunkElements =
        mult / std::gcd<std::int64_t>(program.nchunksperloop, mult) * 3;
    for (const CallMode mode : declaredModes(program)) {
      ExecOptions options = smallRun(program, chunkElements, DataType::I32);
      options.mode = mode;
      QString problem;
      const plan::Verification verification = emulatedRun(program, options, &problem);
      const QString what = QString("%1: %2 (%3)")
                               .arg(QString::fromStdString(std::string(callModeName(mode))),
                                    problem, QString::fromStdString(verification.note));
      // A program that races by itself (MANIFEST.md says RACE) may show it in the emulation.
      if (expected.startsWith("RACE") && problem.startsWith("race:"))
        continue;
      QVERIFY2(problem.isEmpty(), qPrintable(what));
      if (expected.startsWith("post PASS"))
        QVERIFY2(verification.status == ExecStatus::Verified, qPrintable(what));
      else if (expected.contains("post FAIL"))
        QVERIFY2(verification.status == ExecStatus::Wrong && verification.wrong > 0,
                 qPrintable(what));
      else
        QVERIFY2(verification.status == ExecStatus::NotVerified, qPrintable(what));
    }
  }

  void devicesAreOnePerRank()
  {
    Diagnostics out;
    QVERIFY(!nccl::assignDevices(8, {1, {}}, {}, out).has_value());
    QCOMPARE(out.items().back().code, std::string("exec.nccl-devices"));
    QCOMPARE(out.items().back().message,
             std::string("the NCCL executor runs one rank per GPU: this program has 8 ranks but 1 "
                         "GPU is visible; use --backend cuda to run many ranks on one GPU"));
    // One rank needs one GPU (seen refused on a one-GPU H200 machine, which NCCL runs it on).
    QCOMPARE(nccl::assignDevices(1, {1, {}}, {}, out), std::optional(std::vector<int>{0}));
    QVERIFY(!nccl::assignDevices(8, {4, {}}, {}, out).has_value());
    QCOMPARE(out.items().back().message,
             std::string("the NCCL executor runs one rank per GPU: this program has 8 ranks but 4 "
                         "GPUs are visible; use --backend cuda to run many ranks on one GPU"));
    QVERIFY(!nccl::assignDevices(2, {std::nullopt, "no CUDA-capable device is detected"}, {}, out)
                 .has_value());
    QVERIFY(out.items().back().message.find("no CUDA-capable device is detected") !=
            std::string::npos);
    QVERIFY(!nccl::assignDevices(2, {4, {}}, {3, 3}, out).has_value());
    QVERIFY(out.items().back().message.find("ranks 0 and 1 are both mapped to device 3") !=
            std::string::npos);
    QVERIFY(!nccl::assignDevices(2, {4, {}}, {0, 4}, out).has_value());
    QVERIFY(!nccl::assignDevices(3, {4, {}}, {0, 1}, out).has_value());
    QCOMPARE(out.count(Severity::Error), 6);
    QVERIFY(nccl::assignDevices(3, {4, {}}, {}, out) == (std::vector<int>{0, 1, 2}));
    QVERIFY(nccl::assignDevices(2, {4, {}}, {3, 1}, out) == (std::vector<int>{3, 1}));
    QCOMPARE(out.count(Severity::Error), 6);
  }

  void launchedRankTakesItsLocalDevice()
  {
    // One process per rank under a launcher: the device is the local rank, or the device list
    // indexed by local rank; a single visible GPU suffices.
    Diagnostics out;
    QCOMPARE(nccl::launchedRankDevice(5, 1, {2, {}}, {}, out), std::optional<int>(1));
    QCOMPARE(nccl::launchedRankDevice(0, 0, {1, {}}, {}, out), std::optional<int>(0));
    QCOMPARE(nccl::launchedRankDevice(5, 1, {4, {}}, {3, 2}, out), std::optional<int>(2));
    QCOMPARE(out.count(Severity::Error), 0);
    QVERIFY(!nccl::launchedRankDevice(6, 2, {2, {}}, {}, out));
    QCOMPARE(out.items().back().message,
             std::string("rank 6 (local rank 2) would run on device 2 but 2 GPUs are visible on "
                         "its node (start at most one process per GPU)"));
    QVERIFY(!nccl::launchedRankDevice(1, 1, {std::nullopt, "no CUDA-capable device"}, {}, out));
    QCOMPARE(out.items().back().message,
             std::string("rank 1 (local rank 1) needs a GPU, but the CUDA runtime found none (no "
                         "CUDA-capable device)"));
    QVERIFY(!nccl::launchedRankDevice(3, 3, {8, {}}, {0, 1}, out));
    QVERIFY(out.items().back().message.find("none for rank 3 (local rank 3)") != std::string::npos);
    QCOMPARE(out.count(Severity::Error), 3);
    QCOMPARE(out.items().back().code, std::string("exec.nccl-devices"));
  }
};

QTEST_APPLESS_MAIN(TestNcclRounds)
#include "tst_ncclrounds.moc"
