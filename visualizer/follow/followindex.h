#pragma once

// What a replay says about the editor's own design at a cursor time (issue 14 items 5 and 7):
// the PlaybackMarks the timeline and the program view paint. Built once per session (and again
// when the document's analysis changes) from the run's events grouped by threadblock, so a
// cursor move costs a binary search per threadblock and one pass over the transfers' instructions,
// never a pass over the events: 64 ranks × 100,000 events follow playback at frame rate.
//
// A threadblock runs its events one after another (the slicing loop runs every step once per
// slice), so the events done at t are a prefix of its events in start order, and an instruction
// is done once all its slices are. Transfers map to instructions through the document's analysis
// (instructionsOf); a transfer is done when every event of its instructions is, pending while none
// has started.

#include "document/playbackmarks.h"

#include "analysis/analysis.h"
#include "model/program.h"
#include "model/trace.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace cs::visualizer {

class FollowIndex
{
public:
  /// Indexes `trace`, a run of `program`, against `analysis` (the document showing that program).
  FollowIndex(const Program& program, const Trace& trace, const Analysis& analysis);

  /// The marks at `timeUs`.
  editor::PlaybackMarks marksAt(double timeUs) const;

  /// The event of instruction (rank, tb, step) running at `timeUs`, else its last one started by
  /// then, else its first; nullopt when the run has none.
  std::optional<std::size_t> eventOf(int rank, int tb, int step, double timeUs) const;

  /// The blocked positions of a stopped run and the predicted cycle (also in every marksAt()).
  const std::vector<editor::BlockedMark>& blocked() const { return m_blocked; }
  const std::vector<int>& cycle() const { return m_cycle; }

private:
  struct Lane {
    int rank = 0;
    int tb = 0;
    std::vector<std::size_t> events; ///< indices into the trace's events, by start
    std::vector<double> starts;
    std::vector<double> ends;
    std::vector<double> doneBy; ///< running maximum of ends: the prefix done by t
    std::vector<int> steps;
    /// Per instruction: positions in `events` of its slices.
    std::vector<std::vector<int>> positions;
    /// Per instruction: the largest position among the slices of it and every earlier one
    /// (INT_MAX while one of them has slices missing from the run).
    std::vector<int> doneAfter;
  };
  struct TransferSteps {
    int transfer = 0;
    int step = 0;                                  ///< the Schedule step
    std::vector<std::pair<int, int>> instructions; ///< (lane index, instruction)
  };
  /// Where a lane stands at t: events done, and events started.
  struct LaneAt {
    int done = 0;
    int started = 0;
  };

  void indexLanes(const Program& program, const Trace& trace);
  void indexTransfers(const Analysis& analysis);
  void indexStop(const Program& program, const Trace& trace, const Analysis& analysis);
  int laneOf(int rank, int tb) const;
  LaneAt laneAt(const Lane& lane, double timeUs) const;
  editor::TransferMark transferAt(const TransferSteps& transfer, const std::vector<LaneAt>& at,
                                  double timeUs) const;

  std::vector<Lane> m_lanes;              ///< sorted by (rank, tb)
  std::vector<TransferSteps> m_transfers; ///< sorted by transfer id
  int m_slices = 1;
  std::vector<editor::BlockedMark> m_blocked;
  std::vector<int> m_cycle;
};

} // namespace cs::visualizer
