#pragma once

// Happens-before race detection over memory slots (DESIGN.md §4.6, msccl-format.md §7), in the
// style of FastTrack: each slot remembers its last write and the reads since that write as epochs
// (threadblock, local time). An access races with a remembered one from another threadblock when
// that epoch does not happen before it.
//
// The detector only stores histories; whether an epoch happens before the access being checked
// is asked of a HappensBefore (SymbolicRun's vector clocks for small programs, a search of the
// happens-before graph for large ones: symbolicreach_p.h), and SymbolicRun decides what to report.

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

/// Whether an access by another threadblock happens before the access being checked now.
class HappensBefore
{
public:
  /// `earlier.tb` is another threadblock than the accessor's, and not negative.
  virtual bool seen(const Epoch& earlier) = 0;

protected:
  HappensBefore() = default;
  HappensBefore(const HappensBefore&) = default;
  HappensBefore& operator=(const HappensBefore&) = default;
  ~HappensBefore() = default;
};

/// The accessor's vector clock: one component per threadblock of the program.
class ClockOrder final : public HappensBefore
{
public:
  const Clock* row = nullptr;
  bool seen(const Epoch& earlier) override { return row[earlier.tb] >= earlier.time; }
};

/// Access histories of a flat array of memory slots.
class RaceDetector
{
public:
  /// Forgets everything and sizes the histories for `slots` slots.
  void reset(std::size_t slots);

  /// Records a read of `slot` by `tb` at `time`; `order` answers for that reader. Returns the
  /// unordered earlier write, if any.
  std::optional<Conflict> read(std::size_t slot, std::int32_t tb, Clock time, HappensBefore& order);
  /// Records a write; returns an unordered earlier write or read, if any.
  std::optional<Conflict> write(std::size_t slot, std::int32_t tb, Clock time,
                                HappensBefore& order);

  /// The last write of a slot (tb < 0 when never written).
  Epoch lastWrite(std::size_t slot) const;

private:
  static constexpr std::int32_t kShared = -2; ///< m_read[slot].tb: reads live in m_shared

  static bool ordered(const Epoch& earlier, std::int32_t tb, HappensBefore& order)
  {
    return earlier.tb < 0 || earlier.tb == tb || order.seen(earlier);
  }

  std::vector<Epoch> m_write;
  /// A single read epoch, or tb == kShared and time = index into m_shared when several reads
  /// since the last write are mutually unordered.
  std::vector<Epoch> m_read;
  std::vector<std::vector<Epoch>> m_shared;
  std::vector<std::int32_t> m_freeShared;
};

} // namespace cs
