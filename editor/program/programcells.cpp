#include "programmodel.h"

#include "programedits.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/paintedicons.h"
#include "style/rankpalette.h"
#include "style/textformat.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

// What each cell of the program tree shows and how an edited cell becomes a
// ReplaceProgramCommand. The index scheme and lookups live in programmodel.cpp.

namespace cs::editor {

namespace {

QColor problemTint()
{
  return isDark(QGuiApplication::palette()) ? QColor(0x4d, 0x22, 0x22) : QColor(0xfd, 0xe4, 0xe4);
}

/// Alignment, colours, font and check state of an instruction cell; nullopt for other roles.
std::optional<QVariant> instructionLook(const Step& step, int column, int role)
{
  using Column = ProgramModel::Column;
  const bool dependsLink = column == Column::DependsColumn && step.depid >= 0;
  if (role == Qt::CheckStateRole && column == Column::HasDepColumn)
    return step.hasdep ? Qt::Checked : Qt::Unchecked;
  if (role == Qt::TextAlignmentRole) {
    if (column == Column::StepColumn)
      return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (column == Column::CountColumn)
      return QVariant::fromValue(Qt::AlignHCenter | Qt::AlignVCenter);
    return QVariant();
  }
  if (role == Qt::ForegroundRole) {
    if (dependsLink)
      return QGuiApplication::palette().brush(QPalette::Link);
    if (step.type == OpType::Nop || column == Column::TransferColumn)
      return QGuiApplication::palette().brush(QPalette::PlaceholderText);
    return QVariant();
  }
  if (role == Qt::FontRole && dependsLink) {
    QFont font;
    font.setUnderline(true);
    return font;
  }
  return std::nullopt;
}

std::optional<Severity> worstOf(const std::vector<int>& indices, const std::vector<Problem>& all)
{
  std::optional<Severity> worst;
  for (int i : indices)
    if (i < static_cast<int>(all.size())) {
      const Severity s = all[static_cast<std::size_t>(i)].diagnostic.severity;
      if (!worst || s > *worst)
        worst = s;
    }
  return worst;
}

} // namespace

QVariant ProgramModel::rankData(int rankRow, int column, int role) const
{
  const Gpu* gpu = gpuAtRow(rankRow);
  if (!gpu || column != 0)
    return {};
  const auto problems = m_problemsAt.find(positionKey(gpu->id, -1, -1));
  const std::optional<Severity> worst =
      problems == m_problemsAt.end() ? std::nullopt
                                     : worstOf(problems->second, m_document->analysis().problems);
  switch (role) {
  case TitleRole:
    return tr("rank %1").arg(gpu->id);
  case DetailRole: {
    int steps = 0;
    for (const ThreadBlock& tb : gpu->threadblocks)
      steps += static_cast<int>(tb.steps.size());
    return countText(static_cast<long long>(gpu->threadblocks.size()), tr("threadblock"),
                     tr("threadblocks")) +
           QStringLiteral(" · ") + countText(steps, tr("instruction"), tr("instructions")) +
           QStringLiteral(" · ") +
           tr("chunks i %1 · o %2 · s %3")
               .arg(gpu->inputChunks)
               .arg(gpu->outputChunks)
               .arg(gpu->scratchChunks);
  }
  case Qt::DisplayRole:
    return rankData(rankRow, column, TitleRole).toString() + QStringLiteral("   ·   ") +
           rankData(rankRow, column, DetailRole).toString();
  case Qt::DecorationRole: {
    auto icon = m_rankIcons.find(gpu->id);
    if (icon == m_rankIcons.end())
      icon = m_rankIcons.insert(gpu->id, swatchIcon(rankColor(gpu->id)));
    return *icon;
  }
  case Qt::FontRole: {
    QFont font;
    font.setBold(true);
    return font;
  }
  case Qt::ToolTipRole:
    return worst ? problemText(positionKey(gpu->id, -1, -1)) : QVariant();
  case SeverityRole:
    return worst ? static_cast<int>(*worst) : -1;
  case ProblemCountRole:
    return problems == m_problemsAt.end() ? 0 : static_cast<int>(problems->second.size());
  default:
    return {};
  }
}

QVariant ProgramModel::threadBlockData(int rankRow, int tbRow, int column, int role) const
{
  const Gpu* gpu = gpuAtRow(rankRow);
  const ThreadBlock* tb = tbAtRow(rankRow, tbRow);
  if (!gpu || !tb || column != 0)
    return {};
  const std::uint64_t k = positionKey(gpu->id, tb->id, -1);
  const auto problems = m_problemsAt.find(k);
  const std::optional<Severity> worst =
      problems == m_problemsAt.end() ? std::nullopt
                                     : worstOf(problems->second, m_document->analysis().problems);
  switch (role) {
  case Qt::DisplayRole: {
    QStringList parts{tr("tb %1").arg(tb->id)};
    if (tb->send >= 0)
      parts << tr("send → r%1").arg(tb->send);
    if (tb->recv >= 0)
      parts << tr("recv ← r%1").arg(tb->recv);
    if (tb->send < 0 && tb->recv < 0)
      parts << tr("local");
    parts << tr("ch %1").arg(tb->chan);
    parts << countText(static_cast<long long>(tb->steps.size()), tr("instruction"),
                       tr("instructions"));
    if (const QString playback = playbackText(gpu->id, tb->id); !playback.isEmpty())
      parts << playback;
    return parts.join(QStringLiteral(" · "));
  }
  case Qt::DecorationRole:
    return worst ? severityIcon(*worst) : QVariant();
  case Qt::ToolTipRole:
    return worst ? problemText(k) : QVariant();
  case SeverityRole:
    return worst ? static_cast<int>(*worst) : -1;
  default:
    return {};
  }
}

QVariant ProgramModel::instructionBackground(const InstructionRef& at) const
{
  if (m_waitedFor && *m_waitedFor == at)
    return QBrush(highlightColor(Highlight::WaitedFor));
  if (m_waiters.contains(at))
    return QBrush(highlightColor(Highlight::Waiter));
  const Playback playback = playbackOf(at);
  if (playback == Playback::Running || playback == Playback::Blocked)
    return QBrush(playbackColor(playback));
  const auto problems = m_problemsAt.find(positionKey(at.rank, at.tb, at.step));
  if (problems != m_problemsAt.end()) {
    // Only errors tint the row: a warning's amber would read like the "waited for" tint.
    if (const auto worst = worstOf(problems->second, m_document->analysis().problems);
        worst && *worst == Severity::Error)
      return QBrush(problemTint());
  }
  if (playback == Playback::Done)
    return QBrush(playbackColor(playback));
  return {};
}

QVariant ProgramModel::instructionData(const QModelIndex& index, int role) const
{
  const std::optional<InstructionRef> at = instructionAt(index);
  const Program* p = program();
  const Step* step = at && p ? stepAt(*p, *at) : nullptr;
  if (!step)
    return {};
  const int column = index.column();

  if (role == Qt::BackgroundRole)
    return instructionBackground(*at);
  if (role == PlaybackRole)
    return static_cast<int>(playbackOf(*at));
  if (const Playback playback = playbackOf(*at);
      role == Qt::FontRole && (playback == Playback::Running || playback == Playback::Blocked)) {
    QFont font;
    font.setBold(true);
    return font;
  }
  if (role == HighlightRole) {
    if (m_focus && *m_focus == *at)
      return static_cast<int>(Highlight::Focus);
    if (m_waitedFor && *m_waitedFor == *at)
      return static_cast<int>(Highlight::WaitedFor);
    if (m_waiters.contains(*at))
      return static_cast<int>(Highlight::Waiter);
    return static_cast<int>(Highlight::None);
  }
  if (role == SeverityRole) {
    const auto problems = m_problemsAt.find(positionKey(at->rank, at->tb, at->step));
    if (problems == m_problemsAt.end())
      return -1;
    const auto worst = worstOf(problems->second, m_document->analysis().problems);
    return worst ? static_cast<int>(*worst) : -1;
  }
  if (role == Qt::ToolTipRole) {
    const QString problems = problemText(positionKey(at->rank, at->tb, at->step));
    if (column == DependsColumn && step->depid >= 0)
      return tr("Waits until tb %1 has executed step %2 (double-click to go there)")
          .arg(step->depid)
          .arg(step->deps);
    const ThreadBlock* tb = p->threadblock(at->rank, at->tb);
    const QString what = describeStep(*step, *tb);
    return problems.isEmpty() ? what : problems + QStringLiteral("\n\n") + what;
  }
  if (role == Qt::DecorationRole && column == StepColumn) {
    const auto problems = m_problemsAt.find(positionKey(at->rank, at->tb, at->step));
    if (problems != m_problemsAt.end())
      if (const auto worst = worstOf(problems->second, m_document->analysis().problems))
        return severityIcon(*worst);
    return {};
  }
  if (const std::optional<QVariant> look = instructionLook(*step, column, role))
    return *look;
  if (role != Qt::DisplayRole && role != Qt::EditRole)
    return {};
  return instructionText(*step, *at, column, role);
}

QVariant ProgramModel::instructionText(const Step& step, const InstructionRef& at, int column,
                                       int role) const
{
  const OpTraits traits = opTraits(step.type);
  switch (column) {
  case StepColumn:
    return step.s;
  case TypeColumn:
    return QString::fromUtf8(opTypeName(step.type));
  case SourceColumn:
    if (role == Qt::EditRole || traits.readsSrc)
      return slotText(step.srcBuf, step.srcOff);
    return {};
  case DestinationColumn:
    if (role == Qt::EditRole || traits.writesDst)
      return slotText(step.dstBuf, step.dstOff);
    return {};
  case CountColumn:
    return step.cnt;
  case DependsColumn:
    return dependencyText(step.depid, step.deps);
  case HasDepColumn:
    return role == Qt::EditRole ? QVariant(step.hasdep) : QVariant();
  case TransferColumn: {
    const int transfer = transferAt(at);
    return transfer >= 0 ? QVariant(QStringLiteral("#%1").arg(transfer)) : QVariant();
  }
  default:
    return {};
  }
}

QVariant ProgramModel::data(const QModelIndex& index, int role) const
{
  switch (rowKind(index)) {
  case RowKind::Rank:
    return rankData(index.row(), index.column(), role);
  case RowKind::ThreadBlock:
    return threadBlockData(rankRowOf(index), index.row(), index.column(), role);
  case RowKind::Instruction:
    return instructionData(index, role);
  case RowKind::None:
    return {};
  }
  return {};
}

Qt::ItemFlags ProgramModel::flags(const QModelIndex& index) const
{
  if (!index.isValid())
    return Qt::NoItemFlags;
  Qt::ItemFlags flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
  const std::optional<InstructionRef> at = instructionAt(index);
  const Step* step = at && program() ? stepAt(*program(), *at) : nullptr;
  if (!step)
    return flags;
  flags |= Qt::ItemNeverHasChildren;
  // While lowering runs in the background the Program shown is the previous one: editing it
  // would replace the new Schedule's Program with an edited old one.
  if (!isEditable())
    return flags;
  const OpTraits traits = opTraits(step->type);
  switch (index.column()) {
  case TypeColumn:
  case CountColumn:
  case DependsColumn:
    return flags | Qt::ItemIsEditable;
  case SourceColumn:
    return traits.readsSrc ? flags | Qt::ItemIsEditable : flags;
  case DestinationColumn:
    return traits.writesDst ? flags | Qt::ItemIsEditable : flags;
  case HasDepColumn:
    return flags | Qt::ItemIsUserCheckable;
  default:
    return flags;
  }
}

bool ProgramModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
  if (role != Qt::EditRole && !(role == Qt::CheckStateRole && index.column() == HasDepColumn))
    return false;
  if (!isEditable())
    return false;
  return editInstruction(index, value, role);
}

