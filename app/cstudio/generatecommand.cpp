#include "commands.h"
#include "heaptuning.h"
#include "output.h"
#include "programinput.h"

#include "analysis/analysis.h"
#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "check/schedulecheck.h"
#include "check/topologyfit.h"
#include "compile/lower.h"
#include "io/designdocument.h"
#include "io/mscclxmlwriter.h"
#include "model/residencytext.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace cs::cli {

namespace {

struct GenerateOptions {
  std::string algorithm;
  bool list = false;
  bool explain = false;
  int ranks = 4;
  int channels = 1;
  int instances = 1;
  int group = 0;
  std::string protocol = "Simple";
  std::string dialect = "executor";
  std::string gpu;
  std::string topology; ///< a preset or file the design document is drawn on
  std::string output;
};

int listAlgorithms()
{
  std::size_t width = 0;
  for (const AlgorithmInfo& info : algorithmCatalog())
    width = std::max(width, info.key.size());
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    std::cout << std::left << std::setw(static_cast<int>(width) + 2) << info.key << std::setw(16)
              << collectiveTitle(info.collective) << info.summary << '\n';
  }
  return Ok;
}

void explain(const AlgorithmInfo& info, const GeneratorOptions& generator)
{
  std::cout << info.title << " (" << collectiveTitle(info.collective) << ")\n\n"
            << info.explanation << "\n\n"
            << "Cost (alpha-beta, n ranks, S bytes): " << info.costFormula << '\n';
  if (info.unsupported(generator))
    return;
  const CostParameters cost;
  std::cout << "Predicted for " << generator.ranks << " ranks with \u03b1 = " << cost.alphaUs
            << " \u00b5s, \u03b2 = " << cost.betaGBps << " GB/s:\n";
  for (const std::int64_t bytes :
       {std::int64_t{1} << 10, std::int64_t{1} << 20, std::int64_t{1} << 30}) {
    std::cout << "  " << std::setw(10) << bytes << " B  " << std::fixed << std::setprecision(1)
              << info.estimateUs(generator, bytes, cost) << " \u00b5s\n";
  }
}

/// " (it fits --dialect executor)" naming the other dialects the schedule lowers for, or "".
/// `needed`: threadblocksNeeded(schedule).
std::string fittingDialects(const Schedule& schedule, const LowerOptions& refused, int needed)
{
  std::string fitting;
  for (const DialectId id : allDialects()) {
    LowerOptions other = refused;
    other.dialect = id;
    // A dialect whose blocks cannot all be resident is not offered, and is not lowered either:
    // lowering a 1,024-rank all-to-all for every dialect took a minute to say nothing useful.
    if (id == refused.dialect || needed > threadblockBudget(other))
      continue;
    const LowerResult lowered = lowerSchedule(schedule, other);
    if (!lowered.program || hasErrors(lowered.diagnostics) ||
        hasErrors(checkResidencyOnly(*lowered.program, checkOptionsFor(other))))
      continue;
    fitting += std::string(fitting.empty() ? " (it fits --dialect " : " or ") +
               std::string(dialect(id).key);
  }
  return fitting.empty() ? fitting : fitting + ")";
}

/// "cstudio generate: other all-to-all algorithms for 512 ranks: two-step-alltoall, …\n", or "".
std::string alternatives(const AlgorithmInfo& refused, const GeneratorOptions& generator)
{
  std::string names;
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    if (&info != &refused && info.collective == refused.collective && !info.unsupported(generator))
      names += std::string(names.empty() ? "" : ", ") + std::string(info.key);
  }
  if (names.empty())
    return names;
  return "cstudio generate: other " + std::string(collectiveTitle(refused.collective)) +
         " algorithms for " + std::to_string(generator.ranks) + " ranks: " + names + '\n';
}

/// The full Program check of what would be written (structure, limits, residency, selection,
/// matching, dependencies, then deadlock, races and the postcondition), as `cstudio validate`
/// runs it on the file: nothing is written that validate would fail. The lowering packs
/// threadblocks to fit the GPU; where one peer per direction still needs too many, residency
/// is judged here.
std::vector<Diagnostic> programFindings(const Program& program, const LowerOptions& lower)
{
  return checkProgram(program, checkOptionsFor(lower));
}

LowerOptions lowerOptions(const GenerateOptions& options)
{
  LowerOptions lower;
  lower.dialect = *parseDialect(options.dialect);
  lower.protocol = *parseProtocol(options.protocol);
  lower.instances = options.instances;
  lower.gpu = chosenGpu(options.gpu);
  return lower;
}

