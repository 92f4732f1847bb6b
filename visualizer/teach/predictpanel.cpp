#include "predictpanel.h"

#include "document/document.h"
#include "style/rankpalette.h"

#include "model/program.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace cs::visualizer {

namespace {

// Enough for "chunk 1 from ranks 0, 2" before the combo elides; the popup shows more.
constexpr int kChoiceMinimumChars = 16;

/// "rank 1 · i[2]": the cell as the timeline's row header names it.
QString cellName(const ChunkRef& ref)
{
  return QStringLiteral("rank %1 · %2[%3]")
      .arg(ref.rank)
      .arg(QChar::fromLatin1(bufferLetter(ref.buffer)))
      .arg(ref.index);
}

/// A verdict's row background: the fixed green or red washed into the palette's base, strongly
/// enough to read as a colour and weakly enough that the palette's text stays readable on it.
QColor verdictFill(const QPalette& palette, bool right)
{
  const QColor base = palette.color(QPalette::Base);
  const QColor tint = right ? editor::okColor() : editor::errorColor();
  const double share = editor::isDark(palette) ? 0.45 : 0.3;
  const auto mix = [share](int from, int to) {
    return static_cast<int>(from * (1.0 - share) + to * share);
  };
  return {mix(base.red(), tint.red()), mix(base.green(), tint.green()),
          mix(base.blue(), tint.blue())};
}

} // namespace

PredictPanel::PredictPanel(editor::Document* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
  auto* layout = new QVBoxLayout(this);
  m_heading = new QLabel(this);
  m_heading->setWordWrap(true);
  layout->addWidget(m_heading);

  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* rowsPage = new QWidget(scroll);
  m_rowsLayout = new QVBoxLayout(rowsPage);
  m_rowsLayout->setContentsMargins(0, 0, 0, 0);
  m_rowsLayout->setSpacing(1);
  m_rowsLayout->addStretch(1);
  scroll->setWidget(rowsPage);
  layout->addWidget(scroll, 1);
  // What the wrong cells hold, after the reveal: below the rows, where it has the whole width.
  m_details = new QLabel(this);
  m_details->setWordWrap(true);
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_details->hide();
  layout->addWidget(m_details);

  auto* footer = new QHBoxLayout;
  m_score = new QLabel(this);
  m_score->setWordWrap(true);
  m_reveal = new QPushButton(tr("Reveal"), this);
  m_reveal->setToolTip(tr("Mark every answer and add the step to this run-through's score"));
  footer->addWidget(m_score, 1);
  footer->addWidget(m_reveal);
  layout->addLayout(footer);

  connect(m_reveal, &QPushButton::clicked, this, &PredictPanel::reveal);
  connect(m_document, &editor::Document::analysisChanged, this, &PredictPanel::followAnalysis);
  m_states = m_document->analysis().states;
  setStep(0);
}

void PredictPanel::followAnalysis()
{
  // The Program level finishing in the background keeps the chunk states: same cells, same
  // run-through. Other states mean another algorithm (or an edited one): start again.
  if (m_document->analysis().states == m_states)
    return;
  m_states = m_document->analysis().states;
  m_run.clear();
  setStep(m_round.step);
}

void PredictPanel::setStep(int nextStep)
{
  clearRows();
  m_result.reset();
  m_round = m_states ? predictRound(*m_states, nextStep) : PredictRound{};
  m_round.step = nextStep;
  for (const PredictCell& cell : m_round.cells)
    addRow(cell);

  if (!m_states || m_states->rowCount() == 0)
    m_heading->setText(tr("There is no timeline to predict: the algorithm has no Schedule."));
  else if (nextStep >= m_states->stepCount())
    m_heading->setText(tr("The last step has run: nothing is left to predict."));
  else if (!m_states->computed(nextStep + 1))
    m_heading->setText(
        tr("Step %1 is past what the timeline computes: nothing to predict.").arg(nextStep));
  else if (m_round.cells.empty())
    m_heading->setText(tr("Step %1 changes no cell: nothing to predict.").arg(nextStep));
  else
    m_heading->setText(
        tr("Step %1 runs next. What will each of these cells hold after it?").arg(nextStep));
  m_reveal->setEnabled(!m_round.cells.empty());
  updateDetails();
  updateScore();
  emit roundChanged();
}

std::optional<int> PredictPanel::openStep() const
{
  if (isRevealed() || m_round.cells.empty())
    return std::nullopt;
  return m_round.step;
}

void PredictPanel::clearRows()
{
  for (QWidget* row : m_rows)
    delete row;
  m_rows.clear();
  m_choices.clear();
  m_verdicts.clear();
}

void PredictPanel::addRow(const PredictCell& cell)
{
  auto* row = new QWidget(m_rowsLayout->parentWidget());
  auto* layout = new QGridLayout(row);
  layout->setContentsMargins(4, 1, 4, 1);
  layout->setVerticalSpacing(0);
  auto* name = new QLabel(cellName(cell.ref), row);
  name->setToolTip(tr("Holds now: %1").arg(QString::fromStdString(cell.before)));
  auto* choice = new QComboBox(row);
  choice->setPlaceholderText(tr("choose…"));
  // The dock is narrow: the combo shrinks and its popup still shows whole options.
  choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  choice->setMinimumContentsLength(kChoiceMinimumChars);
  for (const std::string& option : cell.options)
    choice->addItem(QString::fromStdString(option));
  choice->setCurrentIndex(-1);
  // One line per cell, so a step's cells fit the dock without scrolling: the verdict is a mark
  // beside the choice (the whole text in its tooltip and in the details below the rows).
  auto* verdict = new QLabel(row);
  verdict->hide();
  layout->addWidget(name, 0, 0);
  layout->addWidget(choice, 0, 1);
  layout->addWidget(verdict, 0, 2);
  layout->setColumnStretch(1, 1);
  // Before the trailing stretch, so the rows stay packed at the top.
  m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row);
  m_rows.push_back(row);
  m_choices.push_back(choice);
  m_verdicts.push_back(verdict);
}

