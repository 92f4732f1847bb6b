#include "checker.h"

#include "passes_p.h"

#include <algorithm>
#include <future>

namespace cs {

namespace {

/// Below this many steps a second thread costs more than the semantic passes it would overlap.
constexpr int kStepsWorthAThread = 20'000;

// The semantic passes execute the program; offsets, peers or ids that are out of range would
// make that execution meaningless, so they only run on a structurally sound program. (What the
// target runtime merely refuses to load, such as a missing attribute, does not stop them.)
bool executable(const Diagnostics& diagnostics)
{
  return std::none_of(
      diagnostics.items().begin(), diagnostics.items().end(), [](const Diagnostic& d) {
        return d.severity == Severity::Error &&
               (codeInCategory(d.code, "structure") || d.code == "dep.target-missing");
      });
}

/// Errors first, then warnings, then infos; passes keep their own order within a severity.
std::vector<Diagnostic> errorsFirst(std::vector<Diagnostic> result)
{
  std::stable_sort(result.begin(), result.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return static_cast<int>(a.severity) > static_cast<int>(b.severity);
  });
  return result;
}

} // namespace

std::vector<Diagnostic> checkProgram(const Program& program, const CheckOptions& options)
{
  const Dialect& target = dialect(options.dialect);
  Diagnostics out;
  passes::checkStructure(program, target, out);
  passes::checkLimits(program, target, out);
  passes::checkResidency(program, options, out);
  passes::checkSelection(program, target, out);
  passes::checkRunTimeCosts(program, target, out);
  // On a large program the semantic passes run beside matching and dependencies: they take as
  // long as the rest together (0.8 of 1.2 s on a 1,024-rank ring). They start only when nothing
  // found so far, nor a wait without a target, would stop them after the dependency pass.
  Diagnostics semantic;
  std::future<void> beside;
  const bool early = options.semantic && options.semanticBeside &&
                     program.stepCount() >= kStepsWorthAThread && executable(out) &&
                     passes::dependencyTargetsExist(program);
  if (early)
    beside =
        std::async(std::launch::async, [&] { passes::checkSemantics(program, options, semantic); });
  passes::checkMatching(program, out);
  passes::checkDependencies(program, out);
  if (early)
    beside.get();
  if (options.semantic) {
    if (executable(out) && early)
      out.append(semantic.take());
    else if (executable(out))
      passes::checkSemantics(program, options, out);
    else
      out.info("check.semantic-skipped",
               "deadlock, race and postcondition checks were skipped because the program is not "
               "structurally sound; fix the errors above first");
  }
  return errorsFirst(out.take());
}

std::vector<Diagnostic> checkResidencyOnly(const Program& program, const CheckOptions& options)
{
  Diagnostics out;
  passes::checkResidency(program, options, out);
  return errorsFirst(out.take());
}

} // namespace cs
