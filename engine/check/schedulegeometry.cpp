#include "schedulegeometry.h"

namespace cs {

ScheduleGeometry scheduleGeometry(const Schedule& schedule)
{
  ScheduleGeometry geometry;
  geometry.collective = schedule.collective;
  geometry.ranks = schedule.ranks;
  if (schedule.ranks <= 0 || schedule.buffers.empty())
    return geometry;
  const RankBuffers& first = schedule.buffers.front();
  if (schedule.collective == Collective::AllGather) {
    geometry.share = first.input;
    geometry.whole = first.input * schedule.ranks;
  } else {
    geometry.whole = first.input;
    geometry.share = first.input / schedule.ranks;
  }
  return geometry;
}

ChunkRef aliasedChunk(const ScheduleGeometry& geometry, ChunkRef ref, CallMode mode)
{
  const MemorySlot slot =
      aliasedSlot(geometry.collective, geometry.share, ref.rank, ref.buffer, ref.index, mode);
  return {ref.rank, slot.memory, slot.index};
}

} // namespace cs