void PredictPanel::choose(int row, int option)
{
  if (isRevealed() || row < 0 || row >= rowCount())
    return;
  QComboBox* choice = m_choices[static_cast<std::size_t>(row)];
  if (option >= choice->count())
    return;
  choice->setCurrentIndex(std::max(option, -1));
}

int PredictPanel::rowOf(const ChunkRef& cell) const
{
  const int statesRow = m_states ? m_states->rowOf(cell) : -1;
  if (statesRow < 0)
    return -1;
  // The round asks once per memory: an aliased row (o[k] in place) is the same question.
  const auto& rows = m_states->rows();
  const std::uint32_t memory = rows[static_cast<std::size_t>(statesRow)].memory;
  for (std::size_t i = 0; i < m_round.cells.size(); ++i) {
    if (rows[static_cast<std::size_t>(m_round.cells[i].row)].memory == memory)
      return static_cast<int>(i);
  }
  return -1;
}

QMenu* PredictPanel::openPicker(const ChunkRef& cell, const QPoint& globalPos)
{
  const int row = rowOf(cell);
  if (row < 0 || isRevealed())
    return nullptr;
  const PredictCell& asked = m_round.cells[static_cast<std::size_t>(row)];
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->addSection(tr("%1 after step %2 holds…").arg(cellName(asked.ref)).arg(m_round.step));
  const int current = m_choices[static_cast<std::size_t>(row)]->currentIndex();
  for (std::size_t option = 0; option < asked.options.size(); ++option) {
    QAction* action = menu->addAction(QString::fromStdString(asked.options[option]));
    action->setCheckable(true);
    action->setChecked(static_cast<int>(option) == current);
    connect(action, &QAction::triggered, this,
            [this, row, option] { choose(row, static_cast<int>(option)); });
  }
  menu->popup(globalPos);
  return menu;
}

void PredictPanel::reveal()
{
  if (isRevealed() || m_round.cells.empty())
    return;
  std::vector<PredictAnswer> answers;
  for (std::size_t i = 0; i < m_round.cells.size(); ++i) {
    const int option = m_choices[i]->currentIndex();
    if (option >= 0)
      answers.push_back({.row = m_round.cells[i].row,
                         .choice = m_round.cells[i].options[static_cast<std::size_t>(option)]});
  }
  m_result = scoreRound(m_round, answers);
  m_run.add(*m_result);
  // scoreRound keeps the round's order: verdict i is row i.
  for (std::size_t i = 0; i < m_result->cells.size() && i < m_rows.size(); ++i)
    markRow(static_cast<int>(i), m_result->cells[i]);
  m_reveal->setEnabled(false);
  updateDetails();
  updateScore();
  emit roundChanged();
}

void PredictPanel::markRow(int row, const CellVerdict& verdict)
{
  const auto index = static_cast<std::size_t>(row);
  QWidget* rowWidget = m_rows[index];
  QPalette palette = rowWidget->palette();
  palette.setColor(QPalette::Window, verdictFill(palette, verdict.right));
  rowWidget->setPalette(palette);
  rowWidget->setAutoFillBackground(true);
  m_choices[index]->setEnabled(false);
  m_verdicts[index]->setText(verdict.right ? QStringLiteral("✓") : QStringLiteral("✗"));
  m_verdicts[index]->setToolTip(verdictText(row));
  m_verdicts[index]->show();
}

void PredictPanel::updateDetails()
{
  QStringList wrong;
  for (int row = 0; m_result && row < static_cast<int>(m_result->cells.size()); ++row) {
    if (!m_result->cells[static_cast<std::size_t>(row)].right)
      wrong << QStringLiteral("%1: %2").arg(
          cellName(m_round.cells[static_cast<std::size_t>(row)].ref), verdictText(row));
  }
  m_details->setText(wrong.join(QLatin1Char('\n')));
  m_details->setVisible(!wrong.isEmpty());
}

QString PredictPanel::verdictText(int row) const
{
  if (!m_result || row < 0 || row >= static_cast<int>(m_result->cells.size()))
    return {};
  const CellVerdict& verdict = m_result->cells[static_cast<std::size_t>(row)];
  if (verdict.right)
    return tr("✓ right");
  const QString answer = QString::fromStdString(verdict.answer);
  return verdict.given.empty() ? tr("✗ not answered: it holds %1").arg(answer)
                               : tr("✗ it holds %1").arg(answer);
}

QString PredictPanel::scoreText() const
{
  return m_score->text();
}

void PredictPanel::updateScore()
{
  const QString runScore = m_run.total() == 0
                               ? tr("no step revealed yet")
                               : tr("%1 of %2").arg(m_run.right()).arg(m_run.total());
  if (m_result)
    m_score->setText(tr("Step %1: %2 of %3 right · this run-through: %4")
                         .arg(m_result->step)
                         .arg(m_result->right)
                         .arg(m_result->total)
                         .arg(runScore));
  else
    m_score->setText(tr("This run-through: %1").arg(runScore));
}

} // namespace cs::visualizer
