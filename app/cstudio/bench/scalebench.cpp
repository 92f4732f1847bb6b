#include "scalebench.h"

#include "benchtiming.h"
#include "generatepipeline.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/lower.h"
#include "model/diagnostic.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

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

/// CPU time of this process so far: on a machine shared with builds the wall clock mostly
/// measures the others.
double cpuMs()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

struct Simulated {
  double ms = 0;
  double cpuMs = 0;  ///< the median run's share is not known: the mean over the runs
  double timeUs = 0; ///< simulated
  bool ok = false;
};

Simulated simulateOn(const Program& program, const std::string& topologyName, std::int64_t bytes,
                     int repeats)
{
  Simulated result;
  const std::optional<Topology> topology = makePresetTopology(topologyName);
  if (!topology)
    return result;
  SimOptions options;
  options.bytes = bytes;
  options.recordEvents = false; // as `cstudio simulate` without --trace
  options.recordUtilisation = false;
  const double cpuBefore = cpuMs();
  result.ms = medianMs(repeats, [&] {
    const SimResult run = simulateProgram(program, *topology, options);
    result.ok = run.ok;
    result.timeUs = run.timeUs;
  });
  result.cpuMs = (cpuMs() - cpuBefore) / std::max(1, repeats);
  return result;
}

/// Issue 18's goal: the 1,024-rank ring all-reduce simulated at 1 GiB on a 128 x 8 fabric in at
/// most 2 s, against the same program on ring-1024 (one link per hop, nothing shared).
void simulateRows(const Program& ring, int ranks, int repeats, std::ostream& out)
{
  constexpr std::int64_t kBytes = 1LL << 30;
  const std::string fabric = "fabric-h100-" + std::to_string(ranks / 8) + "x8";
  const Simulated base = simulateOn(ring, "ring-" + std::to_string(ranks), kBytes, repeats);
  const Simulated shared = simulateOn(ring, fabric, kBytes, repeats);
  char line[320];
  std::snprintf(line, sizeof line,
                "simulate ring all-reduce, %d ranks, 1 GiB (wall: median of %d; cpu: mean):\n"
                "  on ring-%d (base)   %9.0f ms  cpu %7.0f ms  simulated %.0f us%s\n",
                ranks, repeats, ranks, base.ms, base.cpuMs, base.timeUs,
                base.ok ? "" : " (FAILED)");
  out << line;
  std::snprintf(line, sizeof line,
                "  on %-16s %9.0f ms  cpu %7.0f ms  simulated %.0f us%s  ratio %.2fx  "
                "goal <= 2 s: %s\n",
                fabric.c_str(), shared.ms, shared.cpuMs, shared.timeUs,
                shared.ok ? "" : " (FAILED)", base.ms > 0 ? shared.ms / base.ms : 0.0,
                shared.ms <= 2'000 ? "ok" : "SLOW");
  out << line;
}

/// One ring all-reduce through generate's path after generating (Schedule check beside lowering,
/// Program check beside writing); the median of `repeats` by overlapped time.
PipelineTimes ringPipeline(int ranks, int repeats)
{
  GeneratorOptions generator;
  generator.ranks = ranks;
  const std::optional<Schedule> schedule = generateAlgorithm("ring-allreduce", generator).schedule;
  std::vector<PipelineTimes> runs;
  for (int i = 0; schedule && i < std::max(1, repeats); ++i)
    runs.push_back(timeGeneratePipeline(*schedule));
  std::sort(runs.begin(), runs.end(), [](const PipelineTimes& a, const PipelineTimes& b) {
    return a.overlappedMs < b.overlappedMs;
  });
  return runs.empty() ? PipelineTimes{} : runs[runs.size() / 2];
}

/// `cstudio generate ring-allreduce --ranks N -o FILE.xml` phase by phase (issue 18's goal:
/// generate and full check <= 2 s), against the same path at the baseline's rank count.
void pipelineRows(int ranks, int baselineRanks, double generateMs, int repeats, std::ostream& out)
{
  const PipelineTimes base = ringPipeline(baselineRanks, 3 * repeats);
  const PipelineTimes ring = ringPipeline(ranks, repeats);
  char line[320];
  out << "generate's path after generating (schedule check | lower, then program check | write "
         "XML to a counting sink):\n";
  for (const auto& [name, t] : {std::pair{baselineRanks, base}, std::pair{ranks, ring}}) {
    std::snprintf(line, sizeof line,
                  "  ring-allreduce %4d ranks: sched check %6.0f | lower %6.0f ms, check %6.0f | "
                  "write %6.0f ms (%lld MB)%s; overlapped %6.0f ms, one core %6.0f ms, ratio "
                  "%.1fx\n",
                  name, t.scheduleCheckMs, t.lowerMs, t.programCheckMs, t.writeMs, t.bytes >> 20,
                  t.ok ? "" : " FAILED", t.overlappedMs, t.sequentialMs(),
                  base.overlappedMs > 0 ? t.overlappedMs / base.overlappedMs : 0.0);
    out << line;
  }
  const double total = generateMs + ring.overlappedMs;
  std::snprintf(line, sizeof line,
                "  generate + full check of %d ranks: %.0f ms (%.0f generating) <= 2 s: %s\n",
                ranks, total, generateMs, total <= 2'000 ? "ok" : "SLOW");
  out << line;
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
  // A quarter of the ranks as the baseline: at 64 ranks starting the threads is most of the time.
  pipelineRows(options.ringRanks, options.ringRanks / 4, ring.generateMs, options.repeats, out);
  if (options.ringRanks % 8 == 0)
    simulateRows(*ring.program, options.ringRanks, 3 * options.repeats, out);
  std::snprintf(line, sizeof line,
                "check ratios are against the full check of the %d-rank direct all-to-all "
                "(baseline, median of %d); peak resident %ld MB\n",
                options.baselineRanks, 5 * options.repeats, peakResidentMb());
  out << line;
  return 0;
}

} // namespace cs::bench
