#include "commands.h"
#include "infosummary.h"
#include "output.h"
#include "programinput.h"

#include "io/mscclxmlreader.h"

#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct InfoOptions {
  std::string file;
  bool json = false;
  LoweringChoice lowering;
};

int runInfo(const InfoOptions& options)
{
  // XML is summarised even when it has format errors (they are listed); a design document is
  // summarised as the Program it lowers to.
  std::optional<Program> program;
  std::vector<Diagnostic> diagnostics;
  std::optional<GpuModelId> gpu = chosenGpu(options.lowering.gpu);
  if (isDesignPath(options.file)) {
    ProgramInput input =
        readProgramInput(options.file, DialectId::Executor, options.lowering, "summarising");
    program = std::move(input.program);
    gpu = input.gpu;
    diagnostics = std::move(input.diagnostics);
  } else {
    ReadResult read = readMscclXmlFile(options.file);
    if (!read.program)
      printDiagnostics(std::cerr, options.file, read.diagnostics);
    program = std::move(read.program);
    diagnostics = std::move(read.diagnostics);
  }
  if (!program)
    return UsageError;
  if (options.json)
    std::cout << jsonText(infoJson(options.file, *program, diagnostics, gpu), 2) << '\n';
  else
    printInfo(std::cout, options.file, *program, diagnostics, gpu);
  return Ok;
}

} // namespace

Runner addInfoCommand(CLI::App& app)
{
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand(
      "info", "Summarise an MSCCL XML file or the Program a design document lowers to: "
              "collective, ranks, chunks, channels, threadblocks and steps per rank, and which "
              "runtimes accept it");
  command->add_option("file", options->file, "MSCCL XML file or design document (.json)")
      ->required()
      ->type_name("FILE");
  command->add_flag("--json", options->json, "Print a JSON object");
  addLoweringOptions(command, options->lowering);
  addGpuOption(command, options->lowering.gpu);
  return [options] { return runInfo(*options); };
}

} // namespace cs::cli
