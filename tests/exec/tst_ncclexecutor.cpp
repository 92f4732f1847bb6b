// The NCCL executor. Its schedule (ncclrounds.h) is plain C++ and is tested everywhere: on the
// ring all-reduce of engine/catalogue, on hand-written programs with dependencies, deadlocks,
// overwritten sources and wrong sizes, and on every corpus file, whose rounds are also executed
// on the host (every group's messages matched pair by pair in posting order, then the local
// operations) and verified like a run. Without two GPUs the executor must say what it needs; with
// them (label `gpu`), the ring all-reduce runs verified beside NCCL's own ncclAllReduce.

#include "catalogue/ringallreduce.h"
#include "exec/cpu/kernels.h"
#include "exec/cuda/cudaexecutor.h"
#include "exec/execprograms.h"
#include "exec/executor.h"
#include "exec/nccl/ncclexecutor.h"
#include "exec/nccl/ncclrounds.h"
#include "exec/nccl/rankdevices.h"
#include "exec/plan/reference.h"
#include "support/corpus.h"

#include <QTest>

#include <cstring>
#include <deque>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace cs;

namespace {

using test::bufferStep;
using test::inPlaceStep;
using test::twoRankProgram;

/// Both ranks send i[0] and then receive the other's i[0] into it, then the same with i[1] into
/// scratch: i[0] is overwritten after it was sent, on both ranks at once.
Program exchange()
{
  return twoRankProgram("exchange", Collective::Custom, 2, [](int) {
    return std::vector<Step>{
        inPlaceStep(0, OpType::Send, 0, -1), inPlaceStep(1, OpType::Recv, -1, 0),
        inPlaceStep(2, OpType::Send, 1, -1), bufferStep(3, OpType::Recv, Buffer::Scratch, -1, 0)};
  });
}

/// Both ranks receive before they send: a wait cycle under MSCCL's semantics.
Program bothReceiveFirst()
{
  return twoRankProgram("receive_first", Collective::Custom, 2, [](int) {
    return std::vector<Step>{inPlaceStep(0, OpType::Recv, -1, 0),
                             inPlaceStep(1, OpType::Send, 1, -1)};
  });
}

/// Rank 0 receives on tb 0 and forwards what it received on tb 1, which waits for tb 0's
/// publication; rank 1 sends from tb 0 and receives the forwarded chunk on tb 1.
Program forwardWithDependency()
{
  Program program;
  program.name = "forward";
  program.nchunksperloop = 2;
  program.ngpus = 2;
  program.collective = Collective::Custom;
  program.collSpelling = "custom";
  program.inplace = true;
  program.outofplace = false;
  for (int r = 0; r < 2; ++r) {
    Gpu gpu;
    gpu.id = r;
    gpu.inputChunks = 2;
    ThreadBlock first;
    first.id = 0;
    ThreadBlock second;
    second.id = 1;
    second.chan = 1;
    if (r == 0) {
      first.recv = 1;
      Step receive = inPlaceStep(0, OpType::Recv, -1, 1);
      receive.hasdep = true;
      first.steps = {receive};
      second.send = 1;
      Step forward = inPlaceStep(0, OpType::Send, 1, -1);
      forward.depid = 0;
      forward.deps = 0;
      second.steps = {forward};
    } else {
      first.send = 0;
      first.steps = {inPlaceStep(0, OpType::Send, 0, -1)};
      second.recv = 0;
      second.steps = {inPlaceStep(0, OpType::Recv, -1, 1)};
    }
    gpu.threadblocks = {first, second};
    program.gpus.push_back(gpu);
  }
  return program;
}

ExecOptions smallRun(const Program& program, std::int64_t chunkElements, DataType type)
{
  ExecOptions options;
  options.dtype = type;
  options.bytes = chunkElements * program.nchunksperloop * dataTypeSize(type);
  options.timeoutSeconds = 5;
  return options;
}

plan::RunPlan planOf(const Program& program, const ExecOptions& options)
{
  Diagnostics out;
  std::optional<plan::RunPlan> plan = plan::planRun(program, options, out);
  if (!plan)
    qFatal("planRun failed: %s", out.items().front().message.c_str());
  return *plan;
}

/// The first step at or after `depStep` of `depTb` that publishes, or -1.
int publisherOf(const plan::RunPlan& plan, int rank, const plan::PlannedStep& step)
{
  const plan::PlannedThreadblock& target = plan.threadblocks[static_cast<std::size_t>(
      plan.firstThreadblock[static_cast<std::size_t>(rank)] + step.depTb)];
  for (int m = step.depStep; m < static_cast<int>(target.steps.size()); ++m) {
    if (target.steps[static_cast<std::size_t>(m)].publishes)
      return m;
  }
  return -1;
}

/// Every rule ncclrounds.h promises, checked on a schedule; an empty string when all hold.
QString scheduleViolation(const plan::RunPlan& plan, const nccl::RoundSchedule& schedule)
{
  const auto at = [&](std::size_t t, int s) -> const nccl::StepTimes& {
    return schedule.steps[t][static_cast<std::size_t>(s)];
  };
  for (std::size_t t = 0; t < plan.threadblocks.size(); ++t) {
    const plan::PlannedThreadblock& tb = plan.threadblocks[t];
    for (int s = 0; s < static_cast<int>(tb.steps.size()); ++s) {
      const nccl::StepTimes& times = at(t, s);
      const QString where = QString("rank %1 tb %2 step %3: ").arg(tb.rank).arg(tb.tb).arg(s);
      for (const int group : {times.recv, times.send}) {
        if (group >= 0 && group % 2 != 0)
          return where + "a group phase at an odd half round";
      }
      for (const int local : {times.local, times.stage}) {
        if (local >= 0 && local % 2 != 1)
          return where + "a local phase at an even half round";
      }
      for (const int phase : {times.recv, times.local, times.stage, times.send}) {
        if (phase >= 0 && phase < times.start)
          return where + "a phase before the step starts";
      }
      for (const int blocking : {times.recv, times.local, times.stage}) {
        if (blocking >= 0 && times.done <= blocking)
          return where + "the threadblock goes on before a receive or local phase is done";
      }
      if (times.local >= 0 && times.recv >= 0 && times.local <= times.recv)
        return where + "the reduction does not follow its receive";
      if (times.send >= 0 && std::max({times.recv, times.local, times.stage}) >= times.send)
        return where + "a send does not follow what produced its data";
      if (s > 0 && times.start < at(t, s - 1).done)
        return where + "starts before the previous step is done";
      const plan::PlannedStep& step = tb.steps[static_cast<std::size_t>(s)];
      if (step.depTb >= 0) {
        const int publisher = publisherOf(plan, tb.rank, step);
        const std::size_t target = static_cast<std::size_t>(
            plan.firstThreadblock[static_cast<std::size_t>(tb.rank)] + step.depTb);
        if (publisher < 0 || times.start < at(target, publisher).done)
          return where + "starts before its dependency is published";
      }
    }
  }
  for (const nccl::ScheduledMessage& message : schedule.messages) {
    const auto index = [&](int rank, int tb) {
      return static_cast<std::size_t>(plan.firstThreadblock[static_cast<std::size_t>(rank)] + tb);
    };
    const int send = at(index(message.key.from, message.sendTb), message.sendStep).send;
    const int recv = at(index(message.key.to, message.recvTb), message.recvStep).recv;
    if (send < 0 || send != recv || message.round != send / 2)
      return QString("message %1 from rank %2 to %3: its ends are in different rounds")
          .arg(message.index)
          .arg(message.key.from)
          .arg(message.key.to);
  }
  // NCCL matches a pair's calls in posting order: rank a's sends to b in a round must be rank b's
  // receives from a in that round, one for one.
  for (int round = 0; round < schedule.rounds; ++round) {
    for (int a = 0; a < plan.ranks; ++a) {
      for (int b = 0; b < plan.ranks; ++b) {
        std::vector<std::tuple<int, int, int>> sent;
        std::vector<std::tuple<int, int, int>> received;
        for (const nccl::PeerOp& op :
             schedule.ranks[static_cast<std::size_t>(a)][static_cast<std::size_t>(round)].sends) {
          if (op.peer == b)
            sent.emplace_back(op.chan, op.index, op.cnt);
        }
        for (const nccl::PeerOp& op :
             schedule.ranks[static_cast<std::size_t>(b)][static_cast<std::size_t>(round)].recvs) {
          if (op.peer == a)
            received.emplace_back(op.chan, op.index, op.cnt);
        }
        if (sent != received)
          return QString("round %1: rank %2 posts its sends to rank %3 unlike that rank's "
                         "receives")
              .arg(round)
              .arg(a)
              .arg(b);
      }
    }
  }
  return {};
}

/// Runs a schedule's rounds on the host memory of `state` the way the NCCL executor posts them:
/// per round, every send's data taken at the group, each pair's messages matched in posting
/// order, then each rank's local operations. Fails (with the reason in `problem`) when a group
/// receives into memory one of its own sends reads, or when two local operations of one kernel
/// touch the same memory with a write: those would be races on a GPU (the problem then starts
/// with "race:"; a program that races by itself shows them too).
bool emulateRounds(const nccl::RoundSchedule& schedule, plan::HostMemory& state, DataType type,
                   ReduceOp op, QString* problem)
{
  const plan::RunPlan& plan = state.plan;
  const std::int64_t chunkBytes = plan.chunkElements * plan.elementSize;
  const cpu::Kernels kernels = cpu::selectKernels(type, op);
  std::vector<std::vector<std::byte>> temporaries;
  for (const std::int64_t chunks : schedule.temporaryChunks)
    temporaries.emplace_back(static_cast<std::size_t>(chunks * chunkBytes), std::byte{0});
  const auto address = [&](int rank, const nccl::DataRef& ref) {
    std::byte* base =
        ref.temporary
            ? temporaries[static_cast<std::size_t>(rank)].data()
            : state.memory[static_cast<std::size_t>(rank)][static_cast<std::size_t>(ref.memory)]
                  .data();
    return base + ref.chunk * chunkBytes;
  };
  struct Region {
    bool temporary;
    Buffer memory;
    std::int64_t first;
    std::int64_t end;
  };
  const auto region = [](const nccl::DataRef& ref, int cnt) {
    return Region{ref.temporary, ref.temporary ? Buffer::Input : ref.memory, ref.chunk,
                  ref.chunk + cnt};
  };
  const auto overlap = [](const Region& x, const Region& y) {
    return x.temporary == y.temporary && x.memory == y.memory && x.first < y.end && y.first < x.end;
  };
  for (int round = 0; round < schedule.rounds; ++round) {
    std::map<std::pair<int, int>, std::deque<std::vector<std::byte>>> inFlight;
    for (int r = 0; r < plan.ranks; ++r) {
      const nccl::RankRound& work =
          schedule.ranks[static_cast<std::size_t>(r)][static_cast<std::size_t>(round)];
      for (const nccl::PeerOp& send : work.sends) {
        for (const nccl::PeerOp& recv : work.recvs) {
          if (overlap(region(send.data, send.cnt), region(recv.data, recv.cnt))) {
            *problem = QString("race: round %1 rank %2: a receive writes what a send reads")
                           .arg(round)
                           .arg(r);
            return false;
          }
        }
        const std::byte* data = address(r, send.data);
        inFlight[{r, send.peer}].emplace_back(data, data + send.cnt * chunkBytes);
      }
    }
    for (int r = 0; r < plan.ranks; ++r) {
      for (const nccl::PeerOp& recv :
           schedule.ranks[static_cast<std::size_t>(r)][static_cast<std::size_t>(round)].recvs) {
        auto& queue = inFlight[{recv.peer, r}];
        if (queue.empty() ||
            static_cast<std::int64_t>(queue.front().size()) != recv.cnt * chunkBytes) {
          *problem = QString("round %1 rank %2: no message of the right size from rank %3")
                         .arg(round)
                         .arg(r)
                         .arg(recv.peer);
          return false;
        }
        std::memcpy(address(r, recv.data), queue.front().data(), queue.front().size());
        queue.pop_front();
      }
    }
    for (const auto& [pair, queue] : inFlight) {
      if (!queue.empty()) {
        *problem = QString("round %1: rank %2 sent to rank %3 more than it received")
                       .arg(round)
                       .arg(pair.first)
                       .arg(pair.second);
        return false;
      }
    }
    for (int r = 0; r < plan.ranks; ++r) {
      const std::vector<nccl::LocalOp>& locals =
          schedule.ranks[static_cast<std::size_t>(r)][static_cast<std::size_t>(round)].locals;
      for (std::size_t i = 0; i < locals.size(); ++i) {
        std::vector<Region> writes{region(locals[i].out, locals[i].cnt)};
        if (locals[i].out2)
          writes.push_back(region(*locals[i].out2, locals[i].cnt));
        for (std::size_t j = 0; j < locals.size(); ++j) {
          if (j == i)
            continue;
          std::vector<Region> touched{region(locals[j].out, locals[j].cnt),
                                      region(locals[j].a, locals[j].cnt)};
          if (locals[j].kind == nccl::LocalKind::Reduce)
            touched.push_back(region(locals[j].b, locals[j].cnt));
          for (const Region& w : writes) {
            for (const Region& other : touched) {
              if (overlap(w, other)) {
                *problem = QString("race: round %1 rank %2: two local operations of one kernel "
                                   "touch the same memory")
                               .arg(round)
                               .arg(r);
                return false;
              }
            }
          }
        }
      }
      for (const nccl::LocalOp& local : locals) {
        const std::int64_t n = local.cnt * plan.chunkElements;
        std::byte* out = address(r, local.out);
        const std::byte* a = address(r, local.a);
        if (local.kind == nccl::LocalKind::Copy)
          std::memmove(out, a, static_cast<std::size_t>(n * plan.elementSize));
        else if (local.out2)
          kernels.reduceTwice(out, address(r, *local.out2), a, address(r, local.b), n);
        else
          kernels.reduce(out, a, address(r, local.b), n);
      }
    }
  }
  return true;
}

/// Schedules `program`, emulates its rounds and verifies the result like a run.
plan::Verification emulatedRun(const Program& program, const ExecOptions& options, QString* problem)
{
  const plan::RunPlan plan = planOf(program, options);
  Diagnostics out;
  std::vector<BlockedPosition> blocked;
  const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(plan, blocked, out);
  plan::Verification failed;
  failed.status = ExecStatus::Failed;
  if (!schedule) {
    *problem = blocked.empty() ? QString::fromStdString(out.items().front().message)
                               : "deadlock at " + QString::fromStdString(describe(blocked[0]));
    return failed;
  }
  *problem = scheduleViolation(plan, *schedule);
  if (!problem->isEmpty())
    return failed;
  plan::HostMemory state(plan);
  plan::initialiseMemory(program, options.dtype, options.op, state);
  if (!emulateRounds(*schedule, state, options.dtype, options.op, problem))
    return failed;
  return plan::verifyResult(program, options, state);
}

std::set<std::tuple<int, int, int, int, int>> positionsOf(const std::vector<BlockedPosition>& all)
{
  std::set<std::tuple<int, int, int, int, int>> positions;
  for (const BlockedPosition& position : all) {
    positions.insert({position.rank, position.tb, position.step,
                      static_cast<int>(position.waitsFor), position.peer});
  }
  return positions;
}

int visibleGpus(std::string* why)
{
  return visibleCudaDevices(why).value_or(0);
}

#define CS_REQUIRE_GPUS(n)                                                                         \
  do {                                                                                             \
    std::string why;                                                                               \
    const int found = visibleGpus(&why);                                                           \
    if (found < (n))                                                                               \
      QSKIP(qPrintable(                                                                            \
          QString("the NCCL executor needs %1 GPUs; %2 found%3")                                   \
              .arg(n)                                                                              \
              .arg(found)                                                                          \
              .arg(why.empty() ? QString() : " (" + QString::fromStdString(why) + ")")));          \
  } while (false)

} // namespace

