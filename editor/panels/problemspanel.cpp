#include "problemspanel.h"

#include "gpuchoice.h"

#include "problemsmodel.h"
#include "problemtargets.h"
#include "style/paintedicons.h"
#include "style/textformat.h"

#include "document/document.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

QToolButton* makeToggle(const QIcon& icon, const QString& name, QWidget* parent)
{
  auto* button = new QToolButton(parent);
  button->setObjectName(name);
  button->setIcon(icon);
  button->setCheckable(true);
  button->setChecked(true);
  button->setAutoRaise(true);
  button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  return button;
}

/// An icon as a data URL, for rich text.
QString iconDataUrl(const QIcon& icon, int side)
{
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  icon.pixmap(side, side).save(&buffer, "PNG");
  return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

} // namespace

ProblemsPanel::ProblemsPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new ProblemsModel(document, this)),
      m_tree(new QTreeView(this)),
      m_errors(makeToggle(severityIcon(Severity::Error), QStringLiteral("showErrors"), this)),
      m_warnings(makeToggle(severityIcon(Severity::Warning), QStringLiteral("showWarnings"), this)),
      m_infos(makeToggle(severityIcon(Severity::Info), QStringLiteral("showInfos"), this)),
      m_search(new QLineEdit(this)), m_pending(new QLabel(this)), m_stack(new QStackedWidget(this)),
      m_emptyIcon(new QLabel(this)), m_emptyTitle(new QLabel(this)),
      m_emptyDetail(new QLabel(this)), m_details(new QTextBrowser(this)),
      m_filterBar(new QWidget(this)), m_compactLine(new QLabel(this))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  m_filterBar->setLayout(buildFilterBar());
  layout->addWidget(m_filterBar);
  setUpTree();
  m_stack->addWidget(m_tree);
  m_stack->addWidget(buildEmptyPage());
  // The whole message of the current problem beside the table, wrapped: rows elide long ones.
  auto* body = new QHBoxLayout;
  body->setSpacing(0);
  body->addWidget(m_stack, 2);
  setUpDetails();
  body->addWidget(m_details, 1);
  layout->addLayout(body, 1);
  m_compactLine->setObjectName(QStringLiteral("compactLine"));
  m_compactLine->setContentsMargins(8, 3, 8, 3);
  m_compactLine->setTextFormat(Qt::RichText);
  m_compactLine->hide();
  layout->addWidget(m_compactLine);

  for (QToolButton* toggle : {m_errors, m_warnings, m_infos})
    connect(toggle, &QToolButton::toggled, this, &ProblemsPanel::applyFilter);
  connect(m_search, &QLineEdit::textChanged, this, &ProblemsPanel::applyFilter);
  connect(m_tree, &QTreeView::activated, this, &ProblemsPanel::activate);
  connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &ProblemsPanel::showDetails);
  connect(m_model, &QAbstractItemModel::modelReset, this, &ProblemsPanel::showDetails);
  connect(m_document, &Document::analysisChanged, this, &ProblemsPanel::refresh);
  refresh();
}

QLayout* ProblemsPanel::buildFilterBar()
{
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->setSpacing(2);
  m_errors->setToolTip(tr("Show errors"));
  m_warnings->setToolTip(tr("Show warnings"));
  m_infos->setToolTip(tr("Show notes and infos"));
  bar->addWidget(m_errors);
  bar->addWidget(m_warnings);
  bar->addWidget(m_infos);
  bar->addSpacing(8);
  m_search->setObjectName(QStringLiteral("problemSearch"));
  m_search->setPlaceholderText(tr("Filter by message, code or location"));
  m_search->setClearButtonEnabled(true);
  m_search->setMaximumWidth(360);
  bar->addWidget(m_search, 1);
  m_pending->setObjectName(QStringLiteral("pending"));
  m_pending->setText(tr("Checking the lowered program…"));
  m_pending->setForegroundRole(QPalette::PlaceholderText);
  m_pending->setContentsMargins(8, 0, 0, 0);
  m_pending->hide();
  bar->addWidget(m_pending);
  bar->addStretch();
  return bar;
}

