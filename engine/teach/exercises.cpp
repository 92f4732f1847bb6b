#include "exercises.h"

#include "exercisecandidates_p.h"
#include "exercisetext_p.h"
#include "model/collectivespec.h"
#include "model/fifodepth.h"

#include <algorithm>
#include <array>

namespace cs {

std::string_view exerciseKindName(ExerciseKind kind)
{
  switch (kind) {
  case ExerciseKind::RemoveTransfer:
    return "remove-transfer";
  case ExerciseKind::SwapSends:
    return "swap-sends";
  case ExerciseKind::ShrinkConnections:
    return "shrink-connections";
  case ExerciseKind::DropDependency:
    return "drop-dependency";
  case ExerciseKind::WrongChunk:
    return "wrong-chunk";
  }
  return "unknown";
}

Schedule applyTransferEdit(const Schedule& schedule, const TransferEdit& edit)
{
  Schedule result = schedule;
  const auto found = std::find_if(result.transfers.begin(), result.transfers.end(),
                                  [&](const Transfer& t) { return t.id == edit.before.id; });
  if (found == result.transfers.end())
    return result;
  if (edit.after)
    *found = *edit.after;
  else
    result.transfers.erase(found);
  return result;
}

Schedule undoTransferEdit(const Schedule& schedule, const TransferEdit& edit)
{
  Schedule result = schedule;
  if (edit.after) {
    if (Transfer* changed = result.transfer(edit.after->id))
      *changed = edit.before;
    return result;
  }
  const auto position = std::clamp<std::ptrdiff_t>(
      edit.position, 0, static_cast<std::ptrdiff_t>(result.transfers.size()));
  result.transfers.insert(result.transfers.begin() + position, edit.before);
  return result;
}

namespace {

Program replaceSteps(const Program& program, int rank, int tbId, const std::vector<Step>& steps)
{
  Program result = program;
  for (Gpu& gpu : result.gpus) {
    if (gpu.id != rank)
      continue;
    for (ThreadBlock& tb : gpu.threadblocks) {
      if (tb.id == tbId)
        tb.steps = steps;
    }
  }
  return result;
}

} // namespace

Program applyInstructionEdit(const Program& program, const InstructionEdit& edit)
{
  return replaceSteps(program, edit.rank, edit.tb, edit.after);
}

Program undoInstructionEdit(const Program& program, const InstructionEdit& edit)
{
  return replaceSteps(program, edit.rank, edit.tb, edit.before);
}

BrokenAlgorithm applyExercise(const ExerciseSet& set, const Exercise& exercise,
                              const LowerOptions& lowering)
{
  BrokenAlgorithm broken{set.schedule, set.program, set.connectionSlots};
  const ExerciseEdit& edit = exercise.edit;
  if (edit.transfer) {
    broken.schedule = applyTransferEdit(set.schedule, *edit.transfer);
    broken.program = lowerSchedule(broken.schedule, lowering).program;
  } else if (edit.instructions && broken.program) {
    broken.program = applyInstructionEdit(*broken.program, *edit.instructions);
  } else if (edit.connections) {
    broken.connectionSlots = edit.connections->afterSlots;
  }
  return broken;
}

namespace {

/// The outcome with the codes the unbroken algorithm already has taken out.
ExerciseOutcome relativeTo(ExerciseOutcome outcome, const ExerciseOutcome& baseline)
{
  std::vector<std::string> added;
  std::set_difference(outcome.checkCodes.begin(), outcome.checkCodes.end(),
                      baseline.checkCodes.begin(), baseline.checkCodes.end(),
                      std::back_inserter(added));
  outcome.checkCodes = std::move(added);
  return outcome;
}

/// Whether an exercise shows the student something: a new checker error, or a run that ends
/// differently from the unbroken one (not counted when that depends on a race's timing: the
/// choice of exercises must not).
bool breaksSomething(const ExerciseOutcome& outcome, const ExerciseOutcome& baseline)
{
  if (!outcome.checkCodes.empty())
    return true;
  return !outcome.timingDependent &&
         (outcome.execStatus != baseline.execStatus || outcome.wrongChunks != baseline.wrongChunks);
}

struct Judge {
  const ExerciseSet& set;
  const ExerciseOptions& options;

