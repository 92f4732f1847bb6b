#include "programview.h"

#include "programdelegate.h"
#include "programedits.h"
#include "programmodel.h"
#include "programtreeview.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/paintedicons.h"
#include "style/textformat.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

QString legendChip(const QColor& color, const QString& text)
{
  return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>"
                        "&nbsp;%2")
      .arg(color.name(), text.toHtmlEscaped());
}

} // namespace

ProgramView::ProgramView(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new ProgramModel(document, this)),
      m_tree(new ProgramTreeView(this)), m_summary(new QLabel(this)), m_legend(new QLabel(this)),
      m_placeholder(new QLabel(this)), m_stack(new QStackedWidget(this))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* header = new QWidget(this);
  auto* headerLayout = new QHBoxLayout(header);
  headerLayout->setContentsMargins(10, 6, 10, 6);
  m_summary->setObjectName(QStringLiteral("programSummary"));
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  headerLayout->addWidget(m_summary, 1);
  m_legend->setTextFormat(Qt::RichText);
  headerLayout->addWidget(m_legend);
  layout->addWidget(header);

  setUpTree();
  m_placeholder->setObjectName(QStringLiteral("programPlaceholder"));
  m_placeholder->setAlignment(Qt::AlignCenter);
  m_placeholder->setWordWrap(true);
  m_placeholder->setMargin(24);
  m_stack->addWidget(m_tree);
  m_stack->addWidget(m_placeholder);
  layout->addWidget(m_stack, 1);

  createRowActions();

  connect(m_tree, &ProgramTreeView::dependencyActivated, this, &ProgramView::jumpToDependency);
  connect(m_tree, &QTreeView::expanded, this, [this](const QModelIndex& index) {
    if (const auto tb = m_model->threadBlockAt(index))
      m_expandedTbs.insert(*tb);
    else if (const auto rank = m_model->rankAt(index))
      m_expandedRanks.insert(*rank);
  });
  connect(m_tree, &QTreeView::collapsed, this, [this](const QModelIndex& index) {
    if (const auto tb = m_model->threadBlockAt(index))
      m_expandedTbs.remove(*tb);
    else if (const auto rank = m_model->rankAt(index))
      m_expandedRanks.remove(*rank);
  });
  connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, &ProgramView::rememberExpansion);
  connect(m_model, &QAbstractItemModel::modelReset, this, &ProgramView::restoreExpansion);
  connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &ProgramView::onTreeSelectionChanged);
  connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ProgramView::onTreeSelectionChanged);

  connect(m_document, &Document::changed, this, [this](const ChangeEvent& event) {
    if (event.kind == ChangeEvent::Kind::Reset)
      m_awaitingProgram = true;
  });
  connect(m_document, &Document::analysisChanged, this, &ProgramView::onAnalysisChanged);
  connect(m_document, &Document::selectionChanged, this, &ProgramView::syncFromDocument);
  connect(m_document, &Document::originChanged, this, &ProgramView::updateSummary);

  onAnalysisChanged();
  m_tree->spanHeaderRows();
}

void ProgramView::setUpTree()
{
  m_tree->setObjectName(QStringLiteral("programTree"));
  m_tree->setModel(m_model);
  m_tree->setItemDelegate(new ProgramDelegate(m_tree));
  m_tree->setUniformRowHeights(true);
  m_tree->setAlternatingRowColors(true);
  m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
  m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_tree->setAllColumnsShowFocus(true);
  m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
  m_tree->header()->setStretchLastSection(true);
  m_tree->header()->setSectionsMovable(false);

  const QFontMetrics metrics = fontMetrics();
  const int digit = metrics.horizontalAdvance(QLatin1Char('0'));
  const int indent = m_tree->indentation();
  m_tree->setColumnWidth(ProgramModel::StepColumn, 2 * indent + 16 + 10 * digit);
  m_tree->setColumnWidth(ProgramModel::TypeColumn, 9 * digit + 24);
  m_tree->setColumnWidth(ProgramModel::SourceColumn, 12 * digit + 16);
  m_tree->setColumnWidth(ProgramModel::DestinationColumn, 12 * digit + 16);
  m_tree->setColumnWidth(ProgramModel::CountColumn, 6 * digit + 16);
  m_tree->setColumnWidth(ProgramModel::DependsColumn, 15 * digit + 16);
  m_tree->setColumnWidth(ProgramModel::HasDepColumn, 9 * digit + 16);
}