bool ProgramModel::editInstruction(const QModelIndex& index, const QVariant& value, int role)
{
  const std::optional<InstructionRef> at = instructionAt(index);
  const Program* p = program();
  const Step* current = at && p ? stepAt(*p, *at) : nullptr;
  if (!current)
    return false;
  Step step = *current;
  QString field;
  switch (index.column()) {
  case TypeColumn: {
    const std::optional<OpType> type = parseOpType(value.toString().trimmed().toStdString());
    if (!type)
      return false;
    step = withType(step, *type);
    field = tr("type");
    break;
  }
  case SourceColumn:
  case DestinationColumn: {
    const bool source = index.column() == SourceColumn;
    const auto slot = parseSlot(value.toString(), source ? step.srcBuf : step.dstBuf);
    if (!slot)
      return false;
    (source ? step.srcBuf : step.dstBuf) = slot->first;
    (source ? step.srcOff : step.dstOff) = slot->second;
    field = source ? tr("source") : tr("destination");
    break;
  }
  case CountColumn: {
    bool ok = false;
    const int cnt = value.toInt(&ok);
    if (!ok || cnt < 0)
      return false;
    step.cnt = cnt;
    field = tr("count");
    break;
  }
  case DependsColumn: {
    const auto dependency = parseDependency(value.toString());
    if (!dependency)
      return false;
    step.depid = dependency->first;
    step.deps = dependency->second;
    field = tr("dependency");
    break;
  }
  case HasDepColumn:
    step.hasdep =
        role == Qt::CheckStateRole ? value.value<Qt::CheckState>() == Qt::Checked : value.toBool();
    field = tr("hasdep");
    break;
  default:
    return false;
  }
  if (step == *current)
    return true;
  std::optional<Program> edited = withStep(*p, *at, step);
  if (!edited)
    return false;
  const QString text =
      tr("Edit %1 of r%2 tb %3 s %4").arg(field).arg(at->rank).arg(at->tb).arg(at->step);
  const QString mergeKey = QStringLiteral("r%1/tb%2/s%3/c%4")
                               .arg(at->rank)
                               .arg(at->tb)
                               .arg(at->step)
                               .arg(index.column());
  m_document->undoStack()->push(
      new ReplaceProgramCommand(m_document, std::move(edited), text, mergeKey));
  return true;
}

