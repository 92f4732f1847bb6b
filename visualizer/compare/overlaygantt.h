#pragma once

// The compare window's overlay Gantt (issue 14): the lanes (rank, threadblock) of two runs of one
// program on a normalised time axis, 0..1 of each run's total, so the shape of the runs compares
// even when one is much slower. Each lane has two thin sub-rows: run A solid on top, run B
// outlined below, bars coloured by op type as in the replay's Gantt chart.

#include <QWidget>

#include <array>
#include <utility>
#include <vector>

namespace cs::visualizer {

class ReplaySession;

class OverlayGantt : public QWidget
{
  Q_OBJECT

public:
  OverlayGantt(const ReplaySession* first, const ReplaySession* second, QWidget* parent = nullptr);

  /// Lanes drawn: every (rank, tb) with events in either run, in rank then tb order.
  int laneCount() const { return static_cast<int>(m_lanes.size()); }
  /// Bars drawn for run 0 or 1: one per trace event.
  std::size_t barCount(int run) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  double xOf(double fraction) const;
  void paintAxis(QPainter& painter) const;
  void paintRun(QPainter& painter, int run) const;

  std::array<const ReplaySession*, 2> m_runs;
  std::vector<std::pair<int, int>> m_lanes; ///< (rank, tb)
};

} // namespace cs::visualizer
