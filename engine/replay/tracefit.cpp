#include "tracefit_p.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace cs::replay {

namespace {

/// More slices than any runtime's counter can number: a trace claiming them is corrupt.
constexpr int kMaxSlice = 1 << 24;
/// Errors reported in full before the rest are only counted.
constexpr int kMaxReported = 20;

std::string eventName(std::size_t index, const TraceEvent& event)
{
  return "event " + std::to_string(index) + " (rank " + std::to_string(event.rank) + " tb " +
         std::to_string(event.tb) + " step " + std::to_string(event.step) + " slice " +
         std::to_string(event.slice) + ")";
}

/// What is wrong with one event, or an empty string.
std::string eventProblem(const Program& program, const TraceEvent& event)
{
  if (event.rank < 0 || event.rank >= program.ngpus)
    return "names rank " + std::to_string(event.rank) + " but the program has " +
           std::to_string(program.ngpus) + " ranks";
  const ThreadBlock* tb = program.threadblock(event.rank, event.tb);
  if (!tb)
    return "names threadblock " + std::to_string(event.tb) + ", which rank " +
           std::to_string(event.rank) + " does not have";
  if (event.step < 0 || event.step >= static_cast<int>(tb->steps.size()))
    return "names step " + std::to_string(event.step) + " but the threadblock has " +
           std::to_string(tb->steps.size()) + " steps";
  const OpType expected = tb->steps[static_cast<std::size_t>(event.step)].type;
  if (event.op != expected)
    return "is a " + std::string(opTypeName(event.op)) + " but the program's step is a " +
           std::string(opTypeName(expected));
  if (event.slice < 0 || event.slice >= kMaxSlice)
    return "has slice " + std::to_string(event.slice) + " (expected 0.." +
           std::to_string(kMaxSlice - 1) + ")";
  if (!std::isfinite(event.start) || !std::isfinite(event.end) || event.start < 0)
    return "has a start or end time that is negative or not a number";
  if (event.end < event.start)
    return "ends (" + std::to_string(event.end) + " µs) before it starts (" +
           std::to_string(event.start) + " µs)";
  if (event.bytes < 0)
    return "moves a negative number of bytes";
  return {};
}

class Report
{
public:
  explicit Report(Diagnostics& out) : m_out(out) {}
  void error(const std::string& message)
  {
    if (++m_count <= kMaxReported)
      m_out.error("replay.mismatch", message);
  }
  bool finish()
  {
    if (m_count > kMaxReported)
      m_out.error("replay.mismatch",
                  std::to_string(m_count - kMaxReported) + " more events do not fit the program");
    return m_count == 0;
  }

private:
  Diagnostics& m_out;
  int m_count = 0;
};

} // namespace

bool traceFitsProgram(const Program& program, const Trace& trace, const Topology* topology,
                      Diagnostics& out)
{
  if (trace.ranks != program.ngpus) {
    out.error("replay.ranks", "the trace is of " + std::to_string(trace.ranks) +
                                  " ranks but the program has " + std::to_string(program.ngpus) +
                                  ": it was recorded for another program");
    return false;
  }
  Report report(out);
  std::vector<std::tuple<int, int, int, int, std::size_t>> keys;
  keys.reserve(trace.events.size());
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const TraceEvent& event = trace.events[i];
    if (const std::string problem = eventProblem(program, event); !problem.empty()) {
      report.error(eventName(i, event) + " " + problem);
      continue;
    }
    keys.emplace_back(event.rank, event.tb, event.step, event.slice, i);
    if (topology) {
      for (const int link : event.linkPath) {
        if (!topology->link(link))
          report.error(eventName(i, event) + " crosses link " + std::to_string(link) +
                       ", which topology \"" + topology->name + "\" does not have");
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t k = 1; k < keys.size(); ++k) {
    const auto& [rank, tb, step, slice, index] = keys[k];
    const auto& previous = keys[k - 1];
    if (std::tie(rank, tb, step, slice) == std::tie(std::get<0>(previous), std::get<1>(previous),
                                                    std::get<2>(previous), std::get<3>(previous)))
      report.error(eventName(index, trace.events[index]) + " appears twice (also event " +
                   std::to_string(std::get<4>(previous)) + ")");
  }
  return report.finish();
}

} // namespace cs::replay
