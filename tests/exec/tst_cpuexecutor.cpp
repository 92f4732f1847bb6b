// The CPU reference executor on small programs whose behaviour is known by construction: the
// ring all-reduce of engine/catalogue, a hand-written two-rank all-reduce and its broken variant,
// a deadlock the watchdog must stop, every data type and reduction, and the trace's shape.

#include "catalogue/ringallreduce.h"
#include "exec/execprograms.h"
#include "exec/executor.h"
#include "exec/plan/reference.h"
#include "exec/plan/runplan.h"
#include "replay/replayindex.h"

#include <QTest>

#include <chrono>
#include <set>
#include <tuple>

using namespace cs;

namespace {

using test::inPlaceStep;

// In-place all-reduce of two ranks, two chunks: rank r sends i[1-r], reduces the incoming i[r]
// into its own i[r], sends that sum back and receives the other sum into i[1-r].
Program twoRankAllReduce()
{
  return test::twoRankProgram("two_rank_allreduce", Collective::AllReduce, 2, [](int r) {
    return std::vector<Step>{
        inPlaceStep(0, OpType::Send, 1 - r, -1), inPlaceStep(1, OpType::RecvReduceCopy, r, r),
        inPlaceStep(2, OpType::Send, r, -1), inPlaceStep(3, OpType::Recv, -1, 1 - r)};
  });
}

ExecOptions smallRun(std::int64_t bytes)
{
  ExecOptions options;
  options.bytes = bytes;
  options.timeoutSeconds = 5;
  return options;
}

/// A small run of a ring of `ranks` with one message per connection, which deadlocks.
ExecOptions oneSlotRun(int ranks, double timeoutSeconds)
{
  ExecOptions options = smallRun(ranks * 64 * 4);
  options.connectionSlots = 1;
  options.timeoutSeconds = timeoutSeconds;
  return options;
}

} // namespace

class TestCpuExecutor : public QObject
{
  Q_OBJECT

private slots:
  void registry()
  {
    std::string error;
    QVERIFY(makeExecutor("cpu", &error) != nullptr);
    // A backend can be made exactly when the registry lists it as available, and says why not.
    const std::vector<BackendInfo> backends = executorBackends();
    QCOMPARE(backends.size(), std::size_t(3));
    for (const BackendInfo& backend : backends) {
      error.clear();
      const bool made = makeExecutor(backend.name, &error) != nullptr;
      QCOMPARE(made, backend.available);
      if (!backend.available) {
        QVERIFY(!backend.reason.empty());
        QVERIFY2(error.find(backend.reason) != std::string::npos, error.c_str());
      }
    }
    QVERIFY(makeExecutor("tpu", &error) == nullptr);
    QVERIFY2(error.find("unknown backend") != std::string::npos, error.c_str());
  }

  void ringAllReduceVerifies_data()
  {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("channels");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<qint64>("sliceBytes");
    QTest::addColumn<int>("slices");
    // 4 ranks × 4 chunks × 1 float: the smallest size.
    QTest::newRow("4r tiny") << 4 << 1 << qint64(16) << qint64(0) << 1;
    // 3 chunks × 1000 floats, 256-float slices: 4 slices, the last 232 floats.
    QTest::newRow("3r sliced") << 3 << 1 << qint64(12000) << qint64(1024) << 4;
    // 2 channels × 5 ranks × 777 floats, 100-float slices: 8 slices, the last 77.
    QTest::newRow("5r 2ch sliced") << 5 << 2 << qint64(31080) << qint64(400) << 8;
  }
  void ringAllReduceVerifies()
  {
    QFETCH(int, ranks);
    QFETCH(int, channels);
    QFETCH(qint64, bytes);
    QFETCH(qint64, sliceBytes);
    QFETCH(int, slices);
    const Program program = makeRingAllReduce({ranks, channels, Protocol::Simple});
    ExecOptions options = smallRun(bytes);
    if (sliceBytes > 0)
      options.sliceBytes = sliceBytes;
    options.iterations = 2;
    options.warmup = 1;
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(execStatusName(result.status), std::string_view("verified"));
    QCOMPARE(result.slices, slices);
    QCOMPARE(result.wrong, 0);
    QCOMPARE(result.checked, qint64(ranks) * (bytes / 4));
    QCOMPARE(result.iterationUs.size(), std::size_t(2));
    QCOMPARE(result.mode, CallMode::InPlace);
  }

