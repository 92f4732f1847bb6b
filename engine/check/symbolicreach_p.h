#pragma once

// Happens-before by searching the happens-before graph, for programs too large for vector
// clocks (symbolicrun.h, DESIGN.md §4.6, docs/diagnostics.md "Races at scale").
//
// Vector clocks give every threadblock a component per threadblock of the program, so their
// memory grows with the square of the threadblocks (32,768 of them: 4 GB). This order keeps only
// the graph, linear in the program: for every step, the step whose message it received and the
// step whose flag publish released it (-1 when none; program order is implicit), and answers
// "does step (a, p) happen before the step being checked, (b, q)?" by a backward search from
// (b, q).
//
// Why the verdicts are exactly those of the vector clocks: the clock of (b, q) at component a is
// max{p + 1 : a path (a, p) -> (b, q) exists} over the edges the clocks join along (program
// order, send -> matching receive, publish -> the waiter it released), and these are the edges
// searched here. The steps with a path to (b, q) are closed under program-order predecessors, so
// per threadblock x they form a prefix 0..reach[x]. The search raises reach[] along the edges
// into steps it scans until reach[a] >= p (ordered) or nothing is left to scan (then reach[] is
// the clock of (b, q) and the answer is "not ordered"). A searched step has executed, so its
// edges are final.
//
// Cost: races are only possible between two threadblocks touching the same slot, which most
// programs rarely do, and a search stops as soon as it finds its answer. The search state is
// kept while the same threadblock keeps executing (its past only grows) and reset otherwise.
// A work cap bounds a program with a great many unordered accesses: past it, the order answers
// "ordered" and exhausted() tells the run to say that race detection stopped early.

#include "racedetector.h"

#include <cstdint>
#include <vector>

namespace cs::symbolic {

class ReachOrder final : public HappensBefore
{
public:
  /// Steps scanned over all searches before the order gives up (a few seconds of work).
  static constexpr std::int64_t kWorkCap = 1'000'000'000;

  /// Sizes the graph: `stepBegin` holds the first global step of each threadblock, plus the total.
  void reset(std::vector<int> stepBegin);
  /// Edge sources by global step (-1: none); the run fills them, messageFrom as steps execute.
  std::vector<int> messageFrom;
  std::vector<int> releasedBy;

  /// The step whose accesses are checked next; its edges must be filled in already.
  void setCurrent(int tb, int pos);
  bool seen(const Epoch& earlier) override;
  bool exhausted() const { return m_work > kWorkCap; }
  std::int64_t work() const { return m_work; }

private:
  void clear();
  void raise(int tb, int pos);
  void raiseFromStep(int step);
  int threadblockOf(int step) const;

  std::vector<int> m_stepBegin;
  std::vector<int> m_reach;   ///< per tb: its steps 0..reach happen before the current step
  std::vector<int> m_scanned; ///< per tb: the edges into steps 0..scanned have been followed
  std::vector<std::uint8_t> m_pending;
  std::vector<int> m_toScan;
  std::vector<int> m_touched;
  int m_tb = -1;
  std::int64_t m_work = 0;
};

} // namespace cs::symbolic
