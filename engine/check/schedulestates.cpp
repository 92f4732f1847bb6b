#include "schedulestates.h"
#include "scheduledetail_p.h"

#include <algorithm>

namespace cs {

namespace {

std::size_t memoryKey(const ChunkRef& memory)
{
  return static_cast<std::size_t>(memory.rank) * kBufferCount +
         static_cast<std::size_t>(memory.buffer);
}

} // namespace

bool ScheduleStates::hasSlot(const ChunkRef& ref) const
{
  if (ref.rank < 0 || ref.rank >= ranks || ref.index < 0)
    return false;
  const ChunkRef memory = memoryOf(ref);
  return memory.index >= 0 && memory.index < memorySize[memoryKey(memory)];
}

std::size_t ScheduleStates::slot(const ChunkRef& ref, int offset) const
{
  const ChunkRef memory = memoryOf(ref);
  return memoryBase[memoryKey(memory)] + static_cast<std::size_t>(memory.index + offset);
}

namespace detail {

ScheduleStates unrecordedStates(const Schedule& schedule, const ScheduleGeometry& geometry)
{
  ScheduleStates states;
  states.mode = schedule.inplace ? CallMode::InPlace : CallMode::OutOfPlace;
  states.geometry = geometry;
  states.ranks = schedule.ranks;
  // Every transfer's step counts, even a malformed one's: the timeline shows its column.
  int steps = 0;
  for (const Transfer& t : schedule.transfers)
    steps = std::max(steps, t.step + 1);
  states.columns = steps + 1;
  return states;
}

} // namespace detail

ScheduleStates executeSchedule(const Schedule& schedule, std::size_t budget)
{
  if (!detail::usableShape(schedule))
    return {};
  // The findings are not wanted here; the report only has to exist.
  ScheduleCheckResult ignored;
  detail::ScheduleReport report(ignored);
  const ScheduleGeometry geometry = scheduleGeometry(schedule);
  const std::vector<std::size_t> order = detail::executableTransfers(schedule, geometry, report);
  ScheduleStates states = detail::unrecordedStates(schedule, geometry);
  detail::runSchedulePlane(schedule, geometry, states.mode, order, {}, report,
                           {.states = &states, .budget = budget, .stopWhenFull = true});
  return states;
}

} // namespace cs
