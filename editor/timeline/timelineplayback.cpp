#include "timelineplayback.h"

#include <algorithm>

namespace cs::editor {

std::optional<TimelinePlayback> derivePlayback(const TimelineModel& model,
                                               const PlaybackMarks& marks)
{
  if (!marks.active || !model.hasSchedule())
    return std::nullopt;
  TimelinePlayback playback;
  playback.step = marks.step;
  const std::vector<Transfer>& transfers = model.schedule().transfers;
  const ChunkStates& states = model.states();
  playback.transfers.assign(transfers.size(), TransferMark{.state = TransferProgress::Done});
  playback.firstOpen.assign(static_cast<std::size_t>(states.rowCount()), INT_MAX);
  for (const TransferMark& mark : marks.transfers) {
    const int index = model.indexOf(mark.transfer);
    if (index < 0)
      continue;
    playback.transfers[static_cast<std::size_t>(index)] = mark;
    if (mark.state == TransferProgress::Done)
      continue;
    // Every cell this transfer writes, from its column on, waits for it.
    const Transfer& t = transfers[static_cast<std::size_t>(index)];
    for (int k = 0; k < std::max(1, t.count); ++k) {
      const int row = states.rowOf({t.dst.rank, t.dst.buffer, t.dst.index + k});
      if (row >= 0) {
        int& open = playback.firstOpen[static_cast<std::size_t>(row)];
        open = std::min(open, t.step + 1);
      }
    }
  }
  playback.filling.assign(playback.firstOpen.size(), 0.0F);
  for (const TransferMark& mark : marks.transfers) {
    const int index = model.indexOf(mark.transfer);
    if (index < 0 || mark.state != TransferProgress::Running)
      continue;
    const Transfer& t = transfers[static_cast<std::size_t>(index)];
    for (int k = 0; k < std::max(1, t.count); ++k) {
      const int row = states.rowOf({t.dst.rank, t.dst.buffer, t.dst.index + k});
      if (row >= 0 && playback.firstOpen[static_cast<std::size_t>(row)] == t.step + 1)
        playback.filling[static_cast<std::size_t>(row)] = mark.fraction;
    }
  }
  for (const BlockedMark& blocked : marks.blocked)
    if (const int index = model.indexOf(blocked.transfer); index >= 0)
      playback.blocked.push_back(index);
  for (const int transfer : marks.cycle)
    if (const int index = model.indexOf(transfer); index >= 0)
      playback.cycle.push_back(index);
  return playback;
}

} // namespace cs::editor
