// GanttView's forensics of a run the watchdog stopped: a red marker on each blocked lane, from
// the lane's last finished event to the stop, and its tooltip saying what the threadblock waits
// for.

#include "ganttlayout_p.h"
#include "ganttview.h"
#include "replay/stopreport.h"
#include "session/replaysession.h"

#include <QPainter>

namespace cs::visualizer {

using namespace gantt;

namespace {

const QColor kBlockedRed(0xd0, 0x2b, 0x2b);

} // namespace

std::size_t GanttView::blockedMarkerCount() const
{
  std::size_t count = 0;
  for (const BlockedPosition& p : m_session->trace().blocked)
    count += m_model.laneOf(p.rank, p.tb) >= 0 ? 1 : 0;
  return count;
}

QRectF GanttView::blockedRect(std::size_t i) const
{
  const Trace& trace = m_session->trace();
  const BlockedPosition& p = trace.blocked[i];
  const int lane = m_model.laneOf(p.rank, p.tb);
  if (lane < 0 || !trace.stoppedUs)
    return {};
  const GanttLane& l = m_model.lanes()[static_cast<std::size_t>(lane)];
  const double from = l.endsSoFar.empty() ? 0.0 : l.endsSoFar.back();
  const double left = xOf(from);
  const double width = std::max(10.0, xOf(*trace.stoppedUs) - left);
  return {left, laneTop(lane) + kBarInset, width, double(kLaneHeight - 2 * kBarInset)};
}

void GanttView::paintBlocked(QPainter& painter) const
{
  const std::vector<BlockedPosition>& blocked = m_session->trace().blocked;
  for (std::size_t i = 0; i < blocked.size(); ++i) {
    const QRectF rect = blockedRect(i);
    if (rect.isEmpty())
      continue;
    QColor fill = kBlockedRed;
    fill.setAlpha(40);
    painter.fillRect(rect, QBrush(fill));
    painter.fillRect(rect, QBrush(kBlockedRed, Qt::BDiagPattern));
    painter.setPen(QPen(kBlockedRed, 1.5));
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
    painter.fillRect(QRectF(rect.left(), rect.top() - 1, 4, rect.height() + 2), kBlockedRed);
    const QString label = tr("blocked at s%1").arg(blocked[i].step);
    if (rect.width() > fontMetrics().horizontalAdvance(label) + 12) {
      painter.setPen(kBlockedRed.darker(140));
      painter.drawText(rect.adjusted(8, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
    }
  }
}

QString GanttView::blockedToolTipAt(const QPoint& pos) const
{
  const std::vector<BlockedPosition>& blocked = m_session->trace().blocked;
  for (std::size_t i = 0; i < blocked.size(); ++i) {
    if (!blockedRect(i).contains(pos))
      continue;
    const BlockedPosition& p = blocked[i];
    return tr("rank %1 · tb %2 blocked at step %3, slice %4\nwaits for %5\n(the watchdog stopped "
              "the run at %6 µs)")
        .arg(p.rank)
        .arg(p.tb)
        .arg(p.step)
        .arg(p.slice)
        .arg(QString::fromStdString(replay::describeWait(p)))
        .arg(m_session->trace().stoppedUs.value_or(0), 0, 'f', 2);
  }
  return {};
}

} // namespace cs::visualizer