void ProblemsPanel::setUpTree()
{
  m_tree->setObjectName(QStringLiteral("problemTree"));
  m_tree->setModel(m_model);
  m_tree->setUniformRowHeights(true);
  m_tree->setAlternatingRowColors(true);
  m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_tree->setAllColumnsShowFocus(true);
  m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
  QHeaderView* header = m_tree->header();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(ProblemsModel::MessageColumn, QHeaderView::Stretch);
  const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
  m_tree->setColumnWidth(ProblemsModel::CodeColumn, 17 * digit);
  m_tree->setColumnWidth(ProblemsModel::WhereColumn, 19 * digit);
  m_tree->setColumnWidth(ProblemsModel::StageColumn, 10 * digit);
  // The stage is in the details beside the table; the message needs the room more.
  m_tree->setColumnHidden(ProblemsModel::StageColumn, true);

  auto* copy = new QAction(tr("Copy"), this);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(copy, &QAction::triggered, this, &ProblemsPanel::copySelection);
  m_tree->addAction(copy);

  m_fix = new QAction(this);
  m_fix->setObjectName(QStringLiteral("problemFix"));
  m_fix->setVisible(false);
  connect(m_fix, &QAction::triggered, this, [this] {
    if (QUndoCommand* command = makeChooseGpuCommand(m_document, m_fixGpu))
      m_document->undoStack()->push(command);
  });
  m_tree->addAction(m_fix);
}

QWidget* ProblemsPanel::buildEmptyPage()
{
  auto* empty = new QWidget(this);
  auto* emptyLayout = new QVBoxLayout(empty);
  emptyLayout->addStretch();
  auto* emptyRow = new QHBoxLayout;
  emptyRow->addStretch();
  emptyRow->addWidget(m_emptyIcon);
  emptyRow->addSpacing(10);
  auto* texts = new QVBoxLayout;
  QFont titleFont = m_emptyTitle->font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  m_emptyTitle->setFont(titleFont);
  m_emptyTitle->setObjectName(QStringLiteral("emptyTitle"));
  m_emptyDetail->setTextFormat(Qt::RichText);
  connect(m_emptyDetail, &QLabel::linkActivated, this, [this] {
    m_search->clear();
    for (QToolButton* toggle : {m_errors, m_warnings, m_infos})
      toggle->setChecked(true);
  });
  texts->addWidget(m_emptyTitle);
  texts->addWidget(m_emptyDetail);
  emptyRow->addLayout(texts);
  emptyRow->addStretch();
  emptyLayout->addLayout(emptyRow);
  emptyLayout->addStretch();
  return empty;
}

void ProblemsPanel::setUpDetails()
{
  // A text browser rather than a label: a message may hold a token wider than the pane (an
  // identifier, a path), which it breaks anywhere instead of clipping, and a long message
  // scrolls instead of being cut at the bottom.
  m_details->setObjectName(QStringLiteral("problemDetails"));
  m_details->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  m_details->setOpenLinks(false);
  m_details->setFrameShape(QFrame::NoFrame);
  m_details->document()->setDocumentMargin(6);
  m_details->viewport()->setAutoFillBackground(true);
  m_details->viewport()->setBackgroundRole(QPalette::AlternateBase);
  m_details->setMinimumWidth(12 * fontMetrics().horizontalAdvance(QLatin1Char('0')));
  m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  m_details->hide();
}

int ProblemsPanel::problemCount() const
{
  return m_model->problemCount();
}

