#pragma once

// What every chunk slot of a Schedule holds before the first step and after each step: the
// timeline's cells, as rows (one per declared chunk) and columns (column 0 = before step 0,
// column c = after step c-1). Qt-free; the analysis pipeline (analysis.h) builds it from the
// Schedule check's own execution, so the Schedule is executed once per edit.
//
// Semantics are the Schedule checks' (engine/check/schedulecheck.h): steps run in order; within a
// step every transfer reads the state before the step and the writes land together (copy:
// dst = src, reduce: dst = dst ⊕ src); input chunks start as their own token, output and scratch
// uninitialised. Values are interned multisets of (rank, input chunk) contributions, so double
// counting shows. The in-place call mode is shown when the Schedule declares it (the output then
// aliases the input), else out of place. Storage (one 32-bit value per memory slot and stored
// column, empty steps sharing the previous column) is engine/check/schedulestates.h.
//
// Start here when a cell shows the wrong thing: label() and fullText() (chunktext.cpp) turn a
// value into text, summary() classifies it (which ranks, which chunk, complete or double counted).

#include "model/buffergeometry.h"
#include "model/schedule.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs {

struct ScheduleStates;

/// An interned chunk value: equal ids hold equal values; 0 is uninitialised.
using CellValue = std::uint32_t;

/// How a cell's value reads, for its colour.
enum class CellKind : std::uint8_t {
  Uninitialised, ///< nobody has written it (output and scratch at the start)
  Single,        ///< one rank's contribution of one input chunk
  Partial,       ///< a sum of some ranks' contributions of one chunk, each once
  Complete,      ///< every rank's contribution of one chunk, each exactly once ("Σ all")
  Wrong,         ///< a contribution summed twice, or contributions of different chunks mixed
};

/// One row of the timeline: a declared chunk of one rank's buffer.
struct ChunkRow {
  ChunkRef ref;
  std::uint32_t memory = 0; ///< the memory slot it occupies (rows may share one in place)
  /// The input chunk this row is meant to carry (the collective's result for result rows, else
  /// its own index); labels name the chunk only when it differs ("r2·c3").
  int naturalChunk = 0;
  /// Whether the row is part of the collective's result, and if so whether it holds the right
  /// value after the last step.
  bool result = false;
  bool resultCorrect = false;
  /// Another row showing the same memory (in place, o[k] of an all-reduce is i[k]), or -1.
  int sharesWith = -1;
};

/// The classification of one value, shared by every cell that holds it.
struct CellSummary {
  CellKind kind = CellKind::Uninitialised;
  std::vector<int> ranks;     ///< distinct contributing ranks, ascending
  int chunk = -1;             ///< the one input chunk summed, or -1 when several are mixed
  std::uint32_t maxCount = 0; ///< how often the most repeated contribution was summed
};

/// The timeline's cells of one Schedule; immutable once built.
class ChunkStates
{
public:
  /// Value ids stored at most (256 MB): columns past this budget are not computed.
  static constexpr std::size_t kDefaultBudget = std::size_t{1} << 26;

  /// An empty table (no rows, one column).
  ChunkStates();
  /// Executes `schedule` on its own (for a Schedule that is not checked, and for tests).
  /// Transfers the Schedule checks reject as malformed (bad rank, index, step or count) are
  /// skipped, as the checker skips them. If the stored columns exceed `budget` value ids, the
  /// later columns are left uncomputed (computed()).
  explicit ChunkStates(const Schedule& schedule, std::size_t budget = kDefaultBudget);
  /// The cells of `schedule` from the states its Schedule check recorded (null: an empty table).
  ChunkStates(const Schedule& schedule, std::shared_ptr<const ScheduleStates> states);
  ~ChunkStates();
  ChunkStates(const ChunkStates&) = delete;
  ChunkStates& operator=(const ChunkStates&) = delete;
  ChunkStates(ChunkStates&&) noexcept;
  ChunkStates& operator=(ChunkStates&&) noexcept;

