#include "documentcommand.h"

namespace cs::editor {

DocumentCommand::DocumentCommand(Document* document, const QString& text, QUndoCommand* parent)
    : QUndoCommand(text, parent), m_document(document)
{
}

void DocumentCommand::redo()
{
  std::optional<DocumentState> before;
  if (m_firstRedo && m_document->source() == Source::Program)
    before = m_document->state();
  QUndoCommand::redo(); // children first: a parent command may only group them
  apply();
  if (m_firstRedo && before && m_document->source() != Source::Program)
    m_programSourceState = std::move(before);
  m_firstRedo = false;
}

void DocumentCommand::undo()
{
  if (m_programSourceState) {
    m_document->setState(*m_programSourceState);
    return;
  }
  revert();
  QUndoCommand::undo();
}

} // namespace cs::editor