void ProgramView::createRowActions()
{
  m_insertNop = makeAction(insertRowIcon(), tr("Insert nop after"), QKeySequence(Qt::Key_Insert),
                           &ProgramView::insertNop);
  m_insertNop->setToolTip(tr("Insert a nop after the selected instruction (Insert); "
                             "dependencies keep pointing at the same instructions"));
  m_delete = makeAction(deleteRowIcon(), tr("Delete instruction"),
                        QKeySequence(QKeySequence::Delete), &ProgramView::deleteCurrent);
  m_delete->setToolTip(tr("Delete the selected instruction (Del); later steps are renumbered"));
  m_moveUp = makeAction(moveRowIcon(false), tr("Move instruction up"),
                        QKeySequence(Qt::CTRL | Qt::Key_Up), nullptr);
  m_moveUp->setToolTip(tr("Swap the selected instruction with the one before it (Ctrl+Up), "
                          "e.g. to send before receiving; dependencies follow the instructions"));
  connect(m_moveUp, &QAction::triggered, this, [this] { moveCurrent(-1); });
  m_moveDown = makeAction(moveRowIcon(true), tr("Move instruction down"),
                          QKeySequence(Qt::CTRL | Qt::Key_Down), nullptr);
  m_moveDown->setToolTip(tr("Swap the selected instruction with the one after it (Ctrl+Down)"));
  connect(m_moveDown, &QAction::triggered, this, [this] { moveCurrent(1); });
  m_jump =
      makeAction(jumpIcon(), tr("Go to dependency"), QKeySequence(Qt::CTRL | Qt::Key_J), nullptr);
  connect(m_jump, &QAction::triggered, this, [this] {
    if (const auto at = currentInstruction())
      jumpToDependency(m_model->instructionIndex(*at, ProgramModel::DependsColumn));
  });
  auto* separator = new QAction(this);
  separator->setSeparator(true);
  m_tree->addAction(separator);
  m_toolActions << separator;
  QAction* expand = makeAction(expandAllIcon(), tr("Expand all"), {}, nullptr);
  connect(expand, &QAction::triggered, m_tree, &QTreeView::expandAll);
  QAction* collapse = makeAction(collapseAllIcon(), tr("Collapse all"), {}, nullptr);
  connect(collapse, &QAction::triggered, m_tree, &QTreeView::collapseAll);
}

void ProgramView::changeEvent(QEvent* event)
{
  QWidget::changeEvent(event);
  // The legend's tints follow the light or dark palette.
  if (event->type() == QEvent::PaletteChange)
    updateSummary();
}

QAction* ProgramView::makeAction(const QIcon& icon, const QString& text,
                                 const QKeySequence& shortcut, void (ProgramView::*slot)())
{
  auto* action = new QAction(icon, text, this);
  if (!shortcut.isEmpty()) {
    action->setShortcut(shortcut);
    // Only while the tree has focus: Delete on the timeline must delete transfers, not this.
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  }
  if (slot)
    connect(action, &QAction::triggered, this, slot);
  m_tree->addAction(action);
  m_toolActions << action;
  return action;
}

QString ProgramView::summaryText() const
{
  return m_summary->text();
}

void ProgramView::updateSummary()
{
  const std::optional<Program>& program = m_document->shownProgram();
  if (!program) {
    m_summary->setText(tr("No program"));
  } else {
    QString origin;
    if (m_document->source() == Source::Schedule) {
      origin = tr("lowered from the timeline");
    } else {
      const QString path = m_document->origin().filePath;
      origin = path.endsWith(QStringLiteral(".xml"), Qt::CaseInsensitive)
                   ? tr("imported from %1").arg(QFileInfo(path).fileName())
                   : tr("edited at instruction level");
    }
    const QStringList parts{
        countText(program->ngpus > 0 ? program->ngpus
                                     : static_cast<long long>(program->gpus.size()),
                  tr("rank"), tr("ranks")),
        countText(program->threadblockCount(), tr("threadblock"), tr("threadblocks")),
        countText(program->stepCount(), tr("instruction"), tr("instructions")),
        QString::fromUtf8(dialect(m_document->lowering().dialect).key),
        QString::fromUtf8(protocolName(program->proto)),
        origin,
    };
    QString summary = parts.join(QStringLiteral("  ·  "));
    if (m_document->analysis().programPending)
      summary += QStringLiteral("  ·  ") + tr("lowering the new timeline…");
    m_summary->setText(summary);
  }
  const QString gap = QStringLiteral("&nbsp;&nbsp;&nbsp;");
  QString legend;
  if (m_model->hasPlaybackMarks()) {
    using Playback = ProgramModel::Playback;
    legend = legendChip(ProgramModel::playbackColor(Playback::Running), tr("running")) + gap +
             legendChip(ProgramModel::playbackColor(Playback::Done), tr("done")) + gap +
             legendChip(ProgramModel::playbackColor(Playback::Blocked), tr("blocked")) + gap;
  }
  m_legend->setText(
      legend +
      legendChip(ProgramModel::highlightColor(ProgramModel::Highlight::WaitedFor),
                 tr("waited for")) +
      gap +
      legendChip(ProgramModel::highlightColor(ProgramModel::Highlight::Waiter), tr("waits on it")));
  m_legend->setToolTip(tr("When an instruction is selected, the instruction it waits for "
                          "(depid/deps) and the instructions that wait on it are tinted"));
}

