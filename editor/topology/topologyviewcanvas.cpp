// How the topology canvas shows itself (see topologyview.h): the overlays (empty-state hint,
// rank warning, legend), the scene rectangle, zoom and fit, the background and the exports.

#include "topologyview.h"

#include "canvasstyle.h"
#include "topologyedits.h"
#include "topologyexport.h"
#include "topologyoverlays.h"
#include "topologyscene.h"

#include "document/document.h"

#include <QEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace cs::editor {

namespace {

constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 4;
constexpr double kMaxFitZoom = 1.25;
constexpr double kZoomStep = 1.25;
constexpr double kGridSpacing = 40;

} // namespace

void TopologyView::updateOverlays()
{
  const std::optional<Topology>& topology = m_document->topology();
  const bool empty = !topology || topology->nodes.empty();
  const int ranks = rankCount();
  m_hint->setRankCount(ranks);
  m_hint->setVisible(empty);

  std::vector<LinkKind> kinds;
  if (!empty) {
    for (const LinkKind kind :
         {LinkKind::NvLink, LinkKind::Pcie, LinkKind::Network, LinkKind::Smp}) {
      if (std::any_of(topology->links.begin(), topology->links.end(),
                      [kind](const TopologyLink& link) { return link.kind == kind; }))
        kinds.push_back(kind);
    }
  }
  m_legend->setKinds(kinds);
  // With no topology at all the hint already says what to do; the warning would repeat it.
  m_warning->setMissingRanks(empty ? std::vector<int>{} : ranksWithoutGpu(&*topology, ranks));
  setTopMargin(m_warning->isHidden() ? 0 : m_warning->sizeHint().height());
  placeOverlays();
  if (ranks != m_presetRanks)
    rebuildPresetMenu();
}

void TopologyView::setTopMargin(int top)
{
  if (top == viewportMargins().top())
    return;
  // The warning strip takes room from the top of the canvas; the drawing must stay where it is
  // on screen rather than jump by half the strip's height.
  const QPoint fixed(width() / 2, height() / 2);
  const QPointF anchor = mapToScene(viewport()->mapFrom(this, fixed));
  setViewportMargins(0, top, 0, 0);
  keepSceneAt(anchor, viewport()->mapFrom(this, fixed));
}

void TopologyView::placeOverlays()
{
  const int frame = frameWidth();
  m_warning->setGeometry(frame, frame, width() - 2 * frame,
                         m_warning->isHidden() ? 0 : m_warning->sizeHint().height());
  // The hint and the legend are children of the view, not of the viewport, which would carry
  // them along when it scrolls.
  const QRect area = viewport()->geometry();
  const QSize hint = m_hint->sizeHint().boundedTo(area.size());
  m_hint->setGeometry(QRect(area.topLeft() + QPoint((area.width() - hint.width()) / 2,
                                                    (area.height() - hint.height()) / 2),
                            hint));
  m_legend->move(area.left() + 12, area.bottom() - m_legend->height() - 11);
}

void TopologyView::updateSceneRect(bool keepVisible)
{
  const QRectF content = m_scene->contentRect();
  const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
  // A viewport's worth of room around the content, so it can be panned to any edge.
  QRectF rect = content.isNull() ? visible
                                 : content.adjusted(-visible.width(), -visible.height(),
                                                    visible.width(), visible.height());
  if (!keepVisible) {
    m_scene->setSceneRect(rect);
    return;
  }
  rect |= visible;
  if (m_scene->sceneRect().contains(rect))
    return;
  // A new scene rectangle makes QGraphicsView re-centre; put back what was on screen so the
  // canvas never jumps under the pointer while the user edits.
  const QPoint middle = viewport()->rect().center();
  const QPointF anchor = mapToScene(middle);
  m_scene->setSceneRect(rect);
  keepSceneAt(anchor, middle);
}

