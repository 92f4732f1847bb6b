#include "analysis.h"

#include "check/checker.h"
#include "check/schedulecheck.h"
#include "check/topologyfit.h"
#include "compile/lift.h"

#include <algorithm>
#include <future>
#include <numeric>
#include <tuple>

namespace cs {

namespace {

/// Adds the Program checker's diagnostics; `analysis.origins` must be indexed already, so each
/// instruction's problem also names the transfer it carries.
void addProgramProblems(Analysis& analysis, std::vector<Diagnostic> diagnostics)
{
  for (Diagnostic& d : diagnostics) {
    Problem problem;
    problem.stage = ProblemStage::Program;
    const Location& at = d.location;
    if (at.rank >= 0)
      problem.rank = at.rank;
    if (at.rank >= 0 && at.tb >= 0)
      problem.tb = at.tb;
    if (at.rank >= 0 && at.tb >= 0 && at.step >= 0) {
      problem.step = at.step;
      problem.transferId = analysis.transferAt(at.rank, at.tb, at.step);
      d.location.transfer = problem.transferId;
    }
    problem.diagnostic = std::move(d);
    analysis.problems.push_back(std::move(problem));
  }
}

void addProblems(Analysis& analysis, std::vector<Diagnostic> diagnostics, ProblemStage stage)
{
  for (Diagnostic& d : diagnostics) {
    Problem problem;
    problem.stage = stage;
    if (stage == ProblemStage::Lifting && d.location.rank >= 0) {
      problem.rank = d.location.rank;
      if (d.location.tb >= 0)
        problem.tb = d.location.tb;
      if (d.location.tb >= 0 && d.location.step >= 0)
        problem.step = d.location.step;
    }
    if (stage == ProblemStage::Lowering)
      problem.transferId = d.location.transfer;
    problem.diagnostic = std::move(d);
    analysis.problems.push_back(std::move(problem));
  }
}

/// Adds the Schedule checks and the chunk states they recorded; returns whether they found an
/// error.
bool addScheduleLevel(Analysis& analysis, const Schedule& schedule)
{
  ScheduleCheckResult checked = checkSchedule(schedule, {.recordStates = true});
  analysis.schedule = schedule;
  analysis.states = std::make_shared<const ChunkStates>(schedule, std::move(checked.states));
  for (Diagnostic& d : checked.diagnostics) {
    Problem problem;
    problem.stage = ProblemStage::Schedule;
    problem.transferId = d.location.transfer;
    problem.diagnostic = std::move(d);
    analysis.problems.push_back(std::move(problem));
  }
  return checked.hasErrors();
}

/// Lowers `schedule` and checks the Program; a wrong Schedule is explained at the Schedule level,
/// so then only the runtime limits are checked (`scheduleHasErrors`).
void addProgramLevel(Analysis& analysis, const Schedule& schedule, const LowerOptions& lowering,
                     bool scheduleHasErrors)
{
  analysis.program.reset();
  analysis.origins.clear();
  analysis.programPending = false;
  LowerResult lowered = lowerSchedule(schedule, lowering);
  addProblems(analysis, std::move(lowered.diagnostics), ProblemStage::Lowering);
  if (lowered.program)
    analysis.origins = std::move(lowered.origins);
  analysis.indexOrigins();
  if (!lowered.program)
    return;

  CheckOptions options = checkOptionsFor(lowering);
  options.root = schedule.root;
  // The Program checker would only repeat the Schedule's postcondition and race findings per
  // instruction. Runtime limits still apply.
  options.semantic = !scheduleHasErrors;
  addProgramProblems(analysis, checkProgram(*lowered.program, options));
  analysis.program = std::move(lowered.program);
}

void summarise(Analysis& analysis)
{
  analysis.errors = 0;
  analysis.warnings = 0;
  analysis.problemsByTransfer.clear();
  std::stable_sort(analysis.problems.begin(), analysis.problems.end(),
                   [](const Problem& a, const Problem& b) {
                     return a.diagnostic.severity > b.diagnostic.severity;
                   });
  for (std::size_t i = 0; i < analysis.problems.size(); ++i) {
    const Problem& problem = analysis.problems[i];
    if (problem.diagnostic.severity == Severity::Error)
      ++analysis.errors;
    if (problem.diagnostic.severity == Severity::Warning)
      ++analysis.warnings;
    if (problem.transferId >= 0)
      analysis.problemsByTransfer[problem.transferId].push_back(static_cast<int>(i));
  }
}

} // namespace

void Analysis::indexOrigins()
{
  const std::size_t count = origins.size();
  m_byPosition.resize(count);
  std::iota(m_byPosition.begin(), m_byPosition.end(), 0u);
  const auto before = [this](std::uint32_t a, std::uint32_t b) {
    const InstructionOrigin& x = origins[a];
    const InstructionOrigin& y = origins[b];
    return std::tuple(x.rank, x.tb, x.step) < std::tuple(y.rank, y.tb, y.step);
  };
  // Lifting and lowering list origins in program order already: checking is linear, sorting two
  // million origins of a 1,024-rank program is not. Stable, so a duplicated position (a
  // malformed file) answers its first origin.
  if (!std::is_sorted(m_byPosition.begin(), m_byPosition.end(), before))
    std::stable_sort(m_byPosition.begin(), m_byPosition.end(), before);
  sortByTransfer();
}

void Analysis::sortByTransfer()
{
  // (transferId, position), ties in origins order: a counting sort over the transfer ids when
  // they are dense (always, from lifting and lowering), else one sort of packed keys.
  const std::size_t count = m_byPosition.size();
  int lowest = 0;
  int highest = -1;
  for (const InstructionOrigin& origin : origins) {
    lowest = std::min(lowest, origin.transferId);
    highest = std::max(highest, origin.transferId);
  }
  m_byTransfer.resize(count);
  const auto span = static_cast<std::size_t>(static_cast<std::int64_t>(highest) - lowest + 1);
  if (lowest >= 0 && span <= 4 * count + 16) {
    std::vector<std::uint32_t> start(span + 1, 0);
    for (const InstructionOrigin& origin : origins)
      ++start[static_cast<std::size_t>(origin.transferId) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (const std::uint32_t i : m_byPosition)
      m_byTransfer[start[static_cast<std::size_t>(origins[i].transferId)]++] = i;
    return;
  }
  std::vector<std::uint64_t> keys(count);
  for (std::size_t k = 0; k < count; ++k) {
    // The sign bit flipped keeps negative ids first, as the int order does.
    const std::uint32_t id =
        static_cast<std::uint32_t>(origins[m_byPosition[k]].transferId) ^ 0x80000000u;
    keys[k] = (static_cast<std::uint64_t>(id) << 32) | k;
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t k = 0; k < count; ++k)
    m_byTransfer[k] = m_byPosition[static_cast<std::size_t>(keys[k] & 0xffffffffu)];
}

int Analysis::transferAt(int rank, int tb, int step) const
{
  const auto key = std::tuple(rank, tb, step);
  const auto found = std::lower_bound(m_byPosition.begin(), m_byPosition.end(), key,
                                      [this](std::uint32_t i, const auto& wanted) {
                                        const InstructionOrigin& o = origins[i];
                                        return std::tuple(o.rank, o.tb, o.step) < wanted;
                                      });
  if (found == m_byPosition.end())
    return -1;
  const InstructionOrigin& o = origins[*found];
  return std::tuple(o.rank, o.tb, o.step) == key ? o.transferId : -1;
}

std::vector<InstructionOrigin> Analysis::instructionsOf(int transferId) const
{
  auto at =
      std::lower_bound(m_byTransfer.begin(), m_byTransfer.end(), transferId,
                       [this](std::uint32_t i, int id) { return origins[i].transferId < id; });
  std::vector<InstructionOrigin> found;
  for (; at != m_byTransfer.end() && origins[*at].transferId == transferId; ++at)
    found.push_back(origins[*at]);
  return found;
}

std::vector<Diagnostic> Analysis::diagnostics() const
{
  std::vector<Diagnostic> all;
  all.reserve(problems.size());
  for (const Problem& problem : problems)
    all.push_back(problem.diagnostic);
  return all;
}

Analysis analyseSchedule(const Schedule& schedule, const LowerOptions& lowering)
{
  Analysis analysis;
  const bool scheduleHasErrors = addScheduleLevel(analysis, schedule);
  addProgramLevel(analysis, schedule, lowering, scheduleHasErrors);
  summarise(analysis);
  return analysis;
}

CheckOptions checkOptionsFor(const LowerOptions& lowering)
{
  CheckOptions options;
  options.dialect = lowering.dialect;
  options.gpu = lowering.gpu;
  return options;
}

Analysis analyseProgram(const Program& program, const LowerOptions& lowering)
{
  CheckOptions options = checkOptionsFor(lowering);
  // The check reads only the Program, so it runs beside the lifting and the cells' execution:
  // on a 1,024-rank program each takes about as long as the other. That is already a second
  // thread, so the check keeps its own passes on this one.
  options.semanticBeside = false;
  std::future<std::vector<Diagnostic>> checked = std::async(
      std::launch::async, [&program, options] { return checkProgram(program, options); });
  Analysis analysis;
  analysis.program = program;
  LiftResult lifted = liftProgram(program);
  addProblems(analysis, std::move(lifted.diagnostics), ProblemStage::Lifting);
  analysis.schedule = std::move(lifted.schedule);
  // The lifted Schedule is not checked, so it is executed here, once, for its cells.
  analysis.states = analysis.schedule ? std::make_shared<const ChunkStates>(*analysis.schedule)
                                      : std::make_shared<const ChunkStates>();
  analysis.origins = std::move(lifted.origins);
  analysis.indexOrigins();
  addProgramProblems(analysis, checked.get());
  summarise(analysis);
  return analysis;
}

Analysis analyseScheduleLevel(const Schedule& schedule, const Analysis& previous)
{
  Analysis analysis;
  addScheduleLevel(analysis, schedule);
  analysis.program = previous.program;
  analysis.origins = previous.origins;
  analysis.indexOrigins();
  analysis.programPending = true;
  summarise(analysis);
  return analysis;
}

Analysis finishProgramLevel(Analysis scheduleLevel, const Schedule& schedule,
                            const LowerOptions& lowering)
{
  // Only Schedule problems are in it yet, already in summary order; appending the Program
  // level and sorting stably again gives the order analyseSchedule() gives.
  const bool scheduleHasErrors = scheduleLevel.errors > 0;
  addProgramLevel(scheduleLevel, schedule, lowering, scheduleHasErrors);
  summarise(scheduleLevel);
  return scheduleLevel;
}

void addTopologyProblems(Analysis& analysis, const Topology* topology, bool programIsSource)
{
  Diagnostics found;
  if (!topology) {
    found.info("topology.none", "no topology: the algorithm is not checked against one (load a "
                                "preset or draw the GPUs and links in the Topology tab)");
  } else if (programIsSource && analysis.program) {
    checkTopologyFit(*topology, analysis.program->ngpus, programExchanges(*analysis.program),
                     found);
  } else if (!programIsSource && analysis.schedule) {
    checkTopologyFit(*topology, analysis.schedule->ranks, scheduleExchanges(*analysis.schedule),
                     found);
  }
  for (Diagnostic& d : found.take()) {
    Problem problem;
    problem.stage = programIsSource ? ProblemStage::Program : ProblemStage::Schedule;
    problem.transferId = d.location.transfer;
    if (d.location.rank >= 0)
      problem.rank = d.location.rank;
    if (d.location.rank >= 0 && d.location.tb >= 0)
      problem.tb = d.location.tb;
    problem.diagnostic = std::move(d);
    analysis.problems.push_back(std::move(problem));
  }
  summarise(analysis);
}

bool analysisIsExpensive(const Schedule& schedule)
{
  // Lowering costs about 1 µs per transfer plus per-threadblock work; below this size the whole
  // analysis stays well inside a frame (measured: 64-rank ring all-gather, 4,096 transfers,
  // 4.4 ms; all-to-all with 8,128 threadblocks, 24 ms).
  constexpr std::size_t kSynchronousTransfers = 2000;
  return schedule.transfers.size() > kSynchronousTransfers;
}

} // namespace cs
