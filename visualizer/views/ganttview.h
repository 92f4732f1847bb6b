#pragma once

// The replay's Gantt chart (DESIGN.md §9): one lane per threadblock ("rank r · tb t"), one bar
// per trace event coloured by op type, the cursor as a vertical line with the events done,
// running and pending at it drawn distinctly, and arrows from send to receive for the selected
// event or lane. Ctrl+wheel zooms in time around the mouse, the scroll bars, Shift+wheel and a
// middle-button drag pan; the view follows the cursor when it leaves the visible time; a click
// selects an event or a lane, a double-click moves the cursor. A run the watchdog stopped
// shows a red marker on each blocked lane, from its last event to the stop. Only the lanes and
// events inside the viewport are painted, so thousands of events stay cheap.

#include "ganttmodel_p.h"
#include "labelcache.h"

#include <QAbstractScrollArea>
#include <QFont>
#include <QImage>

namespace cs::visualizer {

class ReplaySession;

class GanttView : public QAbstractScrollArea
{
  Q_OBJECT

public:
  explicit GanttView(ReplaySession* session, QWidget* parent = nullptr);

  /// Bars drawn over the whole run: one per trace event.
  std::size_t barCount() const;
  /// Where the event's bar is, in viewport coordinates.
  QRectF barRect(std::size_t event) const;
  /// Red markers drawn for a run the watchdog stopped: one per blocked (rank, tb) with a lane.
  std::size_t blockedMarkerCount() const;
  /// Where the marker of trace().blocked[i] is, in viewport coordinates (empty without a lane):
  /// from the lane's last end to the stop.
  QRectF blockedRect(std::size_t i) const;
  /// Fits the whole run into the viewport's width.
  void fitToWidth();
  /// Pixels per µs.
  double zoom() const { return m_pxPerUs; }
  void setZoom(double pxPerUs, double anchorX);
  double timeAt(double x) const;
  double xOf(double timeUs) const;

  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  bool viewportEvent(QEvent* event) override;

private:
  void updateScrollBars();
  /// Scrolls so that the cursor is in view when it moved out of it (playing, scrubbing).
  void followCursor();
  int laneAt(double y) const;
  double laneTop(int lane) const;
  void paintLanes(QPainter& painter) const;
  // ganttbars.cpp: the bars, from two cached images per viewport (see there).
  enum class BarState { Done, Running, Pending };
  struct BarLayers {
    QSize size;
    double pxPerUs = 0;
    QPoint scroll;
    qint64 paletteKey = 0;
    QFont font;
    double ratio = 1;
    QImage done;    ///< every bar painted done
    QImage pending; ///< every bar painted pending
    bool matches(const BarLayers& other) const;
  };
  BarLayers layerKey() const;
  void rebuildBarLayers(double fromUs, double toUs) const;
  void paintBarLayers(QPainter& painter, double fromUs, double toUs) const;
  /// Paints the visible bars of [fromUs, toUs] as `force` (Running: only those running).
  void paintBarRange(QPainter& painter, double fromUs, double toUs, BarState force) const;
  BarState barState(std::size_t event) const;
  void paintBar(QPainter& painter, std::size_t event, const QRectF& rect, BarState force) const;
  void paintFlows(QPainter& painter) const;
  void paintLabels(QPainter& painter) const;
  void paintAxis(QPainter& painter) const;
  void paintCursor(QPainter& painter) const;
  void paintBlocked(QPainter& painter) const;
  /// The tooltip of the blocked marker under pos, or empty.
  QString blockedToolTipAt(const QPoint& pos) const;
  /// The messages whose arrows show: those of the selected event, else of the selected lane.
  std::vector<std::size_t> shownFlows() const;
  QString toolTipAt(const QPoint& pos) const;

  ReplaySession* m_session;
  GanttModel m_model;
  mutable LabelCache m_labels; ///< the bars' labels, shaped once
  mutable BarLayers m_layers;
  double m_pxPerUs = 1;
  bool m_fitted = false;
  QPointF m_panFrom; ///< where a middle-button drag last was
};

} // namespace cs::visualizer
