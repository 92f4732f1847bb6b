#pragma once

// The sweep's plot (Qt Charts): bus or algorithm bandwidth (GB/s) against size on a log2 axis
// labelled "1 KiB" … "64 MiB", one line per series of SweepResults. Measured lines are solid,
// the simulator's prediction dashed, NCCL's own collective dotted. Clicking a legend entry hides
// its line (the entry stays, greyed) and clicking it again shows it. The chart follows the
// results model as points arrive.
//
// The x axis is a QCategoryAxis over log2(bytes): QLogValueAxis can only print its values with
// a printf format, not as byte sizes, and a linear axis over log2 gives the same spacing.
// Rebuilding the lines costs about a millisecond, so points arriving together are drawn together
// (at most one rebuild per kCoalesceMs) and the event loop stays responsive during a sweep.

#include <QSet>
#include <QWidget>

class QAbstractButton;
class QCategoryAxis;
class QChart;
class QChartView;
class QTimer;
class QValueAxis;

namespace cs::visualizer {

class SweepResults;

class SweepChart : public QWidget
{
  Q_OBJECT

public:
  enum class Metric { Busbw, Algbw };

  explicit SweepChart(SweepResults* results, QWidget* parent = nullptr);

  void setMetric(Metric metric);
  Metric shownMetric() const { return m_metric; }
  /// Hides or shows a series' line, as clicking its legend entry does.
  void setSeriesHidden(const QString& name, bool hidden);
  bool isSeriesHidden(const QString& name) const { return m_hidden.contains(name); }

  /// Redraws the lines now instead of at the next coalesced update (the sweep ended).
  void refresh();

  QChart* chart() const { return m_chart; }
  QChartView* view() const { return m_view; }
  /// The x axis' labels, left to right ("1 KiB", "2 KiB", …).
  QStringList sizeLabels() const;
  /// Writes the chart as it is shown to a PNG; the error for people, empty on success.
  QString writePng(const QString& path) const;

private:
  QWidget* buildToggle();
  void placeAxes(double minLog2, double maxLog2, double maxValue);
  void connectLegend();

  SweepResults* m_results;
  Metric m_metric = Metric::Busbw;
  QSet<QString> m_hidden;
  QChart* m_chart;
  QChartView* m_view;
  QCategoryAxis* m_sizeAxis;
  QValueAxis* m_valueAxis;
  /// Points arriving in a burst (the simulator's are quick) cost one rebuild, not one each.
  QTimer* m_rebuildTimer;
  QAbstractButton* m_busbwButton = nullptr;
  QAbstractButton* m_algbwButton = nullptr;
};

} // namespace cs::visualizer
