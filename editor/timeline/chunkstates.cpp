#include "chunkstates.h"

#include "model/collectivespec.h"

#include <algorithm>
#include <numeric>

namespace cs::editor {

namespace {

std::size_t bufferKey(int rank, Buffer buffer)
{
  return static_cast<std::size_t>(rank) * kBufferCount + static_cast<std::size_t>(buffer);
}

/// "02", "0-3", "0-2,5", "10,11": ranks written as compactly as stays unambiguous. Digits run
/// together only while every rank is a single digit and no range needs a dash.
std::string rankSetText(const std::vector<int>& ranks)
{
  std::vector<std::string> pieces;
  bool separated = false;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (j - i >= 2) {
      pieces.push_back(std::to_string(ranks[i]) + "-" + std::to_string(ranks[j]));
      separated = true;
      i = j + 1;
    } else {
      separated = separated || ranks[i] >= 10;
      pieces.push_back(std::to_string(ranks[i]));
      ++i;
    }
  }
  std::string text;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    text += (i > 0 && separated ? "," : "") + pieces[i];
  return text;
}

/// The ranks part of a sum's label, or "k/n" when listing them would not fit a cell.
std::string sumRanksText(const std::vector<int>& ranks, int totalRanks)
{
  constexpr std::size_t kMaxRankText = 7;
  std::string text = rankSetText(ranks);
  if (text.size() > kMaxRankText)
    text = std::to_string(ranks.size()) + "/" + std::to_string(totalRanks);
  return text;
}

/// Whether a transfer's `count` chunks from `ref` exist, directly or (in place) through aliasing:
/// the Schedule checks' rule, so the cells show exactly what the checker executes.
bool fits(const Schedule& schedule, const ScheduleGeometry& geometry, const ChunkRef& ref,
          int count, CallMode mode)
{
  if (ref.rank < 0 || ref.rank >= schedule.ranks || ref.index < 0)
    return false;
  auto direct = [&](const ChunkRef& r) {
    const int chunks = schedule.buffers[static_cast<std::size_t>(r.rank)].chunks(r.buffer);
    return std::int64_t{r.index} + count <= chunks;
  };
  if (direct(ref))
    return true;
  if (mode != CallMode::InPlace)
    return false;
  const ChunkRef memory = aliasedChunk(geometry, ref, CallMode::InPlace);
  return memory != ref && direct(memory);
}

} // namespace

