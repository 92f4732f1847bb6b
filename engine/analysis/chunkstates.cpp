#include "chunkstates.h"

#include "check/schedulestates.h"
#include "model/collectivespec.h"

#include <algorithm>

namespace cs {

namespace {

std::size_t bufferKey(int rank, Buffer buffer)
{
  return static_cast<std::size_t>(rank) * kBufferCount + static_cast<std::size_t>(buffer);
}

/// Whether a transfer's `count` chunks from `ref` exist, directly or (in place) through aliasing:
/// the Schedule checks' rule, so the cells show exactly what the checker executes.
bool fits(const Schedule& schedule, const ScheduleStates& states, const ChunkRef& ref, int count)
{
  if (ref.rank < 0 || ref.rank >= schedule.ranks || ref.index < 0)
    return false;
  auto direct = [&](const ChunkRef& r) {
    const int chunks = schedule.buffers[static_cast<std::size_t>(r.rank)].chunks(r.buffer);
    return std::int64_t{r.index} + count <= chunks;
  };
  if (direct(ref))
    return true;
  if (states.mode != CallMode::InPlace)
    return false;
  const ChunkRef memory = states.memoryOf(ref);
  return memory != ref && direct(memory);
}

/// What a result chunk must hold, as a label: "r2", "Σ all" or "Σ3".
std::string goalText(const std::vector<Contribution>& expected, int holders)
{
  if (expected.size() == 1)
    return "r" + std::to_string(expected.front().rank);
  if (expected.empty())
    return {};
  return static_cast<int>(expected.size()) == holders ? "Σ all"
                                                      : "Σ" + std::to_string(expected.size());
}

/// What one result index wants (judgeResults), and a value already judged to hold it.
struct IndexGoal {
  bool known = false;
  std::vector<Contribution> expected;
  std::string goal;
  ValueId passed = kUninitialised;
};

} // namespace

ChunkStates::ChunkStates() : m_states(std::make_shared<const ScheduleStates>())
{
  m_summarised.assign(1, 1);
}

ChunkStates::ChunkStates(const Schedule& schedule, std::size_t budget)
    : ChunkStates(schedule,
                  std::make_shared<const ScheduleStates>(executeSchedule(schedule, budget)))
{
}

ChunkStates::ChunkStates(const Schedule& schedule, std::shared_ptr<const ScheduleStates> states)
    : ChunkStates()
{
  if (!states || states->ranks < 1 || states->ranks != schedule.ranks)
    return;
  m_states = std::move(states);
  m_ranks = m_states->ranks;
  m_mode = m_states->mode;
  m_columns = m_states->columns;
  m_computedColumns = m_states->computedColumns;
  buildRows(schedule);
  buildTokens(schedule);
  m_summaries.clear();
  m_summarised.assign(std::max<std::size_t>(1, m_states->store.size()), 0);
  m_summarised[0] = 1; // uninitialised: the default summary
  m_goals.assign(m_rows.size(), {});
  judgeResults(schedule);
}

ChunkStates::~ChunkStates() = default;
ChunkStates::ChunkStates(ChunkStates&&) noexcept = default;
ChunkStates& ChunkStates::operator=(ChunkStates&&) noexcept = default;

void ChunkStates::buildRows(const Schedule& schedule)
{
  // Rows, rank-major, then input, output, scratch.
  const std::size_t keys = static_cast<std::size_t>(m_ranks) * kBufferCount;
  m_rowBase.assign(keys, 0);
  m_rowCount.assign(keys, 0);
  m_rowOfMemory.assign(m_states->slotCount(), -1);
  for (int r = 0; r < m_ranks; ++r) {
    for (int b = 0; b < kBufferCount; ++b) {
      const Buffer buffer = static_cast<Buffer>(b);
      const std::size_t key = bufferKey(r, buffer);
      m_rowCount[key] = std::max(0, schedule.buffers[static_cast<std::size_t>(r)].chunks(buffer));
      m_rowBase[key] = static_cast<int>(m_rows.size());
      for (int k = 0; k < m_rowCount[key]; ++k) {
        ChunkRow row;
        row.ref = {r, buffer, k};
        row.memory = static_cast<std::uint32_t>(m_states->slot(row.ref));
        row.naturalChunk = k;
        if (m_rowOfMemory[row.memory] < 0)
          m_rowOfMemory[row.memory] = static_cast<int>(m_rows.size());
        m_rows.push_back(row);
      }
    }
  }
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    const int first = m_rowOfMemory[m_rows[k].memory];
    if (first == static_cast<int>(k))
      continue;
    m_rows[k].sharesWith = first;
    if (m_rows[static_cast<std::size_t>(first)].sharesWith < 0)
      m_rows[static_cast<std::size_t>(first)].sharesWith = static_cast<int>(k);
  }
}

