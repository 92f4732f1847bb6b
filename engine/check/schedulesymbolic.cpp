#include "scheduledetail_p.h"
#include "schedulestates.h"
#include "symbolicvalue.h"

#include "../model/collectivespec.h"

#include <algorithm>
#include <array>

namespace cs::detail {

namespace {

/// Memory of one call mode: every (rank, memory buffer, chunk) is one slot of a flat array.
class SlotSpace
{
public:
  SlotSpace(const Schedule& schedule, const ScheduleGeometry& geometry, CallMode mode)
      : m_geometry(geometry), m_mode(mode),
        m_capacity(static_cast<std::size_t>(schedule.ranks) * kBufferCount, 0)
  {
    // Every declared chunk has a slot (where aliasing puts it), so the recorded states show it.
    for (int r = 0; r < schedule.ranks; ++r) {
      for (int b = 0; b < kBufferCount; ++b) {
        const Buffer buffer = static_cast<Buffer>(b);
        const int chunks = schedule.buffers[static_cast<std::size_t>(r)].chunks(buffer);
        if (chunks > 0)
          reserve({r, buffer, 0}, chunks);
      }
    }
  }

  /// Makes room for `ref`'s `count` chunks after aliasing.
  void reserve(const ChunkRef& ref, int count)
  {
    const ChunkRef memory = memoryOf(ref);
    grow(memory.rank, memory.buffer, memory.index + count);
  }
  /// Lays the slots out; call after every reserve().
  void layout()
  {
    m_base.resize(m_capacity.size() + 1);
    std::size_t total = 0;
    for (std::size_t i = 0; i < m_capacity.size(); ++i) {
      m_base[i] = total;
      total += static_cast<std::size_t>(m_capacity[i]);
    }
    m_base.back() = total;
  }
  std::size_t size() const { return m_base.back(); }
  /// Hands the layout to recorded states (schedulestates.h).
  void exportLayout(ScheduleStates& states) const
  {
    states.memoryBase = m_base;
    states.memorySize = m_capacity;
  }
  ChunkRef memoryOf(const ChunkRef& ref) const { return aliasedChunk(m_geometry, ref, m_mode); }
  /// Slot of chunk `offset` of `ref` (offset < the transfer's count).
  std::size_t slot(const ChunkRef& ref, int offset = 0) const
  {
    const ChunkRef memory = memoryOf(ref);
    return m_base[key(memory.rank, memory.buffer)] +
           static_cast<std::size_t>(memory.index + offset);
  }

private:
  static std::size_t key(int rank, Buffer buffer)
  {
    return static_cast<std::size_t>(rank) * kBufferCount + static_cast<std::size_t>(buffer);
  }
  void grow(int rank, Buffer buffer, int chunks)
  {
    int& capacity = m_capacity[key(rank, buffer)];
    capacity = std::max(capacity, chunks);
  }

  ScheduleGeometry m_geometry;
  CallMode m_mode;
  std::vector<int> m_capacity;
  std::vector<std::size_t> m_base;
};

/// "holds Σ{r0·c1, r1·c1, r1·c1} (r1·c1 twice; r2·c1 missing)" or "is uninitialised".
std::string actualText(const ValueStore& store, const TokenSpace& tokens, ValueId value,
                       const std::vector<Contribution>& expected)
{
  const TokenEntries entries = store.entries(value);
  if (entries.empty())
    return "is uninitialised";
  std::vector<std::string> extra;
  std::vector<std::string> missing;
  std::size_t e = 0;
  for (const Contribution& want : expected) {
    const std::uint32_t token = tokens.token(want.rank, want.chunk).value_or(0);
    while (e < entries.size() && entries[e].token < token)
      extra.push_back(formatToken(tokens, entries[e++].token));
    if (e < entries.size() && entries[e].token == token) {
      if (entries[e].count > 1)
        extra.push_back(contributionName(want) + " " + std::to_string(entries[e].count) + " times");
      ++e;
    } else {
      missing.push_back(contributionName(want));
    }
  }
  for (; e < entries.size(); ++e)
    extra.push_back(formatToken(tokens, entries[e].token));
  auto list = [](const std::vector<std::string>& items) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < 4; ++i)
      text += (i > 0 ? ", " : "") + items[i];
    if (items.size() > 4)
      text += " and " + std::to_string(items.size() - 4) + " more";
    return text;
  };
  std::string text = "holds " + formatValue(store, tokens, value);
  std::string notes;
  if (!extra.empty())
    notes = "unexpected " + list(extra);
  if (!missing.empty())
    notes += (notes.empty() ? "" : "; ") + list(missing) + " missing";
  return notes.empty() ? text : text + " (" + notes + ")";
}