  void everyTypeAndOp_data() { test::addTypeAndOpRows(); }
  void everyTypeAndOp()
  {
    QFETCH(int, type);
    QFETCH(int, op);
    const Program program = makeRingAllReduce({8, 1, Protocol::LL});
    ExecOptions options;
    options.dtype = static_cast<DataType>(type);
    options.op = static_cast<ReduceOp>(op);
    // 8 chunks × 300 elements in 128-element slices: three slices, the last one shorter.
    options.bytes = 8 * 300 * dataTypeSize(options.dtype);
    options.sliceBytes = 128 * dataTypeSize(options.dtype);
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(result.slices, 3);
    QCOMPARE(execStatusName(result.status), std::string_view("verified"));
    QCOMPARE(result.wrong, 0);
  }

  void wrongLocalOperandIsReported()
  {
    // Rank 0 reduces the incoming chunk 0 with its local i[1] instead of i[0], so chunk 0 of
    // both ranks ends as rank 1's i[0] + rank 0's i[1]; chunk 1 stays right.
    Program program = twoRankAllReduce();
    program.gpus[0].threadblocks[0].steps[1].srcOff = 1;
    ExecOptions options = smallRun(2 * 100 * 4); // 100 i32 per chunk
    options.dtype = DataType::I32;
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(execStatusName(result.status), std::string_view("wrong"));
    QVERIFY(result.firstWrong.has_value());
    const WrongElement& w = *result.firstWrong;
    QCOMPARE(w.rank, 0);
    QCOMPARE(w.buffer, Buffer::Output);
    QCOMPARE(w.chunk, 0);
    QCOMPARE(w.element, qint64(0));
    const auto input = [](int rank, std::int64_t index) {
      return plan::inputValue(DataType::I32, ReduceOp::Sum, 2, rank, index);
    };
    QCOMPARE(w.expected, double(input(0, 0) + input(1, 0)));
    QCOMPARE(w.actual, double(input(1, 0) + input(0, 100)));
    // Every element of chunk 0 differs on both ranks unless rank 0's i[0] and i[1] agree there.
    std::int64_t expectedWrong = 0;
    for (std::int64_t e = 0; e < 100; ++e)
      expectedWrong += input(0, e) != input(0, 100 + e) ? 2 : 0;
    QVERIFY(expectedWrong > 0);
    QCOMPARE(result.wrong, expectedWrong);
    QCOMPARE(result.checked, qint64(400));

    // The unbroken program verifies, in place and (undeclared, with a warning) out of place is
    // wrong: it never writes o.
    const ExecResult good = makeExecutor("cpu")->run(twoRankAllReduce(), options);
    QCOMPARE(execStatusName(good.status), std::string_view("verified"));
    options.mode = CallMode::OutOfPlace;
    const ExecResult outOfPlace = makeExecutor("cpu")->run(twoRankAllReduce(), options);
    QCOMPARE(execStatusName(outOfPlace.status), std::string_view("wrong"));
    QCOMPARE(outOfPlace.wrong, qint64(400));
    QCOMPARE(outOfPlace.diagnostics.front().code, std::string("exec.mode-undeclared"));
  }

  void ringReadsForwardedChunksInPlace()
  {
    // Per rank: s of its first chunk (received again at the end: copied), rrs (a sum stored
    // nowhere: copied), rrcs and rcs (chunks nothing writes afterwards: read in place), r.
    ExecOptions options = smallRun(4 * 64 * 4);
    Diagnostics out;
    const std::optional<plan::RunPlan> plan =
        plan::planRun(makeRingAllReduce({4, 1, Protocol::Simple}), options, out);
    QVERIFY(plan.has_value());
    for (const plan::PlannedThreadblock& tb : plan->threadblocks) {
      for (const plan::PlannedStep& step : tb.steps) {
        const bool forwardsStored =
            step.type == OpType::RecvCopySend || step.type == OpType::RecvReduceCopySend;
        QCOMPARE(step.sendsInPlace, forwardsStored);
      }
    }
  }

