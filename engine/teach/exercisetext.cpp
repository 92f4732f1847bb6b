#include "exercisetext_p.h"

#include <algorithm>

namespace cs {

namespace {

std::string num(std::size_t value)
{
  return std::to_string(value);
}
std::string num(int value)
{
  return std::to_string(value);
}

std::string chunkText(const ChunkRef& ref, int count)
{
  const std::string buffer(bufferName(ref.buffer));
  if (count == 1)
    return buffer + " chunk " + num(ref.index);
  return buffer + " chunks " + num(ref.index) + "-" + num(ref.index + count - 1);
}

void wordTransferEdit(Exercise& exercise, const TransferEdit& edit)
{
  const Transfer& before = edit.before;
  const std::string verb = before.op == TransferOp::Reduce ? "reduce" : "copy";
  const std::string target = before.isLocal() ? "into its " + chunkText(before.dst, before.count)
                                              : "to rank " + num(before.dst.rank);
  const std::string sender = "rank " + num(before.src.rank);
  const std::string receiver =
      "rank " + num(before.dst.rank) + "'s " + chunkText(before.dst, before.count);
  if (exercise.kind == ExerciseKind::RemoveTransfer) {
    exercise.title = "Remove a transfer";
    exercise.question = "What happens if " + sender + " never sends its " +
                        chunkText(before.src, before.count) + " " + target + " in step " +
                        num(before.step) + "?";
    exercise.hint = "Follow " + receiver + " after step " + num(before.step) +
                    ": who else writes it, and does the result still hold every contribution "
                    "it needs?";
    return;
  }
  exercise.title = "Send the wrong chunk";
  exercise.question = "What happens if " + sender + " sends its " +
                      chunkText(edit.after->src, before.count) + " instead of its " +
                      chunkText(before.src, before.count) + " " + target + " in step " +
                      num(before.step) + "?";
  exercise.hint = "Which contributions does " + receiver + " hold after the " + verb + " of step " +
                  num(before.step) + ", and which ones does the collective need there?";
}

std::string instructionText(const Step& step)
{
  const std::string type = "'" + std::string(opTypeName(step.type)) + "'";
  if (opTraits(step.type).readsSrc)
    return type + " of " + std::string(bufferName(step.srcBuf)) + " chunk " + num(step.srcOff);
  return type + " into " + std::string(bufferName(step.dstBuf)) + " chunk " + num(step.dstOff);
}

std::size_t firstDifference(const InstructionEdit& edit, std::size_t from)
{
  std::size_t position = from;
  const std::size_t size = std::min(edit.before.size(), edit.after.size());
  while (position < size && edit.before[position] == edit.after[position])
    ++position;
  return position;
}

void wordInstructionEdit(Exercise& exercise, const InstructionEdit& edit)
{
  const std::size_t first = firstDifference(edit, 0);
  if (first >= edit.before.size())
    return;
  const Step& step = edit.before[first];
  const std::string where = "threadblock " + num(edit.tb) + " on rank " + num(edit.rank);
  if (exercise.kind == ExerciseKind::DropDependency) {
    exercise.title = "Drop a dependency";
    exercise.question = "What happens if step " + num(first) + " of " + where + " (" +
                        instructionText(step) + ") no longer waits for step " + num(step.deps) +
                        " of threadblock " + num(step.depid) + "?";
    exercise.hint = "A dependency orders two accesses to the same chunk on one rank. Which "
                    "access can now run first, and what does it read or overwrite?";
    return;
  }
  const std::size_t second = std::min(firstDifference(edit, first + 1), edit.before.size() - 1);
  exercise.title = "Swap two sends";
  exercise.question = "What happens if " + where + " runs its step " + num(second) + " (" +
                      instructionText(edit.before[second]) + ") before its step " + num(first) +
                      " (" + instructionText(step) + ")?";
  exercise.hint = "Sends and receives on one connection match in program order: which receive "
                  "gets which message now, and does each side still get to its receive?";
}

template <typename Item, typename Text>
std::string listed(const std::vector<Item>& items, Text text)
{
  constexpr std::size_t kShown = 8;
  std::string result;
  for (std::size_t i = 0; i < items.size() && i < kShown; ++i)
    result += (i ? ", " : "") + text(items[i]);
  if (items.size() > kShown)
    result += " and " + num(items.size() - kShown) + " more";
  return result;
}

std::string executorText(const ExerciseOutcome& outcome)
{
  switch (outcome.execStatus) {
  case ExecStatus::Verified:
    return "The CPU executor still computes the right result.";
  case ExecStatus::Wrong:
    return "The CPU executor computes a wrong result in " + num(outcome.wrongChunks.size()) +
           (outcome.wrongChunks.size() == 1 ? " chunk: " : " chunks: ") +
           listed(outcome.wrongChunks,
                  [](const ChunkRef& c) { return "rank " + num(c.rank) + " " + chunkText(c, 1); }) +
           ".";
  case ExecStatus::NotVerified:
    return "The CPU executor runs to the end; no postcondition is known to judge the result.";
  case ExecStatus::Hung:
    return "The CPU executor hangs: its watchdog finds threadblocks blocked at " +
           listed(outcome.blocked,
                  [](const BlockedStep& b) {
                    return "rank " + num(b.rank) + " tb " + num(b.tb) + " step " + num(b.step);
                  }) +
           ".";
  case ExecStatus::Failed:
    return "The CPU executor refuses to run it.";
  }
  return {};
}

} // namespace

std::string describeOutcome(const ExerciseOutcome& outcome)
{
  std::string text = outcome.checkCodes.empty()
                         ? "The checker finds no new error."
                         : "The checker reports " +
                               listed(outcome.checkCodes, [](const std::string& c) { return c; }) +
                               ".";
  if (outcome.timingDependent && outcome.execStatus != ExecStatus::Hung)
    return text + " The race makes the CPU executor's result depend on timing; one run: " +
           executorText(outcome);
  return text + " " + executorText(outcome);
}

namespace teach {

void wordExercise(Exercise& exercise, const ExerciseSet& set)
{
  const ExerciseEdit& edit = exercise.edit;
  if (edit.transfer) {
    wordTransferEdit(exercise, *edit.transfer);
  } else if (edit.instructions) {
    wordInstructionEdit(exercise, *edit.instructions);
  } else if (edit.connections) {
    exercise.title = "Shrink the connections to one message";
    exercise.question = "What happens if every connection holds one message instead of " +
                        num(set.connectionSlots) + "?";
    exercise.hint = "A send blocks while its connection is full. Look for ranks that all send "
                    "before they receive, around a cycle.";
  }
  exercise.outcomeText = describeOutcome(exercise.outcome);
}

} // namespace teach

} // namespace cs
