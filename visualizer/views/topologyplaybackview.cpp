#include "topologyplaybackview.h"

#include "session/replaysession.h"
#include "topologyplaybackpaint_p.h"

#include "replay/stopreport.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace cs::visualizer {

namespace {

constexpr double kBannerHeight = 26;
constexpr double kLegendHeight = 30;
constexpr double kMargin = 16;

} // namespace

TopologyPlaybackView::TopologyPlaybackView(ReplaySession* session, QWidget* parent)
    : QWidget(parent), m_session(session)
{
  setAttribute(Qt::WA_OpaquePaintEvent);
  if (session->topology())
    m_geometry = std::make_unique<TopologyPlaybackGeometry>(*session->topology());
  // The state changes only with the cursor; the highlight only with the selection.
  if (session->trace().stoppedUs) {
    for (const Location& at : replay::predictedCycle(session->program(), session->trace()))
      if (m_cycleRanks.empty() || m_cycleRanks.back() != at.rank)
        m_cycleRanks.push_back(at.rank);
    if (m_cycleRanks.size() > 1 && m_cycleRanks.front() == m_cycleRanks.back())
      m_cycleRanks.pop_back();
  }
  connect(session, &ReplaySession::cursorChanged, this, qOverload<>(&QWidget::update));
  connect(session, &ReplaySession::selectionChanged, this, qOverload<>(&QWidget::update));
}

TopologyPlaybackView::~TopologyPlaybackView() = default;

void TopologyPlaybackView::ensureFitted()
{
  if (!m_geometry || m_fitted)
    return;
  m_geometry->fit(QRectF(rect()).adjusted(kMargin, kBannerHeight + kMargin, -kMargin,
                                          -(kLegendHeight + kMargin)));
  m_fitted = true;
}

const TopologyPlaybackGeometry* TopologyPlaybackView::geometry()
{
  ensureFitted();
  return m_geometry.get();
}

TopologyPlaybackFrame TopologyPlaybackView::frame()
{
  ensureFitted();
  if (!m_geometry)
    return {};
  return makePlaybackFrame(*m_session, *m_geometry, m_ranksCache);
}

void TopologyPlaybackView::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  painter.setRenderHint(QPainter::Antialiasing);
  if (!m_geometry) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter,
                     tr("no topology: open the run with one to see links"));
    return;
  }
  const TopologyPlaybackFrame shown = frame();
  const QString title =
      tr("%1 at %2 \u00b5s").arg(m_session->description()).arg(m_session->cursorUs(), 0, 'f', 2);
  const QString note =
      m_session->index().linksInferred() ? tr("links inferred from the topology") : QString();
  paintBanner(painter, QRectF(0, 0, width(), kBannerHeight), title, note, palette());
  if (m_session->selection().link >= 0)
    paintSelectedLink(painter, *m_geometry, m_session->selection().link, palette());
  paintLanes(painter, *m_geometry, shown);
  paintNodes(painter, *m_geometry, shown, palette());
  paintCycle(painter, *m_geometry, m_cycleRanks);
  paintTokens(painter, *m_geometry, shown);
  paintLegend(painter, QRectF(0, height() - kLegendHeight, width(), kLegendHeight), palette(),
              !m_cycleRanks.empty());
}

void TopologyPlaybackView::resizeEvent(QResizeEvent* event)
{
  m_fitted = false;
  QWidget::resizeEvent(event);
}

void TopologyPlaybackView::mousePressEvent(QMouseEvent* event)
{
  ensureFitted();
  if (!m_geometry || event->button() != Qt::LeftButton)
    return QWidget::mousePressEvent(event);
  const int link = m_geometry->linkAt(event->position());
  if (link >= 0)
    m_session->setSelection({.link = link});
}

bool TopologyPlaybackView::event(QEvent* event)
{
  if (event->type() != QEvent::ToolTip)
    return QWidget::event(event);
  const auto* help = static_cast<QHelpEvent*>(event);
  const QString text = toolTipAt(help->pos());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, this);
  return true;
}

QString TopologyPlaybackView::toolTipAt(const QPointF& point)
{
  ensureFitted();
  if (!m_geometry)
    return {};
  const Topology& topology = m_geometry->topology();
  const TopologyPlaybackFrame shown = frame();
  if (const TopologyNode* node = topology.node(m_geometry->nodeAt(point))) {
    QString text = QString::fromStdString(node->name);
    if (node->rank >= 0)
      text += tr(" (rank %1)").arg(node->rank);
    const auto blocked = shown.blocked.find(node->rank);
    if (blocked != shown.blocked.end())
      text += QStringLiteral("\n") + blocked->second.join(QStringLiteral("\n"));
    return text;
  }
  const int link = m_geometry->linkAt(point);
  if (link < 0)
    return {};
  QString text = playbackLinkName(topology, link);
  for (const DrawnLane& lane : shown.lanes) {
    if (lane.link == link)
      text += tr("\n%1: %2%")
                  .arg(lane.aToB ? tr("a \u2192 b") : tr("b \u2192 a"))
                  .arg(lane.utilisation * 100, 0, 'f', 0);
  }
  return text;
}

} // namespace cs::visualizer
