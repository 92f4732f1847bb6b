#include "ncclexecutor.h"

#include "exec/plan/reference.h"
#include "exec/plan/runloop.h"
#include "model/collectivespec.h"
#include "ncclrounds_p.h"
#include "ncclsession_p.h"
#include "ncclstatus_p.h"
#include "rankdevices_p.h"

#include <algorithm>
#include <new>

namespace cs {

namespace {

nccl::VisibleDevices visibleDevices()
{
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    // Not a failure of this run: the answer is "none", and why. The error is cleared so that a
    // missing driver is not this thread's next call's problem (its result is that same error).
    static_cast<void>(cudaGetLastError());
    return {std::nullopt, plan::CallStatus<cudaError_t>::describe(error)};
  }
  return {count, {}};
}

/// The root of NCCL's broadcast or reduce: the one asked for, else the program's own when its
/// data flow names exactly one (as verification infers it), else rank 0.
int libraryRoot(const Program& program, const ExecOptions& options)
{
  if (options.root)
    return *options.root;
  if (program.collective != Collective::Broadcast && program.collective != Collective::Reduce)
    return 0;
  const std::vector<int> candidates = rootCandidates(program);
  return candidates.size() == 1 ? candidates.front() : 0;
}

/// "rank 0 in round 3 of 14, rank 1 finished".
std::string describeStalled(const std::vector<nccl::StalledRank>& stalled, int rounds)
{
  std::string text;
  for (const nccl::StalledRank& rank : stalled) {
    text += (text.empty() ? "rank " : ", rank ") + std::to_string(rank.rank) +
            (rank.round < 0
                 ? " finished"
                 : " in round " + std::to_string(rank.round) + " of " + std::to_string(rounds));
  }
  return text;
}

/// The positions a stopped run was at: for each rank that had not finished, the first step of
/// the round it was in (a receive if the round has one, since that is what a stuck group waits
/// for).
std::vector<BlockedPosition> stalledPositions(const plan::RunPlan& plan,
                                              const nccl::RoundSchedule& schedule,
                                              const std::vector<nccl::StalledRank>& stalled)
{
  std::vector<BlockedPosition> blocked;
  for (const nccl::StalledRank& rank : stalled) {
    if (rank.round < 0)
      continue;
    const nccl::RankRound& round =
        schedule.ranks[static_cast<std::size_t>(rank.rank)][static_cast<std::size_t>(rank.round)];
    BlockedPosition position;
    position.rank = rank.rank;
    position.slice = 0;
    position.waitsFor = WaitKind::Message;
    const nccl::PeerOp* op = !round.recvs.empty()   ? &round.recvs.front()
                             : !round.sends.empty() ? &round.sends.front()
                                                    : nullptr;
    if (op) {
      position.tb = op->tb;
      position.step = op->step;
      position.peer = op->peer;
      position.channel = op->chan;
    } else if (!round.locals.empty()) {
      position.tb = round.locals.front().tb;
      position.step = round.locals.front().step;
      position.channel =
          plan
              .threadblocks[static_cast<std::size_t>(
                  plan.firstThreadblock[static_cast<std::size_t>(rank.rank)] + position.tb)]
              .chan;
    }
    blocked.push_back(position);
  }
  return blocked;
}

Trace buildTrace(const plan::RunPlan& plan, const nccl::RoundSchedule& schedule,
                 const std::vector<std::vector<double>>& roundEnds)
{
  Trace trace;
  trace.source = "nccl";
  trace.ranks = plan.ranks;
  for (std::size_t t = 0; t < plan.threadblocks.size(); ++t) {
    const plan::PlannedThreadblock& tb = plan.threadblocks[t];
    const std::vector<double>& ends = roundEnds[static_cast<std::size_t>(tb.rank)];
    const auto endOf = [&](int round) {
      return round < 0 || ends.empty() ? 0.0
                                       : ends[static_cast<std::size_t>(
                                             std::min(round, static_cast<int>(ends.size()) - 1))];
    };
    for (std::size_t s = 0; s < tb.steps.size(); ++s) {
      const plan::PlannedStep& step = tb.steps[s];
      const nccl::StepTimes& times = schedule.steps[t][s];
      int first = -1;
      int last = -1;
      for (const int time : {times.recv, times.local, times.stage, times.send}) {
        if (time < 0)
          continue;
        const int round = nccl::RoundSchedule::roundOf(time);
        first = first < 0 ? round : std::min(first, round);
        last = std::max(last, round);
      }
      const OpTraits traits = opTraits(step.type);
      TraceEvent event;
      event.rank = tb.rank;
      event.tb = tb.tb;
      event.step = static_cast<int>(s);
      event.slice = 0;
      event.op = step.type;
      event.peer = traits.sends ? tb.send : traits.receives ? tb.recv : -1;
      event.recvPeer = traits.receives ? tb.recv : -1;
      event.channel = tb.chan;
      event.bytes = std::int64_t{step.cnt} * plan.chunkElements * plan.elementSize;
      if (first < 0) { // a nop: an instant where the threadblock reached it
        event.start = event.end = endOf(nccl::RoundSchedule::roundOf(times.start) - 1);
      } else {
        event.start = endOf(first - 1);
        event.end = endOf(last);
      }
      trace.totalUs = std::max(trace.totalUs, event.end);
      trace.events.push_back(std::move(event));
    }
  }
  return trace;
}

/// The GPU of each rank this process runs: all of them (one per GPU), or under a launcher the
/// one rank the process was started for.
std::optional<std::vector<int>> devicesOfRun(const Program& program, const ExecOptions& options,
                                             Diagnostics& out)
{
  if (!options.rankGroup)
    return nccl::assignDevices(program.ngpus, visibleDevices(), options.deviceOfRank, out);
  const RankGroup& group = *options.rankGroup;
  if (group.world() != program.ngpus) {
    out.error("exec.nccl-rendezvous", "the launcher started " + std::to_string(group.world()) +
                                          " processes but the program has " +
                                          std::to_string(program.ngpus) + " ranks");
    return std::nullopt;
  }
  const std::optional<int> device = nccl::launchedRankDevice(
      group.rank(), group.localRank(), visibleDevices(), options.deviceOfRank, out);
  if (!device)
    return std::nullopt;
  return std::vector<int>{*device};
}

/// A launcher run: rank 0 creates NCCL's unique id, the rendezvous hands it to every process,
/// and each joins the communicator as its own rank (ncclCommInitRank).
bool openLaunchedRank(RankGroup& group, int device, nccl::NcclSession& session, Diagnostics& out)
{
  std::vector<std::byte> id;
  if (group.rank() == 0 && !nccl::NcclSession::createUniqueId(id, out))
    return false; // the caller still meets the others (RankGroup::idShared) to stop them
  std::string error;
  const std::optional<std::vector<std::byte>> shared = group.shareId(id, &error);
  if (!shared) {
    out.error("exec.nccl-rendezvous", error);
    return false;
  }
  return session.openRank(group.rank(), group.world(), device, *shared, out);
}

/// The NCCL executor's hooks for the shared run loop: every launch is one iteration of the
/// schedule's rounds on the rank threads, the inputs restored there first from the second on.
class NcclRun final : public plan::RunBackend
{
public:
  NcclRun(const ExecOptions& options, const nccl::RoundSchedule& schedule,
          nccl::NcclSession& session, plan::HostMemory& mirror)
      : m_options(options), m_schedule(schedule), m_session(session), m_mirror(mirror)
  {
  }

