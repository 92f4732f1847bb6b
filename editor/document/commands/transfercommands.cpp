#include "transfercommands.h"

#include <set>

namespace cs::editor {

namespace {

std::vector<int> idsOf(const std::vector<Transfer>& transfers)
{
  std::vector<int> ids;
  ids.reserve(transfers.size());
  for (const Transfer& transfer : transfers)
    ids.push_back(transfer.id);
  return ids;
}

} // namespace

AddTransfersCommand::AddTransfersCommand(Document* document, std::vector<Transfer> transfers,
                                         QUndoCommand* parent)
    : DocumentCommand(document,
                      transfers.size() == 1 ? QObject::tr("Add transfer")
                                            : QObject::tr("Add %n transfers", nullptr,
                                                          static_cast<int>(transfers.size())),
                      parent),
      m_transfers(std::move(transfers))
{
  // The shown schedule is the one edits apply to (the lifted one for an imported Program).
  const std::optional<Schedule>& shown = document->shownSchedule();
  std::set<int> taken;
  if (shown)
    for (const Transfer& transfer : shown->transfers)
      taken.insert(transfer.id);
  int next = taken.empty() ? 0 : *taken.rbegin() + 1;
  for (Transfer& transfer : m_transfers) {
    if (transfer.id < 0 || taken.contains(transfer.id))
      transfer.id = next;
    taken.insert(transfer.id);
    next = std::max(next, transfer.id + 1);
    m_ids.push_back(transfer.id);
  }
}

void AddTransfersCommand::apply()
{
  document()->putTransfers(m_transfers);
}

void AddTransfersCommand::revert()
{
  document()->removeTransfers(m_ids);
}

RemoveTransfersCommand::RemoveTransfersCommand(Document* document, const std::vector<int>& ids,
                                               QUndoCommand* parent)
    : DocumentCommand(document,
                      ids.size() == 1 ? QObject::tr("Delete transfer")
                                      : QObject::tr("Delete %n transfers", nullptr,
                                                    static_cast<int>(ids.size())),
                      parent)
{
  if (const std::optional<Schedule>& shown = document->shownSchedule())
    for (int id : ids)
      if (const Transfer* transfer = shown->transfer(id))
        m_removed.push_back(*transfer);
}

void RemoveTransfersCommand::apply()
{
  document()->removeTransfers(idsOf(m_removed));
}

void RemoveTransfersCommand::revert()
{
  document()->putTransfers(m_removed);
}

ChangeTransfersCommand::ChangeTransfersCommand(Document* document, std::vector<Transfer> newValues,
                                               const QString& text, MergePolicy policy,
                                               QUndoCommand* parent)
    : DocumentCommand(document, text, parent), m_after(std::move(newValues)), m_policy(policy)
{
  if (const std::optional<Schedule>& shown = document->shownSchedule())
    for (const Transfer& transfer : m_after)
      if (const Transfer* old = shown->transfer(transfer.id))
        m_before.push_back(*old);
}

int ChangeTransfersCommand::id() const
{
  return m_policy == MergePolicy::Merge ? static_cast<int>(UndoCommandId::ChangeTransfers) : -1;
}

bool ChangeTransfersCommand::mergeWith(const QUndoCommand* other)
{
  const auto* next = dynamic_cast<const ChangeTransfersCommand*>(other);
  if (!next || next->text() != text() || idsOf(next->m_after) != idsOf(m_after))
    return false;
  m_after = next->m_after;
  return true;
}

void ChangeTransfersCommand::apply()
{
  document()->putTransfers(m_after);
}

void ChangeTransfersCommand::revert()
{
  document()->putTransfers(m_before);
}

} // namespace cs::editor
