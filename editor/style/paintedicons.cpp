#include "paintedicons.h"

#include "style/rankpalette.h"

#include <QGuiApplication>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

namespace cs::editor {

namespace {

/// The colour line art takes: the palette's text colour, so icons follow light and dark themes.
QColor inkColor()
{
  return QGuiApplication::palette().color(QPalette::WindowText);
}

void drawDisc(QPainter& painter, const QRectF& rect, const QColor& color)
{
  const QRectF disc = rect.adjusted(rect.width() * 0.06, rect.height() * 0.06, -rect.width() * 0.06,
                                    -rect.height() * 0.06);
  painter.setPen(Qt::NoPen);
  painter.setBrush(color);
  painter.drawEllipse(disc);
}

QPen strokePen(const QColor& color, qreal width)
{
  QPen pen(color, width);
  pen.setCapStyle(Qt::RoundCap);
  pen.setJoinStyle(Qt::RoundJoin);
  return pen;
}

/// Three lines standing for rows of a table, the top-left corner of every row verb.
void drawRows(QPainter& painter, const QRectF& r, int skipRow)
{
  const qreal unit = r.width() / 16.0;
  painter.setPen(strokePen(inkColor(), 1.4 * unit));
  for (int row = 0; row < 3; ++row) {
    if (row == skipRow)
      continue;
    const qreal y = r.top() + (3.0 + 4.0 * row) * unit;
    painter.drawLine(QPointF(r.left() + 1.5 * unit, y), QPointF(r.left() + 9.0 * unit, y));
  }
}

} // namespace

QIcon severityIcon(Severity severity)
{
  switch (severity) {
  case Severity::Error:
    return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
      drawDisc(painter, r, errorColor());
      const qreal inset = r.width() * 0.32;
      painter.setPen(strokePen(Qt::white, r.width() * 0.12));
      painter.drawLine(r.topLeft() + QPointF(inset, inset),
                       r.bottomRight() - QPointF(inset, inset));
      painter.drawLine(QPointF(r.right() - inset, r.top() + inset),
                       QPointF(r.left() + inset, r.bottom() - inset));
    });
  case Severity::Warning:
    return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
      QPainterPath triangle;
      const qreal w = r.width();
      triangle.moveTo(r.left() + w * 0.5, r.top() + w * 0.06);
      triangle.lineTo(r.right() - w * 0.03, r.bottom() - w * 0.08);
      triangle.lineTo(r.left() + w * 0.03, r.bottom() - w * 0.08);
      triangle.closeSubpath();
      painter.setPen(strokePen(warningColor(), w * 0.06));
      painter.setBrush(warningColor());
      painter.drawPath(triangle);
      painter.setPen(strokePen(QColor(0x2b, 0x1d, 0x00), w * 0.12));
      painter.drawLine(QPointF(r.center().x(), r.top() + w * 0.36),
                       QPointF(r.center().x(), r.top() + w * 0.62));
      painter.drawPoint(QPointF(r.center().x(), r.top() + w * 0.78));
    });
  case Severity::Info:
    break;
  }
  return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
    drawDisc(painter, r, QColor(0x2f, 0x6f, 0xc4));
    const qreal w = r.width();
    painter.setPen(strokePen(Qt::white, w * 0.12));
    painter.drawLine(QPointF(r.center().x(), r.top() + w * 0.46),
                     QPointF(r.center().x(), r.top() + w * 0.72));
    painter.drawPoint(QPointF(r.center().x(), r.top() + w * 0.28));
  });
}

QIcon okIcon()
{
  return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
    drawDisc(painter, r, okColor());
    const qreal w = r.width();
    painter.setPen(strokePen(Qt::white, w * 0.12));
    painter.setBrush(Qt::NoBrush);
    QPainterPath check;
    check.moveTo(r.left() + w * 0.28, r.top() + w * 0.52);
    check.lineTo(r.left() + w * 0.44, r.top() + w * 0.68);
    check.lineTo(r.left() + w * 0.73, r.top() + w * 0.34);
    painter.drawPath(check);
  });
}

QIcon insertRowIcon()
{
  return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
    drawRows(painter, r, 2);
    const qreal unit = r.width() / 16.0;
    painter.setPen(strokePen(okColor(), 1.8 * unit));
    const QPointF centre(r.left() + 11.5 * unit, r.top() + 11.5 * unit);
    painter.drawLine(centre - QPointF(3.2 * unit, 0), centre + QPointF(3.2 * unit, 0));
    painter.drawLine(centre - QPointF(0, 3.2 * unit), centre + QPointF(0, 3.2 * unit));
  });
}

