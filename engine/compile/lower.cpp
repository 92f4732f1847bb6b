// The lowering driver: validation, fusion, assignment and emission, repeated with more channels
// (or smaller local threadblocks) while the dialect's limits are exceeded, then instances and the
// <algo> attributes of the target runtime.

#include "lower.h"

#include "lowerplan_p.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cs {

namespace {

using namespace lowering;

/// What the emitted threadblocks need from the runtime, and whether a local-only threadblock
/// is the one over the step limit.
struct Usage {
  int maxSteps = 0;
  bool localOverLimit = false;
  int maxThreadblocks = 0;
  int maxPeersPerChannel = 0;
  int channels = 1;
};

Usage measure(const std::vector<Gpu>& gpus, const Dialect& d)
{
  Usage u;
  for (const Gpu& gpu : gpus) {
    u.maxThreadblocks = std::max(u.maxThreadblocks, static_cast<int>(gpu.threadblocks.size()));
    std::set<std::pair<int, int>> sendPeers;
    std::set<std::pair<int, int>> recvPeers;
    for (const ThreadBlock& tb : gpu.threadblocks) {
      const int steps = static_cast<int>(tb.steps.size());
      u.maxSteps = std::max(u.maxSteps, steps);
      if (steps > d.maxStepsPerThreadblock && tb.send < 0 && tb.recv < 0)
        u.localOverLimit = true;
      u.channels = std::max(u.channels, tb.chan + 1);
      if (tb.send >= 0)
        sendPeers.insert({tb.chan, tb.send});
      if (tb.recv >= 0)
        recvPeers.insert({tb.chan, tb.recv});
    }
    for (const auto* peers : {&sendPeers, &recvPeers}) {
      std::vector<int> perChannel(static_cast<std::size_t>(u.channels), 0);
      for (const auto& [chan, peer] : *peers)
        u.maxPeersPerChannel =
            std::max(u.maxPeersPerChannel, ++perChannel[static_cast<std::size_t>(chan)]);
    }
  }
  return u;
}

/// "; the executor allows 1024" for the dialects whose `limit` is above `needed`, or "".
std::string otherDialectsFitting(const Dialect& d, int needed, int Dialect::*limit)
{
  std::string text;
  for (const DialectId other : allDialects()) {
    const Dialect& o = dialect(other);
    if (other != d.id && o.*limit >= needed)
      text += std::string(text.empty() ? "; " : ", ") + std::string(o.title) + " allows " +
              std::to_string(o.*limit);
  }
  return text;
}

void reportLimits(const Program& program, const Dialect& d, Diagnostics& out)
{
  const Usage u = measure(program.gpus, d);
  const std::string runtime(d.title);
  // Each message names the runtime's limit with both figures and what would fit instead.
  if (u.maxSteps > d.maxStepsPerThreadblock)
    out.error("lower.steps-per-tb",
              "a threadblock needs " + std::to_string(u.maxSteps) + " steps but " + runtime +
                  " allows " + std::to_string(d.maxStepsPerThreadblock) +
                  " (MSCCL_MAX_NUM_STEPS), even spread over the " + std::to_string(u.channels) +
                  " channels used (at most " + std::to_string(d.maxChannels) +
                  "); pins or one long chain keep it there: fewer steps per rank fit (a "
                  "hierarchical variant, or a runtime rebuilt with a larger MSCCL_MAX_NUM_STEPS)" +
                  otherDialectsFitting(d, u.maxSteps, &Dialect::maxStepsPerThreadblock));
  if (u.maxThreadblocks > d.maxThreadblocksPerRank)
    out.error(
        "lower.threadblocks",
        "a rank needs " + std::to_string(u.maxThreadblocks) +
            " threadblocks (one per peer and channel, a send and a receive packed into one) but " +
            runtime + " allows " + std::to_string(d.maxThreadblocksPerRank) +
            " per rank: fewer peers per rank fit (a hierarchical or two-step variant)" +
            otherDialectsFitting(d, u.maxThreadblocks, &Dialect::maxThreadblocksPerRank));
  if (program.nchannels > d.maxChannels)
    out.error("lower.channels",
              "the program needs " + std::to_string(program.nchannels) + " channels but " +
                  runtime + " allows " + std::to_string(d.maxChannels) +
                  ": fewer --channels or --instances fit" +
                  otherDialectsFitting(d, program.nchannels, &Dialect::maxChannels));
  if (u.maxPeersPerChannel > d.maxPeersPerChannel)
    out.error("lower.peers-per-channel",
              "a rank talks to " + std::to_string(u.maxPeersPerChannel) +
                  " peers on one channel but " + runtime + " allows " +
                  std::to_string(d.maxPeersPerChannel) +
                  " (MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL), even over the " +
                  std::to_string(u.channels) + " channels used (at most " +
                  std::to_string(d.maxChannels) +
                  "): fewer peers per rank fit (a hierarchical or two-step variant)");
}

void setAlgoAttributes(Program& program, const Schedule& schedule, const LowerOptions& options,
                       Diagnostics& out)
{
  const Dialect& d = dialect(options.dialect);
  program.proto = options.protocol;
  program.ngpus = schedule.ranks;
  program.collective = schedule.collective;
  if (const auto spelling = d.collSpelling(schedule.collective)) {
    program.collSpelling = std::string(*spelling);
  } else {
    for (DialectId other : allDialects())
      if (const auto s = dialect(other).collSpelling(schedule.collective))
        program.collSpelling = std::string(*s);
    out.error("lower.collective", std::string(d.title) + " has no collective \"" +
                                      std::string(collectiveTitle(schedule.collective)) +
                                      "\"; export for another runtime");
  }
  program.minBytes = 0;
  if (options.dialect == DialectId::Classic) {
    // The classic runtime ignores outofplace and reads maxBytes=0 as "never" (pitfall P2).
    program.outofplace.reset();
    program.maxBytes = std::numeric_limits<std::int32_t>::max();
    if (schedule.inplace && schedule.outofplace)
      out.info("lower.call-modes", std::string(d.title) +
                                       " serves either in-place or out-of-place calls; the "
                                       "program is written for in-place calls");
  } else {
    program.outofplace = schedule.outofplace;
    program.maxBytes = 0;
  }
}

/// `schedule` with every transfer wider than `limit` chunks split into messages of one step:
/// the runtime's cnt limit, or single chunks for instances (splitIntoPieces). The split schedule
/// is kept in `split`; a schedule with nothing to split is used as it is, not copied.
const Schedule& withinCountLimit(const Schedule& schedule, int limit,
                                 std::unordered_map<int, int>& originalId,
                                 std::optional<Schedule>& split)
{
  const bool wider = std::any_of(schedule.transfers.begin(), schedule.transfers.end(),
                                 [limit](const Transfer& t) { return t.count > limit; });
  if (!wider)
    return schedule;
  split = splitIntoPieces(schedule, limit, originalId);
  return *split;
}

/// The channel count the emitted program would make emitWithinLimits jump to, known without
/// emitting it, or 0. The operations of a threadblock are a lower bound of its steps (nops come on
/// top): when that bound alone spreads over all of the runtime's channels, the jump is to all of
/// them, whatever the nops. Not when a threadblock holds only local copies, whose step count
/// decides first. Emitting a program only to measure it took half the lowering time of a 1,024-rank
/// ring.
int channelsKnownBeforeEmitting(const Plan& plan, const Dialect& d, int channels, bool channelsFree)
{
  if (!channelsFree || channels >= d.maxChannels)
    return 0;
  std::size_t maxOps = 0;
  for (const TbPlan& tb : plan.tbs) {
    if (tb.sendPeer < 0 && tb.recvPeer < 0 && !tb.ops.empty())
      return 0;
    maxOps = std::max(maxOps, tb.ops.size());
  }
  const auto atLeast = static_cast<long long>(maxOps);
  const long long limit = d.maxStepsPerThreadblock;
  if (atLeast <= limit || (atLeast * channels + limit - 1) / limit < d.maxChannels)
    return 0;
  return d.maxChannels;
}

/// The channel count the first assignment may start from: all of the runtime's channels when one
/// connection alone carries more messages than its threadblocks could hold on fewer. At one channel
/// that connection's messages are all one threadblock's operations, so channelsKnownBeforeEmitting
/// would jump to all channels after assigning once for nothing (a fifth of a 1,024-rank ring's
/// lowering). Only without pins and local transfers, where that holds for certain.
int channelsKnownFromTransfers(const Plan& plan, const Dialect& d, bool channelsFree)
{
  const std::size_t forcing =
      static_cast<std::size_t>(d.maxStepsPerThreadblock) * (d.maxChannels - 1) + 1;
  const auto ranks = static_cast<std::size_t>(plan.schedule->ranks);
  if (!channelsFree || plan.transfers.size() < forcing || ranks > kDenseConnectionRanks)
    return 1;
  std::vector<std::uint32_t> messages(ranks * ranks, 0);
  bool forced = false;
  for (const Transfer& t : plan.transfers) {
    if (t.isLocal() || t.pins.channel || t.pins.threadblock || t.src.rank < 0 || t.dst.rank < 0 ||
        static_cast<std::size_t>(std::max(t.src.rank, t.dst.rank)) >= ranks)
      return 1;
    const auto connection =
        static_cast<std::size_t>(t.src.rank) * ranks + static_cast<std::size_t>(t.dst.rank);
    forced = forced || ++messages[connection] >= forcing;
  }
  return forced ? d.maxChannels : 1;
}

/// Assigns threadblocks and emits them, again with more channels (or smaller local-only
/// threadblocks) while the dialect's limits are exceeded. nullopt, with the problems in `out`,
/// when the pins contradict each other.
std::optional<Emitted> emitWithinLimits(Plan& plan, bool channelsFree, Diagnostics& out)
{
  const Dialect& d = *plan.dialect;
  constexpr int kAttempts = 64;
  int channels = channelsKnownFromTransfers(plan, d, channelsFree);
  int localCap = d.maxStepsPerThreadblock;
  Emitted emitted;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const std::vector<Diagnostic> problems = assignThreadblocks(plan, channels, localCap);
    if (!problems.empty()) {
      out.append(problems);
      return std::nullopt;
    }
    const int jump = channelsKnownBeforeEmitting(plan, d, channels, channelsFree);
    if (jump > 0 && attempt + 1 < kAttempts) {
      channels = jump;
      continue;
    }
    emitted = emitProgram(plan);
    const Usage u = measure(emitted.gpus, d);
    if (u.localOverLimit && localCap > 1) {
      localCap = std::max(1, localCap / 2);
      continue;
    }
    const bool tooLong = u.maxSteps > d.maxStepsPerThreadblock;
    const bool tooManyPeers = u.maxPeersPerChannel > d.maxPeersPerChannel;
    if ((tooLong || tooManyPeers) && channelsFree && channels < d.maxChannels) {
      // Spread the chains over enough channels for the longest threadblock and the busiest
      // channel to fit, in one jump: each attempt lowers everything again, and stepping one
      // channel at a time made a 384-rank all-to-all take a dozen attempts.
      auto spread = [channels](int used, int limit) {
        return (used * channels + limit - 1) / limit;
      };
      const int needed =
          std::max(tooLong ? spread(u.maxSteps, d.maxStepsPerThreadblock) : 0,
                   tooManyPeers ? spread(u.maxPeersPerChannel, d.maxPeersPerChannel) : 0);
      channels = std::min(d.maxChannels, std::max(channels + 1, needed));
      continue;
    }
    break;
  }
  return emitted;
}

} // namespace

