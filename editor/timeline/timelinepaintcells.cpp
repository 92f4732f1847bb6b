#include "timelinepaintframe.h"

#include "style/rankpalette.h"

#include <QFontMetrics>
#include <QPainterPath>

#include <algorithm>

namespace cs::editor::paintdetail {

namespace {

void drawMark(QPainter& p, const QRectF& box, bool ok)
{
  const qreal s = std::min(box.width(), box.height());
  const QPointF c = box.center();
  QPen pen(ok ? okColor() : errorColor(), std::max(1.5, s / 6), Qt::SolidLine, Qt::RoundCap,
           Qt::RoundJoin);
  p.setPen(pen);
  p.setBrush(Qt::NoBrush);
  if (ok) {
    QPainterPath path(c + QPointF(-s * 0.32, 0));
    path.lineTo(c + QPointF(-s * 0.08, s * 0.25));
    path.lineTo(c + QPointF(s * 0.34, -s * 0.28));
    p.drawPath(path);
  } else {
    p.drawLine(c + QPointF(-s * 0.25, -s * 0.25), c + QPointF(s * 0.25, s * 0.25));
    p.drawLine(c + QPointF(-s * 0.25, s * 0.25), c + QPointF(s * 0.25, -s * 0.25));
  }
}

/// A cell after the step being predicted: plain, because its contents would give the answer
/// away (a chunk the step writes often keeps its value in the next columns).
void drawFutureCell(Frame& f, const QRect& cell)
{
  f.p.fillRect(cell, f.ink.base);
  f.p.setPen(QPen(f.ink.line, 1, Qt::DotLine));
  f.p.drawRect(cell.adjusted(0, 0, -1, -1));
}

/// A cell whose next contents the student is predicting: a question mark on a plain cell.
void drawConcealedCell(Frame& f, const QRect& cell)
{
  f.p.fillRect(cell, f.ink.base);
  f.p.setPen(QPen(f.ink.cellText, 1, Qt::DashLine));
  f.p.drawRect(cell.adjusted(0, 0, -1, -1));
  if (f.cellText)
    drawText(f, cell, Qt::AlignCenter, QStringLiteral("?"), 'C');
}

void drawChunkCell(Frame& f, const QRect& r, int dataRow, int column)
{
  const ChunkStates& states = f.model.states();
  const QRect cell = r.adjusted(0, 0, 0, -1);
  if (!states.computed(column)) {
    // Past the memory budget (pathological schedules): say "unknown", not "uninitialised".
    f.p.fillRect(cell, f.ink.header);
    f.p.fillRect(cell, QBrush(f.ink.line, Qt::DiagCrossPattern));
    return;
  }
  if (f.state.concealedColumn >= 0 && column > f.state.concealedColumn) {
    drawFutureCell(f, cell);
    return;
  }
  const CellValue value = states.value(dataRow, column);
  if (column == f.state.concealedColumn && column > 0 &&
      value != states.value(dataRow, column - 1)) {
    drawConcealedCell(f, cell);
    return;
  }
  const CellSummary& s = states.summary(value);
  if (s.kind == CellKind::Uninitialised) {
    f.p.fillRect(cell, f.ink.base);
    f.p.fillRect(cell, QBrush(f.ink.hatch, Qt::BDiagPattern));
    f.p.setPen(f.ink.line);
    f.p.drawRect(cell.adjusted(0, 0, -1, -1));
    return;
  }
  f.p.fillRect(cell, fillOf(f, value, s));
  if (s.kind == CellKind::Partial && cell.height() >= 8) {
    // The contributors as a strip of their own colours along the bottom edge (with more
    // contributors than pixels, a sample; the tooltip lists them all), built once per value.
    const int h = std::max(2, cell.height() / 6);
    auto strip = f.labels->strips.find(value);
    if (strip == f.labels->strips.end()) {
      QImage image(cell.width(), 1, QImage::Format_RGB32);
      const int n = static_cast<int>(s.ranks.size());
      for (int x = 0; x < cell.width(); ++x)
        image.setPixel(x, 0,
                       f.ink.stroke(s.ranks[static_cast<std::size_t>(x * n / cell.width())]).rgb());
      strip = f.labels->strips.insert(value, image);
    }
    f.p.drawImage(QRect(cell.left(), cell.bottom() - h + 1, cell.width(), h), *strip);
  }
  if (s.kind == CellKind::Complete || s.kind == CellKind::Wrong) {
    f.p.fillRect(QRect(cell.left(), cell.top(), std::max(2, cell.width() / 20), cell.height()),
                 s.kind == CellKind::Complete ? okColor() : errorColor());
  }
  if (!f.cellText)
    return;
  const int natural = states.rows()[static_cast<std::size_t>(dataRow)].naturalChunk;
  const quint64 key = quint64{value} * 2 + (s.chunk >= 0 && s.chunk != natural ? 1 : 0);
  const QRect textBox = cell.adjusted(3, 0, -2, s.kind == CellKind::Partial ? -2 : 0);
  auto found = f.labels->entries.find(key);
  if (found == f.labels->entries.end()) {
    const bool strong = s.kind == CellKind::Complete || s.kind == CellKind::Wrong;
    const QFont& font = strong ? f.boldCellFont : f.cellFont;
    const QFontMetrics metrics(font);
    LabelCache::Entry entry;
    entry.text.setText(metrics.elidedText(QString::fromStdString(states.label(dataRow, column)),
                                          Qt::ElideRight, textBox.width()));
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.setPerformanceHint(QStaticText::AggressiveCaching);
    entry.text.prepare(QTransform(), font);
    entry.size = QSizeF(metrics.horizontalAdvance(entry.text.text()), metrics.height());
    found = f.labels->entries.insert(key, entry);
  }
  const bool strong = s.kind == CellKind::Complete || s.kind == CellKind::Wrong;
  f.useFont(strong ? 'C' : 'c');
  f.p.setPen(s.kind == CellKind::Wrong ? f.ink.wrongText : f.ink.cellText);
  const QPointF at(textBox.left() + (textBox.width() - found->size.width()) / 2,
                   textBox.top() + (textBox.height() - found->size.height()) / 2);
  f.p.drawStaticText(at, found->text);
}

/// A collapsed buffer, rank or node: one sliver per chunk (a sample when there are more chunks
/// than pixels) in its cell colour, uninitialised chunks in the hatch's colour. Drawn as one
/// image a pixel high, stretched: a node row's cells would otherwise cost a fill per pixel.
void drawSummaryCell(Frame& f, const QRect& r, const TimelineLayout::Row& row, int column)
{
  const ChunkStates& states = f.model.states();
  const QRect cell = r.adjusted(0, 0, 0, -1);
  const int n = row.rowCount;
  const int width = std::max(1, cell.width());
  QImage line(width, 1, QImage::Format_RGB32);
  const QRgb unset = mix(f.ink.base, f.ink.hatch, 0.35).rgb();
  for (int x = 0; x < width; ++x) {
    // Pixel x shows the chunk at the same fraction of the row's chunks.
    const int dataRow = row.firstRow + static_cast<int>(static_cast<long long>(x) * n / width);
    const CellValue value = states.value(dataRow, column);
    const CellSummary& s = states.summary(value);
    line.setPixel(x, 0, s.kind == CellKind::Uninitialised ? unset : fillOf(f, value, s).rgb());
  }
  f.p.drawImage(cell, line);
  f.p.setPen(f.ink.line);
  f.p.setBrush(Qt::NoBrush);
  f.p.drawRect(cell.adjusted(0, 0, -1, -1));
}

/// The empty column after the last step: where a new step starts, and the goal of each result row.
void drawGoalCell(Frame& f, const QRect& r, const TimelineLayout::Row& row)
{
  const QRect cell = r.adjusted(0, 0, -1, -2);
  f.p.setPen(QPen(f.ink.line, 1, Qt::DashLine));
  f.p.setBrush(Qt::NoBrush);
  f.p.drawRect(cell);
  if (row.kind != TimelineLayout::Row::Kind::Chunk)
    return;
  const ChunkStates& states = f.model.states();
  const ChunkRow& data = states.rows()[static_cast<std::size_t>(row.firstRow)];
  if (!data.result)
    return;
  const int mark = std::min(cell.height() - 4, 14);
  if (mark >= 6)
    drawMark(f.p, QRectF(cell.right() - mark - 3, cell.center().y() - mark / 2.0, mark, mark),
             data.resultCorrect);
  if (f.cellText) {
    f.p.setPen(f.ink.dimText);
    drawText(f, cell.adjusted(3, 0, -mark - 4, 0), Qt::AlignLeft,
             QString::fromStdString(states.goalLabel(row.firstRow)), 'c');
  }
}

} // namespace

void paintCells(Frame& f)
{
  const TimelineLayout& layout = f.model.layout();
  const int goalColumn = f.model.columnCount() - 1;
  for (int v = f.rows.first; v < f.rows.second; ++v) {
    const TimelineLayout::Row& row = layout.rows()[static_cast<std::size_t>(v)];
    for (int c = f.firstColumn; c <= f.lastColumn; ++c) {
      const QRect r = layout.cellRect(v, c).translated(f.origin);
      if (row.expanded)
        continue; // an open node's header row: its name, no cells
      if (c == goalColumn)
        drawGoalCell(f, r, row);
      else if (row.kind == TimelineLayout::Row::Kind::Chunk)
        drawChunkCell(f, r, row.firstRow, c);
      else
        drawSummaryCell(f, r, row, c);
    }
  }
  // Rank separators in the gaps between rank groups.
  f.p.setPen(f.ink.line);
  for (int v = std::max(1, f.rows.first); v < f.rows.second; ++v) {
    const TimelineLayout::Row& row = layout.rows()[static_cast<std::size_t>(v)];
    if (!row.firstOfRank)
      continue;
    const int previousBottom =
        layout.rows()[static_cast<std::size_t>(v - 1)].top + layout.rowHeight();
    const int y = f.origin.y() + (previousBottom + row.top) / 2;
    f.p.drawLine(f.grid.left(), y, f.grid.right(), y);
  }
}

} // namespace cs::editor::paintdetail
