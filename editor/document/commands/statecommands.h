#pragma once

// Edits that replace one part of the document wholesale: the Schedule's shape (collective, ranks,
// buffers, root, modes) or a generated algorithm, the Topology (every canvas edit: small enough to
// keep whole), the Program (instruction-level edits), the lowering options and the notes.

#include "documentcommand.h"
#include "undocommands.h"

namespace cs::editor {

/// Replaces the Schedule (the Schedule becomes the source).
class ReplaceScheduleCommand : public DocumentCommand
{
public:
  ReplaceScheduleCommand(Document* document, Schedule schedule, const QString& text,
                         QUndoCommand* parent = nullptr);

protected:
  void apply() override;
  void revert() override;

private:
  Schedule m_before;
  Schedule m_after;
};

/// Replaces the Topology. Commands with the same non-empty `mergeKey` in a row merge into one
/// undo step (dragging a node emits many moves; "move GPU3" is one step).
class ChangeTopologyCommand : public DocumentCommand
{
public:
  ChangeTopologyCommand(Document* document, std::optional<Topology> topology, const QString& text,
                        std::vector<int> changedNodes = {}, QString mergeKey = {},
                        QUndoCommand* parent = nullptr);
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

protected:
  void apply() override;
  void revert() override;

private:
  std::optional<Topology> m_before;
  std::optional<Topology> m_after;
  std::vector<int> m_changedNodes;
  QString m_mergeKey;
};

/// Replaces the Program, which becomes the source (nullopt: the Schedule becomes it again).
/// Instruction edits with the same non-empty `mergeKey` in a row merge.
class ReplaceProgramCommand : public DocumentCommand
{
public:
  ReplaceProgramCommand(Document* document, std::optional<Program> program, const QString& text,
                        QString mergeKey = {}, QUndoCommand* parent = nullptr);
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

protected:
  void apply() override;
  void revert() override;

private:
  DocumentState m_before;
  std::optional<Program> m_after;
  QString m_mergeKey;
};

/// Changes the target dialect, protocol, instances or GPU. `text` names the edit in the undo
/// history; empty: "Change target".
class ChangeLoweringCommand : public DocumentCommand
{
public:
  ChangeLoweringCommand(Document* document, const LowerOptions& options, const QString& text = {},
                        QUndoCommand* parent = nullptr);

protected:
  void apply() override;
  void revert() override;

private:
  LowerOptions m_before;
  LowerOptions m_after;
};

/// Changes the free-text notes; consecutive edits merge.
class ChangeNotesCommand : public DocumentCommand
{
public:
  ChangeNotesCommand(Document* document, std::string notes, QUndoCommand* parent = nullptr);
  int id() const override { return static_cast<int>(UndoCommandId::ChangeNotes); }
  bool mergeWith(const QUndoCommand* other) override;

protected:
  void apply() override;
  void revert() override;

private:
  std::string m_before;
  std::string m_after;
};

} // namespace cs::editor
