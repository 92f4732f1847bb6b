#pragma once

// Geometry of the timeline in content coordinates (the grid without its headers, origin at the
// top-left of the "start" column): which visual rows exist after collapsing, where rows and
// columns are at the current zoom, and the reverse lookups for hit tests. Pure arithmetic over
// ChunkStates' rows, rebuilt on every document change and zoom; the view adds the scroll offset
// and the header sizes.
//
// Invariants: rows() is in ChunkStates row order; every data row maps to exactly one visual row
// (its own, or the summary row of its collapsed buffer or rank); tops are strictly increasing.

#include "analysis/chunkstates.h"

#include <QRect>

#include <set>
#include <utility>
#include <vector>

namespace cs::editor {

/// Which rank groups and buffer groups are folded into one summary row.
struct CollapseState {
  std::set<int> ranks;
  std::set<std::pair<int, Buffer>> buffers;
  /// Node grouping (issue 18): the machine of every rank, empty when ranks are not grouped. Each
  /// run of consecutive ranks on one machine folds into one node row unless the machine is in
  /// `expandedNodes`; an expanded machine keeps a thin node row above its ranks to fold it again.
  std::vector<int> nodeOfRank;
  std::set<int> expandedNodes;
  bool operator==(const CollapseState&) const = default;
};

class TimelineLayout
{
public:
  /// One visual row: a chunk, the summary of a collapsed buffer or rank, or a node's row (the
  /// summary of its ranks when folded, the header above them when expanded).
  struct Row {
    enum class Kind : std::uint8_t { Chunk, Buffer, Rank, Node };
    Kind kind = Kind::Chunk;
    int rank = 0;
    Buffer buffer = Buffer::Input;
    int firstRow = 0; ///< first ChunkStates row it shows
    int rowCount = 1; ///< ChunkStates rows it shows
    int top = 0;      ///< content y
    bool firstOfRank = false;
    bool firstOfBuffer = false;
    int node = -1;         ///< Node rows: the machine
    int lastRank = 0;      ///< Node rows: the last rank of the run (rank is the first)
    bool expanded = false; ///< Node rows: a header above the node's ranks, owning no data row
  };

  static constexpr double kMinZoom = 0.2;
  static constexpr double kMaxZoom = 3.0;

  /// Lays `states`' rows out with `collapse` and `columns` columns (the view passes one more than
  /// the states have: the empty column where a new step starts).
  void rebuild(const ChunkStates& states, const CollapseState& collapse, int columns);
  /// Clamps to [kMinZoom, kMaxZoom]; call rebuild() afterwards.
  void setZoom(double zoom);
  double zoom() const { return m_zoom; }
  /// Compact rows: a smaller row height and rank gap at the same zoom, so more ranks fit while
  /// the labels stay legible (textScale()); call rebuild() afterwards.
  void setCompactRows(bool compact);
  bool compactRows() const { return m_compact; }
  /// Rows are never lower than `pixels` at any zoom (node grouping keeps node names legible
  /// when many narrow steps set the zoom); 0 for none. Call rebuild() afterwards.
  void setMinRowHeight(int pixels);
  /// How much the painter scales the cell font: the zoom below 100%, less in compact rows.
  double textScale() const;

  int rowHeight() const { return m_rowHeight; }
  int cellWidth() const { return m_cellWidth; }
  /// Distance between the left edges of two columns (cell plus the gap arrows run in).
  int columnPitch() const { return m_cellWidth + m_gap; }
  int columnCount() const { return m_columns; }
  int contentWidth() const { return m_columns * columnPitch(); }
  int contentHeight() const { return m_height; }

  const std::vector<Row>& rows() const { return m_rows; }
  /// The visual row that shows ChunkStates row `dataRow`, or -1.
  int visualRowOf(int dataRow) const;
  /// The visual row at content `y`, or -1 (gaps between ranks belong to no row).
  int rowAt(int y) const;
  /// Visual rows intersecting content y in [top, bottom): [first, last), possibly empty.
  std::pair<int, int> rowsBetween(int top, int bottom) const;
  /// The column at content `x` (may be out of range); `inCell` says whether x is on the cell
  /// rather than in the gap to its right.
  int columnAt(int x, bool* inCell = nullptr) const;
  int columnLeft(int column) const { return column * columnPitch(); }
  /// The cell of visual row `row` in `column`, in content coordinates.
  QRect cellRect(int row, int column) const;
  /// Vertical extent of data rows first .. first+count-1 (through their visual rows).
  std::pair<int, int> spanOf(int dataRow, int count) const;

private:
  void updateMetrics();
  /// Adds the rows of ranks [rank, ...) of one machine starting at data row `i`; returns the
  /// data row after them.
  std::size_t addNode(const ChunkStates& states, const CollapseState& collapse, std::size_t i,
                      int& y);
  /// Adds the rows of the rank starting at data row `i`; returns the data row after them.
  std::size_t addRank(const ChunkStates& states, const CollapseState& collapse, std::size_t i,
                      int& y);
  void addRow(Row row, int& y);

  double m_zoom = 1.0;
  bool m_compact = false;
  int m_minRowHeight = 0;
  int m_rowHeight = 22;
  int m_cellWidth = 62;
  int m_gap = 34;
  int m_rankGap = 6;
  int m_bufferGap = 2;
  int m_columns = 1;
  int m_height = 0;
  std::vector<Row> m_rows;
  std::vector<int> m_visualOf; ///< ChunkStates row -> visual row
};

} // namespace cs::editor
