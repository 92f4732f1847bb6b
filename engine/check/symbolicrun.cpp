#include "symbolicstate_p.h"

namespace cs {

using namespace symbolic;

namespace {

// Shared empty results for out-of-range queries.
const std::vector<RaceRecord> kNoRaces;
const std::vector<UninitialisedRead> kNoReads;

} // namespace

SymbolicRun::SymbolicRun(const Program& program, SymbolicRunOptions options)
    : m_state(std::make_unique<State>(program, std::move(options)))
{
  if (!m_state->build()) {
    m_state->planes.clear();
    m_state->tbs.clear();
    m_state->tbCount = 0;
    m_state->rankTbBase.clear();
    m_state->races = false;
  }
  if (!m_state->store)
    m_state->store.emplace(0);
}

SymbolicRun::~SymbolicRun() = default;

const std::string& SymbolicRun::refusal() const
{
  return m_state->refusal;
}

bool SymbolicRun::tooLarge() const
{
  return m_state->tooLarge;
}

const std::string& SymbolicRun::raceRefusal() const
{
  return m_state->raceRefusal;
}

SymbolicRun::Outcome SymbolicRun::run()
{
  if (!m_state->refusal.empty() || m_state->outcome != Outcome::NotRun)
    return m_state->outcome;
  m_state->outcome = m_state->execute();
  return m_state->outcome;
}

SymbolicRun::Outcome SymbolicRun::outcome() const
{
  return m_state->outcome;
}

const Program& SymbolicRun::program() const
{
  return m_state->program;
}

int SymbolicRun::fifoSlots() const
{
  return m_state->options.fifoSlots;
}

int SymbolicRun::threadblockCount() const
{
  return m_state->tbCount;
}

int SymbolicRun::globalIndex(int rank, int tbId) const
{
  if (m_state->rankTbBase.size() <= static_cast<std::size_t>(std::max(0, rank)) + 1)
    return -1;
  return m_state->globalIndexOf(rank, tbId);
}

int SymbolicRun::rankOf(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->tbs[at(tb)].rank : -1;
}

int SymbolicRun::idOf(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->tbs[at(tb)].id : -1;
}

int SymbolicRun::position(int tb) const
{
  return tb >= 0 && tb < m_state->tbCount ? m_state->pc[at(tb)] : 0;
}

bool SymbolicRun::finished(int tb) const
{
  return tb < 0 || tb >= m_state->tbCount || m_state->pc[at(tb)] >= m_state->tbs[at(tb)].stepCount;
}

WaitFor SymbolicRun::waitFor(int tb) const
{
  const State& s = *m_state;
  WaitFor wait;
  if (finished(tb))
    return wait;
  const TbRec& rec = s.tbs[at(tb)];
  const int pos = s.pc[at(tb)];
  const StepRec& step = s.steps[at(rec.stepBegin + pos)];
  const Step& source = rec.tb->steps[at(pos)];
  if (step.depTarget == kMissingTarget ||
      (step.depTarget >= 0 && s.flag[at(step.depTarget)] < source.deps)) {
    wait.kind = WaitKind::Dependency;
    wait.target = step.depTarget >= 0 ? step.depTarget : -1;
    wait.peer = rec.rank;
    wait.depTb = source.depid;
    wait.deps = source.deps;
    return wait;
  }
  if (step.traits.receives) {
    const Conn* conn = rec.recvConn >= 0 ? &s.conns[at(rec.recvConn)] : nullptr;
    if (!conn || conn->held() == 0) {
      wait.kind = WaitKind::Message;
      wait.peer = rec.tb->recv;
      wait.channel = rec.tb->chan;
      wait.target = conn && !conn->senders.empty() ? conn->senders.front() : -1;
      return wait;
    }
  }
  if (step.traits.sends) {
    const Conn* conn = rec.sendConn >= 0 ? &s.conns[at(rec.sendConn)] : nullptr;
    if (!conn || (s.options.fifoSlots > 0 &&
                  conn->held() >= static_cast<std::size_t>(s.options.fifoSlots))) {
      wait.kind = WaitKind::Room;
      wait.peer = rec.tb->send;
      wait.channel = rec.tb->chan;
      wait.target = conn && !conn->receivers.empty() ? conn->receivers.front() : -1;
      return wait;
    }
  }
  return wait;
}

int SymbolicRun::planeCount() const
{
  return static_cast<int>(m_state->planes.size());
}

CallMode SymbolicRun::mode(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].mode
                                            : CallMode::OutOfPlace;
}

int SymbolicRun::slot(int plane, int rank, Buffer buffer, int index) const
{
  if (plane < 0 || plane >= planeCount() || rank < 0 || rank >= m_state->ranks)
    return -1;
  return m_state->slotOf(m_state->planes[at(plane)], rank, buffer, index);
}

MemorySlot SymbolicRun::memoryOf(int plane, int slot) const
{
  if (plane < 0 || plane >= planeCount())
    return {};
  const Plane& p = m_state->planes[at(plane)];
  if (slot < 0 || slot >= static_cast<int>(p.value.size()))
    return {};
  const auto it =
      std::upper_bound(p.memBase.begin(), p.memBase.end(), static_cast<std::int64_t>(slot));
  // Memories of size 0 share their base with the next one; upper_bound lands past all of them.
  const std::size_t key = static_cast<std::size_t>(it - p.memBase.begin()) - 1;
  return {static_cast<Buffer>(key % kBufferCount), static_cast<int>(slot - p.memBase[key])};
}

ValueId SymbolicRun::value(int plane, int slot) const
{
  if (plane < 0 || plane >= planeCount())
    return kUninitialised;
  const Plane& p = m_state->planes[at(plane)];
  return slot >= 0 && slot < static_cast<int>(p.value.size()) ? p.value[at(slot)] : kUninitialised;
}

std::optional<AccessSite> SymbolicRun::lastWriter(int plane, int slot) const
{
  const State& s = *m_state;
  if (!s.races || plane < 0 || plane >= planeCount() || slot < 0)
    return std::nullopt;
  const Plane& p = s.planes[at(plane)];
  const Epoch write = p.detector.lastWrite(at(slot));
  if (write.tb < 0 || write.tb >= s.tbCount)
    return std::nullopt;
  return s.siteOf(p, write.tb, write.time - 1, true, slot);
}

const std::vector<RaceRecord>& SymbolicRun::races(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].races : kNoRaces;
}

int SymbolicRun::racesNotRecorded(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].racesDropped : 0;
}

const std::vector<UninitialisedRead>& SymbolicRun::uninitialisedReads(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].uninitialised : kNoReads;
}

int SymbolicRun::uninitialisedNotRecorded(int plane) const
{
  return plane >= 0 && plane < planeCount() ? m_state->planes[at(plane)].uninitialisedDropped : 0;
}

const ValueStore& SymbolicRun::values() const
{
  return *m_state->store;
}

const TokenSpace& SymbolicRun::tokens() const
{
  return m_state->tokenSpace;
}

} // namespace cs
