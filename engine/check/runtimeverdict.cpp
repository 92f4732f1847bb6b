#include "runtimeverdict.h"

#include "checker.h"
#include "staticcheckutil_p.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace cs {

namespace {

using passes::cat;

void appendMessages(std::span<const Diagnostic> diagnostics, bool selectionOnly,
                    std::vector<std::string>& reasons)
{
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error && isSelectionOnlyCode(d.code) == selectionOnly)
      reasons.push_back(d.message);
  }
}

bool hasError(std::span<const Diagnostic> diagnostics, bool selectionOnly)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.severity == Severity::Error && isSelectionOnlyCode(d.code) == selectionOnly;
  });
}

// The classic runtime keeps an algorithm for in-place calls or for out-of-place ones (its
// `inplace` flag); the executors read both flags (msccl-format §4.6).
std::vector<CallMode> selectingModes(const Program& program, const Dialect& target)
{
  if (target.inplaceIsExclusive)
    return {program.inplace ? CallMode::InPlace : CallMode::OutOfPlace};
  return declaredModes(program);
}

// The selection rule in words, for a file the runtime selects.
std::string selectionRule(const Program& program, const Dialect& target,
                          const RuntimeVerdict& verdict, const std::optional<std::int64_t>& upper)
{
  std::string text = "selected for ";
  for (std::size_t i = 0; i < verdict.modes.size(); ++i)
    text += cat(i == 0 ? "" : " and ", callModeName(verdict.modes[i]));
  text += cat(" ", program.ngpus, "-rank ", program.collSpelling, " calls of ",
              verdict.sizes->first, " bytes");
  text += upper ? cat(" up to ", *upper, " bytes (minBytes <= n ",
                      target.maxBytesInclusive ? "<= maxBytes" : "< maxBytes", ")")
                : std::string(" and up, with no upper bound (maxBytes=\"0\" is unlimited)");
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  if (program.nchunksperloop > 0 && mult > 0) {
    const std::int64_t step = std::lcm(static_cast<std::int64_t>(mult),
                                       static_cast<std::int64_t>(program.nchunksperloop));
    text += cat(", in sizes that are positive multiples of ", step, " bytes (count × ", mult,
                " must be a multiple of nchunksperloop=", program.nchunksperloop, ")");
  }
  return text;
}

} // namespace

std::string_view runtimeStateName(RuntimeState state)
{
  switch (state) {
  case RuntimeState::Refused:
    return "does not load";
  case RuntimeState::NeverSelected:
    return "loads, never selected";
  case RuntimeState::Selected:
    return "loads and is selected";
  }
  return "does not load";
}

bool isSelectionOnlyCode(std::string_view code)
{
  return code == "select.never" || code == "select.size-range";
}

RuntimeVerdict judgeRuntime(const Program& program, DialectId target,
                            std::span<const Diagnostic> readDiagnostics,
                            std::optional<GpuModelId> gpu)
{
  RuntimeVerdict verdict;
  verdict.dialect = target;
  const Dialect& rules = dialect(target);
  const bool readErrors =
      std::any_of(readDiagnostics.begin(), readDiagnostics.end(),
                  [](const Diagnostic& d) { return d.severity == Severity::Error; });
  if (readErrors) {
    for (const Diagnostic& d : readDiagnostics) {
      if (d.severity == Severity::Error)
        verdict.reasons.push_back(d.message);
    }
    return verdict;
  }
  CheckOptions options;
  options.dialect = target;
  options.semantic = false;
  options.gpu = gpu;
  const std::vector<Diagnostic> found = checkProgram(program, options);
  if (hasError(found, false)) {
    appendMessages(found, false, verdict.reasons);
    return verdict;
  }
  if (hasError(found, true)) {
    verdict.state = RuntimeState::NeverSelected;
    appendMessages(found, true, verdict.reasons);
    return verdict;
  }
  verdict.state = RuntimeState::Selected;
  const std::int64_t low = std::max<std::int64_t>(0, program.minBytes.value_or(0));
  const std::optional<std::int64_t> upper = rules.largestSelectedBytes(program.maxBytes);
  verdict.sizes = {low, upper.value_or(std::numeric_limits<std::int64_t>::max())};
  verdict.modes = selectingModes(program, rules);
  verdict.reasons.push_back(selectionRule(program, rules, verdict, upper));
  return verdict;
}

bool acceptedBy(const Program& program, DialectId target, std::optional<GpuModelId> gpu)
{
  return judgeRuntime(program, target, {}, gpu).loads();
}

} // namespace cs
