#pragma once

// Internal to the Schedule checks (schedulecheck.cpp, schedulesymbolic.cpp): the report that
// pairs each diagnostic with its transfer and caps repetitive ones, and the symbolic execution of
// one call mode.

#include "schedulecheck.h"
#include "schedulegeometry.h"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace cs {
struct ScheduleStates;
}

namespace cs::detail {

/// Collects Schedule diagnostics; at most kMaxPerCode of one code, then one summary line.
class ScheduleReport
{
public:
  static constexpr int kMaxPerCode = 25;

  explicit ScheduleReport(ScheduleCheckResult& result) : m_result(result) {}

  /// Adds a diagnostic about `transfer` (nullptr: about the whole schedule). A diagnostic with
  /// the same code about the same transfer is reported once (both call modes find most).
  void add(Severity severity, const std::string& code, const std::string& message,
           const Transfer* transfer, int rank = -1);
  /// Appends "N more …" summaries for capped codes.
  void finish();

private:
  ScheduleCheckResult& m_result;
  std::map<std::string, int> m_perCode;
  std::set<std::pair<std::string, int>> m_seen;
};

/// "transfer #4"
inline std::string transferName(const Transfer& transfer)
{
  return "transfer #" + std::to_string(transfer.id);
}

/// "rank 2 s[3]"
std::string chunkRefName(const ChunkRef& ref);

/// Where one plane's per-step states go (schedulestates.h): nowhere when `states` is null.
/// The caller sets the columns, mode, ranks and geometry; the run fills the rest.
struct PlaneRecording {
  ScheduleStates* states = nullptr;
  std::size_t budget = 0;
  /// Stop executing once the budget is spent (the findings are not wanted, only the states):
  /// nothing past that is recorded, and on a 1,024-rank program it is most of the work.
  bool stopWhenFull = false;
};

/// Executes `schedule` symbolically in `mode` over the transfers `order` (indices into
/// schedule.transfers, sorted by (step, id), all structurally valid) and reports write conflicts,
/// races, uninitialised reads and the postcondition. `prefix` starts every message ("in-place: ").
void runSchedulePlane(const Schedule& schedule, const ScheduleGeometry& geometry, CallMode mode,
                      const std::vector<std::size_t>& order, const std::string& prefix,
                      ScheduleReport& report, const PlaneRecording& recording = {});

/// Whether the Schedule has at least one rank and one buffer description per rank.
inline bool usableShape(const Schedule& schedule)
{
  return schedule.ranks >= 1 && static_cast<int>(schedule.buffers.size()) == schedule.ranks;
}

/// States with the shown mode, geometry and column count set and nothing recorded yet.
ScheduleStates unrecordedStates(const Schedule& schedule, const ScheduleGeometry& geometry);

/// The transfers that can be executed (indices into schedule.transfers), sorted by (step, id);
/// reports the malformed ones and duplicate ids. The shape must be usable.
std::vector<std::size_t> executableTransfers(const Schedule& schedule,
                                             const ScheduleGeometry& geometry,
                                             ScheduleReport& report);

} // namespace cs::detail
