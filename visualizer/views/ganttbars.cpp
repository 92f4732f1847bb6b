// GanttView's bars. A frame at a new cursor time must not repaint every bar: at 64 ranks and
// 100,000 events thousands are visible, and only the cursor's position changes between frames.
// The bars are painted twice per viewport (zoom, scroll, size, palette) into two images, once all
// done and once all pending; a frame shows the done image left of the cursor, the pending image
// right of it, and paints only the bars that are running at the cursor (and the selected one).
// Bars of one lane never overlap in time (a threadblock runs its steps in order), so left of the
// cursor every bar is done or running, right of it pending or running.

#include "ganttlayout_p.h"
#include "ganttlegend.h"
#include "ganttview.h"
#include "session/replaysession.h"

#include <QPainter>
#include <QScrollBar>

namespace cs::visualizer {

using namespace gantt;

bool GanttView::BarLayers::matches(const BarLayers& other) const
{
  return size == other.size && pxPerUs == other.pxPerUs && scroll == other.scroll &&
         paletteKey == other.paletteKey && font == other.font && ratio == other.ratio;
}

GanttView::BarLayers GanttView::layerKey() const
{
  BarLayers key;
  key.size = viewport()->size();
  key.pxPerUs = m_pxPerUs;
  key.scroll = QPoint(horizontalScrollBar()->value(), verticalScrollBar()->value());
  key.paletteKey = palette().cacheKey();
  key.font = font();
  key.ratio = devicePixelRatioF();
  return key;
}

void GanttView::paintBarRange(QPainter& painter, double fromUs, double toUs, BarState force) const
{
  const int lanes = static_cast<int>(m_model.lanes().size());
  for (int lane = std::max(0, laneAt(kAxisHeight));
       lane < lanes && laneTop(lane) < viewport()->height(); ++lane) {
    const GanttLane& l = m_model.lanes()[static_cast<std::size_t>(lane)];
    const auto [first, last] = m_model.visible(lane, fromUs, toUs);
    for (std::size_t i = first; i < last; ++i) {
      QRectF rect = barRect(l.events[i]);
      if (rect.width() > 4) // a hairline between back-to-back events
        rect.setWidth(rect.width() - 1);
      paintBar(painter, l.events[i], rect, force);
    }
  }
}

void GanttView::rebuildBarLayers(double fromUs, double toUs) const
{
  m_layers = layerKey();
  const QSize pixels = (QSizeF(m_layers.size) * m_layers.ratio).toSize();
  for (const BarState state : {BarState::Done, BarState::Pending}) {
    QImage& image = state == BarState::Done ? m_layers.done : m_layers.pending;
    image = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(m_layers.ratio);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setFont(font());
    paintBarRange(painter, fromUs, toUs, state);
  }
}

void GanttView::paintBarLayers(QPainter& painter, double fromUs, double toUs) const
{
  if (!m_layers.matches(layerKey()) || m_layers.done.isNull())
    rebuildBarLayers(fromUs, toUs);
  const double cursor = m_session->cursorUs();
  const double split = std::clamp(xOf(cursor), double(kLabelWidth), double(viewport()->width()));
  const QRectF area(0, 0, viewport()->width(), viewport()->height());
  painter.save();
  painter.setClipRect(QRectF(kLabelWidth, kAxisHeight, split - kLabelWidth, area.height()),
                      Qt::IntersectClip);
  painter.drawImage(QPointF(0, 0), m_layers.done);
  painter.restore();
  painter.save();
  painter.setClipRect(QRectF(split, kAxisHeight, area.width() - split, area.height()),
                      Qt::IntersectClip);
  painter.drawImage(QPointF(0, 0), m_layers.pending);
  painter.restore();
  // What the images cannot know: the bars the cursor is inside, and the selected one.
  if (cursor >= fromUs && cursor <= toUs)
    paintBarRange(painter, cursor, cursor, BarState::Running);
  const long selected = m_session->selection().event;
  if (selected >= 0 && static_cast<std::size_t>(selected) < m_session->trace().events.size()) {
    QRectF rect = barRect(static_cast<std::size_t>(selected));
    if (rect.width() > 4)
      rect.setWidth(rect.width() - 1);
    paintBar(painter, static_cast<std::size_t>(selected), rect, barState(selected));
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(rect.adjusted(-1, -1, 0, 0));
  }
}

GanttView::BarState GanttView::barState(std::size_t event) const
{
  const TraceEvent& e = m_session->trace().events[event];
  const double cursor = m_session->cursorUs();
  if (e.end <= cursor)
    return BarState::Done;
  return e.start >= cursor ? BarState::Pending : BarState::Running;
}

void GanttView::paintBar(QPainter& painter, std::size_t event, const QRectF& rect,
                         BarState force) const
{
  const TraceEvent& e = m_session->trace().events[event];
  // Running is asked for every bar under the cursor; only those truly running are repainted.
  const BarState state = force == BarState::Running ? barState(event) : force;
  if (force == BarState::Running && state != BarState::Running)
    return;
  const QColor color = opColor(e.op);
  switch (state) {
  case BarState::Done: // solid
    painter.fillRect(rect, color);
    break;
  case BarState::Pending: { // pale, outlined
    QColor pale = color;
    pale.setAlpha(55);
    painter.fillRect(rect, pale);
    painter.setPen(color);
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
    break;
  }
  case BarState::Running: { // the done part solid, a dark frame around the whole bar
    painter.fillRect(rect, color.lighter(150));
    const double x = xOf(m_session->cursorUs());
    painter.fillRect(QRectF(rect.left(), rect.top(), x - rect.left(), rect.height()), color);
    painter.setPen(QPen(palette().color(QPalette::WindowText), 1.5));
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
    break;
  }
  }
  const QString label =
      QStringLiteral("%1 s%2").arg(QString::fromUtf8(opTypeName(e.op))).arg(e.step);
  if (rect.width() > m_labels.text(label, painter.font()).size().width() + 6) {
    painter.setPen(state == BarState::Pending ? color.darker(160) : QColor(Qt::white));
    m_labels.paint(painter, rect.adjusted(3, 0, 0, 0), label, false);
  }
}

} // namespace cs::visualizer
