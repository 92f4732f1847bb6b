#include "problemsmodel.h"

#include "style/paintedicons.h"

#include "document/document.h"

#include <QGuiApplication>
#include <QPalette>

namespace cs::editor {

namespace {

// Child rows carry their parent's row + 1 as internal id; top-level rows carry 0.
constexpr quintptr kTopLevel = 0;

QString locationText(const Location& location)
{
  QString text = QString::fromStdString(describe(location));
  if (location.line > 0) {
    if (!text.isEmpty())
      text += QStringLiteral(" · ");
    text += ProblemsModel::tr("line %1").arg(location.line);
  }
  return text;
}

} // namespace

ProblemsModel::ProblemsModel(Document* document, QObject* parent)
    : QAbstractItemModel(parent), m_document(document)
{
  refresh();
}

QString ProblemsModel::whereText(const Problem& problem)
{
  // The instruction first when there is one (the Program checker's own location), then the
  // transfer it carries.
  QStringList parts;
  if (problem.rank) {
    QString at = tr("rank %1").arg(*problem.rank);
    if (problem.tb)
      at += tr(" tb %1").arg(*problem.tb);
    if (problem.step)
      at += tr(" step %1").arg(*problem.step);
    parts << at;
  }
  if (problem.transferId >= 0)
    parts << tr("transfer #%1").arg(problem.transferId);
  if (problem.diagnostic.location.line > 0)
    parts << tr("line %1").arg(problem.diagnostic.location.line);
  return parts.join(QStringLiteral(" · "));
}

QString ProblemsModel::stageText(const Problem& problem)
{
  switch (problem.stage) {
  case ProblemStage::Schedule:
    return tr("timeline");
  case ProblemStage::Lowering:
    return tr("lowering");
  case ProblemStage::Lifting:
    return tr("lifting");
  case ProblemStage::Program:
    return tr("program");
  }
  return {};
}

bool ProblemsModel::passes(const Problem& problem) const
{
  switch (problem.diagnostic.severity) {
  case Severity::Error:
    if (!m_filter.errors)
      return false;
    break;
  case Severity::Warning:
    if (!m_filter.warnings)
      return false;
    break;
  case Severity::Info:
    if (!m_filter.infos)
      return false;
    break;
  }
  const QString needle = m_filter.text.trimmed();
  if (needle.isEmpty())
    return true;
  return QString::fromStdString(problem.diagnostic.message).contains(needle, Qt::CaseInsensitive) ||
         QString::fromStdString(problem.diagnostic.code).contains(needle, Qt::CaseInsensitive) ||
         whereText(problem).contains(needle, Qt::CaseInsensitive);
}

void ProblemsModel::setFilter(const Filter& filter)
{
  m_filter = filter;
  refresh();
}

void ProblemsModel::refresh()
{
  beginResetModel();
  m_rows.clear();
  m_children.clear();
  const std::vector<Problem>& problems = m_document->analysis().problems;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (!passes(problems[i]))
      continue;
    m_rows.push_back(static_cast<int>(i));
    m_children.push_back(static_cast<int>(problems[i].diagnostic.related.size()));
  }
  for (std::size_t i = 0; i < m_run.size(); ++i) {
    if (!passes(m_run[i]))
      continue;
    m_rows.push_back(-1 - static_cast<int>(i));
    m_children.push_back(static_cast<int>(m_run[i].diagnostic.related.size()));
  }
  endResetModel();
}

void ProblemsModel::setRunProblems(std::vector<Problem> problems)
{
  m_run = std::move(problems);
  refresh();
}

const Problem* ProblemsModel::problemOfRow(int row) const
{
  if (row < 0 || row >= static_cast<int>(m_rows.size()))
    return nullptr;
  const int entry = m_rows[static_cast<std::size_t>(row)];
  const std::vector<Problem>& problems = m_document->analysis().problems;
  if (entry >= 0)
    return entry < static_cast<int>(problems.size()) ? &problems[static_cast<std::size_t>(entry)]
                                                     : nullptr;
  const auto run = static_cast<std::size_t>(-1 - entry);
  return run < m_run.size() ? &m_run[run] : nullptr;
}

const Problem* ProblemsModel::problemAt(const QModelIndex& index) const
{
  if (!index.isValid() || index.model() != this)
    return nullptr;
  return problemOfRow(index.internalId() == kTopLevel ? index.row()
                                                      : static_cast<int>(index.internalId()) - 1);
}

