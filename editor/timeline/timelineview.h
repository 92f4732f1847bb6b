#pragma once

// The step timeline, the heart of the editor (issue 6, item 3): one row per chunk slot grouped by
// rank and buffer (collapsible), one column per step, each cell showing what the slot holds after
// that step; transfers are arrows from a cell to a cell of the next column.
//
// Gestures (Draw tool, the default):
//   drag from a cell to a cell          adds a transfer in the step after the source column, as
//                                       the Copy/Reduce toggle says (Shift on release: the other)
//   click / Ctrl-click an arrow         selects it / toggles it
//   drag a selected arrow sideways      moves every selected transfer to another step
//   drag on empty space or the header   rubber band (the Select tool makes every drag one)
//   click a cell                        selects the transfers that wrote it
//   Delete, Backspace                   deletes the selection; Ctrl+wheel zooms
//   Ctrl+C, Ctrl+X, Ctrl+V, Ctrl+D      copy, cut, paste (at the cell under the mouse, or the
//                                       keyboard cursor's when it moved last), duplicate
// Every edit is one of the document's commands; the view keeps no copy of the truth and rebuilds
// its TimelineModel on analysisChanged. Paints only the visible cells and arrows
// (timelinepainter.h). Where to start: timelineinput.cpp (mouse gestures), timelinekeyboard.cpp
// (keys, wheel, tooltips), timelineedits.cpp (actions and the commands they push),
// timelineclipboard.cpp (copy, cut, paste, duplicate).

#include "timelinemodel.h"
#include "timelinepainter.h"
#include "timelineplayback.h"
#include "transfergroup.h"

#include "document/nodegroups.h"
#include "document/playbackmarks.h"
#include "document/selection.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QList>

namespace cs::editor {

class Document;

/// The timeline widget. Construct it on a Document; put toolActions() in a toolbar.
class TimelineView : public QAbstractScrollArea
{
  Q_OBJECT

public:
  /// Draw: drags from cells create transfers; Select: every drag is a rubber band.
  enum class Tool { Draw, Select };

  explicit TimelineView(Document* document, QWidget* parent = nullptr);
  /// Actions this view adds to the main window's toolbar and menus while it is shown.
  QList<QAction*> toolActions() const { return m_toolActions; }

  /// The mode new transfers get (the Copy/Reduce toggle); Shift on release inverts it.
  TransferOp operation() const { return m_operation; }
  /// Sets the mode and checks the matching toolbar toggle.
  void setOperation(TransferOp op);
  Tool tool() const { return m_tool; }
  /// Sets the tool and checks the matching toolbar action.
  void setTool(Tool tool);

  // Geometry for tests and other views, in viewport coordinates; each scrolls into view first.

  /// The cell of `slot` in `column` (0 = start, c = after step c-1); the summary row's cell when
  /// the slot is collapsed; empty when the slot has no row.
  QRect cellRect(const ChunkRef& slot, int column);
  /// A point on the arrow of `transferId` that hits it (the middle of its vertical run).
  QPoint arrowPoint(int transferId);
  /// The step header cell of `column`.
  QRect headerRect(int column);
  /// The transfer whose arrow is under `pos`, or -1.
  int transferAt(const QPoint& pos) const;
  /// The arrow highlighted because the mouse is over it, or -1.
  int hoveredTransfer() const { return m_hover; }
  /// Puts the keyboard cursor on `cell` and scrolls to it (a problem about a chunk's value).
  void showCell(const CellRef& cell);
  /// The keyboard cursor: (chunk slot, column).
  std::pair<ChunkRef, int> cursor() const;
  /// The tooltip text at `pos`: a transfer with its problems, a cell's value, a step.
  QString toolTipAt(const QPoint& pos) const;
  /// "code: message" of every problem the analysis reports for `transferId`.
  QStringList problemsOf(int transferId) const;
  /// The text shown instead of the grid when the shown Schedule is absent (an imported Program
  /// that cannot be lifted): why, with the lifting problems; "" when there is a Schedule.
  QString unavailableMessage() const;

  // Edits, also reachable through toolActions().

  /// Applies the selected transfers to every rank shifted by `shift` (replicate.h) as ONE undo
  /// step; returns how many transfers were added.
  int replicateSelection(int shift, bool shiftChunks);
  /// Removes the selected transfers (one RemoveTransfersCommand).
  void deleteSelection();
  /// Selects every transfer of the shown Schedule.
  void selectAll();

  // The clipboard (timelineclipboard.cpp; transfergroup.h says where a paste lands). Each edit
  // is one undo step, reports what it did or why it did nothing in statusMessage(), and leaves
  // the pasted transfers selected.