  CallMode mode() const { return m_mode; }
  int ranks() const { return m_ranks; }
  /// Steps shown: the Schedule's stepCount().
  int stepCount() const { return m_columns - 1; }
  /// stepCount() + 1: the start column and one column after each step.
  int columnCount() const { return m_columns; }
  const std::vector<ChunkRow>& rows() const { return m_rows; }
  int rowCount() const { return static_cast<int>(m_rows.size()); }
  /// The row showing `ref`: its own row, or (a chunk only reachable through aliasing, e.g. o[k]
  /// of an in-place all-reduce declaring no output) a row sharing its memory; -1 when none.
  int rowOf(const ChunkRef& ref) const;
  /// Number of declared chunks of `buffer` on `rank` (0 when out of range).
  int chunks(int rank, Buffer buffer) const;

  /// Whether `column` was computed (false only past the memory budget).
  bool computed(int column) const { return column < m_computedColumns; }
  /// The value of `row` in `column` (0 = before step 0, c = after step c-1); uninitialised (0)
  /// in columns that were not computed.
  CellValue value(int row, int column) const;
  /// Whether step column-1 changed the row's value (false in column 0).
  bool changed(int row, int column) const
  {
    return column > 0 && value(row, column) != value(row, column - 1);
  }
  /// The classification of `value`, computed the first time it is asked for (a paint asks for
  /// the visible cells only; a 64-rank ring has thousands of values).
  const CellSummary& summary(CellValue value) const
  {
    if (!m_summarised[value])
      summarise(value);
    return m_summaries[value];
  }
  CellKind kind(int row, int column) const { return summary(value(row, column)).kind; }

  /// The cell's short text: "" (uninitialised), "r2" (rank 2's own contribution of the row's
  /// chunk), "r2·c3" (of another chunk), "Σ02" / "Σ0-3" (partial sums; "Σ5/16" when the rank
  /// list is long), "Σ all" (complete), "Σ01×2!" (double counted), "Σ01·mix!" (chunks mixed).
  std::string label(int row, int column) const;
  /// What a result row must hold after the last step, as a label ("Σ all", "r2"); "" for rows
  /// that are not part of the result.
  const std::string& goalLabel(int row) const { return m_goals[static_cast<std::size_t>(row)]; }
  /// The whole value for tooltips: "Σ{r0·c1, r1·c1}: ranks 0, 1 of 3" and what is wrong with it.
  std::string fullText(int row, int column) const;
  /// True when the symbolic arena overflowed (pathological input): later values are unknown.
  bool overflowed() const;

private:
  void summarise(CellValue value) const;
  void buildRows(const Schedule& schedule);
  void buildTokens(const Schedule& schedule);
  void judgeResults(const Schedule& schedule);

  std::shared_ptr<const ScheduleStates> m_states; ///< never null
  CallMode m_mode = CallMode::OutOfPlace;
  int m_ranks = 0;
  int m_columns = 1;
  std::vector<ChunkRow> m_rows;
  /// First row of each (rank, buffer) in m_rows and the declared chunk counts.
  std::vector<int> m_rowBase;
  std::vector<int> m_rowCount;
  /// First row per memory slot, for chunks reachable only through aliasing.
  std::vector<int> m_rowOfMemory;
  int m_computedColumns = 1;
  /// Summaries of the values asked for so far: a map, not one per value of the store, which in a
  /// 1,024-rank program holds millions of values, nearly all never painted. Nodes, so the
  /// references summary() hands out stay valid.
  mutable std::unordered_map<CellValue, CellSummary> m_summaries;
  mutable std::vector<std::uint8_t> m_summarised;
  /// (rank, chunk) of every token, so classifying a value needs no search.
  std::vector<int> m_tokenRank;
  std::vector<int> m_tokenChunk;
  std::vector<std::string> m_goals; ///< per row
  /// Per input chunk, how many ranks hold it (the size of a complete sum).
  std::vector<int> m_holders;
};

} // namespace cs
