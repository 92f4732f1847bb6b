#pragma once

// The Inspector for an instruction of an imported Program (one that no timeline transfer owns):
// a read-only summary of the step — its threadblock's peers and channel, operands, count, the
// dependency it waits for, what it does in words — and the problems that point at it. Editing
// instructions is the Program tab's job; this page says so.

#include "inspectorpage.h"

#include "document/selection.h"

class QLabel;

namespace cs::editor {

class InstructionInspector : public InspectorPage
{
  Q_OBJECT

public:
  InstructionInspector(Document* document, QWidget* parent);
  void setInstruction(const InstructionRef& at) { m_at = at; }
  void refresh() override;
  QString heading() const override;

private:
  InstructionRef m_at;
  QLabel* m_threadblock;
  QLabel* m_type;
  QLabel* m_source;
  QLabel* m_destination;
  QLabel* m_count;
  QLabel* m_depends;
  QLabel* m_hasdep;
  QLabel* m_transfer;
  QLabel* m_what;
  QLabel* m_problems;
};

} // namespace cs::editor