class PlaneRun
{
public:
  PlaneRun(const Schedule& schedule, const ScheduleGeometry& geometry, CallMode mode,
           const std::string& prefix, ScheduleReport& report)
      : m_schedule(schedule), m_slots(schedule, geometry, mode), m_prefix(prefix), m_report(report),
        m_tokens(inputCounts(schedule)), m_store(m_tokens.count()),
        m_spec(geometry.collective, geometry.ranks, geometry.whole, schedule.root.value_or(-1))
  {
  }

  /// Executes the transfers `order` and checks the result; records the states into `record`
  /// (its columns, mode and geometry set by the caller) unless it is null.
  void run(const std::vector<std::size_t>& order, const PlaneRecording& recording)
  {
    ScheduleStates* record = recording.states;
    layout(order);
    if (record)
      startRecording(*record, recording.budget);
    int group = 0;
    for (std::size_t begin = 0; begin < order.size(); ++group) {
      std::size_t end = begin;
      const int step = m_schedule.transfers[order[begin]].step;
      while (end < order.size() && m_schedule.transfers[order[end]].step == step)
        ++end;
      runStep(order, begin, end, group);
      if (m_store.overflowed()) {
        // Unions past the id space read as uninitialised: say so instead of blaming the reads.
        m_report.add(Severity::Error, "schedule.too-large",
                     m_prefix + "the symbolic chunk values ran out of ids in step " +
                         std::to_string(step) + "; later steps and the result were not checked",
                     nullptr);
        return;
      }
      if (record)
        recordStep(*record, step);
      if (record && recording.stopWhenFull && !m_recording) {
        finishRecording(*record);
        return;
      }
      begin = end;
    }
    checkPostcondition();
    if (record)
      finishRecording(*record);
  }

private:
  void layout(const std::vector<std::size_t>& order)
  {
    for (const std::size_t i : order) {
      const Transfer& t = m_schedule.transfers[i];
      m_slots.reserve(t.src, t.count);
      m_slots.reserve(t.dst, t.count);
    }
    for (int r = 0; r < m_schedule.ranks; ++r) {
      const ResultChunks result = m_spec.result(r);
      m_slots.reserve({r, result.buffer, result.first}, result.count);
    }
    m_slots.layout();
    m_value.assign(m_slots.size(), kUninitialised);
    m_lastWriter.assign(m_slots.size(), -1);
    m_stamp.assign(m_slots.size(), -1);
    m_stepWriter.assign(m_slots.size(), 0);
    for (int r = 0; r < m_schedule.ranks; ++r) {
      const int chunks = m_schedule.buffers[static_cast<std::size_t>(r)].input;
      for (int k = 0; k < chunks; ++k) {
        if (const std::optional<std::uint32_t> token = m_tokens.token(r, k))
          m_value[m_slots.slot({r, Buffer::Input, k})] = m_store.singleton(*token);
      }
    }
  }

  // Recording: column 0 is the start; each step with transfers stores a copy of every slot,
  // steps without share the previous column, and past the budget nothing more is stored.
  void startRecording(ScheduleStates& record, std::size_t budget)
  {
    m_slots.exportLayout(record);
    m_fit = std::max<std::size_t>(1, budget / std::max<std::size_t>(1, m_slots.size()));
    record.storedOf.assign(static_cast<std::size_t>(record.columns), 0);
    record.computedColumns = record.columns;
    record.values = m_value;
    m_recording = true;
  }

