#pragma once

// The replay's buffer view (DESIGN.md §9): every rank's input, output and scratch chunks at the
// cursor, from the session's BufferReplay. A cell shows what its chunk holds compactly ("r2",
// "Σ0123", "·" when uninitialised), tinted by the ranks whose input it sums; cells written during
// the current algorithm step are framed, and the tooltip gives the full value.

#include "model/program.h"

#include "labelcache.h"

#include <QWidget>

namespace cs::visualizer {

class ReplaySession;

class BufferView : public QWidget
{
  Q_OBJECT

public:
  explicit BufferView(ReplaySession* session, QWidget* parent = nullptr);

  /// The cell's text at the cursor, as drawn.
  QString cellText(int rank, Buffer buffer, int chunk) const;
  /// Whether the cell is framed as changed during the current step.
  bool cellChanged(int rank, Buffer buffer, int chunk) const;
  /// The cell under a point, for tooltips and tests: false outside every cell.
  bool cellAt(const QPoint& pos, int& rank, Buffer& buffer, int& chunk) const;
  QRect cellRect(int rank, Buffer buffer, int chunk) const;

  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

private:
  /// The buffers rank rows show: input, output, and scratch when the program has any.
  static std::vector<Buffer> shownBuffers(const ReplaySession& session);
  const std::vector<Buffer>& rows() const { return m_rows; }
  int maxChunks() const;
  void paintCell(QPainter& painter, int rank, Buffer buffer, int chunk) const;
  QString toolTipAt(const QPoint& pos) const;

  ReplaySession* m_session;
  int m_cellWidth = 0;
  int m_left = 0;              ///< "rank 7" and the buffer letter
  std::vector<Buffer> m_rows;  ///< shownBuffers(), fixed for the session
  mutable LabelCache m_labels; ///< the cells' contents, shaped once
};

} // namespace cs::visualizer
