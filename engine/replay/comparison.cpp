#include "comparison.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cs::replay {

namespace {

/// Step positions of a program: the longest threadblock's step count.
int positionsOf(const Program& program)
{
  std::size_t positions = 0;
  for (const Gpu& gpu : program.gpus)
    for (const ThreadBlock& tb : gpu.threadblocks)
      positions = std::max(positions, tb.steps.size());
  return static_cast<int>(positions);
}

/// First start and last end of each position's events; (0, 0) where it has none.
std::vector<std::pair<double, double>> spansOf(const Trace& trace, int positions)
{
  std::vector<std::pair<double, double>> spans(static_cast<std::size_t>(positions));
  std::vector<bool> seen(spans.size(), false);
  for (const TraceEvent& event : trace.events) {
    if (event.step < 0 || event.step >= positions)
      continue;
    const auto k = static_cast<std::size_t>(event.step);
    auto& [first, last] = spans[k];
    first = seen[k] ? std::min(first, event.start) : event.start;
    last = seen[k] ? std::max(last, event.end) : event.end;
    seen[k] = true;
  }
  return spans;
}

/// Per link: the spans its messages were in flight, and their bytes.
struct LinkLoad {
  std::vector<std::pair<double, double>> spans;
  std::int64_t bytes = 0;
};

std::map<int, LinkLoad> loadsOf(const ReplayIndex& index)
{
  std::map<int, LinkLoad> loads;
  for (const Message& message : index.messages()) {
    for (const Hop& hop : message.route) {
      LinkLoad& load = loads[hop.link];
      load.spans.emplace_back(message.start, std::max(message.start, message.end));
      load.bytes += message.bytes;
    }
  }
  return loads;
}

/// Length of the union of `spans`.
double unionLength(std::vector<std::pair<double, double>> spans)
{
  std::sort(spans.begin(), spans.end());
  double total = 0;
  double coveredTo = -1e300;
  for (const auto& [start, end] : spans) {
    const double from = std::max(start, coveredTo);
    if (end > from)
      total += end - from;
    coveredTo = std::max(coveredTo, end);
  }
  return total;
}

ComparedTime compared(double first, double second, const std::array<double, 2>& totals)
{
  ComparedTime time;
  time.us = {first, second};
  for (std::size_t run = 0; run < 2; ++run)
    time.normalised[run] = totals[run] > 0 ? time.us[run] / totals[run] : 0.0;
  time.deltaUs = time.us[1] - time.us[0];
  time.deltaNormalised = time.normalised[1] - time.normalised[0];
  return time;
}

std::vector<LinkComparison> compareLinks(const ReplayIndex& first, const ReplayIndex& second,
                                         const std::array<double, 2>& totals)
{
  const std::array<std::map<int, LinkLoad>, 2> loads{loadsOf(first), loadsOf(second)};
  std::map<int, LinkComparison> links;
  for (std::size_t run = 0; run < 2; ++run) {
    for (const auto& [link, load] : loads[run]) {
      LinkComparison& entry = links[link];
      entry.link = link;
      entry.busy.us[run] = unionLength(load.spans);
      entry.bytes[run] = load.bytes;
    }
  }
  std::vector<LinkComparison> out;
  for (auto& [link, entry] : links) {
    entry.busy = compared(entry.busy.us[0], entry.busy.us[1], totals);
    out.push_back(entry);
  }
  std::stable_sort(out.begin(), out.end(), [](const LinkComparison& a, const LinkComparison& b) {
    return a.busy.deltaUs > b.busy.deltaUs;
  });
  return out;
}

} // namespace

Comparison compareRuns(const ReplayIndex& first, const ReplayIndex& second)
{
  Comparison comparison;
  comparison.totalUs = {first.endUs(), second.endUs()};
  const int positions = positionsOf(first.program());
  const auto a = spansOf(first.trace(), positions);
  const auto b = spansOf(second.trace(), positions);
  for (int k = 0; k < positions; ++k) {
    const auto i = static_cast<std::size_t>(k);
    StepComparison step;
    step.position = k;
    step.time = compared(a[i].second - a[i].first, b[i].second - b[i].first, comparison.totalUs);
    step.startUs = {a[i].first, b[i].first};
    comparison.steps.push_back(step);
  }
  std::stable_sort(comparison.steps.begin(), comparison.steps.end(),
                   [](const StepComparison& x, const StepComparison& y) {
                     return x.time.deltaUs > y.time.deltaUs;
                   });
  comparison.links = compareLinks(first, second, comparison.totalUs);
  return comparison;
}

} // namespace cs::replay
