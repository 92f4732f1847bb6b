#include "statecommands.h"

namespace cs::editor {

ReplaceScheduleCommand::ReplaceScheduleCommand(Document* document, Schedule schedule,
                                               const QString& text, QUndoCommand* parent)
    : DocumentCommand(document, text, parent),
      m_before(document->shownSchedule().value_or(document->schedule())),
      m_after(std::move(schedule))
{
}

void ReplaceScheduleCommand::apply()
{
  document()->setSchedule(m_after);
}

void ReplaceScheduleCommand::revert()
{
  document()->setSchedule(m_before);
}

ChangeTopologyCommand::ChangeTopologyCommand(Document* document, std::optional<Topology> topology,
                                             const QString& text, std::vector<int> changedNodes,
                                             QString mergeKey, QUndoCommand* parent)
    : DocumentCommand(document, text, parent), m_before(document->topology()),
      m_after(std::move(topology)), m_changedNodes(std::move(changedNodes)),
      m_mergeKey(std::move(mergeKey))
{
}

int ChangeTopologyCommand::id() const
{
  return m_mergeKey.isEmpty() ? -1 : static_cast<int>(UndoCommandId::ChangeTopology);
}

bool ChangeTopologyCommand::mergeWith(const QUndoCommand* other)
{
  const auto* next = dynamic_cast<const ChangeTopologyCommand*>(other);
  if (!next || next->m_mergeKey != m_mergeKey)
    return false;
  m_after = next->m_after;
  // A drag that ends where it started leaves no undo step.
  setObsolete(m_before == m_after);
  return true;
}

void ChangeTopologyCommand::apply()
{
  document()->setTopology(m_after, m_changedNodes);
}

void ChangeTopologyCommand::revert()
{
  document()->setTopology(m_before, m_changedNodes);
}

ReplaceProgramCommand::ReplaceProgramCommand(Document* document, std::optional<Program> program,
                                             const QString& text, QString mergeKey,
                                             QUndoCommand* parent)
    : DocumentCommand(document, text, parent), m_before(document->state()),
      m_after(std::move(program)), m_mergeKey(std::move(mergeKey))
{
}

int ReplaceProgramCommand::id() const
{
  return m_mergeKey.isEmpty() ? -1 : static_cast<int>(UndoCommandId::EditInstruction);
}

bool ReplaceProgramCommand::mergeWith(const QUndoCommand* other)
{
  const auto* next = dynamic_cast<const ReplaceProgramCommand*>(other);
  if (!next || next->m_mergeKey != m_mergeKey)
    return false;
  m_after = next->m_after;
  return true;
}

void ReplaceProgramCommand::apply()
{
  document()->setProgram(m_after);
}

void ReplaceProgramCommand::revert()
{
  // Switching the source changes both levels, so the exact state before is restored.
  document()->setState(m_before);
}

ChangeLoweringCommand::ChangeLoweringCommand(Document* document, const LowerOptions& options,
                                             const QString& text, QUndoCommand* parent)
    : DocumentCommand(document, text.isEmpty() ? QObject::tr("Change target") : text, parent),
      m_before(document->lowering()), m_after(options)
{
}

void ChangeLoweringCommand::apply()
{
  document()->setLowering(m_after);
}

void ChangeLoweringCommand::revert()
{
  document()->setLowering(m_before);
}

ChangeNotesCommand::ChangeNotesCommand(Document* document, std::string notes, QUndoCommand* parent)
    : DocumentCommand(document, QObject::tr("Edit notes"), parent),
      m_before(document->state().design.notes), m_after(std::move(notes))
{
}

bool ChangeNotesCommand::mergeWith(const QUndoCommand* other)
{
  const auto* next = dynamic_cast<const ChangeNotesCommand*>(other);
  if (!next)
    return false;
  m_after = next->m_after;
  return true;
}

void ChangeNotesCommand::apply()
{
  document()->setNotes(m_after);
}

void ChangeNotesCommand::revert()
{
  document()->setNotes(m_before);
}

} // namespace cs::editor
