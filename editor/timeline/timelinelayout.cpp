#include "timelinelayout.h"

#include <algorithm>
#include <cmath>

namespace cs::editor {

namespace {

// Compact rows keep a line of a slightly smaller font (textScale) with a pixel to spare.
constexpr double kRowHeight = 22;
constexpr double kCompactRowHeight = 16;
constexpr double kCompactTextScale = 0.85;

} // namespace

void TimelineLayout::setZoom(double zoom)
{
  m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  updateMetrics();
}

void TimelineLayout::setCompactRows(bool compact)
{
  m_compact = compact;
  updateMetrics();
}

void TimelineLayout::setMinRowHeight(int pixels)
{
  m_minRowHeight = std::max(0, pixels);
  updateMetrics();
}

double TimelineLayout::textScale() const
{
  return std::min(1.0, m_zoom) * (m_compact ? kCompactTextScale : 1.0);
}

void TimelineLayout::updateMetrics()
{
  const double rowHeight = m_compact ? kCompactRowHeight : kRowHeight;
  m_rowHeight = std::max({3, m_minRowHeight, static_cast<int>(std::lround(rowHeight * m_zoom))});
  m_cellWidth = std::max(8, static_cast<int>(std::lround(62 * m_zoom)));
  m_gap = std::max(6, static_cast<int>(std::lround(34 * m_zoom)));
  m_rankGap = std::max(2, static_cast<int>(std::lround((m_compact ? 3 : 6) * m_zoom)));
  m_bufferGap = m_zoom >= 0.5 && !m_compact ? 2 : 1;
}

void TimelineLayout::rebuild(const ChunkStates& states, const CollapseState& collapse, int columns)
{
  m_columns = std::max(1, columns);
  m_rows.clear();
  m_visualOf.assign(static_cast<std::size_t>(states.rowCount()), -1);
  int y = 0;
  const std::size_t size = states.rows().size();
  std::size_t i = 0;
  while (i < size) {
    const int rank = states.rows()[i].ref.rank;
    const bool grouped = rank >= 0 && rank < static_cast<int>(collapse.nodeOfRank.size());
    i = grouped ? addNode(states, collapse, i, y) : addRank(states, collapse, i, y);
  }
  m_height = y;
}

void TimelineLayout::addRow(Row row, int& y)
{
  row.top = y;
  y += m_rowHeight;
  if (!row.expanded) {
    for (int k = 0; k < row.rowCount; ++k)
      m_visualOf[static_cast<std::size_t>(row.firstRow + k)] = static_cast<int>(m_rows.size());
  }
  m_rows.push_back(row);
}

std::size_t TimelineLayout::addNode(const ChunkStates& states, const CollapseState& collapse,
                                    std::size_t i, int& y)
{
  const std::vector<ChunkRow>& data = states.rows();
  const int firstRank = data[i].ref.rank;
  const int node = collapse.nodeOfRank[static_cast<std::size_t>(firstRank)];
  const auto nodeOf = [&](std::size_t k) {
    const int rank = data[k].ref.rank;
    return rank >= 0 && rank < static_cast<int>(collapse.nodeOfRank.size())
               ? collapse.nodeOfRank[static_cast<std::size_t>(rank)]
               : -1;
  };
  std::size_t end = i;
  while (end < data.size() && nodeOf(end) == node)
    ++end;
  if (!m_rows.empty())
    y += m_rankGap;
  Row row{Row::Kind::Node,
          firstRank,
          data[i].ref.buffer,
          static_cast<int>(i),
          static_cast<int>(end - i),
          0,
          true,
          true};
  row.node = node;
  row.lastRank = data[end - 1].ref.rank;
  row.expanded = collapse.expandedNodes.contains(node);
  addRow(row, y);
  if (!row.expanded)
    return end;
  while (i < end)
    i = addRank(states, collapse, i, y);
  return end;
}

std::size_t TimelineLayout::addRank(const ChunkStates& states, const CollapseState& collapse,
                                    std::size_t i, int& y)
{
  const std::vector<ChunkRow>& data = states.rows();
  const int rank = data[i].ref.rank;
  std::size_t rankEnd = i;
  while (rankEnd < data.size() && data[rankEnd].ref.rank == rank)
    ++rankEnd;
  if (!m_rows.empty())
    y += m_rankGap;
  if (collapse.ranks.contains(rank)) {
    addRow({Row::Kind::Rank, rank, data[i].ref.buffer, static_cast<int>(i),
            static_cast<int>(rankEnd - i), 0, true, true},
           y);
    return rankEnd;
  }
  bool firstOfRank = true;
  while (i < rankEnd) {
    const Buffer buffer = data[i].ref.buffer;
    std::size_t bufferEnd = i;
    while (bufferEnd < rankEnd && data[bufferEnd].ref.buffer == buffer)
      ++bufferEnd;
    if (!firstOfRank)
      y += m_bufferGap;
    if (collapse.buffers.contains({rank, buffer})) {
      addRow({Row::Kind::Buffer, rank, buffer, static_cast<int>(i), static_cast<int>(bufferEnd - i),
              0, firstOfRank, true},
             y);
    } else {
      for (std::size_t k = i; k < bufferEnd; ++k)
        addRow({Row::Kind::Chunk, rank, buffer, static_cast<int>(k), 1, 0, firstOfRank && k == i,
                k == i},
               y);
    }
    firstOfRank = false;
    i = bufferEnd;
  }
  return rankEnd;
}

int TimelineLayout::visualRowOf(int dataRow) const
{
  if (dataRow < 0 || dataRow >= static_cast<int>(m_visualOf.size()))
    return -1;
  return m_visualOf[static_cast<std::size_t>(dataRow)];
}

int TimelineLayout::rowAt(int y) const
{
  const auto after = std::upper_bound(m_rows.begin(), m_rows.end(), y,
                                      [](int value, const Row& row) { return value < row.top; });
  if (after == m_rows.begin())
    return -1;
  const int index = static_cast<int>(after - m_rows.begin()) - 1;
  return y < m_rows[static_cast<std::size_t>(index)].top + m_rowHeight ? index : -1;
}

std::pair<int, int> TimelineLayout::rowsBetween(int top, int bottom) const
{
  const auto first = std::upper_bound(m_rows.begin(), m_rows.end(), top - m_rowHeight,
                                      [](int value, const Row& row) { return value < row.top; });
  const auto last = std::lower_bound(m_rows.begin(), m_rows.end(), bottom,
                                     [](const Row& row, int value) { return row.top < value; });
  const int a = static_cast<int>(first - m_rows.begin());
  return {a, std::max(a, static_cast<int>(last - m_rows.begin()))};
}

int TimelineLayout::columnAt(int x, bool* inCell) const
{
  const int pitch = columnPitch();
  const int column = x >= 0 ? x / pitch : -((-x + pitch - 1) / pitch);
  if (inCell)
    *inCell = x - column * pitch < m_cellWidth;
  return column;
}

QRect TimelineLayout::cellRect(int row, int column) const
{
  if (row < 0 || row >= static_cast<int>(m_rows.size()))
    return {};
  return {columnLeft(column), m_rows[static_cast<std::size_t>(row)].top, m_cellWidth, m_rowHeight};
}

std::pair<int, int> TimelineLayout::spanOf(int dataRow, int count) const
{
  const int first = visualRowOf(dataRow);
  const int last = visualRowOf(dataRow + std::max(1, count) - 1);
  if (first < 0)
    return {0, 0};
  const int lastRow = last < 0 ? first : last;
  return {m_rows[static_cast<std::size_t>(first)].top,
          m_rows[static_cast<std::size_t>(lastRow)].top + m_rowHeight};
}

} // namespace cs::editor