  /// Cut, Copy, Paste and Duplicate: added to this view (their shortcuts work while it has the
  /// focus) but not to toolActions(); the window lists them in its Edit menu.
  QList<QAction*> clipboardActions() const { return m_clipboardActions; }
  /// Puts the selected transfers on the clipboard (transferclipboard.h); false when none.
  bool copySelection();
  /// Copies the selection, then deletes it.
  bool cutSelection();
  /// Pastes the clipboard's transfers with their first transfer at `at`; refuses (false, nothing
  /// changed) when the clipboard holds no transfers or a chunk they need does not exist.
  bool pasteAt(PasteAnchor at);
  /// Where paste() pastes: the cell under the mouse, or the keyboard cursor's cell when that
  /// moved last. A cell in column c starts step c (at most one past the last step).
  PasteAnchor pasteTarget() const;
  /// pasteAt(pasteTarget()).
  bool paste();
  /// Places a copy of the selection on the same ranks right after its last step.
  bool duplicateSelection();

  // View state (not part of the document or its undo history).

  /// 1.0 is 100%; clamped to TimelineLayout::kMinZoom .. kMaxZoom.
  double zoom() const { return m_model.layout().zoom(); }
  void setZoom(double zoom);
  /// Zooms so that every step column fits the viewport's width and, as long as rows stay
  /// legible (kMinFitRowHeight), every row its height; then scrolls to the start.
  void fitToWindow();
  /// Compact rows: a smaller row height at the same zoom (TimelineLayout::setCompactRows).
  void setCompactRows(bool compact);
  bool compactRows() const { return m_model.layout().compactRows(); }
  /// Rows are not shrunk below this many pixels to fit the height (labels need it).
  static constexpr int kMinFitRowHeight = 11;
  /// Folds `rank`'s rows into one summary row (arrows then end on it), or unfolds them.
  void setRankCollapsed(int rank, bool collapsed);
  bool isRankCollapsed(int rank) const { return m_collapse.ranks.contains(rank); }
  // Node grouping (issue 18, item 5; timelinenodes.cpp): one row per machine of the document's
  // topology (nodegroups.h), cells summarising its ranks, arrows only for traffic between nodes.

  /// Automatic (the default): grouped when the program has more than kAutoGroupRanks ranks, or
  /// when fitToWindow() found rows too low for their labels; On and Off: as the user chose.
  enum class NodeGrouping { Automatic, On, Off };
  static constexpr int kAutoGroupRanks = 64;
  void setNodeGrouping(NodeGrouping grouping);
  NodeGrouping nodeGrouping() const { return m_grouping; }
  /// Whether the rows are grouped by node now.
  bool nodesGrouped() const { return !m_collapse.nodeOfRank.empty(); }
  /// The machines the ranks are grouped into (also while not grouped).
  const NodeGroups& nodeGroups() const { return m_nodes; }
  /// Shows `node`'s ranks under a node header row, or folds them into the node's row again.
  void setNodeExpanded(int node, bool expanded);
  bool isNodeExpanded(int node) const { return m_collapse.expandedNodes.contains(node); }
  /// View › Group Ranks by Node (checkable; checked while grouped).
  QAction* groupByNodeAction() const { return m_groupByNode; }
  /// Folds one buffer of `rank` into one summary row, or unfolds it.
  void setBufferCollapsed(int rank, Buffer buffer, bool collapsed);
  /// Scrolls so that the arrow of `transferId` is in view.
  void ensureTransferVisible(int transferId);
  /// What the view shows: chunk states, layout and arrow routes (read-only).
  const TimelineModel& model() const { return m_model; }

  // A replay following this document (issue 14): the visualizer sets its marks on every cursor
  // move; an inactive value clears them. Repaints only when they changed.

  void setPlaybackMarks(const PlaybackMarks& marks);
  /// Teaching's predict exercise: hides what Schedule step `step` writes (its column's changed
  /// cells show "?") until the student has predicted it; nullopt shows everything again. A click
  /// on a hidden cell emits concealedCellClicked instead of starting an edit.
  void setConcealedStep(std::optional<int> step);
  std::optional<int> concealedStep() const { return m_concealedStep; }
  /// Whether the cell of `slot` in `column` is hidden by setConcealedStep.
  bool isConcealed(const ChunkRef& slot, int column) const;
  const PlaybackMarks& playbackMarks() const { return m_marks; }
  /// The marks resolved against the shown Schedule, as the painter draws them; nullopt when none.
  const std::optional<TimelinePlayback>& playback() const { return m_playback; }

signals:
  /// A click on a cell hidden by setConcealedStep: `cell` is the chunk its row shows and
  /// `globalPos` where to open a picker for it (the visualizer's Predict tab listens).
  void concealedCellClicked(const cs::ChunkRef& cell, const QPoint& globalPos);

