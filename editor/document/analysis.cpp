#include "analysis.h"

namespace cs::editor {

Analysis analyse(const DocumentState& state)
{
  if (state.program)
    return analyseProgram(*state.program, state.lowering);
  return analyseSchedule(state.design.schedule, state.lowering);
}

Analysis analyseScheduleOnly(const DocumentState& state, const Analysis& previous)
{
  return analyseScheduleLevel(state.design.schedule, previous);
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
