#include "topologyicons.h"

#include "style/rankpalette.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace cs::editor {

namespace {

// Every icon is drawn on a 24 x 24 grid and scaled.
constexpr double kGrid = 24;

void drawSwitch(QPainter& p, const QColor& accent)
{
  p.setPen(QPen(accent.darker(130), 1));
  p.setBrush(accent);
  p.drawRoundedRect(QRectF(1.5, 7.5, 21, 9), 2, 2);
  p.setPen(Qt::NoPen);
  p.setBrush(Qt::white);
  for (double x = 5; x < 21; x += 3.5)
    p.drawEllipse(QPointF(x, 12), 1.1, 1.1);
}

void drawMagnifier(QPainter& p, const QColor& ink, int sign)
{
  p.setPen(QPen(ink, 2, Qt::SolidLine, Qt::RoundCap));
  p.setBrush(Qt::NoBrush);
  p.drawEllipse(QPointF(10, 10), 6.5, 6.5);
  p.drawLine(QPointF(15, 15), QPointF(21, 21));
  p.setPen(QPen(ink, 1.8, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(QPointF(7, 10), QPointF(13, 10));
  if (sign > 0)
    p.drawLine(QPointF(10, 7), QPointF(10, 13));
}

void drawSelect(QPainter& p, const QColor& ink, const QPalette& palette)
{
  QPainterPath arrow;
  arrow.moveTo(6, 3);
  arrow.lineTo(6, 19.5);
  arrow.lineTo(10.2, 15.6);
  arrow.lineTo(13, 21.5);
  arrow.lineTo(15.6, 20.3);
  arrow.lineTo(12.8, 14.5);
  arrow.lineTo(18.5, 14.5);
  arrow.closeSubpath();
  p.setPen(QPen(palette.color(QPalette::Button), 1));
  p.setBrush(ink);
  p.drawPath(arrow);
}

void drawGpu(QPainter& p)
{
  const QColor gold(0xc9, 0xa2, 0x27);
  p.setPen(Qt::NoPen);
  p.setBrush(gold);
  for (double x = 6; x < 18; x += 3)
    p.drawRect(QRectF(x, 16, 2, 4));
  const QColor fill = rankColor(2);
  p.setPen(QPen(fill.darker(140), 1));
  p.setBrush(fill);
  p.drawRoundedRect(QRectF(2.5, 5.5, 19, 12), 2.5, 2.5);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(255, 255, 255, 200));
  p.drawRoundedRect(QRectF(8.5, 8.5, 7, 6), 1, 1);
}

void drawNic(QPainter& p, const QColor& ink)
{
  const QColor accent = linkKindColor(LinkKind::Network);
  p.setPen(QPen(ink, 1.4));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(QRectF(2.5, 6.5, 19, 11), 2, 2);
  p.setPen(Qt::NoPen);
  p.setBrush(accent);
  p.drawRoundedRect(QRectF(5, 9, 7, 6), 1, 1);
  p.setBrush(QColor(0x20, 0x21, 0x24));
  p.drawRect(QRectF(6.5, 11, 4, 2));
  p.setBrush(ink);
  p.drawRect(QRectF(14, 10, 5, 1.5));
  p.drawRect(QRectF(14, 13, 5, 1.5));
}

void drawCpu(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.5, Qt::SolidLine, Qt::FlatCap));
  for (double v = 8; v <= 16; v += 4) {
    p.drawLine(QPointF(v, 2), QPointF(v, 5));
    p.drawLine(QPointF(v, 19), QPointF(v, 22));
    p.drawLine(QPointF(2, v), QPointF(5, v));
    p.drawLine(QPointF(19, v), QPointF(22, v));
  }
  p.setPen(QPen(ink, 1.4));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(QRectF(5.5, 5.5, 13, 13), 2, 2);
  p.setBrush(ink);
  p.drawRect(QRectF(9.5, 9.5, 5, 5));
}

void drawLink(QPainter& p, const QColor& ink, const QPalette& palette)
{
  p.setPen(QPen(linkKindColor(LinkKind::NvLink), 3, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(QPointF(6, 18), QPointF(18, 6));
  p.setPen(QPen(ink, 1.5));
  p.setBrush(palette.color(QPalette::Button));
  p.drawEllipse(QPointF(5.5, 18.5), 3.3, 3.3);
  p.drawEllipse(QPointF(18.5, 5.5), 3.3, 3.3);
}

void drawDelete(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  p.setBrush(Qt::NoBrush);
  p.drawLine(QPointF(4, 6.5), QPointF(20, 6.5));
  p.drawLine(QPointF(9.5, 6.5), QPointF(10, 3.5));
  p.drawLine(QPointF(10, 3.5), QPointF(14, 3.5));
  p.drawLine(QPointF(14, 3.5), QPointF(14.5, 6.5));
  QPainterPath can;
  can.moveTo(6, 6.5);
  can.lineTo(7.3, 21);
  can.lineTo(16.7, 21);
  can.lineTo(18, 6.5);
  p.drawPath(can);
  p.drawLine(QPointF(10, 10), QPointF(10.3, 17.5));
  p.drawLine(QPointF(14, 10), QPointF(13.7, 17.5));
}

void drawPreset(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.4));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(QRectF(3.5, 3.5, 7, 7), 1.5, 1.5);
  p.drawRoundedRect(QRectF(13.5, 3.5, 7, 7), 1.5, 1.5);
  p.drawRoundedRect(QRectF(3.5, 13.5, 7, 7), 1.5, 1.5);
  p.setPen(Qt::NoPen);
  p.setBrush(linkKindColor(LinkKind::NvLink));
  p.drawRoundedRect(QRectF(13, 13, 8, 8), 1.5, 1.5);
}

