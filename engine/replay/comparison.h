#pragma once

// Designed vs measured (DESIGN.md §9, issue 14): two runs of the same program (a simulation and a
// measurement, or two versions of the algorithm) compared step by step and link by link, on an
// absolute time axis and on a normalised one where each run's time is divided by its total, so a
// run ten times slower overall can still show which step took a larger share than designed.
//
// A step is one position in the threadblocks (step k of every threadblock): its duration is
// from the first start to the last end of that position's events. A link's busy time is the
// union of the spans its messages were in flight (ReplayIndex::messages() with their routes).
// Deltas are "second minus first": positive means the second run lost time there.

#include "replayindex.h"

#include <array>
#include <cstdint>
#include <vector>

namespace cs::replay {

/// One value in each of the two runs, absolute and over that run's total, and their deltas.
struct ComparedTime {
  std::array<double, 2> us{};         ///< µs in the first and the second run
  std::array<double, 2> normalised{}; ///< us over each run's total, 0..1
  double deltaUs = 0;                 ///< us[1] − us[0]
  double deltaNormalised = 0;         ///< normalised[1] − normalised[0]
};

/// One step position in both runs.
struct StepComparison {
  int position = 0;                ///< index in the threadblocks' step lists
  ComparedTime time;               ///< first start to last end of the position's events
  std::array<double, 2> startUs{}; ///< its first start in each run
};

/// One topology link in both runs.
struct LinkComparison {
  int link = 0;                        ///< topology link id
  ComparedTime busy;                   ///< µs with at least one message in flight over it
  std::array<std::int64_t, 2> bytes{}; ///< bytes its messages carried, both directions
};

struct Comparison {
  std::array<double, 2> totalUs{}; ///< end of each run's last event
  /// Every step position of the program, the one that lost the most time first (deltaUs
  /// descending; ties by position).
  std::vector<StepComparison> steps;
  /// Every link a message of either run crossed, the one that lost the most time first.
  std::vector<LinkComparison> links;
};

/// Compares `first` and `second`, indexes of two runs of the same program.
Comparison compareRuns(const ReplayIndex& first, const ReplayIndex& second);

} // namespace cs::replay
