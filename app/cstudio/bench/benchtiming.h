#pragma once

// The one way cstudio's benchmarks time work: the median of several runs, in milliseconds, so a
// single slow run on a noisy machine does not move the figure.

#include <algorithm>
#include <chrono>
#include <vector>

namespace cs::bench {

template <typename Work> double medianMs(int repeats, Work&& work)
{
  std::vector<double> times;
  for (int i = 0; i < std::max(1, repeats); ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace cs::bench
