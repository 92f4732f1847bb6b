#include "replaysession.h"

#include "io/chrometracereader.h"

#include <algorithm>
#include <map>

namespace cs::visualizer {

ReplayOpen ReplaySession::open(const Program& program, Trace trace,
                               std::optional<Topology> topology, CallMode mode)
{
  ReplayOpen result;
  mode = trace.mode.value_or(mode);
  replay::ReplayBuild built =
      replay::ReplayIndex::build(program, std::move(trace), topology ? &*topology : nullptr);
  result.diagnostics = std::move(built.diagnostics);
  if (built.index) {
    result.session.reset(new ReplaySession(std::move(*built.index), std::move(topology), mode));
  }
  return result;
}

ReplayOpen ReplaySession::openFile(const Program& program, const QString& tracePath,
                                   std::optional<Topology> topology, CallMode mode)
{
  TraceReadResult read = readChromeTraceFile(tracePath.toStdString());
  if (!read.trace) {
    ReplayOpen failed;
    failed.diagnostics = std::move(read.diagnostics);
    return failed;
  }
  return open(program, std::move(*read.trace), std::move(topology), mode);
}

ReplaySession::ReplaySession(replay::ReplayIndex index, std::optional<Topology> topology,
                             CallMode mode)
    : m_index(std::move(index)), m_topology(std::move(topology))
{
  m_buffers = std::make_unique<replay::BufferReplay>(m_index.program(), m_index.trace(), mode);
  indexSteps();
  m_state = m_index.at(m_cursorUs);
}

void ReplaySession::indexSteps()
{
  std::map<std::pair<int, int>, double> starts; // (slice, step) → its earliest event
  for (const TraceEvent& event : m_index.trace().events) {
    const auto [it, added] = starts.try_emplace({event.slice, event.step}, event.start);
    if (!added)
      it->second = std::min(it->second, event.start);
  }
  std::vector<std::pair<double, std::pair<int, int>>> byTime;
  for (const auto& [key, start] : starts)
    byTime.push_back({start, {key.second, key.first}});
  std::sort(byTime.begin(), byTime.end());
  for (const auto& [start, key] : byTime) {
    if (!m_stepStarts.empty() && m_stepStarts.back() == start)
      continue;
    m_stepStarts.push_back(start);
    m_stepKeys.push_back(key);
  }
}

QString ReplaySession::description() const
{
  const Trace& run = trace();
  if (!run.device.empty())
    return QString::fromStdString(run.device);
  return QString::fromStdString(run.source);
}

void ReplaySession::setCursor(double timeUs)
{
  const double clamped = std::clamp(timeUs, startUs(), endUs());
  if (clamped == m_cursorUs)
    return;
  m_cursorUs = clamped;
  m_state = m_index.at(m_cursorUs);
  emit cursorChanged(m_cursorUs);
}

void ReplaySession::setSelection(const ReplaySelection& selection)
{
  if (selection == m_selection)
    return;
  m_selection = selection;
  emit selectionChanged();
}

} // namespace cs::visualizer
