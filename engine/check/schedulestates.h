#pragma once

// What every chunk of a Schedule holds before the first step and after each step, as the Schedule
// checks execute it (schedulecheck.h): recorded by checkSchedule() on request, so that the
// timeline's cells (engine/analysis/chunkstates.h) come from the same execution as the checks'
// findings and the Schedule is executed once per edit.
//
// Only the shown call mode is recorded: in place when the Schedule declares it, else out of
// place (the first mode the checks execute). Storage: one value id per memory slot and stored
// column; a step without transfers shares the previous column, so a stray step 100000 costs no
// memory; past `budget` value ids the later columns are not recorded (computedColumns).

#include "schedulegeometry.h"
#include "symbolicvalue.h"

#include "../model/schedule.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

struct ScheduleStates {
  /// Value ids recorded at most by default (256 MB).
  static constexpr std::size_t kDefaultBudget = std::size_t{1} << 26;

  CallMode mode = CallMode::OutOfPlace;
  ScheduleGeometry geometry;
  int ranks = 0;
  /// Column 0 is before step 0, column c after step c-1: the Schedule's stepCount() + 1.
  int columns = 1;
  /// Columns recorded (columns unless the budget ran out).
  int computedColumns = 1;
  /// Memory layout: first slot of each (rank, memory buffer), rank-major, plus the total; and
  /// how many chunks of that memory have a slot.
  std::vector<std::size_t> memoryBase{0};
  std::vector<int> memorySize;
  TokenSpace tokens;
  ValueStore store{0};
  std::vector<ValueId> values;            ///< stored columns, slotCount() ids each
  std::vector<std::uint32_t> storedOf{0}; ///< column -> stored column

  std::size_t slotCount() const { return memoryBase.back(); }
  /// The memory `ref` occupies in the recorded mode (aliasing applied).
  ChunkRef memoryOf(const ChunkRef& ref) const { return aliasedChunk(geometry, ref, mode); }
  /// Whether `ref`'s memory has a slot.
  bool hasSlot(const ChunkRef& ref) const;
  /// The slot of chunk `offset` of `ref`; hasSlot() must hold for it.
  std::size_t slot(const ChunkRef& ref, int offset = 0) const;
  /// The value of `slot` in `column`; kUninitialised in columns that were not recorded.
  ValueId value(std::size_t slot, int column) const
  {
    if (column >= computedColumns)
      return kUninitialised;
    return values[std::size_t{storedOf[static_cast<std::size_t>(column)]} * slotCount() + slot];
  }
};

/// Executes `schedule` in the shown mode without reporting anything: the states of a Schedule
/// that is not checked (one lifted from a Program). Transfers the checks would reject as
/// malformed are skipped; an unusable shape (no ranks) gives no slots and one column. Execution
/// stops where the budget runs out, as nothing after it would be recorded.
ScheduleStates executeSchedule(const Schedule& schedule,
                               std::size_t budget = ScheduleStates::kDefaultBudget);

} // namespace cs
