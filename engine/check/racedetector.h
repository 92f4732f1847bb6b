#pragma once

// Happens-before race detection over memory slots (DESIGN.md §4.6, msccl-format.md §7), in the
// style of vector-clock detectors such as DJIT+/FastTrack: every threadblock carries a vector
// clock with one component per threadblock of the program; each slot remembers its last write and
// the reads since that write as epochs (threadblock, local time). An access races with a
// remembered one from another threadblock when the accessor's clock has not yet seen that epoch.
//
// The detector only stores histories; SymbolicRun owns the clocks and decides what to report.

#include <cstdint>
#include <optional>
#include <vector>

namespace cs {

/// One component of a vector clock: a threadblock's local time (its step position + 1).
using Clock = std::int32_t;

/// An access event: threadblock (global index in the run) and its local time then.
struct Epoch {
  std::int32_t tb = -1;
  Clock time = 0;
};

/// An earlier access that a new one conflicts with.
struct Conflict {
  Epoch earlier;
  bool earlierWrites = false;
};

/// Access histories of a flat array of memory slots.
class RaceDetector
{
public:
  /// Forgets everything and sizes the histories for `slots` slots.
  void reset(std::size_t slots);

  /// Records a read of `slot` by `tb` at `time`; `clock` is the reader's vector clock. Returns
  /// the unordered earlier write, if any.
  std::optional<Conflict> read(std::size_t slot, std::int32_t tb, Clock time, const Clock* clock);
  /// Records a write; returns an unordered earlier write or read, if any.
  std::optional<Conflict> write(std::size_t slot, std::int32_t tb, Clock time, const Clock* clock);

  /// The last write of a slot (tb < 0 when never written).
  Epoch lastWrite(std::size_t slot) const;

private:
  static constexpr std::int32_t kShared = -2; ///< m_read[slot].tb: reads live in m_shared

  static bool ordered(const Epoch& earlier, std::int32_t tb, const Clock* clock)
  {
    return earlier.tb < 0 || earlier.tb == tb || clock[earlier.tb] >= earlier.time;
  }

  std::vector<Epoch> m_write;
  /// A single read epoch, or tb == kShared and time = index into m_shared when several reads
  /// since the last write are mutually unordered.
  std::vector<Epoch> m_read;
  std::vector<std::vector<Epoch>> m_shared;
  std::vector<std::int32_t> m_freeShared;
};

} // namespace cs