void drawAutoLayout(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.5));
  p.drawLine(QPointF(12, 6), QPointF(5.5, 17));
  p.drawLine(QPointF(12, 6), QPointF(18.5, 17));
  p.drawLine(QPointF(5.5, 18), QPointF(18.5, 18));
  p.setBrush(rankColor(0));
  p.drawRoundedRect(QRectF(8, 2.5, 8, 6), 1.5, 1.5);
  p.setBrush(rankColor(1));
  p.drawRoundedRect(QRectF(1.5, 15, 8, 6), 1.5, 1.5);
  p.setBrush(rankColor(2));
  p.drawRoundedRect(QRectF(14.5, 15, 8, 6), 1.5, 1.5);
}

void drawZoomFit(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  p.setBrush(Qt::NoBrush);
  const double a = 3.5;
  const double b = 20.5;
  const double l = 5.5;
  p.drawPolyline(QPolygonF({{a, a + l}, {a, a}, {a + l, a}}));
  p.drawPolyline(QPolygonF({{b - l, a}, {b, a}, {b, a + l}}));
  p.drawPolyline(QPolygonF({{a, b - l}, {a, b}, {a + l, b}}));
  p.drawPolyline(QPolygonF({{b - l, b}, {b, b}, {b, b - l}}));
  p.setPen(Qt::NoPen);
  p.setBrush(ink);
  p.drawRoundedRect(QRectF(8.5, 8.5, 7, 7), 1.2, 1.2);
}

void drawExport(QPainter& p, const QColor& ink)
{
  p.setPen(QPen(ink, 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  p.setBrush(Qt::NoBrush);
  p.drawPolyline(QPolygonF({{9, 8}, {4.5, 8}, {4.5, 20.5}, {19.5, 20.5}, {19.5, 8}, {15, 8}}));
  p.drawLine(QPointF(12, 15), QPointF(12, 2.5));
  p.drawPolyline(QPolygonF({{8, 6.5}, {12, 2.5}, {16, 6.5}}));
}

void drawWarning(QPainter& p)
{
  QPainterPath triangle;
  triangle.moveTo(12, 2.5);
  triangle.lineTo(22.5, 21);
  triangle.lineTo(1.5, 21);
  triangle.closeSubpath();
  p.setPen(QPen(warningColor().darker(120), 1, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  p.setBrush(warningColor());
  p.drawPath(triangle);
  p.setPen(QPen(Qt::white, 2.2, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(QPointF(12, 9), QPointF(12, 14.5));
  p.drawPoint(QPointF(12, 18));
}

void draw(QPainter& p, TopologyIcon which, const QPalette& palette)
{
  const QColor ink = palette.color(QPalette::ButtonText);
  switch (which) {
  case TopologyIcon::Select:
    drawSelect(p, ink, palette);
    break;
  case TopologyIcon::Gpu:
    drawGpu(p);
    break;
  case TopologyIcon::NvSwitch:
    drawSwitch(p, linkKindColor(LinkKind::NvLink));
    break;
  case TopologyIcon::PcieSwitch:
    drawSwitch(p, linkKindColor(LinkKind::Pcie));
    break;
  case TopologyIcon::Nic:
    drawNic(p, ink);
    break;
  case TopologyIcon::Cpu:
    drawCpu(p, ink);
    break;
  case TopologyIcon::NetworkSwitch:
    drawSwitch(p, linkKindColor(LinkKind::Network));
    break;
  case TopologyIcon::Link:
    drawLink(p, ink, palette);
    break;
  case TopologyIcon::Delete:
    drawDelete(p, ink);
    break;
  case TopologyIcon::Preset:
    drawPreset(p, ink);
    break;
  case TopologyIcon::AutoLayout:
    drawAutoLayout(p, ink);
    break;
  case TopologyIcon::ZoomIn:
    drawMagnifier(p, ink, 1);
    break;
  case TopologyIcon::ZoomOut:
    drawMagnifier(p, ink, -1);
    break;
  case TopologyIcon::ZoomFit:
    drawZoomFit(p, ink);
    break;
  case TopologyIcon::Export:
    drawExport(p, ink);
    break;
  case TopologyIcon::Warning:
    drawWarning(p);
    break;
  }
}

} // namespace

QPixmap topologyPixmap(TopologyIcon which, const QPalette& palette, int size,
                       qreal devicePixelRatio)
{
  QPixmap pixmap(QSize(size, size) * devicePixelRatio);
  pixmap.setDevicePixelRatio(devicePixelRatio);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.scale(size / kGrid, size / kGrid);
  draw(painter, which, palette);
  return pixmap;
}

QIcon topologyIcon(TopologyIcon which, const QPalette& palette)
{
  QIcon icon;
  for (const int size : {16, 24, 32, 48}) {
    icon.addPixmap(topologyPixmap(which, palette, size, 1));
    icon.addPixmap(topologyPixmap(which, palette, size, 2));
  }
  return icon;
}

} // namespace cs::editor
