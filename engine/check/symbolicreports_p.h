#pragma once

// Turning a finished SymbolicRun into diagnostics: one file per concern (deadlockreport.cpp,
// racereport.cpp, postcondition.cpp), all called from semanticcheck.cpp. Internal to
// engine/check; the codes are listed in docs/diagnostics.md.

#include "checker.h"
#include "symbolicrun.h"

#include <string>

namespace cs::detail {

/// `deadlock` errors: the wait-for cycles (or chains ending at a finished or missing
/// threadblock) of a deadlocked run, at most five.
void reportDeadlock(const SymbolicRun& run, Diagnostics& out);

/// `race` errors, `race.uninitialised` warnings and `race.more` infos of every plane.
void reportRaces(const SymbolicRun& run, Diagnostics& out);

/// `postcondition`, `postcondition.root` and `postcondition.unknown` of every plane. Only
/// `postcondition.unknown` is reported when the run did not complete.
void checkPostconditions(const SymbolicRun& run, const CheckOptions& options, Diagnostics& out);

/// "in-place: " — every per-mode diagnostic starts with its mode.
inline std::string modePrefix(CallMode mode)
{
  return std::string(callModeName(mode)) + ": ";
}

/// "s[3]"
inline std::string chunkName(Buffer buffer, int index)
{
  return std::string(1, bufferLetter(buffer)) + '[' + std::to_string(index) + ']';
}

/// A step's location with its source line, when the program has that step.
inline Location stepLocation(const Program& program, int rank, int tb, int step)
{
  Location location;
  location.rank = rank;
  location.tb = tb;
  location.step = step;
  location.element = "step";
  if (const ThreadBlock* block = program.threadblock(rank, tb)) {
    if (step >= 0 && step < static_cast<int>(block->steps.size()))
      location.line = block->steps[static_cast<std::size_t>(step)].line;
    else
      location.line = block->line;
  }
  return location;
}

/// "tb 1 step 2 (rrs)": a step of a known rank.
inline std::string tbStepName(const Program& program, int rank, int tb, int step)
{
  std::string text = "tb " + std::to_string(tb) + " step " + std::to_string(step);
  if (const ThreadBlock* block = program.threadblock(rank, tb)) {
    if (step >= 0 && step < static_cast<int>(block->steps.size()))
      text +=
          " (" + std::string(opTypeName(block->steps[static_cast<std::size_t>(step)].type)) + ')';
  }
  return text;
}

/// "rank 0 tb 1 step 2 (rrs)"
inline std::string stepName(const Program& program, int rank, int tb, int step)
{
  return "rank " + std::to_string(rank) + " " + tbStepName(program, rank, tb, step);
}

} // namespace cs::detail