  std::optional<ExerciseOutcome> measure(const ExerciseEdit& edit) const
  {
    std::vector<Diagnostic> lowering;
    BrokenAlgorithm broken{set.schedule, set.program, set.connectionSlots};
    if (edit.transfer) {
      broken.schedule = applyTransferEdit(set.schedule, *edit.transfer);
      LowerResult lowered = lowerSchedule(broken.schedule, options.lowering);
      broken.program = std::move(lowered.program);
      lowering = std::move(lowered.diagnostics);
    } else if (edit.instructions) {
      broken.program = applyInstructionEdit(*set.program, *edit.instructions);
    } else if (edit.connections) {
      broken.connectionSlots = edit.connections->afterSlots;
    }
    if (!broken.program)
      return std::nullopt; // an edit the lowering refuses teaches nothing about running it
    return relativeTo(judgeProgram(*broken.program, set.root, broken.connectionSlots,
                                   options.timeoutSeconds, lowering),
                      set.baseline);
  }

  /// The outcome, when the edit breaks something.
  std::optional<ExerciseOutcome> keepable(const ExerciseEdit& edit) const
  {
    std::optional<ExerciseOutcome> outcome = measure(edit);
    if (!outcome || !breaksSomething(*outcome, set.baseline))
      return std::nullopt;
    return outcome;
  }
};

std::vector<ExerciseEdit> candidates(const ExerciseSet& set, ExerciseKind kind, int limit)
{
  switch (kind) {
  case ExerciseKind::RemoveTransfer:
  case ExerciseKind::WrongChunk:
    return teach::transferCandidates(set.schedule, kind, limit);
  case ExerciseKind::SwapSends:
    return teach::swapCandidates(*set.program, limit);
  case ExerciseKind::DropDependency:
    return teach::dependencyCandidates(*set.program, limit);
  case ExerciseKind::ShrinkConnections:
    if (set.connectionSlots <= 1)
      return {};
    ExerciseEdit edit;
    edit.connections = ConnectionEdit{set.connectionSlots, 1};
    return {edit};
  }
  return {};
}

} // namespace

ExerciseSet generateExercises(const Schedule& schedule, const ExerciseOptions& options)
{
  ExerciseSet set;
  set.schedule = schedule;
  LowerResult lowered = lowerSchedule(schedule, options.lowering);
  if (!lowered.program) {
    Diagnostics why;
    why.error("teach.not-lowerable",
              "the algorithm does not lower to a program, so there is nothing to break yet");
    why.append(lowered.diagnostics);
    set.diagnostics = why.take();
    return set;
  }
  set.program = std::move(lowered.program);
  set.connectionSlots = connectionSlots(set.program->proto);
  set.root = schedule.root;
  if (!set.root && isRooted(schedule.collective)) {
    const std::vector<int> roots = rootCandidates(*set.program);
    if (roots.size() == 1)
      set.root = roots.front();
  }
  set.baseline = judgeProgram(*set.program, set.root, set.connectionSlots, options.timeoutSeconds,
                              lowered.diagnostics);
  if (set.baseline.execStatus == ExecStatus::Failed) {
    Diagnostics why;
    why.error("teach.cannot-run", "the CPU executor cannot run the unbroken algorithm, so no "
                                  "exercise could show what a mistake does");
    set.diagnostics = why.take();
    return set;
  }
  const Judge judge{set, options};
  constexpr std::array kinds{ExerciseKind::RemoveTransfer, ExerciseKind::SwapSends,
                             ExerciseKind::ShrinkConnections, ExerciseKind::DropDependency,
                             ExerciseKind::WrongChunk};
  for (const ExerciseKind kind : kinds) {
    std::vector<Exercise> kept;
    int exact = 0; // kept exercises whose executor outcome does not depend on a race
    for (const ExerciseEdit& edit : candidates(set, kind, options.candidatesPerKind)) {
      if (exact >= options.perKind)
        break;
      std::optional<ExerciseOutcome> outcome = judge.keepable(edit);
      if (!outcome)
        continue;
      Exercise exercise;
      exercise.kind = kind;
      exercise.edit = edit;
      exercise.outcome = std::move(*outcome);
      exact += exercise.outcome.timingDependent ? 0 : 1;
      kept.push_back(std::move(exercise));
    }
    // Exercises that show exactly what they announce first; racy ones fill the remaining places.
    std::stable_partition(kept.begin(), kept.end(),
                          [](const Exercise& e) { return !e.outcome.timingDependent; });
    kept.resize(std::min(kept.size(), static_cast<std::size_t>(options.perKind)));
    for (Exercise& exercise : kept) {
      teach::wordExercise(exercise, set);
      set.exercises.push_back(std::move(exercise));
    }
  }
  return set;
}

} // namespace cs
