#pragma once

// The timeline's verbs on transfers: add, remove and change (move to another step, retarget, edit
// in the inspector). Each keeps exactly the transfers it touched, before and after.

#include "documentcommand.h"
#include "undocommands.h"

#include <vector>

namespace cs::editor {

/// Adds transfers; ids are assigned at construction (fresh ones when a given id is taken).
class AddTransfersCommand : public DocumentCommand
{
public:
  AddTransfersCommand(Document* document, std::vector<Transfer> transfers,
                      QUndoCommand* parent = nullptr);
  /// The ids the new transfers got, in the order given.
  const std::vector<int>& ids() const { return m_ids; }

protected:
  void apply() override;
  void revert() override;

private:
  std::vector<Transfer> m_transfers;
  std::vector<int> m_ids;
};

class RemoveTransfersCommand : public DocumentCommand
{
public:
  RemoveTransfersCommand(Document* document, const std::vector<int>& ids,
                         QUndoCommand* parent = nullptr);

protected:
  void apply() override;
  void revert() override;

private:
  std::vector<Transfer> m_removed;
};

/// Whether consecutive changes may become one undo step.
enum class MergePolicy {
  Merge,    ///< repeated edits of one field (spin box arrows in the inspector) are one step
  Separate, ///< each change is its own step (every drag on the timeline)
};

/// Replaces transfers by id with new values. With MergePolicy::Merge, consecutive changes of the
/// same transfers with the same text merge into one undo step.
class ChangeTransfersCommand : public DocumentCommand
{
public:
  ChangeTransfersCommand(Document* document, std::vector<Transfer> newValues, const QString& text,
                         MergePolicy policy = MergePolicy::Merge, QUndoCommand* parent = nullptr);
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

protected:
  void apply() override;
  void revert() override;

private:
  std::vector<Transfer> m_before;
  std::vector<Transfer> m_after;
  MergePolicy m_policy;
};

} // namespace cs::editor
