#include "sweepchart.h"

#include "io/bytesize.h"
#include "style/rankpalette.h"
#include "sweepresults.h"

#include <QButtonGroup>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>
#include <limits>

namespace cs::visualizer {

namespace {

/// The most size labels the axis shows; wider sweeps label every second (fourth…) power of two.
constexpr int kMaxSizeLabels = 12;
/// The most often new points redraw the chart.
constexpr int kCoalesceMs = 40;

Qt::PenStyle penStyle(SweepKind kind)
{
  switch (kind) {
  case SweepKind::Simulated:
    return Qt::DashLine;
  case SweepKind::Library:
    return Qt::DotLine;
  case SweepKind::Measured:
    break;
  }
  return Qt::SolidLine;
}

QToolButton* toggleButton(const QString& text, const QString& tip, QWidget* parent)
{
  auto* button = new QToolButton(parent);
  button->setText(text);
  button->setToolTip(tip);
  button->setCheckable(true);
  button->setAutoRaise(true);
  return button;
}

} // namespace

SweepChart::SweepChart(SweepResults* results, QWidget* parent)
    : QWidget(parent), m_results(results), m_chart(new QChart), m_view(new QChartView(m_chart)),
      m_sizeAxis(new QCategoryAxis), m_valueAxis(new QValueAxis), m_rebuildTimer(new QTimer(this))
{
  m_rebuildTimer->setSingleShot(true);
  m_rebuildTimer->setInterval(kCoalesceMs);
  connect(m_rebuildTimer, &QTimer::timeout, this, &SweepChart::refresh);
  m_chart->setBackgroundRoundness(0);
  m_chart->setMargins(QMargins(4, 4, 4, 4));
  m_chart->legend()->setAlignment(Qt::AlignBottom);
  m_chart->addAxis(m_sizeAxis, Qt::AlignBottom);
  m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
  m_sizeAxis->setTitleText(tr("Size (bytes per call, log₂)"));
  m_sizeAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  m_valueAxis->setLabelFormat(QStringLiteral("%.3g"));
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setParent(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(buildToggle());
  layout->addWidget(m_view, 1);
  connect(m_results, &QAbstractItemModel::rowsInserted, this, [this] {
    if (!m_rebuildTimer->isActive())
      m_rebuildTimer->start();
  });
  connect(m_results, &QAbstractItemModel::modelReset, this, &SweepChart::refresh);
  refresh();
}

QWidget* SweepChart::buildToggle()
{
  auto* bar = new QWidget(this);
  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(4, 0, 4, 0);
  auto* shows = new QLabel(tr("Plot:"), bar);
  m_busbwButton = toggleButton(tr("Bus bandwidth"),
                               tr("busbw: algbw × nccl-tests' factor for the collective "
                                  "(2(n−1)/n for all-reduce), comparable across collectives"),
                               bar);
  m_algbwButton = toggleButton(tr("Algorithm bandwidth"), tr("algbw: bytes / time"), bar);
  m_busbwButton->setObjectName(QStringLiteral("sweepBusbw"));
  m_algbwButton->setObjectName(QStringLiteral("sweepAlgbw"));
  m_busbwButton->setChecked(true);
  auto* group = new QButtonGroup(bar);
  group->addButton(m_busbwButton);
  group->addButton(m_algbwButton);
  group->setExclusive(true);
  layout->addWidget(shows);
  layout->addWidget(m_busbwButton);
  layout->addWidget(m_algbwButton);
  layout->addStretch(1);
  auto* hint = new QLabel(tr("click a legend entry to hide its line"), bar);
  QPalette palette = hint->palette();
  palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
  hint->setPalette(palette);
  layout->addWidget(hint);
  connect(m_busbwButton, &QAbstractButton::toggled, this, [this](bool on) {
    if (on)
      setMetric(Metric::Busbw);
  });
  connect(m_algbwButton, &QAbstractButton::toggled, this, [this](bool on) {
    if (on)
      setMetric(Metric::Algbw);
  });
  return bar;
}

void SweepChart::setMetric(Metric metric)
{
  if (metric == m_metric)
    return;
  m_metric = metric;
  (metric == Metric::Busbw ? m_busbwButton : m_algbwButton)->setChecked(true);
  refresh();
}

void SweepChart::setSeriesHidden(const QString& name, bool hidden)
{
  if (hidden == m_hidden.contains(name))
    return;
  if (hidden)
    m_hidden.insert(name);
  else
    m_hidden.remove(name);
  refresh();
}

void SweepChart::refresh()
{
  m_rebuildTimer->stop();
  m_chart->removeAllSeries();
  double minLog2 = std::numeric_limits<double>::max();
  double maxLog2 = std::numeric_limits<double>::lowest();
  double maxValue = 0;
  const std::vector<SweepPoint>& points = m_results->points();
  int colour = 0;
  for (const SweepSeries& series : m_results->series()) {
    auto* line = new QLineSeries;
    line->setName(series.name);
    QPen pen(cs::editor::rankColor(colour++), 2, penStyle(series.kind));
    line->setPen(pen);
    line->setPointsVisible(true);
    // A hidden series keeps its (empty) line, so its legend entry stays to be clicked back.
    const bool hidden = m_hidden.contains(series.name);
    for (const int row : series.points) {
      const SweepPoint& point = points[static_cast<std::size_t>(row)];
      if (!point.timed())
        continue;
      const double x = std::log2(static_cast<double>(point.bytes));
      const double y = m_metric == Metric::Busbw ? point.busbwGBps : point.algbwGBps;
      minLog2 = std::min(minLog2, x);
      maxLog2 = std::max(maxLog2, x);
      if (hidden)
        continue;
      line->append(x, y);
      maxValue = std::max(maxValue, y);
    }
    m_chart->addSeries(line);
    line->attachAxis(m_sizeAxis);
    line->attachAxis(m_valueAxis);
  }
  if (minLog2 > maxLog2) // nothing timed yet
    minLog2 = maxLog2 = 10;
  placeAxes(minLog2, maxLog2, maxValue);
  m_chart->setTitle(m_results->series().empty() ? tr("Start a sweep to plot bandwidth against size")
                                                : QString());
  connectLegend();
}

void SweepChart::placeAxes(double minLog2, double maxLog2, double maxValue)
{
  const int first = static_cast<int>(std::floor(minLog2));
  const int last = static_cast<int>(std::ceil(maxLog2));
  for (const QString& label : m_sizeAxis->categoriesLabels())
    m_sizeAxis->remove(label);
  const int step = std::max(1, (last - first + kMaxSizeLabels) / kMaxSizeLabels);
  for (int power = first; power <= last; power += step)
    m_sizeAxis->append(QString::fromStdString(formatByteSize(std::int64_t{1} << power)), power);
  // Half a power of two of room on each side keeps the end points' markers inside the plot.
  m_sizeAxis->setRange(first - 0.5, last + 0.5);
  m_valueAxis->setTitleText(m_metric == Metric::Busbw ? tr("busbw (GB/s)") : tr("algbw (GB/s)"));
  m_valueAxis->setRange(0, maxValue > 0 ? maxValue * 1.1 : 1);
  m_valueAxis->applyNiceNumbers();
}

void SweepChart::connectLegend()
{
  const QList<QLegendMarker*> markers = m_chart->legend()->markers();
  for (QLegendMarker* marker : markers) {
    const QString name = marker->series()->name();
    const bool hidden = m_hidden.contains(name);
    QColor label = m_chart->legend()->labelColor();
    label.setAlphaF(hidden ? 0.35F : 1.0F);
    marker->setLabelBrush(label);
    // Queued: rebuilding deletes the marker whose signal is being delivered.
    connect(
        marker, &QLegendMarker::clicked, this,
        [this, name] { setSeriesHidden(name, !m_hidden.contains(name)); }, Qt::QueuedConnection);
  }
}

QStringList SweepChart::sizeLabels() const
{
  return m_sizeAxis->categoriesLabels();
}

QString SweepChart::writePng(const QString& path) const
{
  if (!m_view->grab().save(path, "PNG"))
    return tr("cannot write %1").arg(path);
  return {};
}

} // namespace cs::visualizer
