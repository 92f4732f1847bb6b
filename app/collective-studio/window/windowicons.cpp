#include "windowicons.h"

#include "style/paintedicon.h"
#include "style/rankpalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

#include <cmath>
#include <numbers>

namespace cs::editor {

namespace {

using Ink = IconInk;

/// Colours that carry meaning (verdicts, ranks) fade but keep their hue when disabled.
QColor meaning(const Ink& ink, QColor colour)
{
  if (ink.disabled)
    colour.setAlphaF(0.45f);
  return colour;
}

QPen pen(const QColor& colour, double width = 1.6)
{
  return iconPen(colour, width);
}

/// A page with a folded corner, in the left part of the box.
void drawPage(QPainter& p, const Ink& ink, double right = 18)
{
  QPainterPath page;
  page.moveTo(5, 3);
  page.lineTo(right - 4, 3);
  page.lineTo(right, 7);
  page.lineTo(right, 21);
  page.lineTo(5, 21);
  page.closeSubpath();
  p.setPen(pen(ink.stroke));
  p.setBrush(ink.paper);
  p.drawPath(page);
  p.setBrush(Qt::NoBrush);
  p.drawPolyline(QPolygonF({QPointF(right - 4, 3), QPointF(right - 4, 7), QPointF(right, 7)}));
}

void drawArrowHead(QPainter& p, QPointF tip, double angle, double size)
{
  const QPointF a = tip - QPointF(std::cos(angle - 0.5) * size, std::sin(angle - 0.5) * size);
  const QPointF b = tip - QPointF(std::cos(angle + 0.5) * size, std::sin(angle + 0.5) * size);
  p.drawPolyline(QPolygonF({a, tip, b}));
}

void drawDownArrow(QPainter& p, const QColor& colour, double x, double top, double bottom)
{
  p.setPen(pen(colour, 2.0));
  p.drawLine(QPointF(x, top), QPointF(x, bottom));
  drawArrowHead(p, QPointF(x, bottom), std::numbers::pi / 2, 4.2);
}

void drawPlusBadge(QPainter& p, const Ink& ink)
{
  p.setPen(Qt::NoPen);
  p.setBrush(meaning(ink, okColor()));
  p.drawEllipse(QPointF(17.5, 17.5), 5.5, 5.5);
  p.setPen(pen(Qt::white, 1.8));
  p.drawLine(QPointF(17.5, 14.8), QPointF(17.5, 20.2));
  p.drawLine(QPointF(14.8, 17.5), QPointF(20.2, 17.5));
}

void drawFolder(QPainter& p, const Ink& ink)
{
  QPainterPath back;
  back.moveTo(2.5, 6);
  back.lineTo(2.5, 19.5);
  back.lineTo(19.5, 19.5);
  back.lineTo(19.5, 8);
  back.lineTo(11, 8);
  back.lineTo(9, 5);
  back.lineTo(3.5, 5);
  back.closeSubpath();
  p.setPen(pen(ink.stroke));
  p.setBrush(ink.paper);
  p.drawPath(back);
  QPainterPath front;
  front.moveTo(2.5, 19.5);
  front.lineTo(6, 11);
  front.lineTo(22, 11);
  front.lineTo(19.5, 19.5);
  front.closeSubpath();
  QColor fill = ink.accent;
  fill.setAlphaF(0.35f);
  p.setBrush(fill);
  p.drawPath(front);
}

void drawCylinder(QPainter& p, const Ink& ink)
{
  const QRectF top(3, 3, 14, 5);
  QPainterPath body;
  body.moveTo(3, 5.5);
  body.lineTo(3, 18.5);
  body.arcTo(QRectF(3, 16, 14, 5), 180, 180);
  body.lineTo(17, 5.5);
  QColor fill = ink.accent;
  fill.setAlphaF(0.3f);
  p.setPen(pen(ink.stroke));
  p.setBrush(fill);
  p.drawPath(body);
  p.setBrush(ink.paper);
  p.drawEllipse(top);
  p.setBrush(Qt::NoBrush);
  p.drawArc(QRectF(3, 9.5, 14, 5), 180 * 16, 180 * 16);
}

void drawCurvedArrow(QPainter& p, const Ink& ink, bool redo)
{
  p.save();
  if (redo) {
    p.translate(24, 0);
    p.scale(-1, 1);
  }
  p.setPen(pen(ink.stroke, 2.0));
  QPainterPath path;
  path.moveTo(5, 10);
  path.lineTo(14, 10);
  path.cubicTo(22, 10, 22, 20, 14, 20);
  path.lineTo(9, 20);
  p.drawPath(path);
  drawArrowHead(p, QPointF(5, 10), std::numbers::pi, 4.5);
  p.restore();
}

void drawCheck(QPainter& p, const Ink& ink)
{
  p.setPen(pen(meaning(ink, okColor()), 3.0));
  p.drawPolyline(QPolygonF({QPointF(4.5, 12.5), QPointF(9.5, 17.5), QPointF(19.5, 6.5)}));
}

void drawErrorDisc(QPainter& p, const Ink& ink)
{
  p.setPen(Qt::NoPen);
  p.setBrush(meaning(ink, errorColor()));
  p.drawEllipse(QPointF(12, 12), 9, 9);
  p.setPen(pen(Qt::white, 2.4));
  p.drawLine(QPointF(8.5, 8.5), QPointF(15.5, 15.5));
  p.drawLine(QPointF(15.5, 8.5), QPointF(8.5, 15.5));
}

void drawWarningTriangle(QPainter& p, const Ink& ink)
{
  QPainterPath triangle;
  triangle.moveTo(12, 3);
  triangle.lineTo(21.5, 20);
  triangle.lineTo(2.5, 20);
  triangle.closeSubpath();
  p.setPen(pen(meaning(ink, warningColor()), 1.5));
  p.setBrush(meaning(ink, warningColor()));
  p.drawPath(triangle);
  p.setPen(pen(Qt::white, 2.4));
  p.drawLine(QPointF(12, 8.5), QPointF(12, 13.5));
  p.drawPoint(QPointF(12, 17));
}

/// `count` rank-coloured dots on a circle with arrows between neighbours.
void drawRing(QPainter& p, const Ink& ink, int count, double radius, double dot)
{
  const QPointF centre(12, 12);
  std::vector<QPointF> points;
  for (int i = 0; i < count; ++i) {
    const double angle = -std::numbers::pi / 2 + 2 * std::numbers::pi * i / count;
    points.push_back(centre + QPointF(std::cos(angle) * radius, std::sin(angle) * radius));
  }
  p.setPen(pen(ink.stroke, 1.4));
  p.setBrush(Qt::NoBrush);
  for (int i = 0; i < count; ++i) {
    const QPointF from = points[static_cast<std::size_t>(i)];
    const QPointF to = points[static_cast<std::size_t>((i + 1) % count)];
    const QPointF direction = (to - from) / std::hypot(to.x() - from.x(), to.y() - from.y());
    const QPointF start = from + direction * (dot + 1.2);
    const QPointF end = to - direction * (dot + 1.2);
    p.drawLine(start, end);
    drawArrowHead(p, end, std::atan2(direction.y(), direction.x()), 3.0);
  }
  p.setPen(Qt::NoPen);
  for (int i = 0; i < count; ++i) {
    p.setBrush(meaning(ink, rankColor(i)));
    p.drawEllipse(points[static_cast<std::size_t>(i)], dot, dot);
  }
}

void drawTopology(QPainter& p, const Ink& ink)
{
  const QRectF boxes[] = {QRectF(2.5, 3, 7, 6), QRectF(14.5, 3, 7, 6), QRectF(8.5, 15, 7, 6)};
  p.setPen(pen(ink.stroke, 1.4));
  p.drawLine(boxes[0].center(), boxes[1].center());
  p.drawLine(boxes[0].center(), boxes[2].center());
  p.drawLine(boxes[1].center(), boxes[2].center());
  p.setBrush(ink.paper);
  for (const QRectF& box : boxes)
    p.drawRoundedRect(box, 1.5, 1.5);
  p.setPen(Qt::NoPen);
  p.setBrush(meaning(ink, linkKindColor(LinkKind::NvLink)));
  for (const QRectF& box : boxes)
    p.drawRect(box.adjusted(2, 2, -2, -2));
}

void drawVersion(QPainter& p, const Ink& ink)
{
  p.setPen(pen(ink.stroke, 1.6));
  p.drawLine(QPointF(12, 2), QPointF(12, 7.5));
  p.drawLine(QPointF(12, 16.5), QPointF(12, 22));
  p.setBrush(ink.paper);
  p.setPen(pen(ink.accent, 2.2));
  p.drawEllipse(QPointF(12, 12), 4.5, 4.5);
}

void drawSearch(QPainter& p, const Ink& ink)
{
  p.setPen(pen(ink.stroke, 2.0));
  p.drawEllipse(QPointF(10, 10), 6, 6);
  p.setPen(pen(ink.stroke, 2.6));
  p.drawLine(QPointF(14.5, 14.5), QPointF(20.5, 20.5));
}

void drawBuoy(QPainter& p, const Ink& ink)
{
  const QPointF centre(12, 12);
  p.setPen(Qt::NoPen);
  for (int quarter = 0; quarter < 4; ++quarter) {
    QPainterPath segment;
    segment.arcMoveTo(QRectF(2.5, 2.5, 19, 19), quarter * 90);
    segment.arcTo(QRectF(2.5, 2.5, 19, 19), quarter * 90, 90);
    segment.arcTo(QRectF(7, 7, 10, 10), quarter * 90 + 90, -90);
    segment.closeSubpath();
    p.setBrush(quarter % 2 == 0 ? meaning(ink, errorColor()) : ink.paper);
    p.drawPath(segment);
  }
  p.setPen(pen(ink.stroke, 1.2));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(centre, 9.5, 9.5);
  p.drawEllipse(centre, 5, 5);
}

/// A recorded run: a play triangle over a time axis with ticks.
void drawRun(QPainter& p, const Ink& ink)
{
  p.setPen(pen(ink.stroke, 1.4));
  p.drawLine(QPointF(3, 20), QPointF(21, 20));
  for (double x : {3.0, 9.0, 15.0, 21.0})
    p.drawLine(QPointF(x, 18), QPointF(x, 22));
  QPainterPath play;
  play.moveTo(8, 3);
  play.lineTo(18, 9.5);
  play.lineTo(8, 16);
  play.closeSubpath();
  p.setPen(pen(ink.accent, 1.6));
  p.setBrush(meaning(ink, ink.accent.lighter(170)));
  p.drawPath(play);
}

void paintGlyph(QPainter& p, WindowIcon kind, const Ink& ink)
{
  switch (kind) {
  case WindowIcon::App:
    drawRing(p, ink, 4, 8, 3.2);
    return;
  case WindowIcon::New:
    drawPage(p, ink);
    drawPlusBadge(p, ink);
    return;
  case WindowIcon::Open:
    drawFolder(p, ink);
    return;
  case WindowIcon::SaveDesign:
    drawPage(p, ink);
    drawDownArrow(p, ink.accent, 11.5, 8, 17.5);
    return;
  case WindowIcon::SaveLibrary:
    drawCylinder(p, ink);
    drawDownArrow(p, okColor(), 19.5, 10, 21);
    return;
  case WindowIcon::Export: {
    drawPage(p, ink, 15);
    p.setPen(pen(ink.accent, 2.0));
    p.drawLine(QPointF(9, 12), QPointF(21.5, 12));
    drawArrowHead(p, QPointF(21.5, 12), 0, 4.5);
    return;
  }
  case WindowIcon::Undo:
  case WindowIcon::Redo:
    drawCurvedArrow(p, ink, kind == WindowIcon::Redo);
    return;
  case WindowIcon::Ok:
    drawCheck(p, ink);
    return;
  case WindowIcon::Error:
    drawErrorDisc(p, ink);
    return;
  case WindowIcon::Warning:
    drawWarningTriangle(p, ink);
    return;
  case WindowIcon::Algorithm:
    drawRing(p, ink, 3, 7.5, 3.4);
    return;
  case WindowIcon::Version:
    drawVersion(p, ink);
    return;
  case WindowIcon::Topology:
    drawTopology(p, ink);
    return;
  case WindowIcon::Search:
    drawSearch(p, ink);
    return;
  case WindowIcon::Recover:
    drawBuoy(p, ink);
    return;
  case WindowIcon::Run:
    drawRun(p, ink);
    return;
  }
}

} // namespace

QIcon drawnIcon(WindowIcon kind)
{
  // Painted on demand with the palette of the moment (see windowicons.h for why).
  return glyphIcon(
      [kind](QPainter& painter, const IconInk& ink) { paintGlyph(painter, kind, ink); });
}

} // namespace cs::editor