  void sendIsCopiedWhenAnotherThreadblockWritesItsChunk()
  {
    // Rank 0 sends i[1] from tb 0 while its tb 1 copies i[0] into i[1]: the receiver must see
    // i[1] as it was when sent, so the send is copied; rank 1's send of i[0] is read in place.
    Program program = test::twoRankProgram("overwrite", Collective::Custom, 2, [](int r) {
      if (r == 0)
        return std::vector<Step>{inPlaceStep(0, OpType::Send, 1, -1)};
      return std::vector<Step>{inPlaceStep(0, OpType::Recv, -1, 1)};
    });
    ThreadBlock local;
    local.id = 1;
    local.steps = {inPlaceStep(0, OpType::Copy, 0, 1)};
    program.gpus[0].threadblocks.push_back(local);
    Diagnostics out;
    std::optional<plan::RunPlan> plan = plan::planRun(program, smallRun(2 * 8 * 4), out);
    QVERIFY(plan.has_value());
    QCOMPARE(plan->threadblocks[0].steps[0].sendsInPlace, false);
    program.gpus[0].threadblocks.pop_back();
    plan = plan::planRun(program, smallRun(2 * 8 * 4), out);
    QVERIFY(plan.has_value());
    QCOMPARE(plan->threadblocks[0].steps[0].sendsInPlace, true);
  }

  void sendIsCopiedWhenBothEndsCutMessagesDifferently()
  {
    // Rank 0 sends once per slice, rank 1 receives twice: message k is sent in slice k but
    // received in slice k / 2, so only the copy's layout gives the runtime's meaning.
    const Program program = test::twoRankProgram("uneven", Collective::Custom, 2, [](int r) {
      if (r == 0)
        return std::vector<Step>{inPlaceStep(0, OpType::Send, 0, -1)};
      return std::vector<Step>{inPlaceStep(0, OpType::Recv, -1, 0),
                               inPlaceStep(1, OpType::Recv, -1, 1)};
    });
    Diagnostics out;
    const std::optional<plan::RunPlan> plan = plan::planRun(program, smallRun(2 * 8 * 4), out);
    QVERIFY(plan.has_value());
    QCOMPARE(plan->threadblocks[0].steps[0].sendsInPlace, false);
  }

  void watchdogStopsRingWithOneSlot()
  {
    // With one message per connection every rank's first send fills its outgoing connection and
    // each rrs at step 1 then waits for room that its successor, itself blocked, never makes.
    const int ranks = 4;
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    ExecOptions options = oneSlotRun(ranks, 0.5);
    const auto start = std::chrono::steady_clock::now();
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QCOMPARE(execStatusName(result.status), std::string_view("hung"));
    // The report below is the assertion; the time only shows the watchdog fired rather than
    // the run ending some other way, with a margin for sanitizers on a loaded 2-core machine.
    QVERIFY2(seconds < options.timeoutSeconds + 10, std::to_string(seconds).c_str());
    QCOMPARE(result.diagnostics.front().message,
             "no progress for 0.5 s: 4 threadblocks are blocked; the watchdog stopped the run "
             "(first: " +
                 describe(result.blocked.front()) + ")");
    QCOMPARE(result.blocked.size(), std::size_t(ranks));
    std::set<std::tuple<int, int, int, int, int>> blocked;
    for (const BlockedPosition& p : result.blocked) {
      QCOMPARE(p.waitsFor, WaitKind::Room);
      QCOMPARE(p.channel, 0);
      QCOMPARE(p.slice, 0);
      blocked.emplace(p.rank, p.tb, p.step, p.peer, p.slice);
    }
    for (int r = 0; r < ranks; ++r)
      QVERIFY(blocked.count({r, 0, 1, (r + 1) % ranks, 0}) == 1);
    QCOMPARE(result.diagnostics.front().code, std::string("exec.hang"));
    QCOMPARE(result.diagnostics.front().related.size(), std::size_t(ranks));

    // Two slots are enough (msccl-format.md §7).
    options.connectionSlots = 2;
    QCOMPARE(execStatusName(makeExecutor("cpu")->run(program, options).status),
             std::string_view("verified"));
  }