  bool restore(Diagnostics& /*out*/) override
  {
    m_restoreFirst = true; // done by the rank threads, on their streams, before the rounds
    return true;
  }
  plan::LaunchOutcome launch(bool /*trace*/, Diagnostics& out) override
  {
    // Every launch records the events the trace is made from.
    switch (m_session.launch(nccl::Work::Iteration, m_restoreFirst, m_options.timeoutSeconds, out,
                             m_options.cancel)) {
    case nccl::LaunchOutcome::Finished:
      return plan::LaunchOutcome::Finished;
    case nccl::LaunchOutcome::Hung:
      return plan::LaunchOutcome::Hung;
    case nccl::LaunchOutcome::Failed:
      break;
    }
    return plan::LaunchOutcome::Failed;
  }
  std::optional<double> elapsedUs(Diagnostics& out) override { return m_session.iterationUs(out); }
  void reportHang(ExecResult& result, Diagnostics& out) override
  {
    const std::vector<nccl::StalledRank> stalled = m_session.stalledRanks();
    plan::reportHang("no progress for " + plan::formatSeconds(m_options.timeoutSeconds) +
                         " s: the watchdog aborted the NCCL communicators (" +
                         describeStalled(stalled, m_schedule.rounds) + ")",
                     stalledPositions(m_mirror.plan, m_schedule, stalled), result, out);
  }
  bool collect(bool trace, Diagnostics& out) override
  {
    if (trace && !(m_roundEnds = m_session.roundEndUs(m_schedule.rounds, out)))
      return false;
    return m_session.download(m_mirror, out);
  }
  plan::HostMemory& results() override { return m_mirror; }
  Trace trace() override
  {
    Trace trace = buildTrace(m_mirror.plan, m_schedule, *m_roundEnds);
    trace.device = m_session.description();
    return trace;
  }

private:
  const ExecOptions& m_options;
  const nccl::RoundSchedule& m_schedule;
  nccl::NcclSession& m_session;
  plan::HostMemory& m_mirror;
  bool m_restoreFirst = false;
  std::optional<std::vector<std::vector<double>>> m_roundEnds;
};

class NcclExecutor final : public Executor
{
public:
  std::string_view name() const override { return "nccl"; }

