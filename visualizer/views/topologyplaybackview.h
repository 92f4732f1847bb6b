#pragma once

// The run on its machine (issue 14 item 4, DESIGN.md §9): the session's topology with every link
// direction thickened and coloured by its utilisation at the cursor, the messages in flight as
// tokens moving along their routes (coloured by the ranks whose data they carry), GPUs labelled
// with their rank and outlined when a threadblock there is blocked. Painted with QPainter from
// the session's state on each cursor or selection change; the layout is computed once per size.

#include "topologyplaybackframe.h"
#include "topologyplaybackgeometry.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

namespace cs::visualizer {

class ReplaySession;

class TopologyPlaybackView : public QWidget
{
  Q_OBJECT

public:
  explicit TopologyPlaybackView(ReplaySession* session, QWidget* parent = nullptr);
  ~TopologyPlaybackView() override;

  /// What a paint at the cursor draws (for tests); empty without a topology.
  TopologyPlaybackFrame frame();
  /// The layout in widget pixels, or null without a topology.
  const TopologyPlaybackGeometry* geometry();
  /// The tooltip at `point`: a node (and what its blocked threadblocks wait for) or a link (its
  /// utilisation each way); empty elsewhere.
  QString toolTipAt(const QPointF& point);

  /// A stopped run: the ranks of the checker's predicted wait-for cycle in wait-for order (each
  /// waits for the next, the last for the first), drawn as red dashed arrows; else empty.
  const std::vector<int>& cycleRanks() const { return m_cycleRanks; }

  QSize sizeHint() const override { return {720, 480}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

private:
  void ensureFitted();

  ReplaySession* m_session;
  std::unique_ptr<TopologyPlaybackGeometry> m_geometry;
  bool m_fitted = false;
  std::vector<std::vector<int>> m_ranksCache;
  std::vector<int> m_cycleRanks;
};

} // namespace cs::visualizer
