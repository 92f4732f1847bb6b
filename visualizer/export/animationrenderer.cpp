#include "animationrenderer.h"

#include "animationsource.h"
#include "views/topologyplaybackview.h"

#include "timeline/timelinelayout.h"
#include "timeline/timelineview.h"

#include "document/document.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

namespace cs::visualizer {

namespace {

/// Lays `widget` out at `size` without putting it on screen, so that it computes its geometry
/// (the timeline's viewport, the topology's fit) as it would in a window.
void layOutOffScreen(QWidget& widget, QSize size)
{
  widget.setAttribute(Qt::WA_DontShowOnScreen);
  widget.resize(size);
  widget.show();
}

/// Below this zoom a chunk's row is too thin to read on a slide: ranks are folded to one row.
constexpr double kLegibleZoom = 0.45;

/// The zooms at which every column, and every row, of the timeline fits its grid area.
std::pair<double, double> fittingZoom(editor::TimelineView& timeline)
{
  timeline.setZoom(1.0);
  const editor::TimelineLayout& layout = timeline.model().layout();
  // The grid starts right of the rank gutter and below the step headers (column 0's header).
  const QRect header = timeline.headerRect(0);
  const QSize room(timeline.viewport()->width() - header.left(),
                   timeline.viewport()->height() - header.bottom() - 1);
  if (layout.contentWidth() <= 0 || layout.contentHeight() <= 0 || room.isEmpty())
    return {1.0, 1.0};
  return {static_cast<double>(room.width()) / layout.contentWidth(),
          static_cast<double>(room.height()) / layout.contentHeight()};
}

/// Zooms the timeline so that every column and row fits (within the zoom range), folding each
/// rank to one row when the chunk rows, not the columns, would make them too thin to read.
void fitTimeline(editor::TimelineView& timeline, int ranks)
{
  const auto [alongX, alongY] = fittingZoom(timeline);
  double zoom = std::min(alongX, alongY);
  if (alongY < kLegibleZoom && alongY < alongX) { // the rows are what does not fit
    for (int rank = 0; rank < ranks; ++rank)
      timeline.setRankCollapsed(rank, true);
    const auto [foldedX, foldedY] = fittingZoom(timeline);
    zoom = std::min(foldedX, foldedY);
  }
  timeline.setZoom(std::min(zoom, editor::TimelineLayout::kMaxZoom));
}

} // namespace

AnimationRenderer::AnimationRenderer(AnimationSource& source, editor::Document& document,
                                     AnimationView view, QSize size)
    : m_source(source), m_document(document), m_view(view), m_size(size)
{
  if (m_view != AnimationView::Timeline)
    m_topology = std::make_unique<TopologyPlaybackView>(m_source.session.get());
  if (m_view != AnimationView::Topology) {
    m_timeline = std::make_unique<editor::TimelineView>(&m_document);
    m_timeline->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timeline->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  }
  layOut();
}

AnimationRenderer::~AnimationRenderer() = default;

int AnimationRenderer::captionHeight() const
{
  return std::max(24, m_size.height() / 16);
}

void AnimationRenderer::layOut()
{
  const QSize area(m_size.width(), m_size.height() - captionHeight());
  // Side by side the timeline gets the larger share: its columns need the width.
  const QSize half(area.width() * 9 / 20, area.height());
  if (m_topology)
    layOutOffScreen(*m_topology, m_timeline ? half : area);
  if (m_timeline) {
    layOutOffScreen(*m_timeline,
                    m_topology ? QSize(area.width() - half.width(), area.height()) : area);
    const std::optional<Schedule>& schedule = m_document.shownSchedule();
    fitTimeline(*m_timeline, schedule ? schedule->ranks : 0);
  }
}

void AnimationRenderer::setTime(double timeUs)
{
  m_source.session->setCursor(timeUs);
  if (m_timeline && m_source.follow)
    m_timeline->setPlaybackMarks(m_source.follow->marksAt(m_source.session->cursorUs()));
}

void AnimationRenderer::paintCaption(QPainter& painter, int step) const
{
  const QPalette palette = QApplication::palette();
  const QRect band(0, 0, m_size.width(), captionHeight());
  painter.fillRect(band, palette.color(QPalette::Window));
  QFont font = QApplication::font();
  font.setPixelSize(std::max(11, band.height() / 2));
  font.setBold(true);
  painter.setFont(font);
  painter.setPen(palette.color(QPalette::WindowText));
  const int margin = band.height() / 3;
  const QRect text = band.adjusted(margin, 0, -margin, 0);
  // Numbered from 0 as the timeline's column headers are, with the count from 1 beside it.
  const QString stepText = QObject::tr("Step %1 (%2 of %3)")
                               .arg(step)
                               .arg(step + 1)
                               .arg(static_cast<int>(m_source.steps.size()));
  painter.drawText(text, Qt::AlignRight | Qt::AlignVCenter, stepText);
  const int stepWidth = painter.fontMetrics().horizontalAdvance(stepText) + margin;
  painter.drawText(
      text.adjusted(0, 0, -stepWidth, 0), Qt::AlignLeft | Qt::AlignVCenter,
      painter.fontMetrics().elidedText(m_source.title, Qt::ElideRight, text.width() - stepWidth));
  painter.setPen(palette.color(QPalette::Mid));
  painter.drawLine(band.bottomLeft(), band.bottomRight());
}

void AnimationRenderer::paint(QPainter& painter, int step)
{
  paintCaption(painter, step);
  const QPoint below(0, captionHeight());
  const QWidget::RenderFlags flags = QWidget::DrawWindowBackground | QWidget::DrawChildren;
  if (m_topology)
    m_topology->render(&painter, below, QRegion(), flags);
  if (m_timeline) {
    const QPoint at = below + QPoint(m_topology ? m_topology->width() : 0, 0);
    m_timeline->render(&painter, at, QRegion(), flags);
  }
}

QImage AnimationRenderer::image(int step)
{
  QImage image(m_size, QImage::Format_RGB32);
  image.fill(QApplication::palette().color(QPalette::Window));
  QPainter painter(&image);
  paint(painter, step);
  return image;
}

} // namespace cs::visualizer
