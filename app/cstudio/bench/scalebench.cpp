#include "scalebench.h"

#include "benchtiming.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/lower.h"
#include "model/diagnostic.h"

#include <sys/resource.h>

#include <cstdio>
#include <optional>
#include <ostream>
#include <string>

namespace cs::bench {

namespace {

struct Lowered {
  std::optional<Program> program;
  double generateMs = 0;
  double lowerMs = 0;
};

Lowered generateAndLower(const char* key, int ranks)
{
  Lowered result;
  std::optional<Schedule> schedule;
  result.generateMs = medianMs(1, [&] {
    GeneratorOptions options;
    options.ranks = ranks;
    schedule = generateAlgorithm(key, options).schedule;
  });
  if (!schedule)
    return result;
  result.lowerMs = medianMs(1, [&] { result.program = lowerSchedule(*schedule, {}).program; });
  return result;
}

struct Checked {
  double ms = 0;
  int errors = 0;
  int races = 0;
  bool skipped = false; ///< some semantic check said check.too-large
};

Checked fullCheck(const Program& program, int repeats)
{
  Checked result;
  result.ms = medianMs(repeats, [&] {
    const std::vector<Diagnostic> found = checkProgram(program, {});
    result = Checked{};
    for (const Diagnostic& d : found) {
      result.errors += d.severity == Severity::Error ? 1 : 0;
      result.races += d.code == "race" ? 1 : 0;
      result.skipped = result.skipped || d.code == "check.too-large";
    }
  });
  return result;
}

long peakResidentMb()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

std::string describe(const Program& program)
{
  return std::to_string(program.gpus.size()) + " ranks, " +
         std::to_string(program.threadblockCount()) + " tbs, " +
         std::to_string(program.stepCount()) + " steps";
}

} // namespace

int runScaleBench(const ScaleBenchOptions& options, std::ostream& out)
{
  char line[320];
  const Lowered base = generateAndLower("direct-alltoall", options.baselineRanks);
  const Lowered alltoall = generateAndLower("direct-alltoall", options.alltoallRanks);
  const Lowered ring = generateAndLower("ring-allreduce", options.ringRanks);
  if (!base.program || !alltoall.program || !ring.program) {
    out << "scale bench: an algorithm could not be generated and lowered\n";
    return 1;
  }
  const Checked baseCheck = fullCheck(*base.program, 5 * options.repeats);
  const Checked alltoallCheck = fullCheck(*alltoall.program, options.repeats);
  const Checked ringCheck = fullCheck(*ring.program, options.repeats);
  const double ringTotal = ring.generateMs + ring.lowerMs + ringCheck.ms;

  std::snprintf(line, sizeof line, "%-22s %-40s %9s %9s %9s %7s %6s  %s\n", "case", "program",
                "gen ms", "lower ms", "check ms", "ratio", "races", "goal");
  out << line;
  auto row = [&](const char* name, const Lowered& l, const Checked& c, const std::string& goal) {
    std::snprintf(line, sizeof line, "%-22s %-40s %9.0f %9.0f %9.0f %6.1fx %6d  %s%s\n", name,
                  describe(*l.program).c_str(), l.generateMs, l.lowerMs, c.ms, c.ms / baseCheck.ms,
                  c.races, goal.c_str(), c.skipped ? " (SOME CHECKS SKIPPED)" : "");
    out << line;
  };
  row("direct-alltoall (base)", base, baseCheck, "baseline");
  row("direct-alltoall", alltoall, alltoallCheck,
      alltoallCheck.ms <= 10'000 ? "check <= 10 s: ok" : "check <= 10 s: SLOW");
  char ringGoal[96];
  std::snprintf(ringGoal, sizeof ringGoal, "gen+lower+check %.0f ms <= 2 s: %s", ringTotal,
                ringTotal <= 2'000 ? "ok" : "SLOW");
  row("ring-allreduce", ring, ringCheck, ringGoal);
  std::snprintf(line, sizeof line,
                "check ratios are against the full check of the %d-rank direct all-to-all "
                "(baseline, median of %d); peak resident %ld MB\n",
                options.baselineRanks, 5 * options.repeats, peakResidentMb());
  out << line;
  return 0;
}

} // namespace cs::bench