bool ProblemsModel::isRunRow(const QModelIndex& index) const
{
  const Problem* problem = problemAt(index);
  return problem && problem >= m_run.data() && problem < m_run.data() + m_run.size();
}

int ProblemsModel::problemIndex(const QModelIndex& index) const
{
  const Problem* problem = problemAt(index);
  const std::vector<Problem>& problems = m_document->analysis().problems;
  if (!problem || isRunRow(index))
    return -1;
  return static_cast<int>(problem - problems.data());
}

std::optional<Location> ProblemsModel::relatedLocation(const QModelIndex& index) const
{
  if (!index.isValid() || index.internalId() == kTopLevel)
    return std::nullopt;
  const Problem* problem = problemAt(index);
  if (!problem)
    return std::nullopt;
  const std::vector<Location>& related = problem->diagnostic.related;
  if (index.row() >= static_cast<int>(related.size()))
    return std::nullopt;
  return related[static_cast<std::size_t>(index.row())];
}

QModelIndex ProblemsModel::index(int row, int column, const QModelIndex& parent) const
{
  if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
    return {};
  if (!parent.isValid())
    return createIndex(row, column, kTopLevel);
  return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex ProblemsModel::parent(const QModelIndex& child) const
{
  if (!child.isValid() || child.internalId() == kTopLevel)
    return {};
  return createIndex(static_cast<int>(child.internalId()) - 1, 0, kTopLevel);
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
  if (!parent.isValid())
    return static_cast<int>(m_rows.size());
  if (parent.internalId() != kTopLevel || parent.column() != 0)
    return 0;
  const auto row = static_cast<std::size_t>(parent.row());
  return row < m_children.size() ? m_children[row] : 0;
}

int ProblemsModel::columnCount(const QModelIndex&) const
{
  return ColumnCount;
}

QVariant ProblemsModel::relatedData(const QModelIndex& index, int role) const
{
  const std::optional<Location> location = relatedLocation(index);
  if (!location)
    return {};
  if (role == Qt::ForegroundRole && index.column() != MessageColumn)
    return QGuiApplication::palette().brush(QPalette::PlaceholderText);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
    return {};
  switch (index.column()) {
  case MessageColumn: {
    QString text = locationText(*location);
    // The attribute says what is wrong at that place ("cnt"); the element adds nothing.
    if (!location->attribute.empty())
      text += QStringLiteral(" (%1)").arg(QString::fromStdString(location->attribute));
    return index.row() == 0 ? tr("related: %1").arg(text) : text;
  }
  case WhereColumn:
    return locationText(*location);
  default:
    return {};
  }
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
  if (!index.isValid())
    return {};
  if (index.internalId() != kTopLevel)
    return relatedData(index, role);
  const Problem* found = problemAt(index);
  if (!found)
    return {};
  const Problem& problem = *found;
  const Diagnostic& d = problem.diagnostic;
  switch (role) {
  case Qt::DisplayRole:
    switch (index.column()) {
    case MessageColumn:
      return QString::fromStdString(d.message);
    case CodeColumn:
      return QString::fromStdString(d.code);
    case WhereColumn:
      return whereText(problem);
    case StageColumn:
      return isRunRow(index) ? tr("run") : stageText(problem);
    default:
      return {};
    }
  case Qt::DecorationRole:
    return index.column() == MessageColumn ? QVariant(severityIcon(d.severity)) : QVariant();
  case Qt::ToolTipRole:
    return QStringLiteral("%1 [%2]\n%3\n%4")
        .arg(QString::fromUtf8(severityName(d.severity)), QString::fromStdString(d.code),
             QString::fromStdString(d.message), whereText(problem));
  case Qt::ForegroundRole:
    if (index.column() == CodeColumn || index.column() == StageColumn)
      return QGuiApplication::palette().brush(QPalette::PlaceholderText);
    return {};
  default:
    return {};
  }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return {};
  switch (section) {
  case MessageColumn:
    return tr("Problem");
  case CodeColumn:
    return tr("Code");
  case WhereColumn:
    return tr("Where");
  case StageColumn:
    return tr("Stage");
  default:
    return {};
  }
}

} // namespace cs::editor