void ProgramView::onAnalysisChanged()
{
  // The model has refreshed itself already (it connected to analysisChanged first).
  const std::optional<Program>& program = m_document->shownProgram();
  const bool pending = m_document->analysis().programPending;
  if (!pending)
    m_awaitingProgram = false;
  if (pending && (m_awaitingProgram || !program)) {
    m_placeholder->setText(tr("Lowering the timeline to a program…"));
    m_stack->setCurrentWidget(m_placeholder);
  } else if (program) {
    m_stack->setCurrentWidget(m_tree);
  } else {
    QString reason = tr("The timeline cannot be lowered to a program yet.");
    for (const Problem& problem : m_document->analysis().problems)
      if (problem.stage == ProblemStage::Lowering &&
          problem.diagnostic.severity == Severity::Error) {
        reason += QStringLiteral("\n\n") + QString::fromStdString(problem.diagnostic.message);
        break;
      }
    m_placeholder->setText(reason + QStringLiteral("\n\n") +
                           tr("Fix the problems listed in the Problems dock; the instructions "
                              "appear here as soon as lowering succeeds."));
    m_stack->setCurrentWidget(m_placeholder);
  }
  updateSummary();
  syncFromDocument();
  updateActions();
}

void ProgramView::rememberExpansion()
{
  m_scrollValue = m_tree->verticalScrollBar()->value();
}

void ProgramView::restoreExpansion()
{
  const int ranks = m_model->rowCount();
  for (int row = 0; row < ranks; ++row) {
    const QModelIndex rank = m_model->index(row, 0);
    const std::optional<int> rankId = m_model->rankAt(rank);
    if (!rankId || !m_expandedRanks.contains(*rankId))
      continue;
    m_tree->expand(rank);
    const int tbs = m_model->rowCount(rank);
    for (int t = 0; t < tbs; ++t) {
      const QModelIndex tb = m_model->index(t, 0, rank);
      if (const auto ids = m_model->threadBlockAt(tb); ids && m_expandedTbs.contains(*ids))
        m_tree->expand(tb);
    }
  }
  m_tree->spanHeaderRows();
  m_tree->doItemsLayout();
  m_tree->verticalScrollBar()->setValue(m_scrollValue);
}

std::optional<InstructionRef> ProgramView::currentInstruction() const
{
  return m_model->instructionAt(m_tree->currentIndex());
}

