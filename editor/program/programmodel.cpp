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

namespace cs::editor {

namespace {

static_assert(sizeof(quintptr) >= 8, "the index scheme packs two rows into an internal id");

// An index's internal id names its parent: 0 for ranks (parent is the root), the rank row for
// threadblocks, and the rank and threadblock rows for instructions.
constexpr quintptr kTbTag = quintptr{1} << 62;
constexpr quintptr kStepTag = quintptr{2} << 62;
constexpr quintptr kTagMask = quintptr{3} << 62;
constexpr int kRowBits = 30;
constexpr quintptr kRowMask = (quintptr{1} << kRowBits) - 1;

std::uint64_t packKey(int rank, int tb, int step)
{
  return (static_cast<std::uint64_t>(rank + 1) << 42) | (static_cast<std::uint64_t>(tb + 1) << 21) |
         static_cast<std::uint64_t>(step + 1);
}

bool darkTheme()
{
  return isDark(QGuiApplication::palette());
}

} // namespace

std::uint64_t ProgramModel::positionKey(int rank, int tb, int step)
{
  return packKey(rank, tb, step);
}

int ProgramModel::rankRowOf(const QModelIndex& threadBlock)
{
  return static_cast<int>(threadBlock.internalId() & kRowMask);
}

QColor ProgramModel::highlightColor(Highlight highlight)
{
  const bool dark = darkTheme();
  switch (highlight) {
  case Highlight::WaitedFor:
    return dark ? QColor(0x5c, 0x46, 0x12) : QColor(0xff, 0xe2, 0xa6);
  case Highlight::Waiter:
    return dark ? QColor(0x1b, 0x4a, 0x4f) : QColor(0xc8, 0xec, 0xef);
  case Highlight::Focus:
  case Highlight::None:
    break;
  }
  return {};
}

ProgramModel::ProgramModel(Document* document, QObject* parent)
    : QAbstractItemModel(parent), m_document(document)
{
  // Connected first, so views connected after the model see it already refreshed.
  connect(m_document, &Document::analysisChanged, this, &ProgramModel::refresh);
  refresh();
}

const Program* ProgramModel::program() const
{
  const std::optional<Program>& shown = m_document->shownProgram();
  return shown ? &*shown : nullptr;
}

bool ProgramModel::isEditable() const
{
  return program() && !m_document->analysis().programPending;
}

const Gpu* ProgramModel::gpuAtRow(int row) const
{
  const Program* p = program();
  if (!p || row < 0 || row >= static_cast<int>(p->gpus.size()))
    return nullptr;
  return &p->gpus[static_cast<std::size_t>(row)];
}

const ThreadBlock* ProgramModel::tbAtRow(int rankRow, int tbRow) const
{
  const Gpu* gpu = gpuAtRow(rankRow);
  if (!gpu || tbRow < 0 || tbRow >= static_cast<int>(gpu->threadblocks.size()))
    return nullptr;
  return &gpu->threadblocks[static_cast<std::size_t>(tbRow)];
}

QModelIndex ProgramModel::index(int row, int column, const QModelIndex& parent) const
{
  if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
    return {};
  if (!parent.isValid())
    return createIndex(row, column, quintptr{0});
  const quintptr id = parent.internalId();
  if ((id & kTagMask) == 0)
    return createIndex(row, column, kTbTag | static_cast<quintptr>(parent.row()));
  if ((id & kTagMask) == kTbTag)
    return createIndex(row, column,
                       kStepTag | ((id & kRowMask) << kRowBits) |
                           static_cast<quintptr>(parent.row()));
  return {};
}

QModelIndex ProgramModel::parent(const QModelIndex& child) const
{
  if (!child.isValid())
    return {};
  const quintptr id = child.internalId();
  if ((id & kTagMask) == kTbTag)
    return createIndex(static_cast<int>(id & kRowMask), 0, quintptr{0});
  if ((id & kTagMask) == kStepTag) {
    const quintptr rankRow = (id >> kRowBits) & kRowMask;
    return createIndex(static_cast<int>(id & kRowMask), 0, kTbTag | rankRow);
  }
  return {};
}

int ProgramModel::rowCount(const QModelIndex& parent) const
{
  if (!parent.isValid())
    return static_cast<int>(m_shape.size());
  if (parent.column() != 0)
    return 0;
  const quintptr id = parent.internalId();
  const auto rankRow = static_cast<std::size_t>(parent.row());
  if ((id & kTagMask) == 0)
    return rankRow < m_shape.size() ? static_cast<int>(m_shape[rankRow].size()) : 0;
  if ((id & kTagMask) == kTbTag) {
    const auto gpuRow = static_cast<std::size_t>(id & kRowMask);
    if (gpuRow < m_shape.size() && rankRow < m_shape[gpuRow].size())
      return m_shape[gpuRow][rankRow];
  }
  return 0;
}

int ProgramModel::columnCount(const QModelIndex&) const
{
  return ColumnCount;
}

ProgramModel::RowKind ProgramModel::rowKind(const QModelIndex& index) const
{
  if (!index.isValid() || index.model() != this)
    return RowKind::None;
  switch (index.internalId() & kTagMask) {
  case 0:
    return RowKind::Rank;
  case kTbTag:
    return RowKind::ThreadBlock;
  case kStepTag:
    return RowKind::Instruction;
  default:
    return RowKind::None;
  }
}

std::optional<int> ProgramModel::rankAt(const QModelIndex& index) const
{
  int rankRow = -1;
  switch (rowKind(index)) {
  case RowKind::Rank:
    rankRow = index.row();
    break;
  case RowKind::ThreadBlock:
    rankRow = static_cast<int>(index.internalId() & kRowMask);
    break;
  case RowKind::Instruction:
    rankRow = static_cast<int>((index.internalId() >> kRowBits) & kRowMask);
    break;
  case RowKind::None:
    return std::nullopt;
  }
  const Gpu* gpu = gpuAtRow(rankRow);
  return gpu ? std::optional<int>(gpu->id) : std::nullopt;
}

std::optional<std::pair<int, int>> ProgramModel::threadBlockAt(const QModelIndex& index) const
{
  QModelIndex tbIndex;
  if (rowKind(index) == RowKind::ThreadBlock)
    tbIndex = index.siblingAtColumn(0);
  else if (rowKind(index) == RowKind::Instruction)
    tbIndex = index.parent();
  else
    return std::nullopt;
  const auto rankRow = static_cast<int>(tbIndex.internalId() & kRowMask);
  const Gpu* gpu = gpuAtRow(rankRow);
  const ThreadBlock* tb = tbAtRow(rankRow, tbIndex.row());
  if (!gpu || !tb)
    return std::nullopt;
  return std::pair{gpu->id, tb->id};
}

std::optional<InstructionRef> ProgramModel::instructionAt(const QModelIndex& index) const
{
  if (rowKind(index) != RowKind::Instruction)
    return std::nullopt;
  const std::optional<std::pair<int, int>> tb = threadBlockAt(index);
  if (!tb || index.row() >= rowCount(index.parent()))
    return std::nullopt;
  return InstructionRef{tb->first, tb->second, index.row()};
}

QModelIndex ProgramModel::rankIndex(int rank) const
{
  const Program* p = program();
  if (!p)
    return {};
  for (std::size_t row = 0; row < p->gpus.size() && row < m_shape.size(); ++row)
    if (p->gpus[row].id == rank)
      return index(static_cast<int>(row), 0);
  return {};
}

QModelIndex ProgramModel::threadBlockIndex(int rank, int tb) const
{
  const QModelIndex rankRow = rankIndex(rank);
  const Gpu* gpu = rankRow.isValid() ? gpuAtRow(rankRow.row()) : nullptr;
  if (!gpu)
    return {};
  for (std::size_t row = 0; row < gpu->threadblocks.size(); ++row)
    if (gpu->threadblocks[row].id == tb)
      return index(static_cast<int>(row), 0, rankRow);
  return {};
}

QModelIndex ProgramModel::instructionIndex(const InstructionRef& at, int column) const
{
  return index(at.step, column, threadBlockIndex(at.rank, at.tb));
}

int ProgramModel::transferAt(const InstructionRef& at) const
{
  return m_document->analysis().transferAt(at.rank, at.tb, at.step);
}

std::optional<InstructionRef> ProgramModel::dependencyOf(const InstructionRef& at) const
{
  const Program* p = program();
  const Step* step = p ? stepAt(*p, at) : nullptr;
  if (!step || step->depid < 0)
    return std::nullopt;
  const InstructionRef target{at.rank, step->depid, step->deps};
  return stepAt(*p, target) ? std::optional(target) : std::nullopt;
}

std::vector<InstructionRef> ProgramModel::waitersOn(const InstructionRef& at) const
{
  std::vector<InstructionRef> waiters;
  const Program* p = program();
  const QModelIndex rankRow = rankIndex(at.rank);
  const Gpu* gpu = p && rankRow.isValid() ? gpuAtRow(rankRow.row()) : nullptr;
  if (!gpu)
    return waiters;
  for (const ThreadBlock& tb : gpu->threadblocks)
    for (std::size_t s = 0; s < tb.steps.size(); ++s)
      if (tb.steps[s].depid == at.tb && tb.steps[s].deps == at.step)
        waiters.push_back({at.rank, tb.id, static_cast<int>(s)});
  return waiters;
}

void ProgramModel::emitRowChanged(const InstructionRef& at)
{
  const QModelIndex first = instructionIndex(at, 0);
  if (first.isValid())
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
}

void ProgramModel::setFocusInstruction(std::optional<InstructionRef> focus)
{
  std::vector<InstructionRef> touched;
  if (m_waitedFor)
    touched.push_back(*m_waitedFor);
  touched.insert(touched.end(), m_waiters.begin(), m_waiters.end());
  if (m_focus)
    touched.push_back(*m_focus);

  m_focus = focus;
  m_waitedFor.reset();
  m_waiters.clear();
  if (focus && program() && stepAt(*program(), *focus)) {
    m_waitedFor = dependencyOf(*focus);
    const std::vector<InstructionRef> waiters = waitersOn(*focus);
    m_waiters.insert(waiters.begin(), waiters.end());
  }

  if (m_waitedFor)
    touched.push_back(*m_waitedFor);
  touched.insert(touched.end(), m_waiters.begin(), m_waiters.end());
  if (m_focus)
    touched.push_back(*m_focus);
  for (const InstructionRef& at : touched)
    emitRowChanged(at);
}

void ProgramModel::rebuildLookups()
{
  // Only the problems are indexed here: which transfer an instruction carries, and the other way
  // round, are the analysis's own sorted lookups (a hash of every instruction of a 1,024-rank
  // program cost more than the rest of the view).
  const Analysis& analysis = m_document->analysis();
  m_problemsAt.clear();
  auto add = [this](std::uint64_t k, int index) {
    std::vector<int>& list = m_problemsAt[k];
    if (list.empty() || list.back() != index) // one transfer may own several steps of a tb
      list.push_back(index);
  };
  auto addAt = [&add](int rank, int tb, int step, int index) {
    add(packKey(rank, -1, -1), index);
    add(packKey(rank, tb, -1), index);
    add(packKey(rank, tb, step), index);
  };
  for (std::size_t i = 0; i < analysis.problems.size(); ++i) {
    const Problem& problem = analysis.problems[i];
    const int index = static_cast<int>(i);
    if (problem.rank && problem.tb && problem.step) {
      addAt(*problem.rank, *problem.tb, *problem.step, index);
    } else if (problem.rank && problem.tb) {
      add(packKey(*problem.rank, -1, -1), index);
      add(packKey(*problem.rank, *problem.tb, -1), index);
    } else if (problem.rank) {
      add(packKey(*problem.rank, -1, -1), index);
    } else if (problem.transferId >= 0 && !analysis.programPending) {
      // Problems about a timeline transfer (and not about one instruction) mark every
      // instruction the transfer became, so the program shows what the timeline marks.
      for (const InstructionOrigin& origin : analysis.instructionsOf(problem.transferId))
        addAt(origin.rank, origin.tb, origin.step, index);
    }
  }
}

void ProgramModel::refresh()
{
  std::vector<std::vector<int>> shape;
  if (const Program* p = program()) {
    shape.reserve(p->gpus.size());
    for (const Gpu& gpu : p->gpus) {
      std::vector<int>& tbs = shape.emplace_back();
      tbs.reserve(gpu.threadblocks.size());
      for (const ThreadBlock& tb : gpu.threadblocks)
        tbs.push_back(static_cast<int>(tb.steps.size()));
    }
  }

  if (shape != m_shape) {
    beginResetModel();
    m_shape = std::move(shape);
    rebuildLookups();
    m_focus.reset();
    m_waitedFor.reset();
    m_waiters.clear();
    endResetModel();
    return;
  }

  rebuildLookups();
  // Same rows: tell every parent its cells may differ (cheap; views repaint what is visible).
  const std::optional<InstructionRef> focus = m_focus;
  setFocusInstruction(focus);
  if (m_shape.empty())
    return;
  emit dataChanged(index(0, 0), index(static_cast<int>(m_shape.size()) - 1, ColumnCount - 1));
  for (std::size_t r = 0; r < m_shape.size(); ++r) {
    const QModelIndex rankRow = index(static_cast<int>(r), 0);
    const int tbs = static_cast<int>(m_shape[r].size());
    if (tbs == 0)
      continue;
    emit dataChanged(index(0, 0, rankRow), index(tbs - 1, ColumnCount - 1, rankRow));
    for (int t = 0; t < tbs; ++t) {
      const int steps = m_shape[r][static_cast<std::size_t>(t)];
      const QModelIndex tbRow = index(t, 0, rankRow);
      if (steps > 0)
        emit dataChanged(index(0, 0, tbRow), index(steps - 1, ColumnCount - 1, tbRow));
    }
  }
}

QString ProgramModel::problemText(std::uint64_t k) const
{
  const auto found = m_problemsAt.find(k);
  if (found == m_problemsAt.end())
    return {};
  QStringList lines;
  const std::vector<Problem>& problems = m_document->analysis().problems;
  for (int i : found->second) {
    if (i >= static_cast<int>(problems.size()))
      continue;
    const Diagnostic& d = problems[static_cast<std::size_t>(i)].diagnostic;
    lines << QStringLiteral("%1 [%2] %3")
                 .arg(QString::fromUtf8(severityName(d.severity)), QString::fromStdString(d.code),
                      QString::fromStdString(d.message));
    if (lines.size() == 8 && found->second.size() > 8) {
      lines << tr("… and %n more", nullptr, static_cast<int>(found->second.size()) - 8);
      break;
    }
  }
  return lines.join(QLatin1Char('\n'));
}

} // namespace cs::editor
