#include "linkchart.h"

#include "linkchartdata.h"
#include "session/replaysession.h"
#include "topologyplaybackgeometry.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace cs::visualizer {

namespace {

constexpr std::size_t kDefaultLinks = 4;

/// 1, 2 or 5 times a power of ten, at least `rough`.
double niceStep(double rough)
{
  const double power = std::pow(10.0, std::floor(std::log10(std::max(rough, 1e-9))));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (factor * power >= rough)
      return factor * power;
  }
  return 10 * power;
}

/// Series colours, distinct from each other and from the dashed cursor; they repeat after eight.
QColor seriesColor(std::size_t index)
{
  static const QColor colors[] = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                                  QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                  QColor(227, 119, 194), QColor(23, 190, 207)};
  return colors[index % std::size(colors)];
}

} // namespace

LinkChart::LinkChart(ReplaySession* session, QWidget* parent)
    : QChartView(new QChart, parent), m_session(session)
{
  // The chart is given to the view at construction: a view made without one creates its own,
  // which setChart() would release, not delete.
  QChart* chart = this->chart();
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->legend()->setAlignment(Qt::AlignBottom);
  m_time = new QValueAxis(chart);
  m_time->setTitleText(tr("time (\u00b5s)"));
  m_time->setRange(session->startUs(), std::max(session->endUs(), 1e-3));
  // Round ticks (0, 10, 20 µs) over exactly the run, rather than fractions of its length.
  m_time->setTickType(QValueAxis::TicksDynamic);
  m_time->setTickAnchor(0);
  m_time->setTickInterval(niceStep(m_time->max() / 6));
  m_time->setLabelFormat(QStringLiteral("%g"));
  m_percent = new QValueAxis(chart);
  m_percent->setTitleText(tr("utilisation (%)"));
  m_percent->setRange(0, 100);
  m_percent->setLabelFormat(QStringLiteral("%d"));
  chart->addAxis(m_time, Qt::AlignBottom);
  chart->addAxis(m_percent, Qt::AlignLeft);
  setRenderHint(QPainter::Antialiasing);

  m_cursor = new QLineSeries(chart);
  m_cursor->setName(tr("cursor"));
  m_cursor->setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
  chart->addSeries(m_cursor);
  m_cursor->attachAxis(m_time);
  m_cursor->attachAxis(m_percent);
  for (QLegendMarker* marker : chart->legend()->markers(m_cursor))
    marker->setVisible(false);
  moveCursor(session->cursorUs());

  for (const int link : busiestLinks(session->index(), kDefaultLinks))
    addLink(link);
  followSelection();
  connect(session, &ReplaySession::cursorChanged, this, &LinkChart::moveCursor);
  connect(session, &ReplaySession::selectionChanged, this, &LinkChart::followSelection);
}

void LinkChart::addLink(int link)
{
  if (std::find(m_links.begin(), m_links.end(), link) != m_links.end())
    return;
  auto* series = new QLineSeries(chart());
  const Topology* topology = m_session->topology();
  series->setName(topology ? playbackLinkName(*topology, link) : tr("link %1").arg(link));
  series->replace(linkUtilisationSeries(m_session->index(), link));
  series->setPen(QPen(seriesColor(m_links.size()), 2));
  chart()->addSeries(series);
  series->attachAxis(m_time);
  series->attachAxis(m_percent);
  m_links.push_back(link);
  m_series.append(series);
}

void LinkChart::moveCursor(double timeUs)
{
  m_cursor->replace(QList<QPointF>{QPointF(timeUs, 0), QPointF(timeUs, 100)});
}

void LinkChart::followSelection()
{
  const int link = m_session->selection().link;
  if (link >= 0)
    addLink(link);
}

} // namespace cs::visualizer