  void recordStep(ScheduleStates& record, int step)
  {
    if (!m_recording)
      return;
    const std::size_t column = static_cast<std::size_t>(step) + 1;
    for (std::size_t c = m_recordedColumn + 1; c < column; ++c)
      record.storedOf[c] = record.storedOf[c - 1];
    if (m_stored + 1 > m_fit) {
      record.computedColumns = step + 1;
      m_recording = false;
      return;
    }
    record.values.insert(record.values.end(), m_value.begin(), m_value.end());
    record.storedOf[column] = static_cast<std::uint32_t>(m_stored++);
    m_recordedColumn = column;
  }

  void finishRecording(ScheduleStates& record)
  {
    if (m_recording) {
      for (std::size_t c = m_recordedColumn + 1; c < record.storedOf.size(); ++c)
        record.storedOf[c] = record.storedOf[c - 1];
    }
    record.tokens = m_tokens;
    record.store = std::move(m_store);
  }

  static std::vector<int> inputCounts(const Schedule& schedule)
  {
    std::vector<int> counts;
    for (const RankBuffers& buffers : schedule.buffers)
      counts.push_back(buffers.input);
    return counts;
  }

  std::string where(const ChunkRef& ref, int offset) const
  {
    const ChunkRef chunk{ref.rank, ref.buffer, ref.index + offset};
    std::string text = chunkRefName(chunk);
    const ChunkRef memory = m_slots.memoryOf(chunk);
    if (memory != chunk)
      text += " (memory " + std::string(1, bufferLetter(memory.buffer)) + '[' +
              std::to_string(memory.index) + "])";
    return text;
  }

  void runStep(const std::vector<std::size_t>& order, std::size_t begin, std::size_t end, int group)
  {
    // Writes first, so that a read conflicts with a write of the same step whatever their order.
    for (std::size_t n = begin; n < end; ++n) {
      const Transfer& t = m_schedule.transfers[order[n]];
      for (int c = 0; c < t.count; ++c) {
        const std::size_t slot = m_slots.slot(t.dst, c);
        if (m_stamp[slot] == group && m_stepWriter[slot] != order[n]) {
          const Transfer& other = m_schedule.transfers[m_stepWriter[slot]];
          m_report.add(Severity::Error, "schedule.write-conflict",
                       m_prefix + transferName(t) + " writes " + where(t.dst, c) + " in step " +
                           std::to_string(t.step) + ", which " + transferName(other) +
                           " also writes in that step",
                       &t, t.dst.rank);
          break;
        }
        m_stamp[slot] = group;
        m_stepWriter[slot] = order[n];
      }
    }
    m_pending.clear();
    for (std::size_t n = begin; n < end; ++n) {
      const Transfer& t = m_schedule.transfers[order[n]];
      bool raced = false;
      bool garbage = false;
      for (int c = 0; c < t.count; ++c) {
        const std::size_t src = m_slots.slot(t.src, c);
        const std::size_t dst = m_slots.slot(t.dst, c);
        if (!raced && m_stamp[src] == group && m_stepWriter[src] != order[n]) {
          raced = true;
          const Transfer& other = m_schedule.transfers[m_stepWriter[src]];
          m_report.add(Severity::Error, "schedule.race",
                       m_prefix + transferName(t) + " reads " + where(t.src, c) + " in step " +
                           std::to_string(t.step) + " while " + transferName(other) +
                           " writes it in the same step",
                       &t, t.src.rank);
        }
        const bool reduce = t.op == TransferOp::Reduce;
        if (!garbage &&
            (m_value[src] == kUninitialised || (reduce && m_value[dst] == kUninitialised))) {
          garbage = true;
          const bool source = m_value[src] == kUninitialised;
          m_report.add(Severity::Error, "schedule.uninitialised",
                       m_prefix + transferName(t) + (source ? " reads " : " reduces into ") +
                           where(source ? t.src : t.dst, c) + " in step " + std::to_string(t.step) +
                           ", which nobody has written yet",
                       &t, source ? t.src.rank : t.dst.rank);
        }
        const ValueId value = reduce ? m_store.combine(m_value[dst], m_value[src]) : m_value[src];
        m_pending.push_back({dst, value, order[n]});
      }
    }
    for (const Pending& p : m_pending) {
      m_value[p.slot] = p.value;
      m_lastWriter[p.slot] = static_cast<int>(p.transfer);
    }
  }

