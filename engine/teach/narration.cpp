#include "narration.h"
#include "narration_p.h"

#include <algorithm>

namespace cs {

namespace {

/// Per input chunk, how many ranks hold it: the size of a complete sum of that chunk.
std::vector<int> chunkHolders(const Schedule& schedule)
{
  std::vector<int> holders;
  for (const RankBuffers& buffers : schedule.buffers) {
    if (static_cast<int>(holders.size()) < buffers.input)
      holders.resize(static_cast<std::size_t>(buffers.input), 0);
    for (int k = 0; k < buffers.input; ++k)
      ++holders[static_cast<std::size_t>(k)];
  }
  return holders;
}

} // namespace

Narration narrateSchedule(const Schedule& schedule)
{
  Narration narration;
  const int steps = schedule.stepCount();
  const ChunkStates states(schedule);
  const std::vector<int> holders = chunkHolders(schedule);
  narration::GoalNarration goal = narration::narrateGoal(schedule, states);
  narration.goal = std::move(goal.goal) + (states.mode() == CallMode::InPlace
                                               ? " Narrated as called in place (the output is the "
                                                 "input's memory)."
                                               : " Narrated as called out of place.");
  std::vector<std::vector<const Transfer*>> byStep(static_cast<std::size_t>(std::max(steps, 0)));
  for (const Transfer& t : schedule.transfers)
    if (t.step >= 0 && t.step < steps)
      byStep[static_cast<std::size_t>(t.step)].push_back(&t);
  for (int step = 0; step < steps; ++step) {
    NarrationStep out;
    out.step = step;
    std::vector<narration::Described> described;
    for (const Transfer* t : byStep[static_cast<std::size_t>(step)])
      described.push_back({t, narration::describeSource(states, *t, step, holders)});
    for (const narration::Group& group :
         narration::groupTransfers(std::move(described), schedule.ranks)) {
      NarrationSentence sentence;
      sentence.text = narration::groupSentence(group, schedule.ranks);
      for (const Transfer* t : group.members)
        sentence.transfers.push_back(t->id);
      out.sentences.push_back(std::move(sentence));
    }
    if (!goal.afterStep[static_cast<std::size_t>(step)].empty())
      out.sentences.push_back({std::move(goal.afterStep[static_cast<std::size_t>(step)]), {}});
    narration.steps.push_back(std::move(out));
  }
  return narration;
}

} // namespace cs
