// GanttView's painting: lanes, bars, flow arrows, labels, the time axis and the cursor, each
// limited to what the viewport shows.

#include "ganttlayout_p.h"
#include "ganttlegend.h"
#include "ganttview.h"
#include "playback/scrubbar.h"
#include "session/replaysession.h"

#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

using namespace gantt;

void GanttView::paintEvent(QPaintEvent*)
{
  QPainter painter(viewport());
  painter.setClipRect(QRect(kLabelWidth, kAxisHeight, viewport()->width() - kLabelWidth,
                            viewport()->height() - kAxisHeight));
  paintLanes(painter);
  const double fromUs = timeAt(kLabelWidth);
  const double toUs = timeAt(viewport()->width());
  paintBarLayers(painter, fromUs, toUs);
  paintBlocked(painter);
  painter.setRenderHint(QPainter::Antialiasing);
  paintFlows(painter);
  painter.setRenderHint(QPainter::Antialiasing, false);
  painter.setClipping(false);
  paintLabels(painter);
  paintAxis(painter);
  paintCursor(painter);
}

void GanttView::paintLanes(QPainter& painter) const
{
  const QColor stripe = palette().color(QPalette::AlternateBase);
  const QColor rule = palette().color(QPalette::Mid);
  const ReplaySelection& selection = m_session->selection();
  const std::vector<GanttLane>& lanes = m_model.lanes();
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double top = laneTop(static_cast<int>(i));
    if (top + kLaneHeight < kAxisHeight || top > viewport()->height())
      continue;
    const QRectF row(kLabelWidth, top, viewport()->width() - kLabelWidth, kLaneHeight);
    const bool selected = lanes[i].rank == selection.rank && lanes[i].tb == selection.tb;
    if (selected)
      painter.fillRect(row, palette().color(QPalette::Highlight).lighter(185));
    else if (lanes[i].rank % 2 == 1)
      painter.fillRect(row, stripe);
    if (i > 0 && lanes[i - 1].rank != lanes[i].rank) {
      painter.setPen(rule);
      painter.drawLine(QPointF(kLabelWidth, top), QPointF(viewport()->width(), top));
    }
  }
}

std::vector<std::size_t> GanttView::shownFlows() const
{
  const ReplaySelection& selection = m_session->selection();
  const std::size_t events = m_session->trace().events.size();
  if (selection.event >= 0 && static_cast<std::size_t>(selection.event) < events)
    return m_model.messagesOf(static_cast<std::size_t>(selection.event));
  const int lane = m_model.laneOf(selection.rank, selection.tb);
  if (lane < 0)
    return {};
  std::vector<std::size_t> flows;
  const double fromUs = timeAt(kLabelWidth);
  const auto [first, last] = m_model.visible(lane, fromUs, timeAt(viewport()->width()));
  for (std::size_t i = first; i < last; ++i) {
    const std::vector<std::size_t>& own =
        m_model.messagesOf(m_model.lanes()[static_cast<std::size_t>(lane)].events[i]);
    flows.insert(flows.end(), own.begin(), own.end());
  }
  return flows;
}

void GanttView::paintFlows(QPainter& painter) const
{
  const QColor ink = palette().color(QPalette::WindowText);
  for (const std::size_t m : shownFlows()) {
    const replay::Message& message = m_session->index().messages()[m];
    if (!message.receive)
      continue;
    const QRectF from = barRect(message.send);
    const QRectF to = barRect(*message.receive);
    const QPointF a(from.center().x(), from.center().y());
    const QPointF b(to.center().x(), to.center().y());
    QPainterPath path(a);
    const double bend = std::max(12.0, std::abs(b.x() - a.x()) / 2);
    path.cubicTo(a + QPointF(bend, 0), b - QPointF(bend, 0), b);
    painter.setPen(QPen(ink, 1.4));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    const QPointF tip = b; // the curve arrives horizontally, pointing right
    const QPointF back(7, 0);
    painter.setBrush(ink);
    painter.drawPolygon(
        QPolygonF({tip, tip - back + QPointF(0, 3.5), tip - back - QPointF(0, 3.5)}));
    painter.drawEllipse(a, 2.5, 2.5);
  }
}

void GanttView::paintLabels(QPainter& painter) const
{
  painter.fillRect(QRect(0, kAxisHeight, kLabelWidth, viewport()->height()),
                   palette().color(QPalette::Window));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawLine(kLabelWidth - 1, kAxisHeight, kLabelWidth - 1, viewport()->height());
  painter.setClipRect(QRect(0, kAxisHeight, kLabelWidth, viewport()->height()));
  const ReplaySelection& selection = m_session->selection();
  const std::vector<GanttLane>& lanes = m_model.lanes();
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double top = laneTop(static_cast<int>(i));
    if (top + kLaneHeight < kAxisHeight || top > viewport()->height())
      continue;
    const QRectF cell(kPad, top, kLabelWidth - 2 * kPad, kLaneHeight);
    QFont font = painter.font();
    font.setBold(lanes[i].rank == selection.rank && lanes[i].tb == selection.tb);
    painter.setFont(font);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(cell, Qt::AlignVCenter | Qt::AlignLeft,
                     tr("rank %1 · tb %2").arg(lanes[i].rank).arg(lanes[i].tb));
  }
  painter.setClipping(false);
  painter.setFont(font());
}

void GanttView::paintAxis(QPainter& painter) const
{
  const int w = viewport()->width();
  painter.fillRect(QRect(0, 0, w, kAxisHeight), palette().color(QPalette::Window));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawLine(0, kAxisHeight - 1, w, kAxisHeight - 1);
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(kPad, 0, kLabelWidth - kPad, kAxisHeight), Qt::AlignVCenter,
                   tr("time (µs)"));
  const double step = niceStep(80 / m_pxPerUs);
  const double fromUs = std::max(0.0, std::floor(timeAt(kLabelWidth) / step) * step);
  painter.setClipRect(QRect(kLabelWidth, 0, w - kLabelWidth, kAxisHeight));
  for (double t = fromUs; t <= std::min(timeAt(w), m_session->endUs() + step); t += step) {
    const int x = qRound(xOf(t));
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(x, kAxisHeight - 5, x, kAxisHeight - 1);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(x + 3, kAxisHeight - 7, QStringLiteral("%1").arg(t, 0, 'g', 5));
  }
  painter.setClipping(false);
}

void GanttView::paintCursor(QPainter& painter) const
{
  const double x = xOf(m_session->cursorUs());
  if (x < kLabelWidth || x > viewport()->width())
    return;
  const QColor red(0xd0, 0x2b, 0x2b);
  painter.setPen(QPen(red, 2));
  painter.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, viewport()->height()));
  painter.setBrush(red);
  painter.setPen(Qt::NoPen);
  painter.drawPolygon(QPolygonF({QPointF(x - 5, 0), QPointF(x + 5, 0), QPointF(x, 7)}));
}

} // namespace cs::visualizer