  ExecResult run(const Program& program, const ExecOptions& options) override
  {
    // A launcher run holds only its own rank's memory: only that rank's results are compared,
    // and the trace (built from every rank's round times) is not available.
    ExecOptions effective = options;
    if (options.rankGroup) {
      effective.verifyRank = options.rankGroup->rank();
      effective.trace = false;
    }
    // Sizes come from users: a run that does not fit in host memory is a result, not a crash.
    try {
      return runChecked(program, effective);
    } catch (const std::bad_alloc&) {
      return plan::memoryFailure("host memory", options.bytes, program.ngpus,
                                 "the host copy used for verification");
    }
  }

private:
  ExecResult runChecked(const Program& program, const ExecOptions& options);
  void runOnGpus(const Program& program, const ExecOptions& options,
                 const nccl::RoundSchedule& schedule, const std::vector<int>& devices,
                 plan::HostMemory& mirror, ExecResult& result, Diagnostics& out);
  void runLibrary(const nccl::LibraryCall& call, const ExecOptions& options,
                  nccl::NcclSession& session, ExecResult& result, Diagnostics& out);
};

ExecResult NcclExecutor::runChecked(const Program& program, const ExecOptions& options)
{
  ExecResult result;
  Diagnostics out;
  std::optional<plan::RunPlan> plan = plan::planRun(program, options, out);
  if (!plan) {
    result.diagnostics = out.take();
    return result;
  }
  plan::describePlan(*plan, result);
  result.slices = 1; // no slicing loop (exec.nccl-no-slicing)
  // The schedule needs no GPU: a deadlocking program is reported as such on any machine.
  std::vector<BlockedPosition> blocked;
  const std::optional<nccl::RoundSchedule> schedule = nccl::scheduleRounds(*plan, blocked, out);
  if (!schedule) {
    if (!blocked.empty()) {
      plan::reportHang("the program deadlocks: its threadblocks wait for each other in a cycle (or "
                       "for a message nobody sends), so no order of grouped NCCL calls exists; " +
                           std::to_string(blocked.size()) +
                           " threadblocks would wait forever and the NCCL executor did not run it",
                       std::move(blocked), result, out);
    }
    result.diagnostics = out.take();
    return result;
  }
  const std::optional<std::vector<int>> devices = devicesOfRun(program, options, out);
  if (!devices) {
    result.diagnostics = out.take();
    return result;
  }
  out.info("exec.nccl-no-slicing",
           "the NCCL executor has no slicing loop: each step moves its cnt × " +
               std::to_string(plan->chunkElements) +
               " elements as one message, and the program runs as " +
               std::to_string(schedule->rounds) + " rounds of grouped ncclSend/ncclRecv" +
               (schedule->stagedSends > 0
                    ? " (" + std::to_string(schedule->stagedSends) +
                          " sends are staged in a copy because a later step overwrites their "
                          "source)"
                    : std::string()));
  plan::HostMemory mirror(std::move(*plan));
  plan::initialiseMemory(program, options.dtype, options.op, mirror);
  runOnGpus(program, options, *schedule, *devices, mirror, result, out);
  result.diagnostics = out.take();
  return result;
}

void NcclExecutor::runOnGpus(const Program& program, const ExecOptions& options,
                             const nccl::RoundSchedule& schedule, const std::vector<int>& devices,
                             plan::HostMemory& mirror, ExecResult& result, Diagnostics& out)
{
  const plan::RunPlan& plan = mirror.plan;
  const std::optional<nccl::LibraryCall> library = nccl::libraryCallFor(
      program.collective, plan.mode, plan.ranks, plan.count, libraryRoot(program, options));
  nccl::NcclSession::Config config;
  config.dtype = options.dtype;
  config.op = options.op;
  config.chunkElements = plan.chunkElements;
  config.elementSize = plan.elementSize;
  config.libraryRuns = library ? options.warmup + options.iterations : 0;
  // Shared with the rank threads, which may outlive this call if NCCL never returns to them.
  const auto session = std::make_shared<nccl::NcclSession>(config);
  const auto finish = [&] { session->close(options.timeoutSeconds, out); };
  const bool opened = options.rankGroup
                          ? openLaunchedRank(*options.rankGroup, devices.front(), *session, out)
                          : session->open(devices, out);
  if (!opened || !session->upload(program, schedule, mirror, out))
    return finish();
  NcclRun run(options, schedule, *session, mirror);
  if (!plan::runIterations(program, options, run, result, out))
    return finish();
  if (library)
    runLibrary(*library, options, *session, result, out);
  finish();
}

void NcclExecutor::runLibrary(const nccl::LibraryCall& call, const ExecOptions& options,
                              nccl::NcclSession& session, ExecResult& result, Diagnostics& out)
{
  // The program's result stands whatever happens here: problems become warnings.
  Diagnostics library;
  if (session.prepareLibrary(call, library)) {
    const nccl::LaunchOutcome outcome =
        session.launch(nccl::Work::Library, false, options.timeoutSeconds, library, options.cancel);
    if (outcome == nccl::LaunchOutcome::Hung && options.cancel && options.cancel->load()) {
      library.error("exec.cancelled", call.name + " was cancelled");
    } else if (outcome == nccl::LaunchOutcome::Finished) {
      result.libraryUs = session.libraryUs(options.warmup, library);
      if (!result.libraryUs.empty())
        result.libraryCall = call.name;
    } else if (outcome == nccl::LaunchOutcome::Hung) {
      library.error("exec.hang", call.name + " made no progress for " +
                                     plan::formatSeconds(options.timeoutSeconds) +
                                     " s; the watchdog aborted it");
    }
  }
  for (Diagnostic diagnostic : library.take()) {
    diagnostic.severity = Severity::Warning;
    diagnostic.message = "NCCL's own collective, measured for comparison: " + diagnostic.message;
    out.append({diagnostic});
  }
}

} // namespace

std::unique_ptr<Executor> makeNcclExecutor()
{
  return std::make_unique<NcclExecutor>();
}

} // namespace cs
