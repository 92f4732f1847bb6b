#include "timelineicons.h"

#include "style/paintedicon.h"
#include "style/rankpalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

namespace cs::editor {

namespace {

using Ink = IconInk;

QPen pen(const QColor& colour, double width = 1.7)
{
  return iconPen(colour, width);
}

void cell(QPainter& p, const Ink& ink, QRectF r)
{
  p.setPen(pen(ink.stroke, 1.3));
  p.setBrush(ink.paper);
  p.drawRoundedRect(r, 1.5, 1.5);
}

void arrowHead(QPainter& p, QPointF tip, const QColor& colour)
{
  QPainterPath head(tip);
  head.lineTo(tip + QPointF(-5, -3.5));
  head.lineTo(tip + QPointF(-5, 3.5));
  head.closeSubpath();
  p.setPen(Qt::NoPen);
  p.fillPath(head, colour);
}

void oplus(QPainter& p, const Ink& ink, QPointF centre, double r)
{
  p.setPen(pen(ink.accent, 1.6));
  p.setBrush(ink.paper);
  p.drawEllipse(centre, r, r);
  p.drawLine(centre - QPointF(r * 0.55, 0), centre + QPointF(r * 0.55, 0));
  p.drawLine(centre - QPointF(0, r * 0.55), centre + QPointF(0, r * 0.55));
}

/// The step arrow of the grid: out of a cell, down a lane, into the next cell.
void stepArrow(QPainter& p, const Ink& ink, bool reduce)
{
  cell(p, ink, QRectF(2.5, 3.5, 7, 5));
  cell(p, ink, QRectF(14.5, 15.5, 7, 5));
  QPainterPath route(QPointF(9.5, 6));
  route.lineTo(12, 6);
  route.lineTo(12, 18);
  route.lineTo(reduce ? 11 : 13.5, 18);
  p.setPen(pen(ink.accent));
  p.setBrush(Qt::NoBrush);
  p.drawPath(route);
  if (reduce)
    oplus(p, ink, QPointF(11.5, 18), 3.2);
  else
    arrowHead(p, QPointF(14.5, 18), ink.accent);
}

void magnifier(QPainter& p, const Ink& ink, int sign)
{
  p.setPen(pen(ink.stroke, 1.8));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(QPointF(10, 10), 6, 6);
  p.drawLine(QPointF(14.5, 14.5), QPointF(20.5, 20.5));
  p.setPen(pen(ink.accent, 1.8));
  if (sign != 0)
    p.drawLine(QPointF(7, 10), QPointF(13, 10));
  if (sign > 0)
    p.drawLine(QPointF(10, 7), QPointF(10, 13));
  if (sign == 0) {
    p.drawLine(QPointF(7.5, 8.5), QPointF(12.5, 8.5));
    p.drawLine(QPointF(7.5, 11.5), QPointF(12.5, 11.5));
  }
}

void rows(QPainter& p, const Ink& ink, bool expand)
{
  p.setPen(pen(ink.stroke, 1.5));
  p.drawLine(QPointF(10, 5), QPointF(20, 5));
  if (expand) {
    p.drawLine(QPointF(10, 11), QPointF(20, 11));
    p.drawLine(QPointF(10, 15), QPointF(20, 15));
    p.drawLine(QPointF(10, 19), QPointF(20, 19));
  } else {
    p.drawLine(QPointF(10, 12), QPointF(20, 12));
    p.drawLine(QPointF(10, 19), QPointF(20, 19));
  }
  QPainterPath triangle;
  if (expand) {
    triangle.moveTo(3, 9);
    triangle.lineTo(8, 9);
    triangle.lineTo(5.5, 13);
  } else {
    triangle.moveTo(3.5, 9);
    triangle.lineTo(7.5, 11.5);
    triangle.lineTo(3.5, 14);
  }
  triangle.closeSubpath();
  p.fillPath(triangle, ink.accent);
}

void paintDraw(QPainter& p, const Ink& ink)
{
  stepArrow(p, ink, false);
  // A pen nib over the lane.
  QPainterPath nib(QPointF(21, 3));
  nib.lineTo(23, 5);
  nib.lineTo(16, 12);
  nib.lineTo(13.5, 12.8);
  nib.lineTo(14.3, 10.3);
  nib.closeSubpath();
  p.setPen(pen(ink.stroke, 1.2));
  p.setBrush(ink.paper);
  p.drawPath(nib);
}

/// A dashed rectangle tinted with the accent: a rubber-band selection.
void selectionFrame(QPainter& p, const Ink& ink, int alpha, const QRectF& rect)
{
  QPen dashed = pen(ink.stroke, 1.4);
  dashed.setDashPattern({2.0, 1.6});
  p.setPen(dashed);
  QColor fill = ink.accent;
  fill.setAlpha(alpha);
  p.setBrush(fill);
  p.drawRect(rect);
}

void paintSelect(QPainter& p, const Ink& ink)
{
  selectionFrame(p, ink, 50, QRectF(3, 3, 14, 12));
  QPainterPath cursor(QPointF(12, 10));
  cursor.lineTo(21, 16);
  cursor.lineTo(17, 17);
  cursor.lineTo(19, 21.5);
  cursor.lineTo(17, 22.3);
  cursor.lineTo(15, 18);
  cursor.lineTo(12, 20.5);
  cursor.closeSubpath();
  p.setPen(pen(ink.stroke, 1.1));
  p.setBrush(ink.paper);
  p.drawPath(cursor);
}

void paintSelectAll(QPainter& p, const Ink& ink)
{
  selectionFrame(p, ink, 40, QRectF(2.5, 2.5, 19, 19));
  for (int i = 0; i < 3; ++i) {
    const double y = 7 + i * 5;
    p.setPen(pen(ink.accent, 1.5));
    p.drawLine(QPointF(6, y), QPointF(14.5, y));
    arrowHead(p, QPointF(18, y), ink.accent);
  }
}

void paintReplicate(QPainter& p, const Ink& ink)
{
  for (int i = 0; i < 3; ++i) {
    const double y = 4 + i * 6.5;
    const double x = 3 + i * 3;
    p.setPen(pen(i == 0 ? ink.accent : rankColor(i), 1.7));
    p.drawLine(QPointF(x, y), QPointF(x + 11, y));
    arrowHead(p, QPointF(x + 14, y), i == 0 ? ink.accent : rankColor(i));
  }
}

void paintIcon(QPainter& p, TimelineIcon kind, const Ink& ink)
{
  switch (kind) {
  case TimelineIcon::Draw:
    paintDraw(p, ink);
    break;
  case TimelineIcon::Select:
    paintSelect(p, ink);
    break;
  case TimelineIcon::SelectAll:
    paintSelectAll(p, ink);
    break;
  case TimelineIcon::Copy:
    stepArrow(p, ink, false);
    break;
  case TimelineIcon::Reduce:
    stepArrow(p, ink, true);
    break;
  case TimelineIcon::Replicate:
    paintReplicate(p, ink);
    break;
  case TimelineIcon::Delete:
    p.setPen(pen(errorColor(), 2.2));
    p.drawLine(QPointF(6, 6), QPointF(18, 18));
    p.drawLine(QPointF(6, 18), QPointF(18, 6));
    break;
  case TimelineIcon::ZoomIn:
    magnifier(p, ink, 1);
    break;
  case TimelineIcon::ZoomOut:
    magnifier(p, ink, -1);
    break;
  case TimelineIcon::ZoomReset:
    magnifier(p, ink, 0);
    break;
  case TimelineIcon::Expand:
    rows(p, ink, true);
    break;
  case TimelineIcon::Collapse:
    rows(p, ink, false);
    break;
  }
}

} // namespace

QIcon timelineIcon(TimelineIcon kind)
{
  return glyphIcon(
      [kind](QPainter& painter, const IconInk& ink) { paintIcon(painter, kind, ink); });
}

} // namespace cs::editor