void TopologyView::keepSceneAt(const QPointF& scenePos, const QPoint& viewportPos)
{
  // Scroll bars rather than centerOn(), which rounds and drifts by a pixel on each call.
  const QPointF drift = scenePos - mapToScene(viewportPos);
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() +
                                  static_cast<int>(std::lround(drift.x() * zoom())));
  verticalScrollBar()->setValue(verticalScrollBar()->value() +
                                static_cast<int>(std::lround(drift.y() * zoom())));
}

double TopologyView::zoom() const
{
  return transform().m11();
}

void TopologyView::setZoom(double zoom)
{
  const double clamped = std::clamp(zoom, kMinZoom, kMaxZoom);
  setTransform(QTransform::fromScale(clamped, clamped));
  m_scene->setViewScale(clamped);
  updateSceneRect(true);
}

void TopologyView::zoomIn()
{
  markUserViewChange();
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(AnchorViewCenter);
  setZoom(zoom() * kZoomStep);
  setTransformationAnchor(anchor);
}

void TopologyView::zoomOut()
{
  markUserViewChange();
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(AnchorViewCenter);
  setZoom(zoom() / kZoomStep);
  setTransformationAnchor(anchor);
}

void TopologyView::zoomToFit()
{
  const QRectF content = m_scene->contentRect().adjusted(-30, -30, 30, 30);
  if (m_scene->nodeCount() == 0) {
    setZoom(1);
    return;
  }
  const QSizeF area = viewport()->size();
  const double fit = std::min(area.width() / content.width(), area.height() / content.height());
  const ViewportAnchor anchor = transformationAnchor();
  setTransformationAnchor(AnchorViewCenter);
  setZoom(std::min(fit, kMaxFitZoom));
  setTransformationAnchor(anchor);
  updateSceneRect(false);
  centerOn(content.center());
}

QString TopologyView::exportSvg(const QString& path)
{
  const QString title =
      QString::fromStdString(m_document->topology() ? m_document->topology()->name : std::string());
  return exportSceneSvg(*m_scene, path, title, canvasColors(palette()).background);
}

QString TopologyView::exportPng(const QString& path)
{
  return exportScenePng(*m_scene, path, canvasColors(palette()).background);
}

QString TopologyView::missingRanksText() const
{
  return m_warning->isHidden() ? QString() : m_warning->text();
}

bool TopologyView::emptyHintShown() const
{
  return !m_hint->isHidden();
}

void TopologyView::resizeEvent(QResizeEvent* event)
{
  QGraphicsView::resizeEvent(event);
  placeOverlays();
  if (m_autoFit)
    zoomToFit();
  else
    updateSceneRect(true);
}

void TopologyView::showEvent(QShowEvent* event)
{
  QGraphicsView::showEvent(event);
  placeOverlays();
  if (m_autoFit)
    zoomToFit();
}

void TopologyView::changeEvent(QEvent* event)
{
  if (event->type() == QEvent::PaletteChange) {
    m_scene->setPalette(palette());
    refreshIcons();
    viewport()->update();
  }
  QGraphicsView::changeEvent(event);
}

void TopologyView::drawBackground(QPainter* painter, const QRectF& rect)
{
  const CanvasColors colors = canvasColors(palette());
  painter->fillRect(rect, colors.background);
  // A dot grid gives the canvas scale and depth; it is skipped when dots would crowd together.
  if (zoom() * kGridSpacing < 12)
    return;
  const double left = std::floor(rect.left() / kGridSpacing) * kGridSpacing;
  const double top = std::floor(rect.top() / kGridSpacing) * kGridSpacing;
  QPolygonF dots;
  for (double y = top; y <= rect.bottom(); y += kGridSpacing) {
    for (double x = left; x <= rect.right(); x += kGridSpacing)
      dots.push_back(QPointF(x, y));
  }
  QPen pen(colors.grid, 2);
  pen.setCosmetic(true);
  painter->setPen(pen);
  painter->drawPoints(dots);
}

} // namespace cs::editor
