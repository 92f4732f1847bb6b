#include "overlaygantt.h"

#include "session/replaysession.h"
#include "views/ganttlegend.h"

#include <QPainter>

#include <algorithm>
#include <set>

namespace cs::visualizer {

namespace {

constexpr int kAxis = 24;
constexpr int kLabels = 112;
constexpr int kSubRow = 9;             ///< one run's bar height
constexpr int kLane = 2 * kSubRow + 8; ///< both sub-rows and the space around them
constexpr int kPad = 10;

} // namespace

OverlayGantt::OverlayGantt(const ReplaySession* first, const ReplaySession* second, QWidget* parent)
    : QWidget(parent), m_runs{first, second}
{
  std::set<std::pair<int, int>> lanes;
  for (const ReplaySession* run : m_runs) {
    for (const TraceEvent& e : run->trace().events)
      lanes.insert({e.rank, e.tb});
  }
  m_lanes.assign(lanes.begin(), lanes.end());
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

std::size_t OverlayGantt::barCount(int run) const
{
  return m_runs[static_cast<std::size_t>(run)]->trace().events.size();
}

QSize OverlayGantt::sizeHint() const
{
  return {800, kAxis + laneCount() * kLane + 4};
}

QSize OverlayGantt::minimumSizeHint() const
{
  return {400, kAxis + laneCount() * kLane + 4};
}

double OverlayGantt::xOf(double fraction) const
{
  return kLabels + kPad + fraction * (width() - kLabels - 2 * kPad);
}

void OverlayGantt::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  for (int lane = 0; lane < laneCount(); ++lane) {
    const int top = kAxis + lane * kLane;
    if (m_lanes[static_cast<std::size_t>(lane)].first % 2 == 1)
      painter.fillRect(QRect(0, top, width(), kLane), palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(8, top, kLabels - 16, kLane), Qt::AlignVCenter | Qt::AlignLeft,
                     tr("rank %1 · tb %2")
                         .arg(m_lanes[static_cast<std::size_t>(lane)].first)
                         .arg(m_lanes[static_cast<std::size_t>(lane)].second));
  }
  painter.setPen(palette().color(QPalette::Midlight));
  for (int tenth = 0; tenth <= 10; ++tenth)
    painter.drawLine(QPointF(xOf(tenth / 10.0), kAxis), QPointF(xOf(tenth / 10.0), height()));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawLine(kLabels - 1, kAxis, kLabels - 1, height());
  paintRun(painter, 0);
  paintRun(painter, 1);
  paintAxis(painter);
}

void OverlayGantt::paintRun(QPainter& painter, int run) const
{
  const ReplaySession& session = *m_runs[static_cast<std::size_t>(run)];
  const double total = std::max(1e-9, session.endUs());
  for (const TraceEvent& e : session.trace().events) {
    const auto lane = std::lower_bound(m_lanes.begin(), m_lanes.end(), std::pair{e.rank, e.tb});
    const int top = kAxis + static_cast<int>(lane - m_lanes.begin()) * kLane + 4 + run * kSubRow;
    const double left = xOf(e.start / total);
    QRectF rect(left, top, std::max(1.0, xOf(e.end / total) - left - 0.5), kSubRow - 1);
    const QColor color = opColor(e.op);
    if (run == 0) {
      painter.fillRect(rect, color);
      continue;
    }
    QColor pale = color;
    pale.setAlpha(60);
    painter.fillRect(rect, pale);
    painter.setPen(color.darker(115));
    painter.drawRect(rect.adjusted(0, 0, -1, -1));
  }
}

void OverlayGantt::paintAxis(QPainter& painter) const
{
  painter.fillRect(QRect(0, 0, width(), kAxis), palette().color(QPalette::Window));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawLine(0, kAxis - 1, width(), kAxis - 1);
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(8, 0, kLabels - 8, kAxis), Qt::AlignVCenter, tr("share of run"));
  for (int tenth = 0; tenth <= 10; ++tenth) {
    const int x = qRound(xOf(tenth / 10.0));
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(x, kAxis - 5, x, kAxis - 1);
    painter.setPen(palette().color(QPalette::WindowText));
    const QString label = QStringLiteral("%1 %").arg(tenth * 10);
    const int w = fontMetrics().horizontalAdvance(label);
    painter.drawText(std::min(x - w / 2, width() - w - 2), kAxis - 7, label);
  }
}

} // namespace cs::visualizer
