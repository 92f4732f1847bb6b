#pragma once

// The replay overlay of the timeline (issue 14 items 5 and 7), derived from the PlaybackMarks the
// visualizer hands the view: per transfer (by index into the shown Schedule) whether it has run,
// runs or waits, per chunk row the first column whose value the run has not produced yet (the
// painter veils the cells from there on), and the blocked transfers and wait-for cycle of a run
// the watchdog stopped. Rebuilt when the marks or the model change; painting reads it only.

#include "timelinemodel.h"

#include "document/playbackmarks.h"

#include <climits>
#include <optional>
#include <vector>

namespace cs::editor {

struct TimelinePlayback {
  /// The Schedule step the cursor is in (its column is step + 1).
  std::optional<int> step;
  /// Per transfer index: state and fraction (transfers without a mark count as done).
  std::vector<TransferMark> transfers;
  /// Per ChunkStates row: the first column not produced yet (INT_MAX: all of them are).
  std::vector<int> firstOpen;
  /// Per ChunkStates row: the fraction done of the transfer in flight writing its first open
  /// cell (the painter unveils that much of the cell), or 0.
  std::vector<float> filling;
  /// Transfer indices: blocked ones, and the cycle in wait-for order.
  std::vector<int> blocked;
  std::vector<int> cycle;

  TransferProgress stateOf(int index) const
  {
    return index >= 0 && index < static_cast<int>(transfers.size())
               ? transfers[static_cast<std::size_t>(index)].state
               : TransferProgress::Done;
  }
  /// Whether the cell of data row `row` in `column` shows a value the run has not produced.
  bool open(int row, int column) const
  {
    return row >= 0 && row < static_cast<int>(firstOpen.size()) &&
           column >= firstOpen[static_cast<std::size_t>(row)];
  }
};

/// The overlay of `marks` on `model`; nullopt when the marks are inactive or there is no Schedule.
std::optional<TimelinePlayback> derivePlayback(const TimelineModel& model,
                                               const PlaybackMarks& marks);

} // namespace cs::editor
