#pragma once

// Base of every edit: remembers the whole state when the edit switches the source from an
// imported Program to the Schedule (the first timeline edit after opening XML), so undo brings
// the imported Program back exactly rather than a lowered imitation of it.

#include "../document.h"

#include <QUndoCommand>

#include <optional>

namespace cs::editor {

class DocumentCommand : public QUndoCommand
{
public:
  DocumentCommand(Document* document, const QString& text, QUndoCommand* parent = nullptr);

  void redo() final;
  void undo() final;

protected:
  virtual void apply() = 0;
  virtual void revert() = 0;
  Document* document() const { return m_document; }

private:
  Document* m_document;
  /// The state before the first redo, kept only when that redo left Program-as-source.
  std::optional<DocumentState> m_programSourceState;
  bool m_firstRedo = true;
};

} // namespace cs::editor
