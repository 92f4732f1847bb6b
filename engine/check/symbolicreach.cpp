#include "symbolicreach_p.h"

#include <algorithm>

namespace cs::symbolic {

void ReachOrder::reset(std::vector<int> stepBegin)
{
  m_stepBegin = std::move(stepBegin);
  const std::size_t tbs = m_stepBegin.empty() ? 0 : m_stepBegin.size() - 1;
  const std::size_t steps = m_stepBegin.empty() ? 0 : static_cast<std::size_t>(m_stepBegin.back());
  messageFrom.assign(steps, -1);
  releasedBy.assign(steps, -1);
  m_reach.assign(tbs, -1);
  m_scanned.assign(tbs, -1);
  m_pending.assign(tbs, 0);
  m_toScan.clear();
  m_touched.clear();
  m_tb = -1;
  m_work = 0;
}

void ReachOrder::clear()
{
  for (const int x : m_touched) {
    m_reach[static_cast<std::size_t>(x)] = -1;
    m_scanned[static_cast<std::size_t>(x)] = -1;
    m_pending[static_cast<std::size_t>(x)] = 0;
  }
  m_touched.clear();
  m_toScan.clear();
}

void ReachOrder::setCurrent(int tb, int pos)
{
  // The past of a later step of the same threadblock contains the past of an earlier one, so
  // what was found stays true; another threadblock's past is another set.
  if (tb != m_tb) {
    clear();
    m_tb = tb;
  }
  raise(tb, pos);
}

void ReachOrder::raise(int tb, int pos)
{
  const std::size_t x = static_cast<std::size_t>(tb);
  if (pos <= m_reach[x])
    return;
  if (m_reach[x] < 0 && m_scanned[x] < 0 && !m_pending[x])
    m_touched.push_back(tb);
  m_reach[x] = pos;
  if (!m_pending[x]) {
    m_pending[x] = 1;
    m_toScan.push_back(tb);
  }
}

int ReachOrder::threadblockOf(int step) const
{
  // Threadblocks without steps share their stepBegin with the next one; the last threadblock
  // starting at or before `step` is the one that holds it.
  const auto it = std::upper_bound(m_stepBegin.begin(), m_stepBegin.end(), step);
  return static_cast<int>(it - m_stepBegin.begin()) - 1;
}

void ReachOrder::raiseFromStep(int step)
{
  if (step < 0)
    return;
  const int tb = threadblockOf(step);
  raise(tb, step - m_stepBegin[static_cast<std::size_t>(tb)]);
}

bool ReachOrder::seen(const Epoch& earlier)
{
  if (exhausted())
    return true;
  const std::size_t a = static_cast<std::size_t>(earlier.tb);
  const int wanted = earlier.time - 1;
  while (m_reach[a] < wanted && !m_toScan.empty()) {
    const int tb = m_toScan.back();
    m_toScan.pop_back();
    const std::size_t x = static_cast<std::size_t>(tb);
    m_pending[x] = 0;
    const int begin = m_stepBegin[x];
    const int from = m_scanned[x] + 1;
    // A self-addressed message can raise m_reach[x] while x is scanned: re-read the bound.
    for (int j = from; j <= m_reach[x]; ++j) {
      const std::size_t s = static_cast<std::size_t>(begin + j);
      raiseFromStep(messageFrom[s]);
      raiseFromStep(releasedBy[s]);
      m_scanned[x] = j;
    }
    m_work += 1 + m_scanned[x] + 1 - from;
  }
  return m_reach[a] >= wanted;
}

} // namespace cs::symbolic