/// Writes the program to options.output while the full Program check runs beside it on the
/// second core (at 1,024 ranks each takes about half a second); the file is kept only when the
/// check finds no error.
int checkAndWrite(const GenerateOptions& options, const AlgorithmInfo& algorithm,
                  const GeneratorOptions& generator, const Program& program,
                  const LowerOptions& lower)
{
  std::vector<Diagnostic> findings;
  WriteResult written;
  const std::string failure = writeFileAtomically(options.output, [&](std::ostream& file) {
    std::jthread check([&] { findings = programFindings(program, lower); });
    written = writeMscclXml(program, {lower.dialect}, file);
    check.join();
    return hasErrors(findings) ? std::string("the Program check failed") : std::string();
  });
  printDiagnostics(std::cerr, options.algorithm, findings);
  if (hasErrors(findings)) {
    const bool residency = std::any_of(findings.begin(), findings.end(), [](const Diagnostic& d) {
      return d.severity == Severity::Error && d.code.starts_with("limit.residency");
    });
    std::cerr << "cstudio generate: " << program.name
              << (residency ? " does not fit the GPU for " : " fails the Program check for ")
              << options.dialect << "; nothing written\n"
              << alternatives(algorithm, generator);
    return Problems;
  }
  if (!failure.empty()) {
    std::cerr << "cstudio generate: " << failure << '\n';
    return UsageError;
  }
  printDiagnostics(std::cerr, options.output, written.notes);
  return Ok;
}

/// The limit.residency error for a design that no lowering fits on the GPU: its busiest rank has
/// more peers in one direction than the GPU keeps the runtime's blocks resident, and a
/// threadblock has one send and one receive peer. Nothing when it may fit, or when the runtime's
/// own limit of threadblocks per rank is the tighter one (the lowering names that,
/// lower.threadblocks, with what would fit). Lowering and checking
/// a 1,024-rank direct all-to-all only to learn this took 19 s; this takes a pass over the
/// transfers (threadblocksNeeded(), given as `needed`).
std::optional<Diagnostic> beyondResidency(int needed, const LowerOptions& lower)
{
  const bool chosen = lower.gpu.has_value();
  const GpuModel& model =
      chosen ? gpuModel(*lower.gpu) : mostPermissiveGpu(dialectVendor(lower.dialect));
  const int instances = std::max(1, lower.instances);
  const int resident = residentThreadblocks(model, lower.dialect) / instances;
  const int runtimeLimit = dialect(lower.dialect).maxThreadblocksPerRank / instances;
  if (needed <= resident || runtimeLimit < resident)
    return std::nullopt;
  Diagnostic refused;
  refused.severity = Severity::Error;
  refused.code = "limit.residency";
  refused.message =
      "a rank needs at least " + std::to_string(needed) +
      " threadblocks however the design is lowered (it exchanges with that many peers in one "
      "direction, and a threadblock has one send and one receive peer); " +
      residencySubject(model, chosen) + " keeps at most " + residencyFigure(model, lower.dialect) +
      (instances > 1 ? ", " + std::to_string(resident) + " for each of " +
                           std::to_string(instances) + " instances"
                     : std::string()) +
      std::string(kResidencyHang) + "; " + std::string(kFewerPeers);
  return refused;
}

/// Writes the schedule as lowered for the chosen runtime; a refusal names the limit, the
/// dialects that fit and the catalogue's alternatives.
int writeLowered(const GenerateOptions& options, const AlgorithmInfo& algorithm,
                 const GeneratorOptions& generator, const Schedule& schedule,
                 const LowerOptions& lower, const LowerResult& lowered)
{
  if (!lowered.program || hasErrors(lowered.diagnostics)) {
    printDiagnostics(std::cerr, options.algorithm, lowered.diagnostics);
    std::cerr << "cstudio generate: " << schedule.name << " could not be lowered for "
              << options.dialect << "; nothing written"
              << fittingDialects(schedule, lower, threadblocksNeeded(schedule)) << '\n'
              << alternatives(algorithm, generator);
    return Problems;
  }
  if (const int status = checkAndWrite(options, algorithm, generator, *lowered.program, lower);
      status != Ok)
    return status;
  std::cout << "wrote " << options.output << ": " << lowered.program->name << " (" << schedule.ranks
            << " ranks, " << schedule.stepCount() << " steps, "
            << lowered.program->threadblockCount() << " threadblocks)\n";
  return Ok;
}

/// Writes `schedule` as a design document, drawn on --topology when given (which must route
/// every exchange: an example that cannot run teaches the wrong thing).
int writeDesign(const GenerateOptions& options, const AlgorithmInfo& info, const Schedule& schedule)
{
  DesignDocument document;
  document.schedule = schedule;
  document.notes = std::string(info.title) + ": " + std::string(info.summary);
  document.gpu = chosenGpu(options.gpu);
  if (!loadTopologyOption(options.topology, document.topology))
    return UsageError;
  if (document.topology) {
    Diagnostics fit;
    checkTopologyFit(*document.topology, schedule.ranks, scheduleExchanges(schedule), fit);
    if (fit.hasErrors()) {
      printDiagnostics(std::cerr, options.topology, fit.items());
      std::cerr << "cstudio generate: " << info.key << " cannot run on " << options.topology
                << "; nothing written\n";
      return UsageError;
    }
  }
  if (const std::string failure =
          writeTextFileAtomically(options.output, writeDesignDocument(document));
      !failure.empty()) {
    std::cerr << "cstudio generate: " << failure << '\n';
    return UsageError;
  }
  std::cout << "wrote " << options.output << ": " << schedule.name << " (" << schedule.ranks
            << " ranks, " << schedule.stepCount() << " steps, " << schedule.transfers.size()
            << " transfers" << (document.topology ? ", on " + options.topology : std::string())
            << ")\n";
  return Ok;
}

