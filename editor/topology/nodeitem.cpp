#include "nodeitem.h"

#include "canvasstyle.h"
#include "topologyscene.h"

#include "style/rankpalette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace cs::editor {

namespace {

constexpr double kFingerHeight = 7;      ///< the GPU card's edge connector below its body
constexpr double kDetailThreshold = 0.3; ///< below this zoom nodes are drawn as plain blocks
const QColor kGold(0xc9, 0xa2, 0x27);
const QColor kUnassignedGpu(0x8a, 0x8f, 0x96);

QColor accentOf(NodeKind kind)
{
  switch (kind) {
  case NodeKind::NvSwitch:
    return linkKindColor(LinkKind::NvLink);
  case NodeKind::PcieSwitch:
    return linkKindColor(LinkKind::Pcie);
  case NodeKind::Nic:
  case NodeKind::NetworkSwitch:
    return linkKindColor(LinkKind::Network);
  default:
    return linkKindColor(LinkKind::Smp);
  }
}

void drawElided(QPainter* painter, const QRectF& rect, int flags, const QString& text)
{
  const QFontMetricsF metrics(painter->font());
  painter->drawText(rect, flags, metrics.elidedText(text, Qt::ElideRight, rect.width()));
}

} // namespace

NodeItem::NodeItem(const TopologyNode& node) : m_node(node)
{
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(true);
  setZValue(1);
  setPos(node.x, node.y);
  setToolTip(toolTipText());
}

QSizeF NodeItem::sizeFor(NodeKind kind)
{
  switch (kind) {
  case NodeKind::Gpu:
    return {92, 64};
  case NodeKind::NvSwitch:
    return {200, 44};
  case NodeKind::PcieSwitch:
    return {150, 40};
  case NodeKind::Nic:
    return {80, 44};
  case NodeKind::Cpu:
    return {76, 64};
  case NodeKind::NetworkSwitch:
    return {150, 40};
  }
  return {80, 50};
}

QRectF NodeItem::rectFor(const TopologyNode& node)
{
  const QSizeF size = sizeFor(node.kind);
  return {node.x - size.width() / 2, node.y - size.height() / 2, size.width(), size.height()};
}

void NodeItem::setNode(const TopologyNode& node)
{
  if (node == m_node)
    return;
  if (node.kind != m_node.kind)
    prepareGeometryChange();
  const bool looks =
      node.kind != m_node.kind || node.name != m_node.name || node.rank != m_node.rank;
  m_node = node;
  setPos(node.x, node.y);
  if (looks) {
    setToolTip(toolTipText());
    update();
  }
}

void NodeItem::setLinkTarget(bool target)
{
  if (target == m_linkTarget)
    return;
  m_linkTarget = target;
  update();
}

QRectF NodeItem::glyphRect() const
{
  const QSizeF size = sizeFor(m_node.kind);
  return {-size.width() / 2, -size.height() / 2, size.width(), size.height()};
}

QRectF NodeItem::boundingRect() const
{
  return glyphRect().adjusted(-6, -6, 6, 6);
}

QPainterPath NodeItem::shape() const
{
  QPainterPath path;
  path.addRoundedRect(glyphRect(), 7, 7);
  return path;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
  const QPalette palette = scene() ? scene()->palette() : QPalette();
  const bool dark = isDark(palette);
  const QRectF rect = glyphRect();
  // Zoomed far out (a 64 x 64 torus on one screen) text is unreadable and costly: a plain
  // block in the node's colour keeps the picture and the frame rate.
  if (option->levelOfDetailFromTransform(painter->worldTransform()) < kDetailThreshold) {
    const QColor fill = m_node.kind == NodeKind::Gpu
                            ? (m_node.rank >= 0 ? rankColor(m_node.rank) : kUnassignedGpu)
                            : canvasColors(palette).neutralBorder;
    painter->fillRect(rect, isSelected() ? palette.color(QPalette::Highlight) : fill);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing);
  switch (m_node.kind) {
  case NodeKind::Gpu:
    paintGpu(painter, rect);
    break;
  case NodeKind::NvSwitch:
  case NodeKind::PcieSwitch:
  case NodeKind::NetworkSwitch:
    paintSwitch(painter, rect, dark);
    break;
  case NodeKind::Nic:
    paintNic(painter, rect, dark);
    break;
  case NodeKind::Cpu:
    paintCpu(painter, rect, dark);
    break;
  }
  paintDecorations(painter, rect);
}