ChunkStates::ChunkStates(const Schedule& schedule, std::size_t budget)
{
  m_values.assign(1, kUninitialised);
  m_storedOf.assign(1, 0);
  m_summaries.assign(1, {});
  m_summarised.assign(1, 1);
  if (schedule.ranks < 1 || static_cast<int>(schedule.buffers.size()) != schedule.ranks)
    return;
  m_ranks = schedule.ranks;
  m_mode = schedule.inplace ? CallMode::InPlace : CallMode::OutOfPlace;
  m_geometry = scheduleGeometry(schedule);
  const std::size_t keys = static_cast<std::size_t>(m_ranks) * kBufferCount;

  // Which transfers run: those the checker would execute (checkTransfer's rules).
  std::vector<const Transfer*> order;
  order.reserve(schedule.transfers.size());
  int steps = 0;
  for (const Transfer& t : schedule.transfers) {
    steps = std::max(steps, t.step + 1);
    if (t.step >= 0 && t.count >= 1 && fits(schedule, m_geometry, t.src, t.count, m_mode) &&
        fits(schedule, m_geometry, t.dst, t.count, m_mode))
      order.push_back(&t);
  }
  std::sort(order.begin(), order.end(), [](const Transfer* a, const Transfer* b) {
    return a->step != b->step ? a->step < b->step : a->id < b->id;
  });
  m_columns = steps + 1;

  // Memory layout: every declared chunk's memory and every executed transfer's reach.
  m_memorySize.assign(keys, 0);
  auto memoryOf = [this](const ChunkRef& ref) { return aliasedChunk(m_geometry, ref, m_mode); };
  auto reserve = [&](const ChunkRef& ref, int count) {
    const ChunkRef memory = memoryOf(ref);
    int& size = m_memorySize[bufferKey(memory.rank, memory.buffer)];
    size = std::max(size, memory.index + count);
  };
  m_rowBase.assign(keys, 0);
  m_rowCount.assign(keys, 0);
  for (int r = 0; r < m_ranks; ++r) {
    for (int b = 0; b < kBufferCount; ++b) {
      const Buffer buffer = static_cast<Buffer>(b);
      const int count = std::max(0, schedule.buffers[static_cast<std::size_t>(r)].chunks(buffer));
      m_rowCount[bufferKey(r, buffer)] = count;
      for (int k = 0; k < count; ++k)
        reserve({r, buffer, k}, 1);
    }
  }
  for (const Transfer* t : order) {
    reserve(t->src, t->count);
    reserve(t->dst, t->count);
  }
  m_memoryBase.assign(keys + 1, 0);
  for (std::size_t key = 0; key < keys; ++key)
    m_memoryBase[key + 1] = m_memoryBase[key] + static_cast<std::size_t>(m_memorySize[key]);
  m_slotCount = m_memoryBase.back();
  auto slotOf = [&](const ChunkRef& ref, int offset) {
    const ChunkRef memory = memoryOf(ref);
    return m_memoryBase[bufferKey(memory.rank, memory.buffer)] +
           static_cast<std::size_t>(memory.index + offset);
  };

  // Rows, rank-major, then input, output, scratch.
  m_rowOfMemory.assign(m_slotCount, -1);
  for (int r = 0; r < m_ranks; ++r) {
    for (int b = 0; b < kBufferCount; ++b) {
      const Buffer buffer = static_cast<Buffer>(b);
      m_rowBase[bufferKey(r, buffer)] = static_cast<int>(m_rows.size());
      for (int k = 0; k < m_rowCount[bufferKey(r, buffer)]; ++k) {
        ChunkRow row;
        row.ref = {r, buffer, k};
        row.memory = static_cast<std::uint32_t>(slotOf(row.ref, 0));
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

  // Tokens and the start column.
  std::vector<int> inputs;
  for (const RankBuffers& buffers : schedule.buffers)
    inputs.push_back(std::max(0, buffers.input));
  m_tokens = TokenSpace(inputs);
  m_store = ValueStore(m_tokens.count());
  m_holders.assign(static_cast<std::size_t>(*std::max_element(inputs.begin(), inputs.end())), 0);
  for (int r = 0; r < m_ranks; ++r) {
    for (int k = 0; k < inputs[static_cast<std::size_t>(r)]; ++k) {
      ++m_holders[static_cast<std::size_t>(k)];
      m_tokenRank.push_back(r);
      m_tokenChunk.push_back(k);
    }
  }

  // Storage: the start column, then one column per step that has transfers.
  std::size_t busySteps = 0;
  for (std::size_t i = 0; i < order.size(); ++i)
    busySteps += i == 0 || order[i]->step != order[i - 1]->step ? 1 : 0;
  const std::size_t fit = std::max<std::size_t>(1, budget / std::max<std::size_t>(1, m_slotCount));
  m_values.reserve(std::min(busySteps + 1, fit) * m_slotCount);
  m_values.assign(m_slotCount, kUninitialised);
  m_storedOf.assign(static_cast<std::size_t>(m_columns), 0);
  m_computedColumns = m_columns;
  for (int r = 0; r < m_ranks; ++r)
    for (int k = 0; k < inputs[static_cast<std::size_t>(r)]; ++k)
      if (const std::optional<std::uint32_t> token = m_tokens.token(r, k))
        m_values[slotOf({r, Buffer::Input, k}, 0)] = m_store.singleton(*token);

  // Steps: copy the previous column, then land every write of the step together.
  ValueId maxValue = m_tokens.count();
  struct Write {
    std::size_t slot;
    ValueId value;
  };
  std::vector<Write> writes;
  std::size_t next = 0;
  std::size_t stored = 1;
  for (int step = 0; step < steps; ++step) {
    const std::size_t column = static_cast<std::size_t>(step) + 1;
    if (next >= order.size() || order[next]->step != step) {
      m_storedOf[column] = m_storedOf[column - 1]; // nothing moves: share the storage
      continue;
    }
    if (stored + 1 > fit) {
      m_computedColumns = step + 1;
      break;
    }
    m_values.resize((stored + 1) * m_slotCount);
    const ValueId* before = m_values.data() + std::size_t{m_storedOf[column - 1]} * m_slotCount;
    ValueId* after = m_values.data() + stored * m_slotCount;
    m_storedOf[column] = static_cast<std::uint32_t>(stored++);
    std::copy(before, before + m_slotCount, after);
    writes.clear();
    for (; next < order.size() && order[next]->step == step; ++next) {
      const Transfer& t = *order[next];
      for (int c = 0; c < t.count; ++c) {
        const std::size_t dst = slotOf(t.dst, c);
        const ValueId src = before[slotOf(t.src, c)];
        const ValueId value = t.op == TransferOp::Reduce ? m_store.combine(before[dst], src) : src;
        writes.push_back({dst, value});
        maxValue = std::max(maxValue, value);
      }
    }
    for (const Write& write : writes)
      after[write.slot] = write.value;
  }
  m_summaries.assign(static_cast<std::size_t>(maxValue) + 1, {});
  m_summarised.assign(static_cast<std::size_t>(maxValue) + 1, 0);
  m_goals.assign(m_rows.size(), {});

  // Result rows: their natural chunk is the one the collective wants there, and the last column
  // says whether they got it.
  const Collective collective = schedule.collective;
  const int root = schedule.root.value_or(-1);
  if (!hasPostcondition(collective) || (isRooted(collective) && (root < 0 || root >= m_ranks)) ||
      !computed(steps))
    return;
  const CollectiveSpec spec(collective, m_ranks, m_geometry.whole, root);
  // Rows sharing a memory slot, chained from m_rowOfMemory (in place, o[k] and i[k] are one).
  std::vector<int> nextSharing(m_rows.size(), -1);
  {
    std::vector<int> tail(m_slotCount, -1);
    for (std::size_t k = 0; k < m_rows.size(); ++k) {
      const std::uint32_t memory = m_rows[k].memory;
      if (tail[memory] >= 0)
        nextSharing[static_cast<std::size_t>(tail[memory])] = static_cast<int>(k);
      tail[memory] = static_cast<int>(k);
    }
  }
  std::vector<Contribution> expected;
  const ValueId* last =
      m_values.data() + std::size_t{m_storedOf[static_cast<std::size_t>(steps)]} * m_slotCount;
  for (int r = 0; r < m_ranks; ++r) {
    const ResultChunks result = spec.result(r);
    for (int i = 0; i < result.count; ++i) {
      const ChunkRef chunk{r, result.buffer, result.first + i};
      if (!fits(schedule, m_geometry, chunk, 1, m_mode))
        continue;
      spec.contributions(r, i, expected);
      const std::size_t slot = slotOf(chunk, 0);
      const std::span<const TokenCount> entries = m_store.entries(last[slot]);
      bool correct = entries.size() == expected.size();
      for (std::size_t e = 0; correct && e < expected.size(); ++e)
        correct = entries[e].count == 1 &&
                  m_tokens.token(expected[e].rank, expected[e].chunk) == entries[e].token;
      std::string goal;
      if (expected.size() == 1)
        goal = "r" + std::to_string(expected.front().rank);
      else if (!expected.empty())
        goal = static_cast<int>(expected.size()) ==
                       m_holders[static_cast<std::size_t>(expected.front().chunk)]
                   ? "Σ all"
                   : "Σ" + std::to_string(expected.size());
      for (int k = m_rowOfMemory[slot]; k >= 0; k = nextSharing[static_cast<std::size_t>(k)]) {
        ChunkRow& row = m_rows[static_cast<std::size_t>(k)];
        row.result = true;
        row.resultCorrect = correct;
        if (!expected.empty())
          row.naturalChunk = expected.front().chunk;
        m_goals[static_cast<std::size_t>(k)] = goal;
      }
    }
  }
}

void ChunkStates::summarise(ValueId value) const
{
  m_summarised[value] = 1;
  const std::span<const TokenCount> entries = m_store.entries(value);
  if (entries.empty())
    return;
  CellSummary& s = m_summaries[value];
  bool mixed = false;
  for (const TokenCount& entry : entries) {
    const int rank = m_tokenRank[entry.token];
    const int chunk = m_tokenChunk[entry.token];
    if (s.ranks.empty() || s.ranks.back() != rank)
      s.ranks.push_back(rank);
    if (s.chunk < 0 && !mixed) {
      s.chunk = chunk;
    } else if (s.chunk != chunk) {
      mixed = true;
      s.chunk = -1;
    }
    s.maxCount = std::max(s.maxCount, entry.count);
  }
  // Tokens are rank-major, so with mixed chunks a rank can appear twice in a row: dedupe.
  s.ranks.erase(std::unique(s.ranks.begin(), s.ranks.end()), s.ranks.end());
  if (mixed || s.maxCount > 1)
    s.kind = CellKind::Wrong;
  else if (entries.size() == 1)
    s.kind = CellKind::Single;
  else if (static_cast<int>(entries.size()) == m_holders[static_cast<std::size_t>(s.chunk)])
    s.kind = CellKind::Complete;
  else
    s.kind = CellKind::Partial;
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
  const ChunkRef memory = aliasedChunk(m_geometry, ref, m_mode);
  const std::size_t memoryKey = bufferKey(memory.rank, memory.buffer);
  if (memory.index >= m_memorySize[memoryKey])
    return -1;
  return m_rowOfMemory[m_memoryBase[memoryKey] + static_cast<std::size_t>(memory.index)];
}

std::string ChunkStates::label(int row, int column) const
{
  const CellSummary& s = summary(value(row, column));
  const int natural = m_rows[static_cast<std::size_t>(row)].naturalChunk;
  const std::string chunkSuffix =
      s.chunk >= 0 && s.chunk != natural ? "·c" + std::to_string(s.chunk) : std::string();
  switch (s.kind) {
  case CellKind::Uninitialised:
    return {};
  case CellKind::Single:
    return "r" + std::to_string(s.ranks.front()) + chunkSuffix;
  case CellKind::Complete:
    return "Σ all" + chunkSuffix;
  case CellKind::Partial:
    return "Σ" + sumRanksText(s.ranks, m_ranks) + chunkSuffix;
  case CellKind::Wrong:
    if (s.chunk < 0)
      return "Σ" + sumRanksText(s.ranks, m_ranks) + "·mix!";
    return "Σ" + sumRanksText(s.ranks, m_ranks) + "×" + std::to_string(s.maxCount) + "!";
  }
  return {};
}

std::string ChunkStates::fullText(int row, int column) const
{
  const ValueId v = value(row, column);
  const CellSummary& s = summary(v);
  if (s.kind == CellKind::Uninitialised)
    return "uninitialised: nothing has been written here yet";
  std::string text = formatValue(m_store, m_tokens, v);
  std::string ranks;
  for (std::size_t i = 0; i < s.ranks.size() && i < 16; ++i)
    ranks += (i > 0 ? ", " : "") + std::to_string(s.ranks[i]);
  if (s.ranks.size() > 16)
    ranks += ", …";
  switch (s.kind) {
  case CellKind::Uninitialised:
    break;
  case CellKind::Single:
    text += ": rank " + ranks + "'s own contribution";
    break;
  case CellKind::Partial:
    text += ": partial sum of ranks " + ranks + " (" + std::to_string(s.ranks.size()) + " of " +
            std::to_string(m_holders[static_cast<std::size_t>(s.chunk)]) + ")";
    break;
  case CellKind::Complete:
    text += ": complete, every rank's c" + std::to_string(s.chunk) + " summed exactly once";
    break;
  case CellKind::Wrong: {
    if (s.chunk < 0) {
      text += ": wrong, contributions of different chunks are summed together";
      break;
    }
    std::vector<std::string> repeated;
    for (const TokenCount& entry : m_store.entries(v))
      if (entry.count > 1)
        repeated.push_back(formatToken(m_tokens, entry.token) + " " + std::to_string(entry.count) +
                           " times");
    text += ": wrong, double counted (";
    for (std::size_t i = 0; i < repeated.size() && i < 4; ++i)
      text += (i > 0 ? ", " : "") + repeated[i];
    if (repeated.size() > 4)
      text += ", …";
    text += ")";
    break;
  }
  }
  return text;
}

} // namespace cs::editor