int runGenerate(const GenerateOptions& options)
{
  if (options.list)
    return listAlgorithms();
  if (options.algorithm.empty()) {
    std::cerr << "cstudio generate: give an algorithm (see --list)\n";
    return UsageError;
  }
  const AlgorithmInfo* info = findAlgorithm(options.algorithm);
  if (!info) {
    std::cerr << "cstudio generate: unknown algorithm \"" << options.algorithm
              << "\" (see cstudio generate --list)\n";
    return UsageError;
  }
  GeneratorOptions generator;
  generator.ranks = options.ranks;
  generator.channels = options.channels;
  generator.groupSize = options.group;
  if (options.explain) {
    explain(*info, generator);
    return Ok;
  }
  const bool json = options.output.ends_with(".json");
  if (!json && !options.output.ends_with(".xml")) {
    std::cerr << "cstudio generate: give -o FILE.xml (MSCCL XML) or -o FILE.json (design "
                 "document)\n";
    return UsageError;
  }
  const GenerateResult generated = generateAlgorithm(info->key, generator);
  if (!generated.schedule) {
    for (const Diagnostic& d : generated.diagnostics)
      std::cerr << "cstudio generate: " << d.message << '\n';
    return UsageError;
  }
  const Schedule& schedule = *generated.schedule;
  // Generators are tested correct; checking again guards the output. For MSCCL XML the
  // lowering runs beside the check, on the second core; its result waits for the verdict. A
  // design no lowering fits on the GPU is not lowered at all.
  const LowerOptions lower = lowerOptions(options);
  const int needed = json ? 0 : threadblocksNeeded(schedule);
  const std::optional<Diagnostic> unfit = json ? std::nullopt : beyondResidency(needed, lower);
  const bool lowering = !json && options.topology.empty() && !unfit;
  std::optional<LowerResult> lowered;
  ScheduleCheckResult checked;
  {
    std::jthread lowerer;
    if (lowering)
      lowerer = std::jthread([&] { lowered = lowerSchedule(schedule, lower); });
    checked = checkSchedule(schedule);
  }
  if (checked.hasErrors()) {
    printDiagnostics(std::cerr, options.algorithm, checked.diagnostics);
    std::cerr << "cstudio generate: the generated schedule is wrong; nothing written\n";
    return Problems;
  }
  if (json)
    return writeDesign(options, *info, schedule);
  if (!options.topology.empty()) {
    std::cerr << "cstudio generate: --topology applies to design documents (-o FILE.json); "
                 "MSCCL XML has no topology\n";
    return UsageError;
  }
  if (unfit) {
    printDiagnostics(std::cerr, options.algorithm, {*unfit});
    std::cerr << "cstudio generate: " << schedule.name << " does not fit the GPU for "
              << options.dialect << "; nothing written" << fittingDialects(schedule, lower, needed)
              << '\n'
              << alternatives(*info, generator);
    return Problems;
  }
  return writeLowered(options, *info, generator, schedule, lower, *lowered);
}

} // namespace

Runner addGenerateCommand(CLI::App& app)
{
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* command =
      app.add_subcommand("generate", "Generate a classic algorithm as MSCCL XML (see --list)");
  command->add_option("algorithm", options->algorithm, "Algorithm name (see --list)");
  command->add_flag("--list", options->list, "List the algorithms: name, collective, summary");
  command->add_flag("--explain", options->explain,
                    "Explain the algorithm and its cost formula instead of writing a file");
  command->add_option("--ranks", options->ranks, "Number of ranks")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command
      ->add_option("--channels", options->channels,
                   "Parallel copies of the pattern, each on its own channel")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  command->add_option("--instances", options->instances, "Replicate the lowered program")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  command
      ->add_option("--group", options->group,
                   "Ranks per node (hierarchical, two-step all-to-all; default 8) or rows "
                   "(2D torus; default the most square grid)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  command->add_option("--proto", options->protocol, "Protocol")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}))
      ->capture_default_str();
  command->add_option("--dialect", options->dialect, "Target runtime")
      ->check(CLI::IsMember({"classic", "executor", "rccl"}))
      ->capture_default_str();
  addGpuOption(command, options->gpu);
  command
      ->add_option("--topology", options->topology,
                   "With -o FILE.json: draw the design on this topology (a preset, see cstudio "
                   "topology --list, or a topology file); it must route every exchange")
      ->type_name("PRESET|FILE");
  command
      ->add_option("-o,--output", options->output,
                   "File to write: .xml (lowered MSCCL XML) or .json (design document)")
      ->type_name("FILE");
  command->footer("Exit status: 0 written, 1 the algorithm could not be lowered, 2 bad "
                  "arguments or a rank count the algorithm does not support.");
  return [options] {
    keepFreedMemory();
    return runGenerate(*options);
  };
}

} // namespace cs::cli