class TestNcclExecutor : public QObject
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
    // The executor says so before looking for GPUs, at the positions the CPU executor's
    // watchdog names after running into it.
    const ExecResult nccl = makeNcclExecutor()->run(program, options);
    QCOMPARE(execStatusName(nccl.status), std::string_view("hung"));
    QCOMPARE(nccl.diagnostics.front().code, std::string("exec.hang"));
    QCOMPARE(nccl.diagnostics.front().related.size(), std::size_t(2));
    QCOMPARE(positionsOf(nccl.blocked), expected);
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
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    const auto manifest = test::readManifest();
    for (const QString& path : test::corpusFiles()) {
      const QString name = path.section('/', -1);
      QTest::newRow(qPrintable(name)) << path << manifest.value(name).value("expected");
    }
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
             std::string("the NCCL executor runs one rank per GPU and needs at least 2 GPUs: this "
                         "program has 8 ranks but 1 GPU is visible; use --backend cuda to run "
                         "many ranks on one GPU"));
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

  void withoutEnoughGpusItSaysWhatItNeeds()
  {
    std::string why;
    const int found = visibleGpus(&why);
    const int ranks = std::max(8, found + 1);
    const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
    const ExecResult result = makeNcclExecutor()->run(program, smallRun(program, 4, DataType::F32));
    QCOMPARE(execStatusName(result.status), std::string_view("failed"));
    QVERIFY(!result.diagnostics.empty());
    const Diagnostic& first = result.diagnostics.front();
    QCOMPARE(first.code, std::string("exec.nccl-devices"));
    QVERIFY2(first.message.find("this program has " + std::to_string(ranks) + " ranks") !=
                 std::string::npos,
             first.message.c_str());
    QVERIFY(result.iterationUs.empty());
    QVERIFY(result.libraryUs.empty());
  }

  void ringAllReduceOnGpus_data()
  {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("op");
    QTest::newRow("float sum") << int(DataType::F32) << int(ReduceOp::Sum);
    QTest::newRow("int32 max") << int(DataType::I32) << int(ReduceOp::Max);
  }
  void ringAllReduceOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    QFETCH(int, type);
    QFETCH(int, op);
    const int ranks = std::min(8, visibleGpus(nullptr));
    const Program program = makeRingAllReduce({ranks, 2, Protocol::Simple});
    // 1000 elements per chunk: the local kernels' vector loops and their tails both run.
    ExecOptions options = smallRun(program, 1000, static_cast<DataType>(type));
    options.op = static_cast<ReduceOp>(op);
    options.warmup = 1;
    options.iterations = 2;
    options.trace = true;
    options.timeoutSeconds = 20;
    const ExecResult result = makeNcclExecutor()->run(program, options);
    QVERIFY2(result.status == ExecStatus::Verified,
             qPrintable(test::describeDiagnostics(result.diagnostics)));
    QCOMPARE(result.wrong, 0);
    QCOMPARE(result.checked, qint64(ranks) * 2 * ranks * 1000);
    QCOMPARE(result.iterationUs.size(), std::size_t(2));
    QVERIFY(result.iterationUs[0] > 0);
    QCOMPARE(result.libraryCall, std::string("ncclAllReduce"));
    QCOMPARE(result.libraryUs.size(), std::size_t(2));
    QVERIFY(result.libraryUs[0] > 0);
    QVERIFY(test::hasCode(result.diagnostics, "exec.nccl-no-slicing"));
    QCOMPARE(result.trace.source, std::string("nccl"));
    QCOMPARE(result.trace.events.size(),
             std::size_t(ranks) * 2 * program.gpus[0].threadblocks[0].steps.size());
    for (const TraceEvent& event : result.trace.events) {
      QVERIFY(event.start <= event.end);
      QVERIFY(event.end <= result.trace.totalUs);
    }
  }

  void corpusOnGpus_data() { corpusSchedulesAndEmulates_data(); }
  void corpusOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    const Program program = test::loadProgram(path);
    if (program.ngpus > visibleGpus(nullptr))
      QSKIP(qPrintable(QString("%1 ranks, more than this machine's GPUs").arg(program.ngpus)));
    const int mult = sizeMultiplier(program.collective, program.ngpus);
    const std::int64_t chunkElements =
        mult / std::gcd<std::int64_t>(program.nchunksperloop, mult) * 300;
    for (const CallMode mode : declaredModes(program)) {
      ExecOptions options = smallRun(program, chunkElements, DataType::I32);
      options.mode = mode;
      options.timeoutSeconds = 20;
      const ExecResult result = makeNcclExecutor()->run(program, options);
      const QString what =
          QString("%1: %2").arg(QString::fromStdString(std::string(callModeName(mode))),
                                test::describeDiagnostics(result.diagnostics));
      if (expected.startsWith("RACE")) // what it computes depends on timing
        QVERIFY2(result.status != ExecStatus::Failed && result.status != ExecStatus::Hung,
                 qPrintable(what));
      else if (expected.startsWith("post PASS"))
        QVERIFY2(result.status == ExecStatus::Verified, qPrintable(what));
      else if (expected.contains("post FAIL"))
        QVERIFY2(result.status == ExecStatus::Wrong && result.wrong > 0, qPrintable(what));
      else
        QVERIFY2(result.status == ExecStatus::NotVerified, qPrintable(what));
    }
  }

  void stagedExchangeOnGpus()
  {
    CS_REQUIRE_GPUS(2);
    // Staged sends and a receive into scratch on real GPUs; a custom collective has nothing to
    // verify, so the run must simply end (overwrittenSourcesAreStagedOnlyWhenNeeded checks the
    // data of the same rounds on the host).
    const Program program = exchange();
    const ExecResult result =
        makeNcclExecutor()->run(program, smallRun(program, 96, DataType::I32));
    QCOMPARE(execStatusName(result.status), std::string_view("not-verified"));
    QVERIFY(result.libraryCall.empty());
  }
};

QTEST_APPLESS_MAIN(TestNcclExecutor)
#include "tst_ncclexecutor.moc"
