#include "machineitems.h"

#include "canvasstyle.h"
#include "linkitem.h"
#include "topologyscene.h"

#include "style/rankpalette.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace cs::editor {

namespace {

constexpr double kFramePadding = 22; ///< between the devices and the frame, in scene units
constexpr double kTitlePixels = 14;  ///< the title's font on screen
constexpr double kDetailPixels = 11; ///< the folded box's second line on screen
constexpr double kTitlePaddingX = 8; ///< the title strip's inner margin on screen
/// Unfolded, above links (0) so that the title hides the links behind it, below nodes (1); a
/// folded box covers the bundles that leave from its centre.
constexpr double kUnfoldedZ = 0.5;
constexpr double kFoldedZ = 2;

} // namespace

MachineItem::MachineItem(int machine, QString title, QString detail, const QRectF& devices)
    : m_machine(machine), m_title(std::move(title)), m_detail(std::move(detail)), m_devices(devices)
{
  setZValue(kUnfoldedZ);
  setAcceptHoverEvents(false);
  updateToolTip();
}

void MachineItem::updateToolTip()
{
  setToolTip(
      QStringLiteral("%1 · %2<br>Double-click (or use the context menu) to %3 it.")
          .arg(m_title, m_detail, m_folded ? QStringLiteral("unfold") : QStringLiteral("fold")));
}

void MachineItem::setFolded(bool folded)
{
  if (folded == m_folded)
    return;
  prepareGeometryChange();
  m_folded = folded;
  setZValue(folded ? kFoldedZ : kUnfoldedZ);
  updateToolTip();
  update();
}

QRectF MachineItem::frameRect() const
{
  return m_devices.adjusted(-kFramePadding, -kFramePadding, kFramePadding, kFramePadding);
}

void MachineItem::setViewScale(double scale)
{
  if (scale <= 0 || scale == m_scale)
    return;
  prepareGeometryChange();
  m_scale = scale;
}

QRectF MachineItem::boxRect() const
{
  return frameRect();
}

QFont MachineItem::zoomedFont(double pixels, bool bold) const
{
  return canvasFont(std::max(1, static_cast<int>(std::lround(pixels / m_scale))), bold);
}

QRectF MachineItem::titleRect() const
{
  const QFontMetricsF metrics(zoomedFont(kTitlePixels, true));
  const QRectF frame = frameRect();
  const double padding = kTitlePaddingX / m_scale;
  const double width =
      std::min(frame.width() - 2 * padding, metrics.horizontalAdvance(m_title) + 2 * padding);
  const double height = metrics.height() * 1.2;
  // On the frame's top edge, mostly above it: the devices start just below the edge.
  return {frame.left() + padding, frame.top() - height * 0.75, width, height};
}

QRectF MachineItem::boundingRect() const
{
  return (m_folded ? boxRect() : frameRect().united(titleRect())).adjusted(-3, -3, 3, 3);
}

QPainterPath MachineItem::shape() const
{
  QPainterPath path;
  path.addRect(m_folded ? boxRect() : titleRect());
  return path;
}

void MachineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
  const CanvasColors colors = canvasColors(scene() ? scene()->palette() : QPalette());
  painter->setRenderHint(QPainter::Antialiasing);
  if (m_folded) {
    paintFolded(painter, colors);
    return;
  }
  QColor border = colors.mutedText;
  border.setAlpha(150);
  painter->setPen(QPen(border, 1.5, Qt::DashLine));
  painter->setBrush(Qt::NoBrush);
  painter->drawRoundedRect(frameRect(), 14, 14);
  const QRectF title = titleRect();
  painter->setPen(QPen(border, 1.2));
  painter->setBrush(colors.background);
  painter->drawRoundedRect(title, title.height() / 2, title.height() / 2);
  painter->setPen(colors.text);
  painter->setFont(zoomedFont(kTitlePixels, true));
  const QFontMetricsF metrics(painter->font());
  painter->drawText(title, Qt::AlignCenter,
                    metrics.elidedText(m_title, Qt::ElideRight, title.width() - 4 / m_scale));
}

std::optional<QFont> MachineItem::fittedFont(const QString& text, double pixels, double width,
                                             bool bold) const
{
  // Shrink from `pixels` towards kMinPixels until `text` fits `width` scene units.
  constexpr double kMinPixels = 7;
  const double natural = QFontMetricsF(zoomedFont(pixels, bold)).horizontalAdvance(text);
  const double fitted = natural <= width ? pixels : pixels * width / natural;
  if (fitted < kMinPixels)
    return std::nullopt;
  return zoomedFont(std::floor(fitted), bold);
}