void NodeItem::paintGpu(QPainter* painter, const QRectF& rect) const
{
  const QRectF body = rect.adjusted(0, 0, 0, -kFingerHeight);
  const bool assigned = m_node.rank >= 0;
  const QColor fill = assigned ? rankColor(m_node.rank) : kUnassignedGpu;

  // Edge-connector fingers first, so the card body covers their tops.
  painter->setPen(QPen(kGold.darker(135), 0.8));
  painter->setBrush(kGold);
  const double fingerWidth = 5;
  for (double x = body.left() + 14; x + fingerWidth <= body.right() - 12; x += 8)
    painter->drawRect(QRectF(x, body.bottom() - 2, fingerWidth, kFingerHeight + 1));

  painter->setPen(QPen(fill.darker(145), 1));
  painter->setBrush(fill);
  painter->drawRoundedRect(body, 7, 7);

  const QColor text = readableTextOn(fill);
  painter->setPen(text);
  painter->setFont(canvasFont(11));
  drawElided(painter, body.adjusted(8, 4, -8, 0), Qt::AlignLeft | Qt::AlignTop,
             QString::fromStdString(m_node.name));
  painter->setFont(canvasFont(26, true));
  painter->drawText(body.adjusted(0, 14, 0, 0), Qt::AlignHCenter | Qt::AlignVCenter,
                    assigned ? QString::number(m_node.rank) : QStringLiteral("?"));
}

void NodeItem::paintSwitch(QPainter* painter, const QRectF& rect, bool dark) const
{
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  const QColor accent = accentOf(m_node.kind);
  QPainterPath outline;
  outline.addRoundedRect(rect, 6, 6);
  painter->setPen(Qt::NoPen);
  painter->setBrush(colors.neutralFill);
  painter->drawPath(outline);

  // The accent strip on the left says which fabric the switch belongs to.
  painter->save();
  painter->setClipPath(outline);
  painter->fillRect(QRectF(rect.left(), rect.top(), 8, rect.height()), accent);
  painter->restore();

  // Port dots along both long edges suggest a switch at a glance.
  painter->setBrush(dark ? accent.lighter(120) : accent);
  for (double x = rect.left() + 20; x < rect.right() - 8; x += 13) {
    painter->drawEllipse(QPointF(x, rect.top() + 5), 1.7, 1.7);
    painter->drawEllipse(QPointF(x, rect.bottom() - 5), 1.7, 1.7);
  }
  painter->setBrush(Qt::NoBrush);
  painter->setPen(QPen(colors.neutralBorder, 1.2));
  painter->drawPath(outline);

  const bool wide = m_node.kind == NodeKind::NvSwitch;
  const QRectF textArea = rect.adjusted(12, 0, -6, 0);
  painter->setPen(colors.text);
  painter->setFont(canvasFont(wide ? 14 : 13, true));
  drawElided(painter, QRectF(textArea.left(), rect.top() + 7, textArea.width(), 18),
             Qt::AlignCenter, QString::fromStdString(m_node.name));
  painter->setPen(colors.mutedText);
  painter->setFont(canvasFont(10));
  drawElided(painter, QRectF(textArea.left(), rect.bottom() - 20, textArea.width(), 13),
             Qt::AlignCenter, wide ? QObject::tr("NVLink switch") : nodeKindLabel(m_node.kind));
}