QIcon deleteRowIcon()
{
  return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
    drawRows(painter, r, 2);
    const qreal unit = r.width() / 16.0;
    painter.setPen(strokePen(errorColor(), 1.8 * unit));
    const QPointF centre(r.left() + 11.5 * unit, r.top() + 11.5 * unit);
    const qreal arm = 2.6 * unit;
    painter.drawLine(centre - QPointF(arm, arm), centre + QPointF(arm, arm));
    painter.drawLine(centre + QPointF(-arm, arm), centre + QPointF(arm, -arm));
  });
}

namespace {

/// Two chevrons pointing down (expand) or up (collapse).
QIcon chevronsIcon(bool down)
{
  return paintedIcon([down](QPainter& painter, const QRectF& r, QIcon::Mode) {
    const qreal unit = r.width() / 16.0;
    painter.setPen(strokePen(inkColor(), 1.5 * unit));
    painter.setBrush(Qt::NoBrush);
    for (int i = 0; i < 2; ++i) {
      const qreal y = r.top() + (down ? 4.0 : 7.0) * unit + 5.0 * i * unit;
      const qreal tip = down ? 3.5 * unit : -3.5 * unit;
      QPainterPath chevron;
      chevron.moveTo(r.left() + 3.5 * unit, y);
      chevron.lineTo(r.center().x(), y + tip);
      chevron.lineTo(r.right() - 3.5 * unit, y);
      painter.drawPath(chevron);
    }
  });
}

} // namespace

QIcon expandAllIcon()
{
  return chevronsIcon(true);
}

QIcon collapseAllIcon()
{
  return chevronsIcon(false);
}

QIcon jumpIcon()
{
  return paintedIcon([](QPainter& painter, const QRectF& r, QIcon::Mode) {
    const qreal unit = r.width() / 16.0;
    painter.setPen(strokePen(inkColor(), 1.5 * unit));
    painter.setBrush(Qt::NoBrush);
    QPainterPath hook;
    hook.moveTo(r.left() + 12.5 * unit, r.top() + 3.0 * unit);
    hook.lineTo(r.left() + 12.5 * unit, r.top() + 8.0 * unit);
    hook.quadTo(r.left() + 12.5 * unit, r.top() + 11.5 * unit, r.left() + 9.0 * unit,
                r.top() + 11.5 * unit);
    hook.lineTo(r.left() + 3.5 * unit, r.top() + 11.5 * unit);
    painter.drawPath(hook);
    QPainterPath head;
    head.moveTo(r.left() + 6.5 * unit, r.top() + 8.5 * unit);
    head.lineTo(r.left() + 3.5 * unit, r.top() + 11.5 * unit);
    head.lineTo(r.left() + 6.5 * unit, r.top() + 14.5 * unit);
    painter.drawPath(head);
  });
}

QIcon moveRowIcon(bool down)
{
  return paintedIcon([down](QPainter& painter, const QRectF& r, QIcon::Mode) {
    const qreal unit = r.width() / 16.0;
    painter.setPen(strokePen(inkColor(), 1.5 * unit));
    painter.setBrush(Qt::NoBrush);
    const qreal tip = down ? 13.5 : 2.5;
    const qreal tail = down ? 2.5 : 13.5;
    const qreal barb = down ? -4.0 : 4.0;
    painter.drawLine(QPointF(r.left() + 8 * unit, r.top() + tail * unit),
                     QPointF(r.left() + 8 * unit, r.top() + tip * unit));
    QPainterPath head;
    head.moveTo(r.left() + 4 * unit, r.top() + (tip + barb) * unit);
    head.lineTo(r.left() + 8 * unit, r.top() + tip * unit);
    head.lineTo(r.left() + 12 * unit, r.top() + (tip + barb) * unit);
    painter.drawPath(head);
  });
}

QIcon swatchIcon(const QColor& color)
{
  return paintedIcon([color](QPainter& painter, const QRectF& r, QIcon::Mode) {
    const QRectF box =
        r.adjusted(r.width() * 0.15, r.height() * 0.15, -r.width() * 0.15, -r.height() * 0.15);
    painter.setPen(QPen(color.darker(130), std::max<qreal>(1.0, r.width() / 16.0)));
    painter.setBrush(color);
    painter.drawRoundedRect(box, r.width() * 0.15, r.width() * 0.15);
  });
}

} // namespace cs::editor
