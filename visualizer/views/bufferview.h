#pragma once

// The replay's buffer view (DESIGN.md §9): every rank's input, output and scratch chunks at the
// cursor, from the session's BufferReplay. A cell shows what its chunk holds compactly ("r2",
// "Σ0123", "·" when uninitialised), tinted by the ranks whose input it sums; cells written during
// the current algorithm step are framed, and the tooltip gives the full value. After a failed
// verification (Trace::verification) the wrong chunks turn red once they hold their final
// value, a line above the ranks says how many, and the tooltip gives the expected and actual
// values of the chunk's first wrong element.

#include "model/program.h"
#include "model/trace.h"

#include "labelcache.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <tuple>

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
  /// The verification's wrong chunk this cell's memory holds (in place, `o` and `i` share it),
  /// or null: null too before the cursor reaches the chunk's final write.
  const WrongChunk* wrongAt(int rank, Buffer buffer, int chunk) const;
  /// "expected 12 actual 7 at element 3".
  static QString describeWrong(const WrongChunk& wrong);
  /// The line above the ranks after a failed verification, empty otherwise.
  QString verificationText() const;
  /// The lines below the ranks after a failed verification: the first wrong chunks with their
  /// first wrong element ("rank 0 o[1]: expected 322 actual 70 at element 0"), then how many
  /// more; empty otherwise.
  QStringList wrongDetails() const;

  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

private:
  /// The buffers rank rows show: input, output, and scratch when the program has any.
  static std::vector<Buffer> shownBuffers(const ReplaySession& session);
  const std::vector<Buffer>& rows() const { return m_rows; }
  int maxChunks() const;
  /// Top of the first line below the ranks.
  int ranksBottom() const;
  void paintCell(QPainter& painter, int rank, Buffer buffer, int chunk) const;
  QString toolTipAt(const QPoint& pos) const;

  /// The memory slot of a cell: (rank, allocation, chunk in it).
  using SlotKey = std::tuple<int, int, int>;
  SlotKey slotOf(int rank, Buffer buffer, int chunk) const;
  void indexWrongChunks();

  ReplaySession* m_session;
  std::map<SlotKey, const WrongChunk*> m_wrong; ///< into the session's trace
  std::map<SlotKey, double> m_finalWrite;       ///< when each wrong slot got its final value
  int m_top = 0;                                ///< below the verification line, when shown
  int m_cellWidth = 0;
  int m_left = 0;              ///< "rank 7" and the buffer letter
  std::vector<Buffer> m_rows;  ///< shownBuffers(), fixed for the session
  mutable LabelCache m_labels; ///< the cells' contents, shaped once
};

} // namespace cs::visualizer
