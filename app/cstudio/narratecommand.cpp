// cstudio narrate: the teaching narration of an algorithm (engine/teach/narration.h) and its cost
// (engine/teach/costnarration.h), as text or JSON.

#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "catalogue/catalogue.h"
#include "compile/lift.h"
#include "io/bytesize.h"
#include "io/designdocument.h"
#include "io/topologyloader.h"
#include "teach/costnarration.h"
#include "teach/narration.h"

#include <iostream>
#include <memory>
#include <optional>

namespace cs::cli {

namespace {

struct NarrateOptions {
  std::string file;
  std::string algorithm;
  int ranks = 8;
  std::string topology;
  std::string size = "1M";
  LoweringChoice lowering;
  bool json = false;
};

/// The Schedule narrated, the Program simulated, and where they came from.
struct NarrateInput {
  std::optional<Schedule> schedule;
  std::optional<Program> program;
  std::optional<Topology> embeddedTopology;
  const AlgorithmInfo* algorithm = nullptr;
  GeneratorOptions options;
};

bool lowerInto(NarrateInput& input, const NarrateOptions& options, const std::string& where)
{
  LowerResult lowered = lowerSchedule(*input.schedule, loweringOptions(options.lowering));
  if (!lowered.program || hasErrors(lowered.diagnostics)) {
    printDiagnostics(std::cerr, where, lowered.diagnostics);
    std::cerr << "cstudio narrate: " << where << " cannot be lowered for the simulation\n";
    return false;
  }
  input.program = std::move(lowered.program);
  return true;
}

/// --algorithm KEY --ranks N: generated here.
bool generateInput(NarrateInput& input, const NarrateOptions& options)
{
  input.options.ranks = options.ranks;
  GenerateResult generated = generateAlgorithm(options.algorithm, input.options);
  if (!generated.schedule) {
    printDiagnostics(std::cerr, options.algorithm, generated.diagnostics);
    return false;
  }
  input.schedule = std::move(generated.schedule);
  input.algorithm = findAlgorithm(options.algorithm);
  return lowerInto(input, options, options.algorithm);
}

/// FILE: a design document's Schedule, or MSCCL XML lifted to one.
bool readInput(NarrateInput& input, const NarrateOptions& options)
{
  if (isDesignPath(options.file)) {
    DesignReadResult design = readDesignDocumentFile(options.file);
    if (!design.document) {
      printDiagnostics(std::cerr, options.file, design.diagnostics);
      std::cerr << "cstudio narrate: " << options.file << " is not a readable design document\n";
      return false;
    }
    input.schedule = std::move(design.document->schedule);
    input.embeddedTopology = std::move(design.document->topology);
    input.algorithm = catalogueOrigin(*input.schedule, input.options);
    return lowerInto(input, options, options.file);
  }
  ProgramInput read =
      readProgramInput(options.file, DialectId::Executor, options.lowering, "narrating");
  if (!read.program)
    return false;
  LiftResult lifted = liftProgram(*read.program);
  if (!lifted.schedule) {
    printDiagnostics(std::cerr, options.file, lifted.diagnostics);
    std::cerr << "cstudio narrate: " << options.file << " cannot be lifted to a Schedule\n";
    return false;
  }
  input.schedule = std::move(lifted.schedule);
  input.program = std::move(read.program);
  input.algorithm = catalogueOrigin(*input.schedule, input.options);
  return true;
}

/// --topology, else the document's own, else fully-connected-N (every pair one equal link, so
/// the cost shows the algorithm rather than a fabric's bottleneck).
std::optional<Topology> narrationTopology(const NarrateOptions& options, NarrateInput& input)
{
  if (options.topology.empty() && input.embeddedTopology)
    return std::move(input.embeddedTopology);
  const std::string spec = options.topology.empty()
                               ? "fully-connected-" + std::to_string(input.schedule->ranks)
                               : options.topology;
  TopologyReadResult loaded = loadTopology(spec);
  if (!loaded.topology)
    printDiagnostics(std::cerr, spec, loaded.diagnostics);
  return std::move(loaded.topology);
}

nlohmann::json narrationJson(const Narration& narration, const CostNarration& cost)
{
  nlohmann::json steps = nlohmann::json::array();
  for (const NarrationStep& step : narration.steps) {
    nlohmann::json sentences = nlohmann::json::array();
    nlohmann::json covers = nlohmann::json::array();
    for (const NarrationSentence& sentence : step.sentences) {
      sentences.push_back(sentence.text);
      covers.push_back(sentence.transfers);
    }
    steps.push_back({{"step", step.step}, {"sentences", sentences}, {"transfers", covers}});
  }
  const auto orNull = [](const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  const auto textOrNull = [](const std::string& text) {
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
  };
  nlohmann::json costJson = {{"algorithm", textOrNull(cost.algorithmKey)},
                             {"formula", textOrNull(cost.formula)},
                             {"alpha_us", orNull(cost.alphaUs)},
                             {"beta_GBps", orNull(cost.betaGBps)},
                             {"formula_us", orNull(cost.formulaUs)},
                             {"bytes", cost.bytes},
                             {"simulated_us", orNull(cost.simulatedUs)},
                             {"algbw_GBps", orNull(cost.algbwGBps)},
                             {"busbw_GBps", orNull(cost.busbwGBps)},
                             {"busbw_factor", cost.busFactor},
                             {"busbw_factor_formula", cost.busFactorFormula},
                             {"sentences", cost.sentences},
                             {"diagnostics", diagnosticsToJson(cost.diagnostics)}};
  return {{"goal", narration.goal}, {"steps", steps}, {"cost", costJson}};
}

void printNarration(const Narration& narration, const CostNarration& cost)
{
  std::cout << narration.goal << "\n";
  for (const NarrationStep& step : narration.steps) {
    std::cout << "\nStep " << step.step << "\n";
    for (const NarrationSentence& sentence : step.sentences)
      std::cout << "  " << sentence.text << "\n";
  }
  std::cout << "\nCost\n";
  for (const std::string& sentence : cost.sentences)
    std::cout << "  " << sentence << "\n";
}

int runNarrate(const NarrateOptions& options)
{
  if (options.file.empty() == options.algorithm.empty()) {
    std::cerr << "cstudio narrate: give FILE or --algorithm KEY (with --ranks N), not both\n";
    return UsageError;
  }
  const std::optional<std::int64_t> bytes = parseByteSize(options.size);
  if (!bytes || *bytes <= 0) {
    std::cerr << "cstudio narrate: --size " << options.size
              << " is not a size (examples: 4096, 64K, 1M, 1G)\n";
    return UsageError;
  }
  NarrateInput input;
  if (!(options.algorithm.empty() ? readInput(input, options) : generateInput(input, options)))
    return UsageError;
  const std::optional<Topology> topology = narrationTopology(options, input);
  if (!topology)
    return UsageError;
  const Narration narration = narrateSchedule(*input.schedule);
  const CostNarration cost =
      narrateCost({&*input.program, &*topology, *bytes, input.algorithm, input.options});
  if (options.json)
    std::cout << jsonText(narrationJson(narration, cost), 2) << '\n';
  else
    printNarration(narration, cost);
  if (!options.json)
    printDiagnostics(std::cerr, topology->name, cost.diagnostics);
  return Ok;
}

} // namespace

Runner addNarrateCommand(CLI::App& app)
{
  auto options = std::make_shared<NarrateOptions>();
  CLI::App* command = app.add_subcommand(
      "narrate", "Narrate an algorithm step by step (sentences generated from its Schedule), "
                 "with its cost formula, simulated time and busbw derivation");
  command
      ->add_option("file", options->file,
                   "MSCCL XML file (lifted to a Schedule) or design document (.json)")
      ->type_name("FILE");
  command->add_option("--algorithm,-a", options->algorithm,
                      "Narrate a catalogue algorithm instead of a file (cstudio generate --list)");
  command->add_option("--ranks,-n", options->ranks, "Ranks for --algorithm")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command->add_option("--topology,-t", options->topology,
                      "Preset or topology file for the cost; default: the design document's "
                      "own, else fully-connected-N");
  command->add_option("--size,-s", options->size, "Collective size for the cost (64K, 1M, 1G)")
      ->capture_default_str();
  addLoweringOptions(command, options->lowering);
  command->add_flag("--json", options->json,
                    "Print JSON: {\"steps\":[{\"step\":k,\"sentences\":[...]}],\"cost\":{...}}");
  return [options] { return runNarrate(*options); };
}

} // namespace cs::cli