QVariant ProgramModel::headerData(int section, Qt::Orientation orientation, int role) const
{
  if (orientation != Qt::Horizontal)
    return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
    case StepColumn:
      // The tree's column: ranks hold threadblocks, which hold steps; a lone "s" read as a
      // buffer name.
      return tr("rank / tb / step");
    case TypeColumn:
      return tr("type");
    case SourceColumn:
      return tr("source");
    case DestinationColumn:
      return tr("destination");
    case CountColumn:
      return tr("cnt");
    case DependsColumn:
      return tr("depends on");
    case HasDepColumn:
      return tr("hasdep");
    case TransferColumn:
      return tr("transfer");
    default:
      return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
    case StepColumn:
      return tr("Ranks, their threadblocks, and each step's position in its threadblock: the "
                "order the runtime executes it");
    case TypeColumn:
      return tr("Instruction type (s, r, rcs, rrs, rrc, rrcs, cpy, re, nop)");
    case SourceColumn:
      return tr("Local operand read: buffer (i, o, s) and chunk offset");
    case DestinationColumn:
      return tr("Where the result is stored: buffer and chunk offset");
    case CountColumn:
      return tr("Number of consecutive chunks");
    case DependsColumn:
      return tr("The step of another threadblock on this rank that must finish first");
    case HasDepColumn:
      return tr("Publishes its completion so that other threadblocks can wait");
    case TransferColumn:
      return tr("The timeline transfer this instruction was lowered from");
    default:
      return {};
    }
  }
  return {};
}

} // namespace cs::editor