void ChunkStates::buildTokens(const Schedule& schedule)
{
  int most = 0;
  for (const RankBuffers& buffers : schedule.buffers)
    most = std::max(most, buffers.input);
  m_holders.assign(static_cast<std::size_t>(most), 0);
  for (int r = 0; r < m_ranks; ++r) {
    for (int k = 0; k < schedule.buffers[static_cast<std::size_t>(r)].input; ++k) {
      ++m_holders[static_cast<std::size_t>(k)];
      m_tokenRank.push_back(r);
      m_tokenChunk.push_back(k);
    }
  }
}

void ChunkStates::judgeResults(const Schedule& schedule)
{
  // Result rows: their natural chunk is the one the collective wants there, and the last column
  // says whether they got it.
  const Collective collective = schedule.collective;
  const int root = schedule.root.value_or(-1);
  const int last = m_columns - 1;
  if (!hasPostcondition(collective) || (isRooted(collective) && (root < 0 || root >= m_ranks)) ||
      !computed(last))
    return;
  const ScheduleStates& states = *m_states;
  const CollectiveSpec spec(collective, m_ranks, states.geometry.whole, root);
  // Rows sharing a memory slot, chained from m_rowOfMemory (in place, o[k] and i[k] are one).
  std::vector<int> nextSharing(m_rows.size(), -1);
  std::vector<int> tail(states.slotCount(), -1);
  for (std::size_t k = 0; k < m_rows.size(); ++k) {
    const std::uint32_t memory = m_rows[k].memory;
    if (tail[memory] >= 0)
      nextSharing[static_cast<std::size_t>(tail[memory])] = static_cast<int>(k);
    tail[memory] = static_cast<int>(k);
  }
  // All-reduce and broadcast want the same at index i on every rank (ResultMatcher's rule): what
  // index i wants, its label and a value already judged to hold it are worked out once, so a
  // 256-rank all-reduce costs ranks × chunks comparisons of ids, not ranks × chunks × ranks.
  const bool sameOnEveryRank =
      collective == Collective::AllReduce || collective == Collective::Broadcast;
  std::vector<IndexGoal> goals;
  IndexGoal single;
  for (int r = 0; r < m_ranks; ++r) {
    const ResultChunks result = spec.result(r);
    for (int i = 0; i < result.count; ++i) {
      const ChunkRef chunk{r, result.buffer, result.first + i};
      if (!fits(schedule, states, chunk, 1))
        continue;
      if (sameOnEveryRank && goals.size() <= static_cast<std::size_t>(i))
        goals.resize(static_cast<std::size_t>(i) + 1);
      IndexGoal& wanted = sameOnEveryRank ? goals[static_cast<std::size_t>(i)] : single;
      if (!wanted.known || !sameOnEveryRank) {
        spec.contributions(r, i, wanted.expected);
        wanted.known = true;
        wanted.passed = kUninitialised;
        wanted.goal =
            wanted.expected.empty()
                ? std::string()
                : goalText(wanted.expected,
                           m_holders[static_cast<std::size_t>(wanted.expected.front().chunk)]);
      }
      const std::size_t slot = states.slot(chunk);
      const ValueId value = states.value(slot, last);
      const bool correct = (value != kUninitialised && value == wanted.passed) ||
                           holdsContributions(states.store, states.tokens, value, wanted.expected);
      if (correct)
        wanted.passed = value;
      for (int k = m_rowOfMemory[slot]; k >= 0; k = nextSharing[static_cast<std::size_t>(k)]) {
        ChunkRow& row = m_rows[static_cast<std::size_t>(k)];
        row.result = true;
        row.resultCorrect = correct;
        if (!wanted.expected.empty())
          row.naturalChunk = wanted.expected.front().chunk;
        m_goals[static_cast<std::size_t>(k)] = wanted.goal;
      }
    }
  }
}

CellValue ChunkStates::value(int row, int column) const
{
  if (column >= m_computedColumns)
    return kUninitialised;
  return m_states->value(m_rows[static_cast<std::size_t>(row)].memory, column);
}

bool ChunkStates::overflowed() const
{
  return m_states->store.overflowed();
}

int ChunkStates::chunks(int rank, Buffer buffer) const
{
  if (rank < 0 || rank >= m_ranks)
    return 0;
  return m_rowCount[bufferKey(rank, buffer)];
}

int ChunkStates::rowOf(const ChunkRef& ref) const
{
  if (ref.rank < 0 || ref.rank >= m_ranks || ref.index < 0)
    return -1;
  const std::size_t key = bufferKey(ref.rank, ref.buffer);
  if (ref.index < m_rowCount[key])
    return m_rowBase[key] + ref.index;
  if (!m_states->hasSlot(ref))
    return -1;
  return m_rowOfMemory[m_states->slot(ref)];
}

} // namespace cs
