#include "ncclroundcheck.h"

#include "exec/cpu/kernels_p.h"
#include "exec/execprograms.h"
#include "support/corpus.h"

#include <QTest>

#include <QtGlobal>

#include <cstring>
#include <deque>
#include <map>

namespace cs::test {

namespace {

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

} // namespace

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

void addCorpusRows()
{
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("expected");
  const auto manifest = readManifest();
  for (const QString& path : corpusFiles()) {
    const QString name = path.section('/', -1);
    QTest::newRow(qPrintable(name)) << path << manifest.value(name).value("expected");
  }
}

} // namespace cs::test
