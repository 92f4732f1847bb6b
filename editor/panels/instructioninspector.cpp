#include "instructioninspector.h"

#include "document/document.h"
#include "program/programedits.h"

#include <QFormLayout>
#include <QLabel>

namespace cs::editor {

InstructionInspector::InstructionInspector(Document* document, QWidget* parent)
    : InspectorPage(document, parent), m_threadblock(new QLabel(this)), m_type(new QLabel(this)),
      m_source(new QLabel(this)), m_destination(new QLabel(this)), m_count(new QLabel(this)),
      m_depends(new QLabel(this)), m_hasdep(new QLabel(this)), m_transfer(new QLabel(this)),
      m_what(makeNote(QStringLiteral("what"))), m_problems(makeNote(QStringLiteral("problems")))
{
  m_threadblock->setWordWrap(true);
  m_problems->setForegroundRole(QPalette::WindowText);
  for (QLabel* label :
       {m_threadblock, m_type, m_source, m_destination, m_count, m_depends, m_hasdep, m_transfer})
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form()->addRow(tr("Threadblock"), m_threadblock);
  form()->addRow(tr("Type"), m_type);
  form()->addRow(tr("Source"), m_source);
  form()->addRow(tr("Destination"), m_destination);
  form()->addRow(tr("Count"), m_count);
  form()->addRow(tr("Depends on"), m_depends);
  form()->addRow(tr("hasdep"), m_hasdep);
  form()->addRow(tr("Transfer"), m_transfer);
  form()->addRow(m_what);
  form()->addRow(m_problems);
}

QString InstructionInspector::heading() const
{
  return tr("Instruction r%1 · tb %2 · s %3").arg(m_at.rank).arg(m_at.tb).arg(m_at.step);
}

void InstructionInspector::refresh()
{
  const std::optional<Program>& program = document()->shownProgram();
  const Step* step = program ? stepAt(*program, m_at) : nullptr;
  setEnabled(step != nullptr);
  if (!step)
    return;
  const ThreadBlock& tb = *program->threadblock(m_at.rank, m_at.tb);
  QStringList peers;
  if (tb.send >= 0)
    peers << tr("send → r%1").arg(tb.send);
  if (tb.recv >= 0)
    peers << tr("recv ← r%1").arg(tb.recv);
  peers << tr("channel %1").arg(tb.chan);
  m_threadblock->setText(tr("tb %1 · %2").arg(tb.id).arg(peers.join(QStringLiteral(" · "))));
  m_type->setText(QString::fromUtf8(opTypeName(step->type)));
  const OpTraits traits = opTraits(step->type);
  const QString unused = tr("—");
  const QString src = slotText(step->srcBuf, step->srcOff);
  const QString dst = slotText(step->dstBuf, step->dstOff);
  m_source->setText(traits.readsSrc && !src.isEmpty() ? src : unused);
  m_destination->setText(traits.writesDst && !dst.isEmpty() ? dst : unused);
  m_count->setText(QString::number(step->cnt));
  m_depends->setText(step->depid >= 0 ? dependencyText(step->depid, step->deps) : tr("nothing"));
  m_hasdep->setText(step->hasdep ? tr("yes: others may wait on it") : tr("no"));
  const int transfer = document()->analysis().transferAt(m_at.rank, m_at.tb, m_at.step);
  m_transfer->setText(transfer >= 0 ? QStringLiteral("#%1").arg(transfer)
                                    : tr("none (the program is the source)"));
  m_what->setText(describeStep(*step, tb).toHtmlEscaped() + QStringLiteral("<br><br>") +
                  tr("Edit instructions in the Program tab."));

  std::vector<const Problem*> problems;
  for (const Problem& problem : document()->analysis().problems)
    if (problem.rank == m_at.rank && problem.tb == m_at.tb && problem.step == m_at.step)
      problems.push_back(&problem);
  m_problems->setText(problemsHtml(problems));
  m_problems->setVisible(!problems.empty());
}

} // namespace cs::editor
