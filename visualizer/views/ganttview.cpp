#include "ganttview.h"

#include "ganttlayout_p.h"
#include "session/replaysession.h"
#include "style/viewporttooltip.h"

#include <QMouseEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cs::visualizer {

using namespace gantt;

GanttView::GanttView(ReplaySession* session, QWidget* parent)
    : QAbstractScrollArea(parent), m_session(session), m_model(*session)
{
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  viewport()->setMouseTracking(false);
  viewport()->setAutoFillBackground(true);
  viewport()->setBackgroundRole(QPalette::Base);
  connect(session, &ReplaySession::cursorChanged, this, &GanttView::followCursor);
  connect(session, &ReplaySession::selectionChanged, viewport(), qOverload<>(&QWidget::update));
}

QSize GanttView::sizeHint() const
{
  const int lanes = static_cast<int>(m_model.lanes().size());
  return {800, std::min(500, kAxisHeight + lanes * kLaneHeight + 4)};
}

std::size_t GanttView::barCount() const
{
  std::size_t count = 0;
  for (const GanttLane& lane : m_model.lanes())
    count += lane.events.size();
  return count;
}

double GanttView::xOf(double timeUs) const
{
  return kLabelWidth + kPad + timeUs * m_pxPerUs - horizontalScrollBar()->value();
}

double GanttView::timeAt(double x) const
{
  return (x - kLabelWidth - kPad + horizontalScrollBar()->value()) / m_pxPerUs;
}

double GanttView::laneTop(int lane) const
{
  return kAxisHeight + lane * kLaneHeight - verticalScrollBar()->value();
}

int GanttView::laneAt(double y) const
{
  if (y < kAxisHeight)
    return -1;
  const int lane = static_cast<int>(std::floor((y - laneTop(0)) / kLaneHeight));
  return lane >= 0 && lane < static_cast<int>(m_model.lanes().size()) ? lane : -1;
}

QRectF GanttView::barRect(std::size_t event) const
{
  const TraceEvent& e = m_session->trace().events[event];
  const double left = xOf(e.start);
  const double width = std::max(1.0, (e.end - e.start) * m_pxPerUs);
  return {left, laneTop(m_model.laneOf(event)) + kBarInset, width,
          double(kLaneHeight - 2 * kBarInset)};
}

void GanttView::fitToWidth()
{
  const int span = std::max(50, viewport()->width() - kLabelWidth - 2 * kPad);
  m_pxPerUs = span / std::max(1e-6, m_session->endUs());
  m_fitted = true;
  updateScrollBars();
  viewport()->update();
}

void GanttView::setZoom(double pxPerUs, double anchorX)
{
  const double anchorUs = timeAt(anchorX);
  const double fit =
      (viewport()->width() - kLabelWidth - 2 * kPad) / std::max(1e-6, m_session->endUs());
  m_pxPerUs = std::clamp(pxPerUs, fit * 0.5, 2000.0);
  updateScrollBars();
  horizontalScrollBar()->setValue(qRound(anchorUs * m_pxPerUs - (anchorX - kLabelWidth - kPad)));
  viewport()->update();
}

void GanttView::updateScrollBars()
{
  const int content = qRound(m_session->endUs() * m_pxPerUs) + 2 * kPad;
  const int visible = viewport()->width() - kLabelWidth;
  horizontalScrollBar()->setRange(0, std::max(0, content - visible));
  horizontalScrollBar()->setPageStep(visible);
  horizontalScrollBar()->setSingleStep(20);
  const int lanes = static_cast<int>(m_model.lanes().size()) * kLaneHeight;
  const int rows = viewport()->height() - kAxisHeight;
  verticalScrollBar()->setRange(0, std::max(0, lanes - rows));
  verticalScrollBar()->setPageStep(rows);
  verticalScrollBar()->setSingleStep(kLaneHeight);
}