int LowerResult::transferAt(int rank, int tb, int step) const
{
  for (const InstructionOrigin& o : origins)
    if (o.rank == rank && o.tb == tb && o.step == step)
      return o.transferId;
  return -1;
}

LowerResult lowerSchedule(const Schedule& schedule, const LowerOptions& options)
{
  LowerResult result;
  const Dialect& d = dialect(options.dialect);
  Diagnostics out;
  out.append(validateSchedule(schedule, d));
  if (options.instances < 1 || options.instances > d.maxChannels)
    out.error("lower.instances", "instances must be 1.." + std::to_string(d.maxChannels) +
                                     ", not " + std::to_string(options.instances));
  if (out.hasErrors()) {
    result.diagnostics = out.take();
    return result;
  }

  std::unordered_map<int, int> originalId;
  std::optional<Schedule> split;
  const Schedule& base =
      withinCountLimit(schedule, options.instances > 1 ? 1 : d.maxCount, originalId, split);
  Plan plan;
  plan.schedule = &base;
  plan.dialect = &d;
  const auto byStepThenId = [](const Transfer& a, const Transfer& b) {
    return std::pair(a.step, a.id) < std::pair(b.step, b.id);
  };
  plan.transfers = base.transfers;
  // Sorted already, strictly (a sort could swap equal neighbours), is used as it is.
  if (std::adjacent_find(base.transfers.begin(), base.transfers.end(),
                         [&](const Transfer& a, const Transfer& b) {
                           return !byStepThenId(a, b);
                         }) != base.transfers.end()) {
    plan.sortedTransfers = base.transfers;
    std::sort(plan.sortedTransfers.begin(), plan.sortedTransfers.end(), byStepThenId);
    plan.transfers = plan.sortedTransfers;
  }
  numberRounds(plan);
  buildSkeleton(plan);
  findFusions(plan);
  const bool channelsFree =
      std::any_of(plan.transfers.begin(), plan.transfers.end(),
                  [](const Transfer& t) { return !t.isLocal() && !t.pins.channel; });

  std::optional<Emitted> emitted = emitWithinLimits(plan, channelsFree, out);
  if (!emitted) {
    result.diagnostics = out.take();
    return result;
  }
  fitResidency(plan, threadblockBudget(options), *emitted);

  Program program = plan.skeleton;
  program.gpus = std::move(emitted->gpus);
  program.nchannels = std::max(1, measure(program.gpus, d).channels);
  std::vector<InstructionOrigin> origins = std::move(emitted->origins);
  if (options.instances > 1) // one instance is the program itself: no copy of its steps
    program = replicateInstances(program, options.instances, origins);
  if (!originalId.empty())
    for (InstructionOrigin& o : origins)
      if (o.transferId >= 0)
        o.transferId = originalId[o.transferId];
  setAlgoAttributes(program, schedule, options, out);
  reportLimits(program, d, out);

  result.program = std::move(program);
  result.origins = std::move(origins);
  result.diagnostics = out.take();
  return result;
}

} // namespace cs
