#pragma once

// How a host thread waits on work it cannot block on (a kernel, grouped NCCL calls, blocks on
// other threads): polling, spun at first because most runs finish within microseconds of the
// last post, then every 100 µs so a long run does not take a core from the work it waits for.

#include <chrono>
#include <thread>

namespace cs {

/// A span of `value` seconds.
inline std::chrono::duration<double> seconds(double value)
{
  return std::chrono::duration<double>(value);
}

/// The pause before poll number `polls` (0, 1, …).
inline void pauseBeforePoll(int polls)
{
  if (polls < 2000)
    std::this_thread::yield();
  else
    std::this_thread::sleep_for(std::chrono::microseconds(100));
}

} // namespace cs