void NodeItem::paintNic(QPainter* painter, const QRectF& rect, bool dark) const
{
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  const QColor accent = accentOf(NodeKind::Nic);
  QPainterPath outline;
  outline.addRoundedRect(rect, 5, 5);
  painter->setPen(QPen(colors.neutralBorder, 1.2));
  painter->setBrush(colors.neutralFill);
  painter->drawPath(outline);

  // A network port: an accent socket with its dark slot.
  const QRectF port(rect.left() + 8, rect.center().y() - 8, 18, 16);
  painter->setPen(Qt::NoPen);
  painter->setBrush(dark ? accent.lighter(115) : accent);
  painter->drawRoundedRect(port, 2.5, 2.5);
  painter->setBrush(QColor(0x20, 0x21, 0x24));
  painter->drawRect(port.adjusted(3.5, 4, -3.5, -5));

  painter->setPen(colors.text);
  painter->setFont(canvasFont(12, true));
  drawElided(painter, rect.adjusted(31, 0, -5, 0), Qt::AlignLeft | Qt::AlignVCenter,
             QString::fromStdString(m_node.name));
}

void NodeItem::paintCpu(QPainter* painter, const QRectF& rect, bool dark) const
{
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  const QRectF body = rect.adjusted(6, 6, -6, -6);
  // Pins on all four sides, the usual picture of a processor package.
  painter->setPen(
      QPen(dark ? colors.neutralBorder : colors.mutedText, 2, Qt::SolidLine, Qt::FlatCap));
  for (int i = 0; i < 5; ++i) {
    const double x = body.left() + body.width() * (i + 1) / 6;
    painter->drawLine(QPointF(x, rect.top()), QPointF(x, body.top()));
    painter->drawLine(QPointF(x, body.bottom()), QPointF(x, rect.bottom()));
  }
  for (int i = 0; i < 4; ++i) {
    const double y = body.top() + body.height() * (i + 1) / 5;
    painter->drawLine(QPointF(rect.left(), y), QPointF(body.left(), y));
    painter->drawLine(QPointF(body.right(), y), QPointF(rect.right(), y));
  }
  painter->setPen(QPen(colors.neutralBorder, 1));
  painter->setBrush(colors.chipFill);
  painter->drawRoundedRect(body, 4, 4);
  painter->setPen(QPen(colors.chipFill.lighter(170), 1));
  painter->setBrush(Qt::NoBrush);
  painter->drawRoundedRect(body.adjusted(5, 5, -5, -5), 2, 2);

  painter->setPen(Qt::white);
  painter->setFont(canvasFont(12, true));
  drawElided(painter, body.adjusted(6, 0, -6, 0), Qt::AlignCenter,
             QString::fromStdString(m_node.name));
}

void NodeItem::paintDecorations(QPainter* painter, const QRectF& rect) const
{
  const auto* topologyScene = qobject_cast<const TopologyScene*>(scene());
  if (topologyScene && topologyScene->exporting())
    return;
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  const QRectF ring = rect.adjusted(-4.5, -4.5, 4.5, 4.5);
  QColor color = colors.highlight;
  if (isSelected() || m_linkTarget) {
    painter->setPen(QPen(color, m_linkTarget ? 3.5 : 2.5));
  } else if (m_hovered) {
    color.setAlpha(130);
    painter->setPen(QPen(color, 2));
  } else {
    return;
  }
  painter->setBrush(Qt::NoBrush);
  painter->drawRoundedRect(ring, 10, 10);
}

QString NodeItem::toolTipText() const
{
  const QString name = QString::fromStdString(m_node.name).toHtmlEscaped();
  if (m_node.kind == NodeKind::Gpu) {
    return m_node.rank >= 0
               ? QObject::tr("<b>%1</b><br>GPU hosting rank %2").arg(name).arg(m_node.rank)
               : QObject::tr("<b>%1</b><br>GPU without a rank").arg(name);
  }
  return QStringLiteral("<b>%1</b><br>%2").arg(name, nodeKindLabel(m_node.kind));
}

void NodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = true;
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void NodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = false;
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

} // namespace cs::editor
