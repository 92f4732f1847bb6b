#pragma once

// The playback bar's time slider (DESIGN.md §9): the whole run as a track with a µs axis, a tick
// at the start of every algorithm step and the cursor as a handle. Pressing or dragging anywhere
// on it moves the session's cursor there.

#include <QWidget>

#include <vector>

namespace cs::visualizer {

class ReplaySession;

class ScrubBar : public QWidget
{
  Q_OBJECT

public:
  explicit ScrubBar(ReplaySession* session, QWidget* parent = nullptr);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  /// The run time under x (clamped to the run), and the x of a run time.
  double timeAt(int x) const;
  double xOf(double timeUs) const;
  /// Times to mark on the track (where breakpoints pause playback).
  void setMarks(std::vector<double> timesUs);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

private:
  void paintAxis(QPainter& painter, const QRect& track) const;
  QRect track() const;

  ReplaySession* m_session;
  std::vector<double> m_marks;
};

/// A "nice" spacing for axis labels: 1, 2 or 5 × 10^k, at least `minimum`.
double niceStep(double minimum);

} // namespace cs::visualizer