  void checkPostcondition()
  {
    const Collective collective = m_schedule.collective;
    if (!hasPostcondition(collective)) {
      m_report.add(Severity::Warning, "schedule.postcondition.unknown",
                   "no postcondition is known for a " + std::string(collectiveTitle(collective)) +
                       " schedule: only conflicts, races and uninitialised reads were checked",
                   nullptr);
      return;
    }
    if (isRooted(collective) && (m_spec.root() < 0 || m_spec.root() >= m_schedule.ranks))
      return; // schedule.root said why
    if (m_store.overflowed())
      return;
    std::vector<Contribution> expected;
    std::int64_t wrong = 0;
    std::int64_t total = 0;
    ChunkRef first;
    std::vector<Contribution> firstExpected;
    ResultMatcher matcher(m_spec, m_store, m_tokens);
    for (int r = 0; r < m_schedule.ranks; ++r) {
      const ResultChunks result = m_spec.result(r);
      for (int i = 0; i < result.count; ++i) {
        const ChunkRef chunk{r, result.buffer, result.first + i};
        ++total;
        if (matcher.holds(r, i, m_value[m_slots.slot(chunk)], expected))
          continue;
        if (wrong++ == 0) {
          first = chunk;
          firstExpected = expected;
        }
      }
    }
    if (wrong == 0)
      return;
    const std::size_t slot = m_slots.slot(first);
    const int writer = m_lastWriter[slot];
    const Transfer* transfer =
        writer >= 0 ? &m_schedule.transfers[static_cast<std::size_t>(writer)] : nullptr;
    std::string text = m_prefix + "the " + std::string(collectiveTitle(collective));
    if (m_schedule.root && isRooted(collective))
      text += " from root " + std::to_string(*m_schedule.root);
    text += " result is wrong after the last step: " + where(first, 0) + " " +
            actualText(m_store, m_tokens, m_value[slot], firstExpected) + " but should hold " +
            contributionsText(firstExpected) + "; " + std::to_string(wrong) + " of " +
            std::to_string(total) + " result chunks are wrong";
    if (transfer)
      text += " (last written by " + transferName(*transfer) + ")";
    m_report.add(Severity::Error, "schedule.postcondition", text, transfer, first.rank);
  }

  struct Pending {
    std::size_t slot;
    ValueId value;
    std::size_t transfer;
  };

  const Schedule& m_schedule;
  SlotSpace m_slots;
  std::string m_prefix;
  ScheduleReport& m_report;
  TokenSpace m_tokens;
  ValueStore m_store;
  CollectiveSpec m_spec;
  std::vector<ValueId> m_value;
  std::vector<int> m_lastWriter; ///< index into schedule.transfers of the last writer, or -1
  std::vector<int> m_stamp;      ///< step group that last wrote the slot
  std::vector<std::size_t> m_stepWriter;
  std::vector<Pending> m_pending;
  bool m_recording = false;
  std::size_t m_fit = 1;            ///< stored columns the budget allows
  std::size_t m_stored = 1;         ///< stored columns so far
  std::size_t m_recordedColumn = 0; ///< the last column given its own storage
};

} // namespace

void runSchedulePlane(const Schedule& schedule, const ScheduleGeometry& geometry, CallMode mode,
                      const std::vector<std::size_t>& order, const std::string& prefix,
                      ScheduleReport& report, const PlaneRecording& recording)
{
  PlaneRun run(schedule, geometry, mode, prefix, report);
  run.run(order, recording);
}

} // namespace cs::detail
