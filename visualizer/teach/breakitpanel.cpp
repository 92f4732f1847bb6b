#include "breakitpanel.h"

#include "document/commands/statecommands.h"
#include "document/document.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <array>

namespace cs::visualizer {

namespace {

/// Whether exercises found with `a` still fit a document lowered with `b`: the Program-level ones
/// edit the lowered Program.
bool sameLowering(const LowerOptions& a, const LowerOptions& b)
{
  return a.dialect == b.dialect && a.protocol == b.protocol && a.instances == b.instances &&
         a.gpu == b.gpu;
}

/// "Remove a transfer (2)": the kinds repeat, their questions tell them apart (the tooltip).
QListWidgetItem* exerciseItem(const Exercise& exercise, int ofKind)
{
  auto* item = new QListWidgetItem(
      QStringLiteral("%1 (%2)").arg(QString::fromStdString(exercise.title)).arg(ofKind));
  const std::string_view kind = exerciseKindName(exercise.kind);
  item->setToolTip(QStringLiteral("%1: %2").arg(
      QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size())),
      QString::fromStdString(exercise.question)));
  return item;
}

} // namespace

BreakItPanel::BreakItPanel(editor::Document* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
  // The list above, what is chosen and revealed below, a splitter between: at the dock's
  // default size both show without scrolling, and either can be given the room.
  auto* layout = new QVBoxLayout(this);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  layout->addWidget(m_status);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setChildrenCollapsible(false);
  m_list = new QListWidget(splitter);
  m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // Titles are short: they flow in columns, so the dock's width shows a whole list at once.
  m_list->setFlow(QListView::LeftToRight);
  m_list->setWrapping(true);
  m_list->setResizeMode(QListView::Adjust);
  m_list->setUniformItemSizes(true);
  m_list->setSpacing(1);
  splitter->addWidget(m_list);
  auto* below = new QWidget(splitter);
  auto* belowLayout = new QVBoxLayout(below);
  belowLayout->setContentsMargins(0, 0, 0, 0);
  m_question = new QLabel(below);
  m_question->setWordWrap(true);
  belowLayout->addWidget(m_question);
  auto* buttons = new QHBoxLayout;
  m_break = new QPushButton(tr("Break it"), below);
  m_hint = new QPushButton(tr("Hint"), below);
  m_fix = new QPushButton(tr("Show the fix"), below);
  for (QPushButton* button : {m_break, m_hint, m_fix})
    buttons->addWidget(button);
  buttons->addStretch(1);
  belowLayout->addLayout(buttons);
  m_run = new BreakItRun(m_document, below);
  belowLayout->addWidget(m_run);
  m_reveal = new QTextBrowser(below);
  belowLayout->addWidget(m_reveal, 1);
  splitter->addWidget(below);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({2, 3}); // the same shares from the start
  layout->addWidget(splitter, 1);

  connect(m_break, &QPushButton::clicked, this, &BreakItPanel::breakIt);
  connect(m_hint, &QPushButton::clicked, this, &BreakItPanel::showHint);
  connect(m_fix, &QPushButton::clicked, this, &BreakItPanel::showFix);
  connect(m_list, &QListWidget::currentRowChanged, this, [this] {
    m_reveal->clear();
    updateControls();
  });
  connect(&m_watcher, &QFutureWatcher<ExerciseSet>::finished, this, &BreakItPanel::searchFinished);
  connect(m_document, &editor::Document::analysisChanged, this, &BreakItPanel::algorithmChanged);
  connect(m_document->undoStack(), &QUndoStack::indexChanged, this, &BreakItPanel::updateControls);
  search();
}

BreakItPanel::~BreakItPanel()
{
  // The search holds nothing of the panel's, but its result must not arrive in a dead panel.
  m_watcher.disconnect(this);
  m_watcher.waitForFinished();
}

int BreakItPanel::currentExercise() const
{
  return m_list->currentRow();
}

void BreakItPanel::setCurrentExercise(int index)
{
  m_list->setCurrentRow(index);
}

