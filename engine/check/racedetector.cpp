#include "racedetector.h"

#include <algorithm>

namespace cs {

void RaceDetector::reset(std::size_t slots)
{
  m_write.assign(slots, Epoch{});
  m_read.assign(slots, Epoch{});
  m_shared.clear();
  m_freeShared.clear();
}

std::optional<Conflict> RaceDetector::read(std::size_t slot, std::int32_t tb, Clock time,
                                           HappensBefore& order)
{
  if (slot >= m_write.size())
    return std::nullopt;
  std::optional<Conflict> conflict;
  if (!ordered(m_write[slot], tb, order))
    conflict = Conflict{m_write[slot], true};

  Epoch& reads = m_read[slot];
  const Epoch self{tb, time};
  if (reads.tb != kShared) {
    // Reads ordered before this one need not be remembered: a later write ordered after this
    // read is ordered after them too, and one that is not races with this read anyway.
    if (ordered(reads, tb, order)) {
      reads = self;
      return conflict;
    }
    std::int32_t index = 0;
    if (!m_freeShared.empty()) {
      index = m_freeShared.back();
      m_freeShared.pop_back();
    } else {
      index = static_cast<std::int32_t>(m_shared.size());
      m_shared.emplace_back();
    }
    std::vector<Epoch>& list = m_shared[static_cast<std::size_t>(index)];
    list.clear();
    list.push_back(reads);
    list.push_back(self);
    reads = {kShared, index};
    return conflict;
  }
  std::vector<Epoch>& list = m_shared[static_cast<std::size_t>(reads.time)];
  std::erase_if(list, [tb, &order](const Epoch& e) { return ordered(e, tb, order); });
  list.push_back(self);
  return conflict;
}

std::optional<Conflict> RaceDetector::write(std::size_t slot, std::int32_t tb, Clock time,
                                            HappensBefore& order)
{
  if (slot >= m_write.size())
    return std::nullopt;
  std::optional<Conflict> conflict;
  if (!ordered(m_write[slot], tb, order))
    conflict = Conflict{m_write[slot], true};

  Epoch& reads = m_read[slot];
  if (reads.tb == kShared) {
    std::vector<Epoch>& list = m_shared[static_cast<std::size_t>(reads.time)];
    if (!conflict) {
      const auto it = std::find_if(list.begin(), list.end(),
                                   [tb, &order](const Epoch& e) { return !ordered(e, tb, order); });
      if (it != list.end())
        conflict = Conflict{*it, false};
    }
    list.clear();
    m_freeShared.push_back(reads.time);
  } else if (!conflict && !ordered(reads, tb, order)) {
    conflict = Conflict{reads, false};
  }
  reads = Epoch{};
  m_write[slot] = {tb, time};
  return conflict;
}

Epoch RaceDetector::lastWrite(std::size_t slot) const
{
  return slot < m_write.size() ? m_write[slot] : Epoch{};
}

} // namespace cs
