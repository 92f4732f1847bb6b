#include "watchdog_p.h"

#include <algorithm>

namespace cs::cpu {

Watchdog::Watchdog(const std::atomic<std::uint64_t>& progress, double timeoutSeconds,
                   const std::atomic<bool>* cancel)
    : m_progress(progress), m_timeout(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::duration<double>(std::max(timeoutSeconds, 0.001)))),
      m_cancel(cancel)
{
}

void Watchdog::threadFinished()
{
  {
    const std::lock_guard lock(m_mutex);
    ++m_finished;
  }
  m_finishedChanged.notify_all();
}

bool Watchdog::waitForAll(int threads)
{
  using Clock = std::chrono::steady_clock;
  // Look at the counter a few times per timeout, so a hang is noticed within ~1.1 timeouts.
  const auto poll = std::clamp<std::chrono::nanoseconds>(
      m_timeout / 10, std::chrono::milliseconds(1), std::chrono::milliseconds(m_cancel ? 50 : 200));
  std::uint64_t seen = m_progress.load(std::memory_order_relaxed);
  auto lastChange = Clock::now();
  std::unique_lock lock(m_mutex);
  while (m_finished < threads) {
    // Checked before each wait too, so launches shorter than the poll still see a cancel.
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
      return false;
    if (m_finishedChanged.wait_for(lock, poll, [&] { return m_finished >= threads; }))
      break;
    const std::uint64_t now = m_progress.load(std::memory_order_relaxed);
    if (now != seen) {
      seen = now;
      lastChange = Clock::now();
    } else if (Clock::now() - lastChange >= m_timeout) {
      return false;
    }
  }
  return true;
}

void Watchdog::reset()
{
  const std::lock_guard lock(m_mutex);
  m_finished = 0;
}

} // namespace cs::cpu