void MachineItem::paintFolded(QPainter* painter, const CanvasColors& colors) const
{
  const QRectF box = boxRect();
  painter->setPen(QPen(linkKindColor(LinkKind::Network), 2.5));
  painter->setBrush(colors.neutralFill);
  painter->drawRoundedRect(box, 14, 14);
  const QRectF text = box.adjusted(box.width() * 0.04, 0, -box.width() * 0.04, 0);
  // "node 3" large; under it what it holds and its ranks, or only its ranks, or nothing,
  // whatever fits the box at this zoom.
  const qsizetype split = m_title.indexOf(QStringLiteral(" · "));
  const QString name = split < 0 ? m_title : m_title.left(split);
  const std::optional<QFont> title = fittedFont(name, kTitlePixels, text.width(), true);
  if (!title)
    return;
  const double titleHeight = QFontMetricsF(*title).height();
  QString detail = split < 0 ? m_detail : m_title.mid(split + 3) + QStringLiteral(" · ") + m_detail;
  std::optional<QFont> detailFont = fittedFont(detail, kDetailPixels, text.width(), false);
  if (!detailFont || detailFont->pixelSize() < zoomedFont(kDetailPixels, false).pixelSize()) {
    detail = m_detail;
    detailFont = fittedFont(detail, kDetailPixels, text.width(), false);
  }
  const double detailHeight = detailFont ? QFontMetricsF(*detailFont).height() : 0;
  // By the natural sizes, so that every box of a drawing shows the same lines.
  if (QFontMetricsF(zoomedFont(kTitlePixels, true)).height() +
          QFontMetricsF(zoomedFont(kDetailPixels, false)).height() >
      box.height())
    detailFont.reset();
  const double top = box.center().y() - (titleHeight + (detailFont ? detailHeight : 0)) / 2;
  painter->setPen(colors.text);
  painter->setFont(*title);
  painter->drawText(QRectF(text.left(), top, text.width(), titleHeight), Qt::AlignCenter, name);
  if (!detailFont)
    return;
  painter->setPen(colors.mutedText);
  painter->setFont(*detailFont);
  painter->drawText(QRectF(text.left(), top + titleHeight, text.width(), detailHeight),
                    Qt::AlignCenter, detail);
}

BundleItem::BundleItem(const QPointF& a, const QPointF& b, LinkKind kind, int links,
                       double bandwidthGBps)
    : m_a(a), m_b(b), m_kind(kind), m_links(links), m_bandwidthGBps(bandwidthGBps),
      m_label(new LinkLabelItem)
{
  setAcceptHoverEvents(true);
  // Under links (0), and under the backdrop of an unfolded machine (TopologyScene).
  setZValue(-1);
  m_label->setText(text(), linkKindColor(kind));
  m_label->setPos(midpoint());
  m_label->setVisible(false);
  setToolTip(text());
}

BundleItem::~BundleItem()
{
  delete m_label;
}

QString BundleItem::text() const
{
  const QString count = m_links == 1 ? QStringLiteral("1 %1 link").arg(linkKindLabel(m_kind))
                                     : QStringLiteral("%1 links").arg(m_links);
  return QStringLiteral("%1 · %2 GB/s").arg(count).arg(m_bandwidthGBps, 0, 'g', 4);
}

void BundleItem::setLabelAlwaysShown(bool shown)
{
  m_labelAlwaysShown = shown;
  m_label->setVisible(shown || m_hovered);
}

QRectF BundleItem::boundingRect() const
{
  const double pad = LinkItem::widthFor(m_bandwidthGBps) / 2 + 7;
  return QRectF(m_a, m_b).normalized().adjusted(-pad, -pad, pad, pad);
}

QPainterPath BundleItem::shape() const
{
  QPainterPath line(m_a);
  line.lineTo(m_b);
  QPainterPathStroker stroker;
  stroker.setWidth(std::max(12.0, LinkItem::widthFor(m_bandwidthGBps) + 6));
  return stroker.createStroke(line);
}

void BundleItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
  painter->setRenderHint(QPainter::Antialiasing,
                         option->levelOfDetailFromTransform(painter->worldTransform()) >= 0.3);
  const double width = LinkItem::widthFor(m_bandwidthGBps);
  if (m_hovered) {
    QColor halo = scene() ? scene()->palette().color(QPalette::Highlight) : QColor(Qt::blue);
    halo.setAlpha(70);
    painter->setPen(QPen(halo, width + 7, Qt::SolidLine, Qt::RoundCap));
    painter->drawLine(m_a, m_b);
  }
  painter->setPen(QPen(linkKindColor(m_kind), width, Qt::SolidLine, Qt::RoundCap));
  painter->drawLine(m_a, m_b);
}

void BundleItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = true;
  m_label->setVisible(true);
  update();
  QGraphicsItem::hoverEnterEvent(event);
}

void BundleItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event)
{
  m_hovered = false;
  m_label->setVisible(m_labelAlwaysShown);
  update();
  QGraphicsItem::hoverLeaveEvent(event);
}

} // namespace cs::editor