bool BreakItPanel::canShowFix() const
{
  if (m_appliedSlots)
    return true;
  const QUndoStack* stack = m_document->undoStack();
  return m_applied && stack->index() == m_appliedIndex &&
         stack->command(m_appliedIndex - 1) == m_applied;
}

QString BreakItPanel::revealText() const
{
  return m_reveal->toPlainText();
}

std::optional<Schedule> BreakItPanel::currentSchedule() const
{
  if (m_document->source() == editor::Source::Schedule)
    return m_document->schedule();
  return m_document->shownSchedule();
}

bool BreakItPanel::isStale() const
{
  return currentSchedule() != m_set.schedule ||
         !sameLowering(m_document->lowering(), m_searchedLowering);
}

void BreakItPanel::showEvent(QShowEvent* event)
{
  QWidget::showEvent(event);
  if (m_searchWhenShown)
    search();
}

void BreakItPanel::search()
{
  m_searchWhenShown = !isVisible();
  if (m_searchWhenShown) {
    m_status->setText(tr("The exercises are found when this tab is shown."));
    return;
  }
  if (m_searching) {
    m_searchAgain = true;
    return;
  }
  std::optional<Schedule> schedule = currentSchedule();
  m_applied = nullptr;
  m_appliedSlots.reset();
  m_set = {};
  m_list->clear();
  if (!schedule) {
    m_status->setText(tr("No exercises: the algorithm has no Schedule to break."));
    updateControls();
    return;
  }
  m_searching = true;
  ++m_searchesStarted;
  m_status->setText(tr("Finding exercises…"));
  updateControls();
  ExerciseOptions options;
  options.lowering = m_document->lowering();
  m_searchedLowering = options.lowering;
  m_watcher.setFuture(QtConcurrent::run(
      [schedule = std::move(*schedule), options] { return generateExercises(schedule, options); }));
}

void BreakItPanel::searchFinished()
{
  m_searching = false;
  m_set = m_watcher.result();
  const bool again = m_searchAgain && isStale();
  m_searchAgain = false;
  if (again)
    search();
  else
    fillList();
}

void BreakItPanel::algorithmChanged()
{
  if (m_pushing)
    return;
  const QUndoStack* stack = m_document->undoStack();
  const bool applied = m_applied && stack->index() >= m_appliedIndex &&
                       stack->command(m_appliedIndex - 1) == m_applied;
  if (applied)
    return;               // the exercise itself changed the algorithm
  m_appliedSlots.reset(); // the depth was set for the algorithm that was there
  if (m_searching) {
    m_searchAgain = true;
    return;
  }
  if (isStale())
    search();
  else
    updateControls();
}

void BreakItPanel::fillList()
{
  m_list->clear();
  std::array<int, kExerciseKindCount> ofKind{};
  for (const Exercise& exercise : m_set.exercises)
    m_list->addItem(exerciseItem(exercise, ++ofKind[static_cast<std::size_t>(exercise.kind)]));
  if (m_set.exercises.empty()) {
    QStringList reasons;
    for (const Diagnostic& diagnostic : m_set.diagnostics)
      reasons << QString::fromStdString(diagnostic.message);
    m_status->setText(
        tr("No exercises for this algorithm. %1").arg(reasons.join(QLatin1Char(' '))));
  } else {
    m_status->setText(tr("%n exercise(s): pick one, predict what happens, then break it.", nullptr,
                         static_cast<int>(m_set.exercises.size())));
    m_list->setCurrentRow(0);
  }
  updateControls();
}

void BreakItPanel::updateControls()
{
  const int row = currentExercise();
  const bool valid = row >= 0 && row < static_cast<int>(m_set.exercises.size());
  m_question->setText(
      valid ? QString::fromStdString(m_set.exercises[static_cast<std::size_t>(row)].question)
            : QString());
  m_break->setEnabled(valid && !isSearching() && !canShowFix());
  m_hint->setEnabled(valid);
  m_fix->setEnabled(canShowFix());
  updateRun();
}

void BreakItPanel::updateRun()
{
  if (!canShowFix()) {
    m_run->clearExercise();
    return;
  }
  // The exercises were judged with the unbroken program's depth; the shrink one sets its own.
  std::optional<int> depth = m_appliedSlots;
  if (!depth && m_set.connectionSlots > 0)
    depth = m_set.connectionSlots;
  m_run->setExercise(depth, m_set.root);
}