void ProblemsPanel::refresh()
{
  const Analysis& analysis = m_document->analysis();
  const int infos =
      static_cast<int>(analysis.problems.size()) - analysis.errors - analysis.warnings;
  // The toggles filter the run's rows too, so they count them.
  int errors = analysis.errors;
  int warnings = analysis.warnings;
  int allInfos = infos;
  for (const Problem& problem : m_model->runProblems()) {
    const Severity severity = problem.diagnostic.severity;
    ++(severity == Severity::Error ? errors : severity == Severity::Warning ? warnings : allInfos);
  }
  m_errors->setText(countText(errors, tr("error"), tr("errors")));
  m_warnings->setText(countText(warnings, tr("warning"), tr("warnings")));
  m_infos->setText(countText(allInfos, tr("info"), tr("infos")));

  QString summary;
  const auto run = static_cast<long long>(m_model->runProblems().size());
  if (analysis.problems.empty() && run > 0) {
    summary = countText(run, tr("run problem"), tr("run problems"));
  } else if (analysis.problems.empty()) {
    summary = tr("No problems");
  } else {
    summary = countText(analysis.errors, tr("error"), tr("errors")) + QStringLiteral(", ") +
              countText(analysis.warnings, tr("warning"), tr("warnings"));
    if (infos > 0)
      summary += QStringLiteral(", ") + countText(infos, tr("info"), tr("infos"));
    if (run > 0)
      summary += QStringLiteral(", ") + countText(run, tr("run problem"), tr("run problems"));
  }
  m_pending->setVisible(analysis.programPending);
  m_model->refresh();
  m_tree->expandAll();
  restoreCurrent();
  updateEmptyState();
  if (summary != m_summary) {
    m_summary = summary;
    emit summaryChanged(m_summary);
  }
}

void ProblemsPanel::setRunProblems(std::vector<Problem> problems)
{
  m_model->setRunProblems(std::move(problems));
  refresh();
}

void ProblemsPanel::applyFilter()
{
  ProblemsModel::Filter filter;
  filter.errors = m_errors->isChecked();
  filter.warnings = m_warnings->isChecked();
  filter.infos = m_infos->isChecked();
  filter.text = m_search->text();
  m_model->setFilter(filter);
  m_tree->expandAll();
  restoreCurrent();
  updateEmptyState();
  showDetails();
}

void ProblemsPanel::updateEmptyState()
{
  const Analysis& analysis = m_document->analysis();
  setCompact(analysis.problems.empty() && m_model->runProblems().empty());
  if (m_model->problemCount() > 0) {
    m_stack->setCurrentWidget(m_tree);
    if (!m_tree->currentIndex().isValid())
      m_tree->setCurrentIndex(m_model->index(0, 0));
    return;
  }
  const int side = 2 * fontMetrics().height();
  if (analysis.problems.empty()) {
    m_emptyIcon->setPixmap(okIcon().pixmap(QSize(side, side), devicePixelRatioF()));
    m_emptyTitle->setText(tr("No problems"));
    const QString runtime = QString::fromUtf8(dialect(m_document->lowering().dialect).title);
    if (analysis.programPending)
      m_emptyDetail->setText(tr("The timeline is fine so far; the lowered program is still being "
                                "checked."));
    else if (analysis.program || analysis.schedule)
      m_emptyDetail->setText(
          tr("The checker accepts this algorithm for %1.").arg(runtime.toHtmlEscaped()));
    else
      m_emptyDetail->setText(tr("Nothing to check yet."));
    const int line = fontMetrics().height();
    m_compactLine->setText(QStringLiteral("<img src=\"%1\" width=%2 height=%2> <b>%3</b> — %4")
                               .arg(iconDataUrl(okIcon(), line), QString::number(line),
                                    m_emptyTitle->text(), m_emptyDetail->text()));
  } else {
    m_emptyIcon->setPixmap(
        severityIcon(Severity::Info).pixmap(QSize(side, side), devicePixelRatioF()));
    m_emptyTitle->setText(tr("No problem matches the filter"));
    m_emptyDetail->setText(tr("%1 hidden. <a href=\"show-all\">Show all</a>")
                               .arg(countText(static_cast<long long>(analysis.problems.size()),
                                              tr("problem is"), tr("problems are"))));
  }
  m_stack->setCurrentIndex(1);
}

bool ProblemsPanel::activateRow(int row)
{
  const QModelIndex index = m_model->index(row, 0);
  if (!index.isValid())
    return false;
  m_tree->setCurrentIndex(index);
  activate(index);
  return true;
}

