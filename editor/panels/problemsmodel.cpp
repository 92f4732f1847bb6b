#include "problemsmodel.h"

#include "problemtargets.h"
#include "style/paintedicons.h"

#include "document/document.h"

#include <QGuiApplication>
#include <QPalette>

#include "model/diagnosticgroups.h"

#include <set>

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
  m_members.clear();
  m_prefixes.clear();
  m_wheres.clear();
  const std::vector<Problem>& problems = m_document->analysis().problems;
  std::vector<int> passing;
  std::vector<Diagnostic> diagnostics;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (!passes(problems[i]))
      continue;
    passing.push_back(static_cast<int>(i));
    diagnostics.push_back(problems[i].diagnostic);
  }
  // A fault repeated on many ranks is one row ("ranks 1–3: …") with the others as its children.
  for (const DiagnosticGroup& group : groupRepeatedDiagnostics(diagnostics)) {
    std::vector<int> members;
    for (const std::size_t member : group.members)
      members.push_back(passing[member]);
    addRow(members.front(), {members.begin() + 1, members.end()});
  }
  for (std::size_t i = 0; i < m_run.size(); ++i) {
    if (passes(m_run[i]))
      addRow(-1 - static_cast<int>(i), {});
  }
  endResetModel();
}

int ProblemsModel::listedProblemCount() const
{
  int count = 0;
  for (const std::vector<int>& members : m_members)
    count += 1 + static_cast<int>(members.size());
  return count;
}

void ProblemsModel::addRow(int entry, std::vector<int> members)
{
  m_rows.push_back(entry);
  const Problem* problem = problemOfRow(static_cast<int>(m_rows.size()) - 1);
  const ProblemTarget target = problemTarget(*problem, *m_document);
  std::set<int> ranks(target.ranks.begin(), target.ranks.end());
  const std::vector<Problem>& problems = m_document->analysis().problems;
  for (const int member : members) {
    const Problem& other = problems[static_cast<std::size_t>(member)];
    const int rank = other.rank.value_or(other.diagnostic.location.rank);
    if (rank >= 0)
      ranks.insert(rank);
  }
  if (const int rank = problem->rank.value_or(problem->diagnostic.location.rank);
      rank >= 0 && !members.empty())
    ranks.insert(rank);
  m_prefixes.push_back(ranks.size() > 1 ? ranksText({ranks.begin(), ranks.end()}) : QString());
  m_wheres.push_back(target.where);
  m_children.push_back(static_cast<int>(problem->diagnostic.related.size() + members.size()));
  m_members.push_back(std::move(members));
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
  if (index.internalId() == kTopLevel)
    return problemOfRow(index.row());
  const int row = static_cast<int>(index.internalId()) - 1;
  const Problem* parent = problemOfRow(row);
  if (const int member = memberOf(index); member >= 0)
    return &m_document->analysis().problems[static_cast<std::size_t>(member)];
  return parent;
}

int ProblemsModel::memberOf(const QModelIndex& index) const
{
  if (!index.isValid() || index.internalId() == kTopLevel)
    return -1;
  const auto row = static_cast<std::size_t>(index.internalId() - 1);
  const Problem* parent = problemOfRow(static_cast<int>(row));
  if (!parent || row >= m_members.size())
    return -1;
  const int past = index.row() - static_cast<int>(parent->diagnostic.related.size());
  if (past < 0 || past >= static_cast<int>(m_members[row].size()))
    return -1;
  return m_members[row][static_cast<std::size_t>(past)];
}

QString ProblemsModel::ranksPrefix(int row) const
{
  return row >= 0 && row < static_cast<int>(m_prefixes.size())
             ? m_prefixes[static_cast<std::size_t>(row)]
             : QString();
}

QString ProblemsModel::message(const QModelIndex& index) const
{
  const Problem* problem = problemAt(index);
  if (!problem)
    return {};
  QString text = QString::fromStdString(problem->diagnostic.message);
  if (index.internalId() == kTopLevel && !ranksPrefix(index.row()).isEmpty())
    text = ranksPrefix(index.row()) + QStringLiteral(": ") + text;
  return text;
}

QString ProblemsModel::where(const QModelIndex& index) const
{
  const Problem* problem = problemAt(index);
  if (!problem)
    return {};
  if (index.internalId() == kTopLevel && index.row() < static_cast<int>(m_wheres.size()))
    return m_wheres[static_cast<std::size_t>(index.row())];
  return problemTarget(*problem, *m_document).where;
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
  const Problem* problem = problemOfRow(static_cast<int>(index.internalId()) - 1);
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
  if (index.internalId() != kTopLevel && memberOf(index) < 0)
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
      return message(index);
    case CodeColumn:
      return QString::fromStdString(d.code);
    case WhereColumn:
      return where(index);
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
             message(index), where(index));
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
