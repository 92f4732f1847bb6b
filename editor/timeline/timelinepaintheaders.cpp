#include "timelinepaintframe.h"
#include "timelineplayback.h"

#include "style/rankpalette.h"

#include <QFontMetrics>
#include <QPainterPath>

#include <algorithm>

namespace cs::editor {

namespace paintdetail {

namespace {

void drawTriangle(QPainter& p, const QPointF& centre, qreal size, bool expanded, const QColor& c)
{
  QPainterPath path;
  if (expanded) {
    path.moveTo(centre + QPointF(-size, -size / 2));
    path.lineTo(centre + QPointF(size, -size / 2));
    path.lineTo(centre + QPointF(0, size * 0.75));
  } else {
    path.moveTo(centre + QPointF(-size / 2, -size));
    path.lineTo(centre + QPointF(size * 0.75, 0));
    path.lineTo(centre + QPointF(-size / 2, size));
  }
  path.closeSubpath();
  p.fillPath(path, c);
}

/// "node 3 · ranks 24–31" across the whole header, with the fold triangle.
void paintNodeName(Frame& f, const TimelineLayout::Row& row, const QRect& box, qreal tri)
{
  if (row.expanded)
    f.p.fillRect(QRect(4, box.top(), f.state.header.left() - 4, box.height()), f.ink.base);
  drawTriangle(f.p, QPointF(box.left() + 6, box.top() + box.height() / 2.0), tri, row.expanded,
               f.ink.dimText);
  f.p.setPen(f.ink.headerText);
  const QString name =
      row.rank == row.lastRank
          ? QStringLiteral("node %1 · rank %2").arg(row.node).arg(row.rank)
          : QStringLiteral("node %1 · ranks %2–%3").arg(row.node).arg(row.rank).arg(row.lastRank);
  drawText(f, box.adjusted(14, 0, 0, 0), Qt::AlignLeft, name, 'H');
}

} // namespace

void paintStepHeader(Frame& f)
{
  const HeaderMetrics& h = f.state.header;
  const TimelineLayout& layout = f.model.layout();
  f.p.fillRect(QRect(0, 0, f.state.viewport.width(), h.top), f.ink.header);
  f.p.setClipRect(QRect(h.left(), 0, f.state.viewport.width() - h.left(), h.top));
  const int goalColumn = f.model.columnCount() - 1;
  const QFontMetrics metrics(f.headerFont);
  for (int c = f.firstColumn; c <= f.lastColumn; ++c) {
    const int x = f.origin.x() + layout.columnLeft(c);
    const QRect box(x, 0, layout.cellWidth(), h.top);
    QString text = c == 0 ? QStringLiteral("start") : QStringLiteral("step %1").arg(c - 1);
    if (c == goalColumn)
      text = QStringLiteral("+ step %1").arg(c - 1);
    // Narrow columns (zoomed out) drop the word; the number alone still reads.
    if (box.width() < metrics.horizontalAdvance(text) + 4)
      text = c == 0 ? QStringLiteral("s") : QString::number(c - 1);
    const bool cursorStep =
        f.state.playback && f.state.playback->step && *f.state.playback->step + 1 == c;
    if (cursorStep) {
      // The replay cursor's step: the header cell in the accent, like a playhead.
      f.p.fillRect(box.adjusted(0, 3, 0, -3), f.ink.accent);
      f.p.setPen(f.state.palette.color(QPalette::HighlightedText));
    } else {
      f.p.setPen(c == goalColumn ? f.ink.dimText : f.ink.headerText);
    }
    drawText(f, box, Qt::AlignHCenter, text, cursorStep ? 'H' : 'h');
    if (c > 0 && f.model.stepHasError(c - 1)) {
      const qreal d = 3.5;
      f.p.setPen(Qt::NoPen);
      f.p.setBrush(errorColor());
      f.p.drawEllipse(QPointF(box.right() - d - 1, box.top() + d + 3), d, d);
    }
  }
  f.p.setClipping(false);
  f.p.setPen(f.ink.line);
  f.p.drawLine(0, h.top - 1, f.state.viewport.width(), h.top - 1);
}

void paintRowHeader(Frame& f)
{
  const HeaderMetrics& h = f.state.header;
  const TimelineLayout& layout = f.model.layout();
  const std::vector<TimelineLayout::Row>& rows = layout.rows();
  const int top = h.top;
  const int height = f.state.viewport.height() - top;
  // The header stops where the rows do: below them is the grid's empty background.
  const int contentBottom = f.origin.y() + layout.contentHeight();
  f.p.fillRect(QRect(0, top, h.left(), std::min(height, contentBottom - top)), f.ink.header);
  f.p.setClipRect(QRect(0, top, h.left(), height));
  const QFontMetrics metrics(f.headerFont);
  const bool rowText = rowHeaderText(layout.rowHeight(), metrics) && h.chunkWidth > 0;
  const qreal tri = std::clamp(layout.rowHeight() / 5.0, 2.5, 4.0);

  // Rank groups: a colour bar along the whole group and a label that stays in view while any
  // row of the group does.
  int v = f.rows.first;
  while (v > 0 && !rows[static_cast<std::size_t>(v)].firstOfRank)
    --v;
  while (v < f.rows.second) {
    const TimelineLayout::Row& first = rows[static_cast<std::size_t>(v)];
    int end = v + 1;
    while (end < static_cast<int>(rows.size()) && !rows[static_cast<std::size_t>(end)].firstOfRank)
      ++end;
    const int groupTop = f.origin.y() + first.top;
    const int groupBottom =
        f.origin.y() + rows[static_cast<std::size_t>(end - 1)].top + layout.rowHeight();
    f.p.fillRect(QRect(0, groupTop, 4, groupBottom - groupTop), f.ink.stroke(first.rank));
    const int labelTop = std::clamp(top, groupTop, groupBottom - layout.rowHeight());
    const int labelHeight =
        std::min(std::max(layout.rowHeight(), metrics.height()), groupBottom - labelTop);
    if (first.kind == TimelineLayout::Row::Kind::Node) {
      paintNodeName(f, first, QRect(6, labelTop, h.left() - 10, labelHeight), tri);
    } else if (labelHeight >= metrics.height() - 4) {
      const QRect box(6, labelTop, h.rankWidth - 8, labelHeight);
      const bool collapsed = first.kind == TimelineLayout::Row::Kind::Rank;
      drawTriangle(f.p, QPointF(box.left() + 6, box.top() + labelHeight / 2.0), tri, !collapsed,
                   f.ink.dimText);
      f.p.setPen(f.ink.headerText);
      drawText(f, box.adjusted(14, 0, 0, 0), Qt::AlignLeft,
               QStringLiteral("rank %1").arg(first.rank), 'H');
      if (collapsed && h.chunkWidth > 0) {
        f.p.setPen(f.ink.dimText);
        drawText(f, QRect(h.rankWidth, labelTop, h.bufferWidth + h.chunkWidth - 6, labelHeight),
                 Qt::AlignLeft, QStringLiteral("%1 chunks").arg(first.rowCount), 'h');
      }
    }
    v = end;
  }

  for (int r = f.rows.first; r < f.rows.second && rowText; ++r) {
    const TimelineLayout::Row& row = rows[static_cast<std::size_t>(r)];
    const int y = f.origin.y() + row.top;
    if (row.kind == TimelineLayout::Row::Kind::Rank || row.kind == TimelineLayout::Row::Kind::Node)
      continue;
    if (row.firstOfBuffer) {
      const QRect box(h.rankWidth, y, h.bufferWidth, layout.rowHeight());
      const bool collapsed = row.kind == TimelineLayout::Row::Kind::Buffer;
      drawTriangle(f.p, QPointF(box.left() + 5, box.center().y() + 0.5), tri * 0.85, !collapsed,
                   f.ink.dimText);
      f.p.setPen(f.ink.headerText);
      drawText(f, box.adjusted(12, 0, 0, 0), Qt::AlignLeft,
               QString::fromUtf8(bufferName(row.buffer).data()), 'h');
    }
    const QRect chunkBox(h.rankWidth + h.bufferWidth, y, h.chunkWidth - 6, layout.rowHeight());
    f.p.setPen(f.ink.dimText);
    const QString text =
        row.kind == TimelineLayout::Row::Kind::Chunk
            ? QStringLiteral("%1[%2]")
                  .arg(QChar(bufferLetter(row.buffer)))
                  .arg(f.model.states().rows()[static_cast<std::size_t>(row.firstRow)].ref.index)
            : QStringLiteral("×%1").arg(row.rowCount);
    drawText(f, chunkBox, Qt::AlignRight, text, 'h');
  }
  f.p.setClipping(false);
  f.p.setPen(f.ink.line);
  f.p.drawLine(h.left() - 1, top, h.left() - 1, f.state.viewport.height());
}

void paintCorner(Frame& f)
{
  const HeaderMetrics& h = f.state.header;
  const QRect corner(0, 0, h.left(), h.top);
  f.p.fillRect(corner, f.ink.header);
  f.p.setPen(f.ink.dimText);
  const QString mode = f.model.states().mode() == CallMode::InPlace
                           ? QStringLiteral("in place")
                           : QStringLiteral("out of place");
  drawText(f, corner.adjusted(8, 0, -6, 0), Qt::AlignLeft, mode, 'h');
  f.p.setPen(f.ink.line);
  f.p.drawLine(h.left() - 1, 0, h.left() - 1, h.top);
  f.p.drawLine(0, h.top - 1, h.left(), h.top - 1);
}

void paintMessage(QPainter& p, const TimelinePaintState& state)
{
  const Ink ink = inkFor(state.palette);
  p.fillRect(QRect(QPoint(0, 0), state.viewport), ink.base);
  // A card in the middle: a badge, the title (the message's first line), then the rest.
  const qsizetype split = state.emptyMessage.indexOf(QLatin1Char('\n'));
  const QString title = state.emptyMessage.left(split);
  const QString body = split < 0 ? QString() : state.emptyMessage.mid(split + 1);
  QFont titleFont = state.font;
  titleFont.setBold(true);
  if (titleFont.pointSizeF() > 0)
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
  const int width = std::min(680, state.viewport.width() - 60);
  const int padding = 18;
  const int badge = 26;
  const int textLeft = padding + badge + 14;
  const int textWidth = width - textLeft - padding;
  const QRect titleBounds =
      QFontMetrics(titleFont).boundingRect(QRect(0, 0, textWidth, 1000), Qt::TextWordWrap, title);
  const QRect bodyBounds =
      QFontMetrics(state.font).boundingRect(QRect(0, 0, textWidth, 4000), Qt::TextWordWrap, body);
  const int height = padding * 2 + titleBounds.height() + 10 + bodyBounds.height();
  const QRect card((state.viewport.width() - width) / 2,
                   std::max(20, (state.viewport.height() - height) / 3), width, height);
  p.setRenderHint(QPainter::Antialiasing, true);
  p.setPen(ink.line);
  p.setBrush(mix(ink.base, ink.header, 0.6));
  p.drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
  const QPointF centre(card.left() + padding + badge / 2.0, card.top() + padding + badge / 2.0);
  p.setPen(Qt::NoPen);
  p.setBrush(errorColor());
  p.drawEllipse(centre, badge / 2.0, badge / 2.0);
  p.setBrush(Qt::white);
  p.drawRoundedRect(QRectF(centre.x() - 1.7, centre.y() - 8, 3.4, 10), 1.5, 1.5);
  p.drawEllipse(centre + QPointF(0, 6), 1.9, 1.9);
  p.setPen(ink.headerText);
  p.setFont(titleFont);
  const QRect titleBox(card.left() + textLeft, card.top() + padding, textWidth,
                       titleBounds.height());
  p.drawText(titleBox, Qt::TextWordWrap, title);
  p.setFont(state.font);
  p.drawText(QRect(titleBox.left(), titleBox.bottom() + 11, textWidth, bodyBounds.height()),
             Qt::TextWordWrap, body);
}

} // namespace paintdetail

HeaderMetrics headerMetrics(const QFont& font)
{
  QFont bold = font;
  bold.setBold(true);
  const QFontMetrics metrics(font);
  const QFontMetrics boldMetrics(bold);
  HeaderMetrics h;
  h.top = metrics.height() + 12;
  h.rankWidth = boldMetrics.horizontalAdvance(QStringLiteral("rank 000")) + 26;
  h.bufferWidth = metrics.horizontalAdvance(QStringLiteral("scratch")) + 22;
  h.chunkWidth = metrics.horizontalAdvance(QStringLiteral("s[000]")) + 12;
  return h;
}

HeaderMetrics headerMetrics(const QFont& font, int rowHeight)
{
  HeaderMetrics h = headerMetrics(font);
  // Rows too low for their buffer and chunk names (paintRowHeaders' rule) leave those columns
  // empty: give their width to the steps.
  if (!rowHeaderText(rowHeight, QFontMetrics(font))) {
    h.bufferWidth = 0;
    h.chunkWidth = 0;
  }
  return h;
}

HeaderMetrics headerMetrics(const QFont& font, int rowHeight, bool nodes)
{
  HeaderMetrics h = headerMetrics(font, rowHeight);
  if (!nodes)
    return h;
  QFont bold = font;
  bold.setBold(true);
  const int name =
      QFontMetrics(bold).horizontalAdvance(QStringLiteral("node 000 · ranks 0000–0000"));
  h.rankWidth = std::max(h.rankWidth, name + 26 - h.bufferWidth - h.chunkWidth);
  return h;
}

bool rowHeaderText(int rowHeight, const QFontMetrics& metrics)
{
  return rowHeight >= metrics.height() - 2;
}

} // namespace cs::editor
