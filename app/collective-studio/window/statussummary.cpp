#include "statussummary.h"

#include "style/textformat.h"

#include "document/document.h"
#include "panels/gpuchoice.h"
#include "style/rankpalette.h"

#include "model/dialect.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>

namespace cs::editor {

namespace {

QFrame* separator(QWidget* parent)
{
  auto* line = new QFrame(parent);
  line->setFrameShape(QFrame::VLine);
  line->setFrameShadow(QFrame::Sunken);
  return line;
}

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

StatusSummary::StatusSummary(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 0, 6, 0);
  layout->setSpacing(10);
  m_size = new QLabel(this);
  m_target = new QLabel(this);
  m_gpu = new QLabel(this);
  m_gpu->setObjectName(QStringLiteral("gpu"));
  m_verdict = new QLabel(this);
  QFont bold = m_verdict->font();
  bold.setBold(true);
  m_verdict->setFont(bold);
  layout->addWidget(m_size);
  layout->addWidget(separator(this));
  layout->addWidget(m_target);
  layout->addWidget(m_gpu);
  layout->addWidget(separator(this));
  layout->addWidget(m_verdict);
  connect(document, &Document::analysisChanged, this, &StatusSummary::update);
  connect(document, &Document::changed, this, &StatusSummary::update);
  update();
}

QString StatusSummary::verdictText() const
{
  return m_verdict->text();
}

QString StatusSummary::targetText() const
{
  return m_target->text();
}

QString StatusSummary::gpuText() const
{
  return m_gpu->text();
}

QString StatusSummary::sizeText() const
{
  return m_size->text();
}

QString StatusSummary::problemCountText(int errors, int warnings)
{
  if (errors == 0 && warnings == 0)
    return tr("no problems");
  QStringList parts;
  if (errors > 0 || warnings == 0)
    parts << countText(errors, tr("error"), tr("errors"));
  if (warnings > 0)
    parts << countText(warnings, tr("warning"), tr("warnings"));
  return parts.join(QStringLiteral(", "));
}

void StatusSummary::update()
{
  const Analysis& analysis = m_document->analysis();
  QString verdict;
  QColor colour;
  if (analysis.errors > 0) {
    verdict = QStringLiteral("✖ ") + countText(analysis.errors, tr("error"), tr("errors"));
    colour = errorColor();
  } else if (!analysis.schedule && !analysis.program) {
    verdict = QStringLiteral("✖ ") + tr("nothing to check");
    colour = errorColor();
  } else if (analysis.warnings > 0) {
    verdict = QStringLiteral("⚠ ") +
              tr("correct, %1").arg(countText(analysis.warnings, tr("warning"), tr("warnings")));
    colour = warningColor();
  } else {
    verdict = QStringLiteral("✔ ") + tr("correct");
    colour = okColor();
  }
  m_verdict->setText(verdict);
  QPalette palette = m_verdict->palette();
  palette.setColor(QPalette::WindowText, colour);
  m_verdict->setPalette(palette);
  m_verdict->setToolTip(tr("The checker's verdict for %1")
                            .arg(toQString(dialect(m_document->lowering().dialect).title)));

  const LowerOptions& lowering = m_document->lowering();
  m_target->setText(tr("%1 · %2").arg(toQString(dialect(lowering.dialect).key),
                                      toQString(protocolName(lowering.protocol))));
  m_target->setToolTip(tr("Target runtime and protocol"));
  m_gpu->setText(lowering.gpu ? tr("GPU: %1").arg(toQString(gpuModel(*lowering.gpu).title))
                              : tr("GPU: any"));
  m_gpu->setToolTip(gpuChoiceToolTip(lowering.gpu, lowering.dialect) +
                    tr("\nChoose it in the Inspector with nothing selected."));

  if (const std::optional<Schedule>& schedule = m_document->shownSchedule()) {
    m_size->setText(countText(schedule->ranks, tr("rank"), tr("ranks")) + QStringLiteral(" · ") +
                    countText(static_cast<long long>(schedule->transfers.size()), tr("transfer"),
                              tr("transfers")));
  } else if (const std::optional<Program>& program = m_document->shownProgram()) {
    m_size->setText(countText(program->ngpus, tr("rank"), tr("ranks")) + QStringLiteral(" · ") +
                    countText(program->stepCount(), tr("instruction"), tr("instructions")));
  } else {
    m_size->clear();
  }
}

} // namespace cs::editor