void ProblemsPanel::activate(const QModelIndex& index)
{
  const Problem* found = m_model->problemAt(index);
  if (!found)
    return;
  // Copied: selecting may run code that replaces the Analysis the reference points into.
  Problem problem = *found;
  const Analysis& analysis = m_document->analysis();

  if (const std::optional<Location> related = m_model->relatedLocation(index)) {
    // A related location is about an instruction or a transfer; report it as the activated place.
    problem.rank = related->rank >= 0 ? std::optional(related->rank) : std::nullopt;
    problem.tb = related->tb >= 0 ? std::optional(related->tb) : std::nullopt;
    problem.step = related->step >= 0 ? std::optional(related->step) : std::nullopt;
    problem.transferId = problem.rank && problem.tb && problem.step
                             ? analysis.transferAt(*problem.rank, *problem.tb, *problem.step)
                             : related->transfer;
    // The place the child row names, not the link the problem itself points at.
    problem.diagnostic.location.link = related->link;
  }

  m_document->setSelection(problemTarget(problem, *m_document).selection);
  emit problemActivated(problem);
}

QString ProblemsPanel::problemKey(const Problem& problem)
{
  return QString::fromStdString(problem.diagnostic.code) + QLatin1Char('\n') +
         QString::fromStdString(problem.diagnostic.message) + QLatin1Char('\n') +
         ProblemsModel::whereText(problem);
}

void ProblemsPanel::restoreCurrent()
{
  if (m_currentKey.isEmpty())
    return;
  for (int row = 0; row < m_model->problemCount(); ++row) {
    const QModelIndex index = m_model->index(row, 0);
    const Problem* problem = m_model->problemAt(index);
    if (problem && problemKey(*problem) == m_currentKey) {
      m_tree->setCurrentIndex(index);
      return;
    }
  }
}

void ProblemsPanel::showDetails()
{
  const QModelIndex current = m_tree->currentIndex();
  const Problem* shown = m_model->problemAt(current);
  updateFix(shown);
  if (!shown || m_stack->currentWidget() != m_tree) {
    m_details->hide();
    return;
  }
  const Problem& problem = *shown;
  const Diagnostic& d = problem.diagnostic;
  m_currentKey = problemKey(problem);
  QString where = m_model->where(current);
  if (!where.isEmpty())
    where = QStringLiteral(" · ") + where.toHtmlEscaped();
  m_details->setHtml(
      QStringLiteral("%1<br><small>%2 · %3%4</small>")
          .arg(m_model->message(current).toHtmlEscaped(),
               QString::fromStdString(d.code).toHtmlEscaped(),
               m_model->isRunRow(current) ? tr("run") : ProblemsModel::stageText(problem), where));
  m_details->show();
}

void ProblemsPanel::updateFix(const Problem* problem)
{
  m_fixGpu.reset();
  const std::optional<Program>& program = m_document->shownProgram();
  if (problem && problem->diagnostic.code == "limit.residency" && program) {
    const DialectId dialect = m_document->lowering().dialect;
    m_fixGpu = smallestGpuFitting(widestRankThreadblocks(*program), dialect);
  }
  m_fix->setVisible(m_fixGpu.has_value());
  if (m_fixGpu)
    m_fix->setText(tr("Choose GPU %1").arg(gpuChoiceText(m_fixGpu)));
}

void ProblemsPanel::setCompact(bool compact)
{
  if (compact == m_compact)
    return;
  m_compact = compact;
  m_filterBar->setVisible(!compact);
  m_stack->setVisible(!compact);
  m_compactLine->setVisible(compact);
  if (compact) {
    m_expandedHeight = std::max(height(), m_expandedHeight);
    m_details->hide();
    setMaximumHeight(m_compactLine->sizeHint().height());
    return;
  }
  setMaximumHeight(QWIDGETSIZE_MAX);
  // The dock was shrunk to the one line: give it back its height now there is a list to show.
  auto* dock = qobject_cast<QDockWidget*>(parentWidget());
  auto* window = dock ? qobject_cast<QMainWindow*>(dock->parentWidget()) : nullptr;
  if (window)
    window->resizeDocks({dock}, {m_expandedHeight}, Qt::Vertical);
}

void ProblemsPanel::copySelection()
{
  QStringList lines;
  for (const QModelIndex& index : m_tree->selectionModel()->selectedRows()) {
    QStringList cells;
    for (int column = 0; column < ProblemsModel::ColumnCount; ++column)
      cells << index.siblingAtColumn(column).data().toString();
    cells.removeAll(QString());
    lines << cells.join(QStringLiteral("\t"));
  }
  if (!lines.isEmpty())
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
}

} // namespace cs::editor
