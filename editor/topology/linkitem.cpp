#include "linkitem.h"

#include "canvasstyle.h"
#include "topologyscene.h"

#include "style/rankpalette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace cs::editor {

namespace {

constexpr double kLabelPaddingX = 7;
constexpr double kLabelPaddingY = 3;
constexpr int kLabelPixelSize = 11;

bool exporting(const QGraphicsItem* item)
{
  const auto* scene = qobject_cast<const TopologyScene*>(item->scene());
  return scene && scene->exporting();
}

} // namespace

LinkItem::LinkItem(const TopologyLink& link) : m_link(link), m_label(new LinkLabelItem)
{
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(true);
  setZValue(0);
  setToolTip(linkLabel(link));
  m_label->setText(linkLabel(link), linkKindColor(link.kind));
  m_label->setVisible(false);
}

double LinkItem::widthFor(double bandwidthGBps)
{
  const double doublings = std::log2(std::max(bandwidthGBps, 8.0) / 8.0);
  return std::clamp(1.5 + doublings, 1.5, 7.0);
}

void LinkItem::setLink(const TopologyLink& link)
{
  if (link == m_link)
    return;
  prepareGeometryChange();
  m_link = link;
  setToolTip(linkLabel(link));
  m_label->setText(linkLabel(link), linkKindColor(link.kind));
  update();
}

void LinkItem::setGeometry(const QPointF& a, const QPointF& b, double bend)
{
  if (a == m_a && b == m_b && bend == m_bend)
    return;
  prepareGeometryChange();
  m_a = a;
  m_b = b;
  m_bend = bend;
  m_label->setPos(midpoint());
}

QPointF LinkItem::midpoint() const
{
  // A quadratic curve passes halfway between the chord's middle and its control point.
  return path().pointAtPercent(0.5);
}

QPainterPath LinkItem::pathFor(const QPointF& a, const QPointF& b, double bend)
{
  QPainterPath path(a);
  const QLineF line(a, b);
  if (bend == 0 || line.length() == 0) {
    path.lineTo(b);
    return path;
  }
  const QPointF normal = QPointF(-line.dy(), line.dx()) / line.length();
  path.quadTo((a + b) / 2 + normal * bend, b);
  return path;
}

void LinkItem::setLabelAlwaysShown(bool shown)
{
  m_labelAlwaysShown = shown;
  updateLabel();
}

void LinkItem::updateLabel()
{
  m_label->setVisible(m_labelAlwaysShown || ((isSelected() || m_hovered) && !exporting(this)));
}

QRectF LinkItem::boundingRect() const
{
  const double pad = widthFor(m_link.bandwidthGBps) / 2 + 7;
  return path().controlPointRect().adjusted(-pad, -pad, pad, pad);
}

QPainterPath LinkItem::shape() const
{
  QPainterPathStroker stroker;
  // Thin links are hard to hit: the clickable band is at least 12 units wide.
  stroker.setWidth(std::max(12.0, widthFor(m_link.bandwidthGBps) + 6));
  stroker.setCapStyle(Qt::RoundCap);
  return stroker.createStroke(path());
}

void LinkItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
  // Far out, thousands of antialiased strokes cost more than they show.
  painter->setRenderHint(QPainter::Antialiasing,
                         option->levelOfDetailFromTransform(painter->worldTransform()) >= 0.3);
  painter->setBrush(Qt::NoBrush);
  const QPainterPath drawn = m_bend == 0 ? QPainterPath() : path();
  // Straight links (nearly all) go through drawLine, much cheaper than stroking a path.
  const auto draw = [&] {
    if (m_bend == 0)
      painter->drawLine(m_a, m_b);
    else
      painter->drawPath(drawn);
  };
  const double width = widthFor(m_link.bandwidthGBps);
  if (!exporting(this) && (isSelected() || m_hovered)) {
    QColor halo = scene() ? scene()->palette().color(QPalette::Highlight) : QColor(Qt::blue);
    halo.setAlpha(isSelected() ? 150 : 70);
    painter->setPen(QPen(halo, width + 7, Qt::SolidLine, Qt::RoundCap));
    draw();
  }
  QPen pen(linkKindColor(m_link.kind), width, Qt::SolidLine, Qt::RoundCap);
  if (!m_link.duplex) {
    // Dash lengths are in pen widths: keep the dashes about 10 units long at every width.
    pen.setCapStyle(Qt::FlatCap);
    pen.setDashPattern({10 / width, 6 / width});
  }
  painter->setPen(pen);
  draw();
}

QVariant LinkItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
  if (change == ItemSelectedHasChanged)
    updateLabel();
  return QGraphicsItem::itemChange(change, value);
}

void LinkItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = true;
  updateLabel();
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void LinkItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = false;
  updateLabel();
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

LinkLabelItem::LinkLabelItem()
{
  setZValue(5);
  setAcceptedMouseButtons(Qt::NoButton);
  setAcceptHoverEvents(false);
}

void LinkLabelItem::setText(const QString& text, const QColor& accent)
{
  prepareGeometryChange();
  m_text = text;
  m_accent = accent;
  update();
}

QSizeF LinkLabelItem::boxSize() const
{
  const QFontMetricsF metrics(canvasFont(kLabelPixelSize));
  return {metrics.horizontalAdvance(m_text) + 2 * kLabelPaddingX,
          metrics.height() + 2 * kLabelPaddingY};
}

QRectF LinkLabelItem::boundingRect() const
{
  const QSizeF size = boxSize();
  return {-size.width() / 2 - 1, -size.height() / 2 - 1, size.width() + 2, size.height() + 2};
}

void LinkLabelItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  const QSizeF size = boxSize();
  const QRectF box(-size.width() / 2, -size.height() / 2, size.width(), size.height());
  painter->setRenderHint(QPainter::Antialiasing);
  QColor fill = colors.background;
  fill.setAlpha(235);
  painter->setPen(QPen(m_accent, 1.2));
  painter->setBrush(fill);
  painter->drawRoundedRect(box, size.height() / 2, size.height() / 2);
  painter->setPen(colors.text);
  painter->setFont(canvasFont(kLabelPixelSize));
  painter->drawText(box, Qt::AlignCenter, m_text);
}

} // namespace cs::editor
