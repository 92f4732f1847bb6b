#pragma once

// Paints the timeline: the step header, the rank/buffer/chunk header, the cells of the visible
// rows and columns only, the arrows crossing the visible area, and the interaction overlays
// (arrow being drawn, arrows being moved, rubber band, keyboard cursor). Stateless: everything
// comes from the TimelineModel and a TimelinePaintState the view fills in, so the benchmark and
// the screenshots paint exactly what the widget paints.

#include "timelinemodel.h"

#include <QFont>
#include <QFontMetrics>
#include <QHash>
#include <QImage>
#include <QPalette>
#include <QRect>
#include <QStaticText>

#include <optional>
#include <set>

class QPainter;

namespace cs::editor {

struct TimelinePlayback;

/// Sizes of the frozen headers, from the font.
struct HeaderMetrics {
  int top = 28;       ///< height of the step header
  int rankWidth = 80; ///< left header: rank column
  int bufferWidth = 64;
  int chunkWidth = 40;
  int left() const { return rankWidth + bufferWidth + chunkWidth; }
};
HeaderMetrics headerMetrics(const QFont& font);
/// The headers for rows `rowHeight` high: without the buffer and chunk columns when the rows
/// are too low for their names.
HeaderMetrics headerMetrics(const QFont& font, int rowHeight);
/// The same, wide enough for node rows' names ("node 127 · ranks 1016–1023") when `nodes`.
HeaderMetrics headerMetrics(const QFont& font, int rowHeight, bool nodes);
/// Whether rows `rowHeight` high are high enough to print buffer and chunk names in `metrics`.
bool rowHeaderText(int rowHeight, const QFontMetrics& metrics);

/// Cell labels laid out once and reused across paints (text layout is most of a cell's cost).
/// Keyed by value id and whether the row names the chunk; valid for one model generation, zoom
/// and font, and cleared by the painter when any of them changes.
struct LabelCache {
  struct Entry {
    QStaticText text;
    QSizeF size;
  };
  int generation = -1;
  int cellWidth = 0;
  QFont font;
  bool dark = false;
  QHash<quint64, Entry> entries;
  /// Header texts by font ('h' header, 'H' bold header, 'c' cell, 'C' bold cell) and text.
  QHash<QString, Entry> texts;
  /// Cell fill per value id (0: not computed yet).
  std::vector<QRgb> fills;
  /// The contributors' colour strip of a partial sum, one pixel high, per value id.
  QHash<quint32, QImage> strips;
};

/// An arrow being drawn from a cell: its route and the mode it will be created with.
struct CreatePreview {
  ArrowRoute route;
  TransferOp op = TransferOp::Copy;
  int targetRow = -1; ///< visual row under the mouse, or -1 (then route.to is the mouse)
  int targetColumn = 0;
};

/// What the view shows besides the model.
struct TimelinePaintState {
  QPalette palette;
  QFont font;
  HeaderMetrics header;
  QPoint scroll; ///< content offset of the grid's top-left corner
  QSize viewport;
  std::set<int> selected;
  int hoverTransfer = -1;
  std::optional<CreatePreview> create;
  int moveColumns = 0; ///< dragging the selection by this many steps (0: not dragging)
  QRect rubberBand;    ///< viewport coordinates; empty when none
  std::optional<std::pair<int, int>> cursor; ///< keyboard cursor (visual row, column)
  bool focused = false;
  QString emptyMessage;         ///< shown instead of the grid when there is no schedule
  LabelCache* labels = nullptr; ///< the view's cache; a temporary one when null
  /// A replay's marks (timelineplayback.h): cells veiled until produced, the cursor's step, the
  /// transfers in flight, blocked cells and the wait-for cycle; null when no replay follows.
  const TimelinePlayback* playback = nullptr;
  /// Teaching's predict exercise: the cells of this column that the step before it changes show
  /// "?" instead of their contents (-1: none).
  int concealedColumn = -1;
};

/// Paints the whole viewport.
void paintTimeline(QPainter& painter, const TimelineModel& model, const TimelinePaintState& state);

} // namespace cs::editor
