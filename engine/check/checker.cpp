#include "checker.h"

#include "passes_p.h"

#include <algorithm>

namespace cs {

namespace {

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
  passes::checkMatching(program, out);
  passes::checkDependencies(program, out);
  if (options.semantic) {
    if (executable(out))
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
