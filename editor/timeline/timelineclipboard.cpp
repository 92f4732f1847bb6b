// TimelineView's clipboard: copy, cut, paste and duplicate transfers. A paste or a duplicate is
// one parent command with the added transfers as its child (as Replicate does), a cut one parent
// with the removal, so each is one undo step; the clipboard itself is transferclipboard.h.

#include "timelineview.h"

#include "transferclipboard.h"

#include "document/commands/transfercommands.h"
#include "document/document.h"

#include <QClipboard>
#include <QGuiApplication>

#include <algorithm>

namespace cs::editor {

namespace {

QAction* clipboardAction(QWidget* view, const QString& text, const QString& tip,
                         const QList<QKeySequence>& shortcuts)
{
  auto* action = new QAction(text, view);
  action->setToolTip(tip);
  action->setStatusTip(tip);
  action->setShortcuts(shortcuts);
  // As the view's other verbs: only while the timeline has focus (a table's Ctrl+C is its own).
  action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  view->addAction(action);
  return action;
}

/// "1 transfer", "2 transfers" (English plurals without a translation loaded).
QString transfersText(int count)
{
  return count == 1 ? TimelineView::tr("1 transfer") : TimelineView::tr("%1 transfers").arg(count);
}

/// "i[3]" or "i[3..4]" for `count` slots from `ref`.
QString slotsText(const ChunkRef& ref, int count)
{
  const QChar letter(bufferLetter(ref.buffer));
  if (count <= 1)
    return QStringLiteral("%1[%2]").arg(letter).arg(ref.index);
  return QStringLiteral("%1[%2..%3]").arg(letter).arg(ref.index).arg(ref.index + count - 1);
}

} // namespace

void TimelineView::createClipboardActions()
{
  QAction* cut = clipboardAction(this, tr("Cu&t Transfers"),
                                 tr("Copy the selected transfers to the clipboard and delete them"),
                                 QKeySequence::keyBindings(QKeySequence::Cut));
  connect(cut, &QAction::triggered, this, &TimelineView::cutSelection);
  QAction* copy = clipboardAction(this, tr("&Copy Transfers"),
                                  tr("Copy the selected transfers to the clipboard"),
                                  QKeySequence::keyBindings(QKeySequence::Copy));
  connect(copy, &QAction::triggered, this, &TimelineView::copySelection);
  QAction* paste = clipboardAction(
      this, tr("&Paste Transfers"),
      tr("Paste the copied transfers: the first one starts at the cell under the mouse, or at "
         "the keyboard cursor"),
      QKeySequence::keyBindings(QKeySequence::Paste));
  connect(paste, &QAction::triggered, this, &TimelineView::paste);
  QAction* duplicate = clipboardAction(
      this, tr("D&uplicate Transfers"),
      tr("Copy the selected transfers to the steps right after them, on the same ranks"),
      {QKeySequence(Qt::CTRL | Qt::Key_D)});
  connect(duplicate, &QAction::triggered, this, &TimelineView::duplicateSelection);
  m_clipboardActions = {cut, copy, paste, duplicate};
  const auto enable = [this, cut, copy, duplicate] {
    const bool any = !m_document->selection().transfers.empty();
    for (QAction* action : {cut, copy, duplicate})
      action->setEnabled(any);
  };
  connect(m_document, &Document::selectionChanged, this, enable);
  enable();
}

std::vector<Transfer> TimelineView::selectedTransfers() const
{
  std::vector<Transfer> selected;
  const std::optional<Schedule>& schedule = m_document->shownSchedule();
  if (!schedule)
    return selected;
  for (const int id : m_document->selection().transfers)
    if (const Transfer* t = schedule->transfer(id))
      selected.push_back(*t);
  return selected;
}

bool TimelineView::copySelection()
{
  const std::vector<Transfer> selected = selectedTransfers();
  if (selected.empty()) {
    emit statusMessage(tr("No transfers are selected: select some first"));
    return false;
  }
  const Schedule& schedule = *m_document->shownSchedule();
  QGuiApplication::clipboard()->setMimeData(
      transfersToMimeData(groupOf(schedule, selected), schedule));
  emit statusMessage(tr("Copied %1").arg(transfersText(static_cast<int>(selected.size()))));
  return true;
}

bool TimelineView::cutSelection()
{
  const std::vector<Transfer> selected = selectedTransfers();
  if (!copySelection())
    return false;
  std::vector<int> ids;
  for (const Transfer& t : selected)
    ids.push_back(t.id);
  const int count = static_cast<int>(ids.size());
  auto* parent = new QUndoCommand(tr("Cut %1").arg(transfersText(count)));
  new RemoveTransfersCommand(m_document, ids, parent);
  m_document->undoStack()->push(parent);
  emit statusMessage(parent->text());
  return true;
}

PasteAnchor TimelineView::pasteTarget() const
{
  const std::optional<Schedule>& schedule = m_document->shownSchedule();
  const int lastStep = schedule ? schedule->stepCount() : 0;
  // Hit-tested now rather than when the mouse moved: the view may have scrolled since.
  const Hit hit = m_pointer ? hitTest(*m_pointer) : Hit();
  if (hit.area == Hit::Area::Grid && hit.visualRow >= 0 && hit.column >= 0) {
    const TimelineLayout::Row& row =
        m_model.layout().rows()[static_cast<std::size_t>(hit.visualRow)];
    return {std::min(hit.column, lastStep), row.rank};
  }
  const auto [slot, column] = cursor();
  return {std::min(column, lastStep), slot.rank};
}

bool TimelineView::paste()
{
  return pasteAt(pasteTarget());
}

bool TimelineView::pasteAt(PasteAnchor at)
{
  if (!m_document->shownSchedule()) {
    emit statusMessage(tr("Nothing pasted: the timeline shows no transfers to paste into"));
    return false;
  }
  const ClipboardTransfers read = transfersFromMimeData(QGuiApplication::clipboard()->mimeData());
  if (!read.group) {
    emit statusMessage(read.error + tr("; nothing was pasted"));
    return false;
  }
  return applyPlacement(*read.group, at, tr("Paste"));
}

bool TimelineView::duplicateSelection()
{
  const std::vector<Transfer> selected = selectedTransfers();
  if (selected.empty()) {
    emit statusMessage(tr("Nothing to duplicate: select transfers first"));
    return false;
  }
  const Schedule& schedule = *m_document->shownSchedule();
  return applyPlacement(groupOf(schedule, selected), duplicateAnchor(selected), tr("Duplicate"));
}

bool TimelineView::applyPlacement(const TransferGroup& group, PasteAnchor at, const QString& verb)
{
  const Placement placement = placeGroup(*m_document->shownSchedule(), group, at);
  if (const std::optional<MissingChunk>& missing = placement.missing) {
    const QString buffer = QString::fromUtf8(bufferName(missing->first.buffer).data());
    const QString chunks =
        missing->available == 1 ? tr("1 chunk") : tr("%1 chunks").arg(missing->available);
    emit statusMessage(tr("%1 refused at step %2, rank %3: rank %4 has no %5 (its %6 buffer has "
                          "%7); nothing was changed")
                           .arg(verb)
                           .arg(at.step)
                           .arg(at.rank)
                           .arg(missing->first.rank)
                           .arg(slotsText(missing->first, missing->count), buffer, chunks));
    return false;
  }
  std::set<int> ids(placement.existing.begin(), placement.existing.end());
  const int added = static_cast<int>(placement.added.size());
  if (added > 0) {
    auto* parent = new QUndoCommand(tr("%1 %2").arg(verb, transfersText(added)));
    auto* add = new AddTransfersCommand(m_document, placement.added, parent);
    ids.insert(add->ids().begin(), add->ids().end());
    m_document->undoStack()->push(parent);
  }
  selectTransfers(ids);
  if (!ids.empty())
    ensureTransferVisible(*ids.begin());
  QString message = tr("%1: %2 added at step %3, rank %4")
                        .arg(verb, transfersText(added))
                        .arg(at.step)
                        .arg(at.rank);
  if (!placement.existing.empty())
    message += tr(" (%1 already there)").arg(placement.existing.size());
  emit statusMessage(message);
  return added > 0;
}

} // namespace cs::editor