  void hungRunKeepsItsTraceUpToTheStop()
  {
    // With a warm-up the hung launch is the first, untimed one: it is traced all the same.
    const int ranks = 4;
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    ExecOptions options = oneSlotRun(ranks, 0.3);
    options.warmup = 1;
    options.trace = true;
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(execStatusName(result.status), std::string_view("hung"));
    const Trace& trace = result.trace;
    QVERIFY(trace.stoppedUs);
    QVERIFY(*trace.stoppedUs >= trace.totalUs);
    QCOMPARE(trace.connectionSlots, std::optional<int>(1));
    QCOMPARE(trace.source, std::string("cpu"));
    QVERIFY(trace.blocked == result.blocked);
    // Every rank sent its first message (step 0) and blocked at step 1: those sends completed.
    QCOMPARE(trace.events.size(), std::size_t(ranks));
    for (const TraceEvent& event : trace.events) {
      QCOMPARE(event.step, 0);
      QVERIFY(event.end <= *trace.stoppedUs);
    }
    const replay::ReplayBuild built = replay::ReplayIndex::build(program, trace, nullptr);
    QVERIFY(built.index);
    QCOMPARE(built.index->at(*trace.stoppedUs).waiting.size(), std::size_t(ranks));
  }

  void watchdogNamesFlagWaits()
  {
    // Rank 1 waits for a flag of tb 1 that is never published (hasdep=0): P9's hang.
    Program program = twoRankAllReduce();
    Gpu& gpu = program.gpus[1];
    ThreadBlock local;
    local.id = 1;
    local.steps = {inPlaceStep(0, OpType::Copy, 0, 0)};
    gpu.threadblocks.push_back(local);
    gpu.threadblocks[0].steps[0].depid = 1;
    gpu.threadblocks[0].steps[0].deps = 0;
    ExecOptions options = smallRun(8);
    options.timeoutSeconds = 0.3;
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(execStatusName(result.status), std::string_view("hung"));
    // Rank 1 tb 0 waits for the flag; rank 0 then waits for rank 1's first message.
    QCOMPARE(result.blocked.size(), std::size_t(2));
    const BlockedPosition& r0 = result.blocked[0];
    const BlockedPosition& r1 = result.blocked[1];
    QCOMPARE(std::tie(r0.rank, r0.tb, r0.step), std::make_tuple(0, 0, 1));
    QCOMPARE(r0.waitsFor, WaitKind::Message);
    QCOMPARE(r0.peer, 1);
    QCOMPARE(std::tie(r1.rank, r1.tb, r1.step), std::make_tuple(1, 0, 0));
    QCOMPARE(r1.waitsFor, WaitKind::Flag);
    QCOMPARE(std::tie(r1.depTb, r1.depStep), std::make_tuple(1, 0));
    QCOMPARE(describe(r1),
             std::string("rank 1 tb 0 step 0 slice 0 waits for tb 1 to publish step 0"));

    // Publishing it lets the run finish.
    gpu.threadblocks[1].steps[0].hasdep = true;
    QCOMPARE(execStatusName(makeExecutor("cpu")->run(program, options).status),
             std::string_view("verified"));
  }

