// TimelineView's actions and the edits they run: every edit is pushed on the document's undo
// stack as one of its commands (replicate: one parent command with the added transfers as its
// child, so a whole ring is one undo step).

#include "timelineview.h"

#include "replicatedialog.h"
#include "timelineicons.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"

#include <QActionGroup>

namespace cs::editor {

namespace {

QAction* separator(QObject* parent)
{
  auto* action = new QAction(parent);
  action->setSeparator(true);
  return action;
}

/// An action of the timeline's toolbar and context menu, added to `view` so its shortcut works.
QAction* makeAction(QWidget* view, TimelineIcon icon, const QString& text, const QString& tip,
                    const QKeySequence& shortcut = {})
{
  auto* action = new QAction(timelineIcon(icon), text, view);
  action->setToolTip(tip);
  action->setStatusTip(tip);
  if (!shortcut.isEmpty()) {
    action->setShortcut(shortcut);
    // Only while the timeline has focus: other views bind the same keys to their own verbs.
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  }
  view->addAction(action);
  return action;
}

/// Makes `actions` checkable and mutually exclusive, the first one checked.
void makeExclusive(QObject* owner, std::initializer_list<QAction*> actions)
{
  auto* group = new QActionGroup(owner);
  for (QAction* action : actions) {
    action->setCheckable(true);
    group->addAction(action);
  }
  (*actions.begin())->setChecked(true);
}

} // namespace

void TimelineView::createActions()
{
  createToolActions();
  createEditActions();
  createClipboardActions();
  createNodeGroupingAction();
  const QList<QAction*> view = createViewActions();
  m_toolActions = {m_drawTool,      m_selectTool, separator(this), m_copyMode,  m_reduceMode,
                   separator(this), m_replicate,  m_delete,        m_selectAll, separator(this)};
  m_toolActions += view;
}

void TimelineView::createToolActions()
{
  m_drawTool = makeAction(this, TimelineIcon::Draw, tr("Draw Transfers"),
                          tr("Draw: drag from a cell to a cell to add a transfer; drag a selected "
                             "arrow sideways to move it to another step (D)"),
                          QKeySequence(Qt::Key_D));
  m_selectTool = makeAction(this, TimelineIcon::Select, tr("Select"),
                            tr("Select: drag a rubber band around arrows to select them; in the "
                               "Draw tool, drag on empty space or the step header (S)"),
                            QKeySequence(Qt::Key_S));
  makeExclusive(this, {m_drawTool, m_selectTool});
  connect(m_drawTool, &QAction::triggered, this, [this] { setTool(Tool::Draw); });
  connect(m_selectTool, &QAction::triggered, this, [this] { setTool(Tool::Select); });

  // "Operation" says these set what a drawn transfer does; Copy alone reads like the clipboard.
  m_copyMode = makeAction(this, TimelineIcon::Copy, tr("Copy Operation"),
                          tr("Copy operation for new transfers: dst = src (hold Shift when "
                             "dropping for reduce) (C)"),
                          QKeySequence(Qt::Key_C));
  m_reduceMode = makeAction(this, TimelineIcon::Reduce, tr("Reduce Operation"),
                            tr("Reduce operation for new transfers: dst = dst ⊕ src (hold Shift "
                               "when dropping for copy) (R)"),
                            QKeySequence(Qt::Key_R));
  makeExclusive(this, {m_copyMode, m_reduceMode});
  connect(m_copyMode, &QAction::triggered, this, [this] { setOperation(TransferOp::Copy); });
  connect(m_reduceMode, &QAction::triggered, this, [this] { setOperation(TransferOp::Reduce); });
}

void TimelineView::createEditActions()
{
  m_replicate = makeAction(this, TimelineIcon::Replicate, tr("Replicate…"),
                           tr("Apply the selected transfers to every rank, shifted by k ranks: "
                              "draw one rank of a ring, replicate with k = 1"),
                           QKeySequence(Qt::CTRL | Qt::Key_R));
  connect(m_replicate, &QAction::triggered, this, &TimelineView::openReplicateDialog);
  m_delete =
      makeAction(this, TimelineIcon::Delete, tr("Delete Transfers"),
                 tr("Delete the selected transfers (Delete)"), QKeySequence(QKeySequence::Delete));
  connect(m_delete, &QAction::triggered, this, &TimelineView::deleteSelection);
  m_replicate->setEnabled(false);
  m_delete->setEnabled(false);
  m_selectAll = makeAction(this, TimelineIcon::SelectAll, tr("Select All Transfers"),
                           tr("Select every transfer"), QKeySequence(QKeySequence::SelectAll));
  connect(m_selectAll, &QAction::triggered, this, &TimelineView::selectAll);
}

QList<QAction*> TimelineView::createViewActions()
{
  QAction* zoomIn = makeAction(this, TimelineIcon::ZoomIn, tr("Zoom In"),
                               tr("Zoom in (Ctrl+wheel)"), QKeySequence(QKeySequence::ZoomIn));
  connect(zoomIn, &QAction::triggered, this, [this] { setZoom(zoom() * 1.25); });
  QAction* zoomOut = makeAction(this, TimelineIcon::ZoomOut, tr("Zoom Out"),
                                tr("Zoom out (Ctrl+wheel)"), QKeySequence(QKeySequence::ZoomOut));
  connect(zoomOut, &QAction::triggered, this, [this] { setZoom(zoom() / 1.25); });
  QAction* zoomReset = makeAction(this, TimelineIcon::ZoomReset, tr("Actual Size"),
                                  tr("Back to 100% zoom"), QKeySequence(Qt::CTRL | Qt::Key_0));
  connect(zoomReset, &QAction::triggered, this, [this] { setZoom(1.0); });
  QAction* expand = makeAction(this, TimelineIcon::Expand, tr("Expand All Ranks"),
                               tr("Show every chunk row of every rank"));
  connect(expand, &QAction::triggered, this, [this] {
    m_collapse.ranks.clear();
    m_collapse.buffers.clear();
    relayout();
  });
  QAction* collapse = makeAction(this, TimelineIcon::Collapse, tr("Collapse All Ranks"),
                                 tr("Fold every rank into one summary row"));
  connect(collapse, &QAction::triggered, this, [this] {
    m_collapse.ranks.clear();
    m_collapse.buffers.clear();
    for (int r = 0; r < m_model.states().ranks(); ++r)
      m_collapse.ranks.insert(r);
    relayout();
  });
  return {zoomIn, zoomOut, zoomReset, separator(this), expand, collapse};
}

int TimelineView::replicateSelection(int shift, bool shiftChunks)
{
  const std::optional<Schedule>& schedule = m_document->shownSchedule();
  if (!schedule)
    return 0;
  std::vector<Transfer> selected;
  for (const int id : m_document->selection().transfers)
    if (const Transfer* t = schedule->transfer(id))
      selected.push_back(*t);
  std::vector<Transfer> copies = replicateTransfers(*schedule, selected, {shift, shiftChunks});
  if (copies.empty())
    return 0;
  const int added = static_cast<int>(copies.size());
  auto* parent = new QUndoCommand(added == 1 ? tr("Replicate 1 transfer")
                                             : tr("Replicate %1 transfers").arg(added));
  auto* add = new AddTransfersCommand(m_document, std::move(copies), parent);
  std::set<int> ids(add->ids().begin(), add->ids().end());
  m_document->undoStack()->push(parent);
  // The originals and their copies stay selected, ready for the next edit.
  for (const Transfer& t : selected)
    ids.insert(t.id);
  selectTransfers(ids);
  return added;
}

void TimelineView::deleteSelection()
{
  const std::set<int>& selected = m_document->selection().transfers;
  if (selected.empty() || !m_model.hasSchedule())
    return;
  std::vector<int> ids;
  for (const int id : selected)
    if (m_model.indexOf(id) >= 0)
      ids.push_back(id);
  if (!ids.empty())
    m_document->undoStack()->push(new RemoveTransfersCommand(m_document, ids));
}

void TimelineView::selectAll()
{
  std::set<int> ids;
  if (m_model.hasSchedule())
    for (const Transfer& t : m_model.schedule().transfers)
      ids.insert(t.id);
  selectTransfers(ids);
}

void TimelineView::selectTransfers(const std::set<int>& ids)
{
  m_selecting = true;
  if (ids.size() == 1) {
    m_document->selectTransfer(*ids.begin());
  } else {
    Selection selection;
    selection.transfers = ids;
    m_document->setSelection(selection);
  }
  m_selecting = false;
}

void TimelineView::openReplicateDialog()
{
  const std::optional<Schedule>& schedule = m_document->shownSchedule();
  if (!schedule || m_document->selection().transfers.empty())
    return;
  std::vector<Transfer> selected;
  for (const int id : m_document->selection().transfers)
    if (const Transfer* t = schedule->transfer(id))
      selected.push_back(*t);
  ReplicateDialog dialog(*schedule, std::move(selected), this);
  if (dialog.exec() != QDialog::Accepted)
    return;
  const ReplicateOptions options = dialog.options();
  replicateSelection(options.shift, options.shiftChunks);
}

} // namespace cs::editor
