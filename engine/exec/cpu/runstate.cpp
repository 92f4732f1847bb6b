#include "runstate_p.h"

namespace cs::cpu {

void RunState::abort()
{
  aborted.store(true, std::memory_order_release);
  for (const std::unique_ptr<Connection>& connection : connections)
    connection->abort();
  for (std::size_t i = 0; i < plan.threadblocks.size(); ++i)
    poison(flags[i]);
}

void RunState::reset()
{
  for (const std::unique_ptr<Connection>& connection : connections)
    connection->reset();
  for (std::size_t i = 0; i < plan.threadblocks.size(); ++i)
    flags[i].value.store(0, std::memory_order_relaxed);
  for (ThreadStatus& s : status) {
    std::vector<TraceEvent> events = std::move(s.events);
    events.clear();
    s = ThreadStatus{};
    s.events = std::move(events);
  }
  progress.store(0, std::memory_order_relaxed);
  aborted.store(false, std::memory_order_relaxed);
}

void RunState::fail(Diagnostic diagnostic)
{
  {
    const std::lock_guard lock(errorMutex);
    errors.push_back(std::move(diagnostic));
  }
  abort();
}

} // namespace cs::cpu
