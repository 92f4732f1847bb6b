#include "analysis.h"

namespace cs::editor {

namespace {

Analysis withTopology(Analysis analysis, const DocumentState& state)
{
  const std::optional<Topology>& topology = state.design.topology;
  addTopologyProblems(analysis, topology ? &*topology : nullptr, state.program.has_value());
  return analysis;
}

} // namespace

Analysis analyse(const DocumentState& state)
{
  if (state.program)
    return withTopology(analyseProgram(*state.program, state.lowering), state);
  // In two parts as in the background, so both list the topology's problems in the same place.
  return finishAnalysis(analyseScheduleOnly(state, Analysis{}), state);
}

Analysis analyseScheduleOnly(const DocumentState& state, const Analysis& previous)
{
  // The topology's problems are Schedule-level: finishAnalysis keeps them.
  return withTopology(analyseScheduleLevel(state.design.schedule, previous), state);
}

Analysis finishAnalysis(Analysis scheduleOnly, const DocumentState& state)
{
  return finishProgramLevel(std::move(scheduleOnly), state.design.schedule, state.lowering);
}

bool analysisIsExpensive(const DocumentState& state)
{
  return !state.program && cs::analysisIsExpensive(state.design.schedule);
}

} // namespace cs::editor
