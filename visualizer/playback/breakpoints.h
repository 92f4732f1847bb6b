#pragma once

// Where playback stops by itself (DESIGN.md §9): on an algorithm step, a rank, a threadblock or a
// link. Each breakpoint stands for the times something it names starts (the step's first event,
// any event of the rank or lane, any message crossing the link), so "the cursor crosses one" is a
// search among sorted times, whatever the breakpoint's kind.

#include <QString>

#include <vector>

namespace cs::visualizer {

class ReplaySession;

struct Breakpoint {
  enum class Kind { Step, Rank, Threadblock, Link };
  Kind kind = Kind::Step;
  int a = 0; ///< the step, the rank, the link id
  int b = 0; ///< Threadblock: the threadblock id on rank `a`
  bool operator==(const Breakpoint&) const = default;
};

/// "step 3", "rank 2", "rank 1 · tb 0", "link 5".
QString breakpointText(const Breakpoint& breakpoint);

/// The times, ascending, at which the cursor crossing them hits `breakpoint` in `session`'s run.
std::vector<double> breakpointTimes(const ReplaySession& session, const Breakpoint& breakpoint);

} // namespace cs::visualizer