  void traceHasOneEventPerStepAndSlice()
  {
    const int ranks = 4;
    const Program program = makeRingAllReduce({ranks, 2, Protocol::Simple});
    ExecOptions options = smallRun(ranks * 2 * 100 * 4);
    options.sliceBytes = 30 * 4; // 100 floats per chunk: slices of 30, 30, 30, 10
    options.trace = true;
    const ExecResult result = makeExecutor("cpu")->run(program, options);
    QCOMPARE(execStatusName(result.status), std::string_view("verified"));
    const int steps = 2 * ranks - 1; // per tb: s, n-2 rrs, rrcs, n-2 rcs, r
    QCOMPARE(result.trace.events.size(), std::size_t(ranks * 2 * steps * 4));
    QCOMPARE(result.trace.source, std::string("cpu"));
    QCOMPARE(result.trace.ranks, ranks);
    QCOMPARE(result.trace.mode, std::optional<CallMode>(result.mode)); // how a replay shows it
    std::set<std::tuple<int, int, int, int>> keys;
    std::int64_t bytes = 0;
    for (const TraceEvent& event : result.trace.events) {
      keys.emplace(event.rank, event.tb, event.step, event.slice);
      QVERIFY(event.end >= event.start);
      QCOMPARE(event.channel, event.tb);
      bytes += event.bytes;
    }
    QCOMPARE(keys.size(), result.trace.events.size());
    // Each step moves one chunk: 100 floats over the 4 slices.
    QCOMPARE(bytes, qint64(ranks) * 2 * steps * 100 * 4);
    options.trace = false;
    QVERIFY(makeExecutor("cpu")->run(program, options).trace.events.empty());
  }

  void rejectsSizesTheRuntimeWouldNotSelect()
  {
    const Program program = makeRingAllReduce({4, 1, Protocol::Simple});
    const ExecResult odd = makeExecutor("cpu")->run(program, smallRun(4 * 4 + 4));
    QCOMPARE(execStatusName(odd.status), std::string_view("failed"));
    QCOMPARE(odd.diagnostics.front().code, std::string("exec.size"));
    QVERIFY(odd.diagnostics.front().message.find("5 elements cannot be split into 4") !=
            std::string::npos);
    const ExecResult ragged = makeExecutor("cpu")->run(program, smallRun(18));
    QCOMPARE(ragged.diagnostics.front().code, std::string("exec.size"));
  }

  void rejectsOperandsOutsideTheirBuffer()
  {
    Program program = twoRankAllReduce();
    program.gpus[1].threadblocks[0].steps[1].srcOff = 7;
    const ExecResult result = makeExecutor("cpu")->run(program, smallRun(8));
    QCOMPARE(execStatusName(result.status), std::string_view("failed"));
    QCOMPARE(result.diagnostics.front().code, std::string("exec.operand"));
    QCOMPARE(result.diagnostics.front().location.rank, 1);
    QCOMPARE(result.diagnostics.front().location.step, 1);
  }

  void rejectsTwoThreadblocksOnOneConnection()
  {
    // P8: a second tb on rank 0 sending to rank 1 on channel 0 would share that FIFO.
    Program program = twoRankAllReduce();
    ThreadBlock second;
    second.id = 1;
    second.send = 1;
    second.steps = {inPlaceStep(0, OpType::Send, 0, -1)};
    program.gpus[0].threadblocks.push_back(second);
    const ExecResult result = makeExecutor("cpu")->run(program, smallRun(8));
    QCOMPARE(execStatusName(result.status), std::string_view("failed"));
    QCOMPARE(result.diagnostics.front().code, std::string("exec.duplicate-connection"));
    QCOMPARE(result.diagnostics.front().message,
             std::string("rank 0 tb 1 and tb 0 both send to rank 1 on channel 0; the runtime "
                         "would corrupt that connection"));
  }

  void messageSizeMismatchFails()
  {
    Program program = twoRankAllReduce();
    program.gpus[0].threadblocks[0].steps[0].cnt = 2;
    program.gpus[0].threadblocks[0].steps[0].srcOff = 0;
    const ExecResult result = makeExecutor("cpu")->run(program, smallRun(8));
    QCOMPARE(execStatusName(result.status), std::string_view("failed"));
    QCOMPARE(result.diagnostics.front().code, std::string("exec.message-size"));
  }
};

QTEST_APPLESS_MAIN(TestCpuExecutor)
#include "tst_cpuexecutor.moc"
