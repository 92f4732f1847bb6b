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
  if (mode == CallMode::OutOfPlace || ref.buffer == Buffer::Scratch)
    return ref;
  switch (geometry.collective) {
  case Collective::AllGather:
    if (ref.buffer == Buffer::Input)
      return {ref.rank, Buffer::Output, ref.rank * geometry.share + ref.index};
    return ref;
  case Collective::ReduceScatter:
    if (ref.buffer == Buffer::Output)
      return {ref.rank, Buffer::Input, ref.rank * geometry.share + ref.index};
    return ref;
  default:
    return {ref.rank, Buffer::Input, ref.index};
  }
}

} // namespace cs
