#include "programinput.h"
#include "output.h"

#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/topologyloader.h"

#include <iostream>

namespace cs::cli {

void addLoweringOptions(CLI::App* command, LoweringChoice& choice)
{
  command->add_option("--proto", choice.protocol, "Protocol when lowering a design document")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}))
      ->capture_default_str();
  command
      ->add_option("--instances", choice.instances,
                   "Instances when lowering a design document (msccl-tools style)")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
}

void addGpuOption(CLI::App* command, std::string& gpu)
{
  command
      ->add_option("--gpu", gpu,
                   "GPU model the program runs on; a rank's threadblocks must all be resident "
                   "on it (" +
                       gpuModelKeys() +
                       "; default: a design document's own, else the largest of the runtime's "
                       "vendor)")
      ->check(CLI::Validator(
          [](const std::string& key) {
            return parseGpuModel(key)
                       ? std::string()
                       : "unknown GPU model \"" + key + "\" (known: " + gpuModelKeys() + ")";
          },
          "GPU"));
}

std::optional<GpuModelId> chosenGpu(const std::string& key)
{
  return key.empty() ? std::nullopt : parseGpuModel(key);
}

bool isDesignPath(const std::string& path)
{
  return path.ends_with(".json");
}

LowerOptions loweringOptions(const LoweringChoice& choice, const std::string& dialectKey)
{
  LowerOptions options;
  if (!dialectKey.empty())
    options.dialect = parseDialect(dialectKey).value_or(options.dialect);
  options.protocol = parseProtocol(choice.protocol).value_or(Protocol::Simple);
  options.instances = choice.instances;
  options.gpu = chosenGpu(choice.gpu);
  return options;
}

ProgramInput readProgramInput(const std::string& path, DialectId dialect,
                              const LoweringChoice& lowering, const std::string& purpose)
{
  ProgramInput input;
  input.gpu = chosenGpu(lowering.gpu);
  if (!isDesignPath(path)) {
    ReadResult read = readMscclXmlFile(path);
    input.diagnostics = read.diagnostics;
    if (!read.program || read.hasErrors()) {
      printDiagnostics(std::cerr, path, read.diagnostics);
      std::cerr << path << ": fix the format errors above before " << purpose << '\n';
      return input;
    }
    input.program = std::move(read.program);
    return input;
  }
  DesignReadResult design = readDesignDocumentFile(path);
  if (!design.document) {
    printDiagnostics(std::cerr, path, design.diagnostics);
    std::cerr << path << ": the design document is not readable\n";
    return input;
  }
  LowerOptions options = loweringOptions(lowering);
  options.dialect = dialect;
  if (!options.gpu)
    options.gpu = design.document->gpu;
  input.gpu = options.gpu;
  LowerResult lowered = lowerSchedule(design.document->schedule, options);
  printDiagnostics(std::cerr, path, lowered.diagnostics);
  input.diagnostics = lowered.diagnostics;
  if (!lowered.program || hasErrors(lowered.diagnostics)) {
    std::cerr << path << ": the schedule cannot be lowered; fix the errors above before " << purpose
              << '\n';
    return input;
  }
  input.program = std::move(lowered.program);
  input.embeddedTopology = std::move(design.document->topology);
  return input;
}

bool loadTopologyOption(const std::string& spec, std::optional<Topology>& topology)
{
  if (spec.empty())
    return true;
  TopologyReadResult loaded = loadTopology(spec);
  if (!loaded.topology) {
    printDiagnostics(std::cerr, spec, loaded.diagnostics);
    return false;
  }
  topology = std::move(loaded.topology);
  return true;
}

} // namespace cs::cli