void ProgramView::syncFromDocument()
{
  if (m_syncing)
    return;
  QScopedValueRollback guard(m_syncing, true);
  const Selection& selection = m_document->selection();
  std::vector<InstructionRef> targets;
  if (selection.instruction) {
    targets.push_back(*selection.instruction);
  } else {
    // A rubber band on the timeline may select thousands of transfers; mirroring the first few
    // hundred is enough to see them and keeps selection changes within a frame.
    constexpr std::size_t kMirroredTransfers = 256;
    for (int transfer : selection.transfers) {
      if (targets.size() == kMirroredTransfers)
        break;
      const std::vector<InstructionOrigin> instructions =
          m_document->analysis().instructionsOf(transfer);
      if (!instructions.empty())
        targets.push_back(
            {instructions.front().rank, instructions.front().tb, instructions.front().step});
    }
  }

  QItemSelection rows;
  QModelIndex first;
  for (const InstructionRef& at : targets) {
    const QModelIndex index = m_model->instructionIndex(at);
    if (!index.isValid())
      continue;
    m_tree->expand(index.parent().parent());
    m_tree->expand(index.parent());
    rows.select(index, index.siblingAtColumn(ProgramModel::ColumnCount - 1));
    if (!first.isValid())
      first = index;
  }
  m_model->setFocusInstruction(first.isValid() ? m_model->instructionAt(first) : std::nullopt);
  QItemSelectionModel* selectionModel = m_tree->selectionModel();
  if (!first.isValid()) {
    if (m_model->rowKind(m_tree->currentIndex()) == ProgramModel::RowKind::Instruction)
      selectionModel->clear();
    updateActions();
    return;
  }
  selectionModel->select(rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  selectionModel->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
  m_tree->scrollTo(first);
  updateActions();
}

void ProgramView::onTreeSelectionChanged()
{
  updateActions();
  if (m_syncing)
    return;
  const std::optional<InstructionRef> current = currentInstruction();
  if (!current)
    return;
  Selection selection;
  selection.instruction = *current;
  const int transfer = m_model->transferAt(*current);
  if (transfer >= 0)
    selection.transfers.insert(transfer);
  m_model->setFocusInstruction(current);
  QScopedValueRollback guard(m_syncing, true);
  m_document->setSelection(selection);
}

void ProgramView::revealInstruction(const InstructionRef& at)
{
  Selection selection;
  selection.instruction = at;
  const int transfer = m_model->transferAt(at);
  if (transfer >= 0)
    selection.transfers.insert(transfer);
  m_document->setSelection(selection);
  syncFromDocument();
}

void ProgramView::setPlaybackMarks(const PlaybackMarks& marks)
{
  const bool wasActive = m_model->hasPlaybackMarks();
  m_model->setPlaybackMarks(marks);
  if (wasActive != m_model->hasPlaybackMarks())
    updateSummary();
  // Follow the selected threadblock's running instruction, once per instruction it starts.
  const std::optional<InstructionRef> selected = m_document->selection().instruction;
  const LaneMark* lane =
      selected && marks.active ? marks.laneMark(selected->rank, selected->tb) : nullptr;
  if (!lane || lane->running.empty())
    return;
  const InstructionRef running{selected->rank, selected->tb, lane->running.front()};
  if (m_followed == running)
    return;
  m_followed = running;
  const QModelIndex index = m_model->instructionIndex(running);
  if (index.isValid() && m_tree->isExpanded(index.parent()))
    m_tree->scrollTo(index, QAbstractItemView::EnsureVisible);
}

void ProgramView::updateActions()
{
  const std::optional<InstructionRef> current = currentInstruction();
  const bool editable = current && m_model->isEditable();
  m_insertNop->setEnabled(editable);
  m_delete->setEnabled(editable);
  const ThreadBlock* tb = editable && m_document->shownProgram()
                              ? m_document->shownProgram()->threadblock(current->rank, current->tb)
                              : nullptr;
  m_moveUp->setEnabled(tb && current->step > 0);
  m_moveDown->setEnabled(tb && current->step + 1 < static_cast<int>(tb->steps.size()));
  m_jump->setEnabled(current && m_model->dependencyOf(*current));
}

void ProgramView::insertNop()
{
  const std::optional<InstructionRef> at = currentInstruction();
  const std::optional<Program>& program = m_document->shownProgram();
  if (!at || !program || !m_model->isEditable())
    return;
  std::optional<Program> edited = insertNopAfter(*program, *at);
  if (!edited)
    return;
  m_document->undoStack()->push(new ReplaceProgramCommand(
      m_document, std::move(edited),
      tr("Insert nop after r%1 tb %2 s %3").arg(at->rank).arg(at->tb).arg(at->step)));
  revealInstruction({at->rank, at->tb, at->step + 1});
}

void ProgramView::moveCurrent(int delta)
{
  const std::optional<InstructionRef> at = currentInstruction();
  const std::optional<Program>& program = m_document->shownProgram();
  if (!at || !program || !m_model->isEditable())
    return;
  std::optional<Program> edited = moveInstruction(*program, *at, delta);
  if (!edited)
    return;
  m_document->undoStack()->push(
      new ReplaceProgramCommand(m_document, std::move(edited),
                                tr("Move r%1 tb %2 s %3 %4")
                                    .arg(at->rank)
                                    .arg(at->tb)
                                    .arg(at->step)
                                    .arg(delta < 0 ? tr("up") : tr("down"))));
  revealInstruction({at->rank, at->tb, at->step + delta});
}

void ProgramView::deleteCurrent()
{
  const std::optional<InstructionRef> at = currentInstruction();
  const std::optional<Program>& program = m_document->shownProgram();
  if (!at || !program || !m_model->isEditable())
    return;
  std::optional<Program> edited = deleteInstruction(*program, *at);
  if (!edited)
    return;
  const ThreadBlock* tb = edited->threadblock(at->rank, at->tb);
  const int remaining = tb ? static_cast<int>(tb->steps.size()) : 0;
  m_document->undoStack()->push(new ReplaceProgramCommand(
      m_document, std::move(edited),
      tr("Delete r%1 tb %2 s %3").arg(at->rank).arg(at->tb).arg(at->step)));
  // Keep the keyboard in the same place: the next instruction, or the new last one.
  if (remaining > 0)
    revealInstruction({at->rank, at->tb, std::min(at->step, remaining - 1)});
  else
    m_document->setSelection({});
}

void ProgramView::jumpToDependency(const QModelIndex& index)
{
  const std::optional<InstructionRef> at = m_model->instructionAt(index);
  if (!at)
    return;
  if (const std::optional<InstructionRef> target = m_model->dependencyOf(*at))
    revealInstruction(*target);
}

} // namespace cs::editor