void BreakItPanel::reveal(const Exercise& exercise, const QString& note)
{
  QString text = QString::fromStdString(describeOutcome(exercise.outcome));
  if (!note.isEmpty())
    text += QStringLiteral("\n\n") + note;
  m_reveal->setPlainText(text);
}

bool BreakItPanel::pushEdit(const Exercise& exercise)
{
  const QString text = tr("Break it: %1").arg(QString::fromStdString(exercise.title));
  const ExerciseEdit& edit = exercise.edit;
  QUndoStack* stack = m_document->undoStack();
  const int before = stack->index();
  // The push re-analyses the document at once: that change is the exercise, not a new algorithm.
  m_pushing = true;
  if (edit.transfer) {
    const std::optional<Schedule> schedule = currentSchedule();
    if (schedule)
      stack->push(new editor::ReplaceScheduleCommand(
          m_document, applyTransferEdit(*schedule, *edit.transfer), text));
  } else if (edit.instructions) {
    m_document->waitForAnalysis();
    const std::optional<Program>& program = m_document->shownProgram();
    if (program)
      stack->push(new editor::ReplaceProgramCommand(
          m_document, applyInstructionEdit(*program, *edit.instructions), text));
  }
  m_pushing = false;
  if (stack->index() == before)
    return false; // nothing to apply it to
  m_appliedIndex = stack->index();
  m_applied = stack->command(m_appliedIndex - 1);
  return true;
}

void BreakItPanel::breakIt()
{
  const int row = currentExercise();
  if (row < 0 || row >= static_cast<int>(m_set.exercises.size()) || isSearching())
    return;
  const Exercise exercise = m_set.exercises[static_cast<std::size_t>(row)];
  if (exercise.edit.connections) {
    applyConnections(exercise);
    return;
  }
  if (!pushEdit(exercise)) {
    m_reveal->setPlainText(tr("This exercise cannot be applied: the algorithm does not lower."));
    return;
  }
  if (exercise.edit.transfer && exercise.edit.transfer->after)
    m_document->selectTransfer(exercise.edit.transfer->after->id);
  reveal(exercise, tr("The Problems panel lists the checker's findings; the timeline and the "
                      "program view show the broken algorithm. \"Show the fix\" undoes it."));
  updateControls();
}

void BreakItPanel::applyConnections(const Exercise& exercise)
{
  // The document has no connection depth (the Program format has none; the runtime's is the
  // protocol's): it is a setting of the run, as `cstudio run --slots` and the checker's
  // --fifo-slots. The verdict shown was judged with it and the CPU run below uses it.
  const ConnectionEdit& edit = *exercise.edit.connections;
  m_appliedSlots = edit.afterSlots;
  reveal(exercise, tr("The connection depth is a setting of the run, not of the document (which "
                      "is unchanged): the checker's verdict above and \"Run on the CPU\" use %1 "
                      "message(s) per connection instead of %2. \"Show the fix\" goes back to %2.")
                       .arg(edit.afterSlots)
                       .arg(edit.beforeSlots));
  updateControls();
}

void BreakItPanel::showHint()
{
  const int row = currentExercise();
  if (row < 0 || row >= static_cast<int>(m_set.exercises.size()))
    return;
  m_reveal->setPlainText(
      tr("Hint: %1")
          .arg(QString::fromStdString(m_set.exercises[static_cast<std::size_t>(row)].hint)));
}

void BreakItPanel::showFix()
{
  if (!canShowFix())
    return;
  if (m_appliedSlots) {
    m_appliedSlots.reset();
    m_reveal->setPlainText(tr("Fixed: the connections hold as many messages as before."));
    updateControls();
    return;
  }
  m_document->undoStack()->undo();
  m_applied = nullptr;
  m_appliedIndex = -1;
  m_reveal->setPlainText(tr("Fixed: the algorithm is back as it was."));
  updateControls();
}

} // namespace cs::visualizer
