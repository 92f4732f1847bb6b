#include "timelinepaintframe.h"
#include "timelineplayback.h"

#include "style/rankpalette.h"

#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace cs::editor::paintdetail {

namespace {

/// The cells transfer `index` writes, in viewport coordinates (empty when it has no row).
QRect writtenCells(const Frame& f, int index)
{
  const Transfer& t = f.model.schedule().transfers[static_cast<std::size_t>(index)];
  const auto extent = f.model.extentOf(t.dst, t.count);
  if (!extent)
    return {};
  const TimelineLayout& layout = f.model.layout();
  const int top = static_cast<int>(extent->first);
  return QRect(layout.columnLeft(t.step + 1), top, layout.cellWidth(),
               static_cast<int>(extent->second) - top - 1)
      .translated(f.origin);
}

/// The first column of visual row `row` not produced yet (the earliest of its data rows), and
/// how much of that cell is produced already.
std::pair<int, float> firstOpenOf(const TimelinePlayback& playback, const TimelineLayout::Row& row)
{
  std::pair<int, float> first(INT_MAX, 0.0F);
  for (int r = row.firstRow; r < row.firstRow + row.rowCount; ++r) {
    if (r >= static_cast<int>(playback.firstOpen.size()))
      break;
    const auto at = static_cast<std::size_t>(r);
    if (playback.firstOpen[at] < first.first)
      first = {playback.firstOpen[at], playback.filling[at]};
  }
  return first;
}

/// A wait-for edge from the right edge of cells `a` to the right edge of cells `b`, bowed out
/// into the gap after the column (where the cells' labels are not), further for longer edges.
void drawCycleEdge(QPainter& p, const QRect& a, const QRect& b, qreal gap, const QColor& colour)
{
  const QPointF from(a.right() + 2, a.center().y());
  const QPointF to(b.right() + 2, b.center().y());
  const qreal bow = std::min(gap * 0.85, 10 + std::abs(to.y() - from.y()) * 0.1);
  const qreal x = std::max(from.x(), to.x()) + bow;
  const QPointF control1(x, from.y());
  const QPointF control2(x, to.y());
  QPainterPath path(from);
  path.cubicTo(control1, control2, to);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(colour, 2.2, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
  p.drawPath(path);
  // The head points along the curve's last tangent.
  const QPointF tangent = to - control2;
  const qreal length = std::hypot(tangent.x(), tangent.y());
  if (length < 1)
    return;
  const QPointF v = tangent / length;
  const QPointF n(-v.y(), v.x());
  QPolygonF head;
  head << to << to - v * 8 + n * 4 << to - v * 8 - n * 4;
  p.setPen(Qt::NoPen);
  p.setBrush(colour);
  p.drawPolygon(head);
}

} // namespace

void paintPlaybackCells(Frame& f)
{
  const TimelinePlayback& playback = *f.state.playback;
  const TimelineLayout& layout = f.model.layout();
  const int goalColumn = f.model.columnCount() - 1;
  // The cursor's step: a band over the gap its arrows run in.
  if (playback.step && *playback.step + 1 >= f.firstColumn && *playback.step <= f.lastColumn) {
    QColor band = f.ink.accent;
    band.setAlpha(f.ink.dark ? 60 : 36);
    const int left = f.origin.x() + layout.columnLeft(*playback.step) + layout.cellWidth();
    const int right = f.origin.x() + layout.columnLeft(*playback.step + 1);
    f.p.fillRect(QRect(left, f.grid.top(), right - left, f.grid.height()), band);
  }
  // Values the run has not produced yet are veiled.
  QColor veil = f.ink.base;
  veil.setAlpha(f.ink.dark ? 190 : 175);
  for (int v = f.rows.first; v < f.rows.second; ++v) {
    const TimelineLayout::Row& row = layout.rows()[static_cast<std::size_t>(v)];
    const auto [open, filling] = firstOpenOf(playback, row);
    for (int c = std::max(f.firstColumn, open); c <= std::min(f.lastColumn, goalColumn - 1); ++c) {
      QRect cell = layout.cellRect(v, c).translated(f.origin).adjusted(0, 0, 0, -1);
      // The cell being written fills from the left as its transfer's events complete.
      if (c == open)
        cell.setLeft(cell.left() + static_cast<int>(std::lround(cell.width() * filling)));
      f.p.fillRect(cell, veil);
    }
  }
  // Transfers in flight: their cells outlined in the accent.
  for (int step = f.firstColumn - 1; step <= f.lastColumn; ++step) {
    for (const int index : f.model.transfersOfStep(step)) {
      if (playback.stateOf(index) != TransferProgress::Running)
        continue;
      const QRect cells = writtenCells(f, index);
      if (cells.isEmpty())
        continue;
      f.p.setPen(QPen(f.ink.accent, 2));
      f.p.setBrush(Qt::NoBrush);
      f.p.drawRect(cells.adjusted(1, 1, -1, -1));
    }
  }
}

void paintPlaybackProblems(Frame& f)
{
  const TimelinePlayback& playback = *f.state.playback;
  const QColor red = errorColor();
  QColor tint = red;
  tint.setAlpha(45);
  for (const int index : playback.blocked) {
    const QRect cells = writtenCells(f, index);
    if (cells.isEmpty())
      continue;
    f.p.fillRect(cells, tint);
    f.p.setPen(QPen(red, 2.5));
    f.p.setBrush(Qt::NoBrush);
    f.p.drawRect(QRectF(cells).adjusted(1, 1, -1, -1));
  }
  std::vector<QRect> cells;
  for (const int index : playback.cycle)
    if (const QRect written = writtenCells(f, index); !written.isEmpty())
      cells.push_back(written);
  if (cells.size() < 2)
    return;
  const TimelineLayout& layout = f.model.layout();
  const qreal gap = layout.columnPitch() - layout.cellWidth();
  for (std::size_t i = 0; i < cells.size(); ++i)
    drawCycleEdge(f.p, cells[i], cells[(i + 1) % cells.size()], gap, red);
}

} // namespace cs::editor::paintdetail
