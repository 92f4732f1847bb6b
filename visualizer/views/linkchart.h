#pragma once

// Link utilisation over the run (issue 14 item 5): one step series per chosen link (at first the
// four busiest; a link selected in any view is added), time in µs across, 0..100 % up, and a
// vertical line at the session's cursor.

#include <QChartView>
#include <QList>

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace cs::visualizer {

class ReplaySession;

class LinkChart : public QChartView
{
  Q_OBJECT

public:
  explicit LinkChart(ReplaySession* session, QWidget* parent = nullptr);

  /// Adds a series for `link` unless it has one.
  void addLink(int link);
  /// The links shown, in the order their series were added.
  const std::vector<int>& links() const { return m_links; }
  /// The series of each link in links(), same order.
  const QList<QLineSeries*>& linkSeries() const { return m_series; }
  /// The vertical cursor line (two points at the cursor time).
  QLineSeries* cursorLine() const { return m_cursor; }

  QSize sizeHint() const override { return {720, 300}; }

private:
  void moveCursor(double timeUs);
  void followSelection();

  ReplaySession* m_session;
  QValueAxis* m_time = nullptr;
  QValueAxis* m_percent = nullptr;
  QLineSeries* m_cursor = nullptr;
  std::vector<int> m_links;
  QList<QLineSeries*> m_series;
};

} // namespace cs::visualizer