  /// A sentence for the status bar: what a clipboard edit did, or why it did nothing.
  void statusMessage(const QString& message);

  /// The zoom or the compact rows changed (the window remembers them per document).
  void viewSettingsChanged();

protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;
  bool viewportEvent(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  /// What a press started; decided for good once the mouse moves far enough.
  enum class Gesture {
    None,
    PendingCell,
    PendingConcealed, ///< a press on a hidden cell: a click asks for a prediction, never an edit
    CreateTransfer,
    PendingArrow,
    MoveArrows,
    PendingBand,
    RubberBand
  };
  /// A viewport point resolved against the grid.
  struct Hit {
    enum class Area { None, Corner, StepHeader, RowHeader, Grid } area = Area::None;
    QPoint content;     ///< content coordinates
    int visualRow = -1; ///< row under the point (-1 in gaps)
    int column = -1;
    bool inCell = false;
    int transfer = -1; ///< arrow under the point
  };

  void createActions();
  void createNodeGroupingAction();
  /// Recomputes the machines for the shown Schedule and sets m_collapse's node grouping.
  void applyNodeGrouping(int ranks);
  /// The node-row tooltip: which ranks, and where the grouping comes from.
  QString nodeToolTip(const TimelineLayout::Row& row) const;
  void createToolActions();
  void createEditActions();
  QList<QAction*> createViewActions();
  void rebuild();
  void relayout();
  void updateScrollBars();
  /// The header's size for the font and the current row height.
  void updateHeader();
  TimelinePaintState paintState() const;
  QPoint contentOrigin() const; ///< viewport position of content (0, 0)
  Hit hitTest(const QPoint& pos) const;
  /// The ChunkStates row of the hidden cell under `hit`, or -1.
  int concealedRowAt(const Hit& hit) const;
  void ensureContentVisible(const QRect& content);
  void toggleHeaderAt(const Hit& hit);
  void updateCreatePreview(const QPoint& pos, Qt::KeyboardModifiers modifiers);
  void updateMovePreview(const QPoint& pos);
  void updateBand(const QPoint& pos);
  std::set<int> transfersInBand() const;
  void finishCreate(Qt::KeyboardModifiers modifiers);
  void finishMove();
  void clickCell(const Hit& hit, Qt::KeyboardModifiers modifiers);
  void selectTransfers(const std::set<int>& ids);
  void setHover(int transfer);
  void moveCursor(int rows, int columns);
  void openReplicateDialog();
  void zoomBy(double factor, const QPoint& anchor);
  double fittingZoom(int width, int height);
  /// fitToWindow() at the grouping as it is.
  void fitZoom();
  TransferOp effectiveOperation(Qt::KeyboardModifiers modifiers) const;
  void createClipboardActions();
  std::vector<Transfer> selectedTransfers() const;
  bool applyPlacement(const TransferGroup& group, PasteAnchor at, const QString& verb);

  Document* m_document;
  TimelineModel m_model;
  CollapseState m_collapse;
  NodeGroups m_nodes;
  NodeGrouping m_grouping = NodeGrouping::Automatic;
  bool m_fitGrouped = false; ///< fitToWindow() grouped the rows (Automatic only)
  QAction* m_groupByNode = nullptr;
  HeaderMetrics m_header;
  QList<QAction*> m_toolActions;
  QAction* m_drawTool = nullptr;
  QAction* m_selectTool = nullptr;
  QAction* m_copyMode = nullptr;
  QAction* m_reduceMode = nullptr;
  QAction* m_replicate = nullptr;
  QAction* m_delete = nullptr;
  QAction* m_selectAll = nullptr;
  QList<QAction*> m_clipboardActions;
  TransferOp m_operation = TransferOp::Copy;
  Tool m_tool = Tool::Draw;

  Gesture m_gesture = Gesture::None;
  QPoint m_pressPos;
  Hit m_press;
  Qt::KeyboardModifiers m_pressModifiers;
  std::optional<CreatePreview> m_create;
  int m_moveColumns = 0;
  QRect m_band;
  std::set<int> m_bandSelection;
  int m_hover = -1;
  int m_cursorRow = 0; ///< keyboard cursor: ChunkStates row and column
  int m_cursorColumn = 0;
  bool m_cursorShown = false;
  /// The mouse's viewport position while it moved after the keyboard cursor, else nullopt.
  std::optional<QPoint> m_pointer;
  bool m_selecting = false; ///< this view is changing the selection (no auto-scroll)
  mutable LabelCache m_labels;
  PlaybackMarks m_marks;
  std::optional<int> m_concealedStep;
  std::optional<TimelinePlayback> m_playback;
};

} // namespace cs::editor
