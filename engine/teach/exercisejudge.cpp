#include "exercises.h"

#include "check/checker.h"
#include "exec/cpu/cpuexecutor.h"

#include <algorithm>

namespace cs {

namespace {

void addErrorCodes(const std::vector<Diagnostic>& diagnostics, std::vector<std::string>& codes)
{
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::Error)
      codes.push_back(diagnostic.code);
  }
}

/// A size every chunk count divides and one slice of every protocol covers, so a run is quick
/// and a hang is found at its first slice.
std::int64_t smallBytes(const Program& program)
{
  return std::int64_t{std::max(program.nchunksperloop, 1)} * 1024;
}

} // namespace

ExerciseOutcome judgeProgram(const Program& program, std::optional<int> root, int connectionSlots,
                             double timeoutSeconds, const std::vector<Diagnostic>& lowering)
{
  ExerciseOutcome outcome;
  CheckOptions check;
  check.fifoSlots = connectionSlots;
  check.root = root;
  addErrorCodes(lowering, outcome.checkCodes);
  addErrorCodes(checkProgram(program, check), outcome.checkCodes);
  std::sort(outcome.checkCodes.begin(), outcome.checkCodes.end());
  outcome.checkCodes.erase(std::unique(outcome.checkCodes.begin(), outcome.checkCodes.end()),
                           outcome.checkCodes.end());

  outcome.timingDependent =
      std::any_of(outcome.checkCodes.begin(), outcome.checkCodes.end(),
                  [](const std::string& code) { return codeInCategory(code, "race"); });

  ExecOptions exec;
  exec.bytes = smallBytes(program);
  exec.connectionSlots = connectionSlots;
  exec.timeoutSeconds = timeoutSeconds;
  exec.root = root;
  CpuExecutor executor;
  const ExecResult result = executor.run(program, exec);
  outcome.execStatus = result.status;
  for (const WrongChunk& wrong : result.wrongChunks)
    outcome.wrongChunks.push_back({wrong.rank, wrong.buffer, wrong.chunk});
  std::sort(outcome.wrongChunks.begin(), outcome.wrongChunks.end());
  for (const BlockedPosition& position : result.blocked)
    outcome.blocked.push_back({position.rank, position.tb, position.step});
  std::sort(outcome.blocked.begin(), outcome.blocked.end());
  outcome.blocked.erase(std::unique(outcome.blocked.begin(), outcome.blocked.end()),
                        outcome.blocked.end());
  return outcome;
}

} // namespace cs