void GanttView::followCursor()
{
  const double x = xOf(m_session->cursorUs());
  if (x < kLabelWidth || x > viewport()->width()) {
    const double visible = viewport()->width() - kLabelWidth;
    horizontalScrollBar()->setValue(qRound(m_session->cursorUs() * m_pxPerUs - visible / 2 + kPad));
  }
  viewport()->update();
}

void GanttView::resizeEvent(QResizeEvent* event)
{
  QAbstractScrollArea::resizeEvent(event);
  if (!m_fitted)
    fitToWidth();
  updateScrollBars();
}

void GanttView::scrollContentsBy(int, int)
{
  viewport()->update();
}

void GanttView::mousePressEvent(QMouseEvent* event)
{
  m_panFrom = event->position();
  if (event->button() != Qt::LeftButton)
    return;
  const QPointF pos = event->position();
  const int lane = laneAt(pos.y());
  if (lane < 0) {
    if (pos.y() < kAxisHeight && pos.x() > kLabelWidth)
      m_session->setCursor(timeAt(pos.x()));
    return;
  }
  const GanttLane& l = m_model.lanes()[static_cast<std::size_t>(lane)];
  ReplaySelection selection{l.rank, l.tb, -1, -1};
  if (pos.x() > kLabelWidth) {
    const double slack = 2 / m_pxPerUs; // a thin bar is hard to hit exactly
    long hit = m_model.eventAt(lane, timeAt(pos.x()));
    if (hit < 0)
      hit = m_model.eventAt(lane, timeAt(pos.x()) - slack);
    selection.event = hit;
  }
  m_session->setSelection(selection);
}

void GanttView::mouseDoubleClickEvent(QMouseEvent* event)
{
  if (event->button() == Qt::LeftButton && event->position().x() > kLabelWidth)
    m_session->setCursor(timeAt(event->position().x()));
}

void GanttView::mouseMoveEvent(QMouseEvent* event)
{
  if (!(event->buttons() & Qt::MiddleButton))
    return;
  const QPointF delta = event->position() - m_panFrom;
  m_panFrom = event->position();
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() - qRound(delta.x()));
  verticalScrollBar()->setValue(verticalScrollBar()->value() - qRound(delta.y()));
}

void GanttView::wheelEvent(QWheelEvent* event)
{
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    setZoom(m_pxPerUs * std::pow(1.25, steps), event->position().x());
    event->accept();
    return;
  }
  if (event->modifiers() & Qt::ShiftModifier) {
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - qRound(steps * 60));
    event->accept();
    return;
  }
  QAbstractScrollArea::wheelEvent(event);
}

bool GanttView::viewportEvent(QEvent* event)
{
  if (editor::showViewportToolTip(event, viewport(),
                                  [this](const QPoint& at) { return toolTipAt(at); }))
    return true;
  return QAbstractScrollArea::viewportEvent(event);
}

QString GanttView::toolTipAt(const QPoint& pos) const
{
  const int lane = laneAt(pos.y());
  if (lane < 0 || pos.x() <= kLabelWidth)
    return {};
  if (const QString blocked = blockedToolTipAt(pos); !blocked.isEmpty())
    return blocked;
  const long index = m_model.eventAt(lane, timeAt(pos.x()));
  if (index < 0)
    return {};
  const TraceEvent& e = m_session->trace().events[static_cast<std::size_t>(index)];
  QString text = tr("rank %1 · tb %2 · step %3 · slice %4\n%5")
                     .arg(e.rank)
                     .arg(e.tb)
                     .arg(e.step)
                     .arg(e.slice)
                     .arg(QString::fromUtf8(opTypeName(e.op)));
  if (e.peer >= 0)
    text += tr(" → rank %1").arg(e.peer);
  if (e.recvPeer >= 0)
    text += tr(" ← rank %1").arg(e.recvPeer);
  text += tr("\n%1 – %2 µs, %3 bytes").arg(e.start, 0, 'f', 2).arg(e.end, 0, 'f', 2).arg(e.bytes);
  return text;
}

} // namespace cs::visualizer
