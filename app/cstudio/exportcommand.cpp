#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "check/checker.h"
#include "compile/lift.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct ExportOptions {
  std::string input;
  std::string output;
  std::string dialect = "executor";
  LoweringChoice lowering;
};

// XML in, design document out: lift the program and write it as a schedule.
int runLift(const ExportOptions& options)
{
  const ReadResult read = readMscclXmlFile(options.input);
  if (!read.program || read.hasErrors()) {
    printDiagnostics(std::cerr, options.input, read.diagnostics);
    std::cerr << options.input << ": not exported: the file has format errors\n";
    return UsageError;
  }
  const LiftResult lifted = liftProgram(*read.program);
  printDiagnostics(std::cerr, options.input, lifted.diagnostics);
  if (!lifted.schedule) {
    std::cerr << options.input << ": not exported: the program cannot be lifted\n";
    return Problems;
  }
  DesignDocument document;
  document.schedule = *lifted.schedule;
  document.notes = "lifted from " + options.input;
  document.gpu = chosenGpu(options.lowering.gpu);
  if (const std::string failure =
          writeTextFileAtomically(options.output, writeDesignDocument(document));
      !failure.empty()) {
    std::cerr << "cstudio export: " << failure << '\n';
    return UsageError;
  }
  std::cout << "wrote " << options.output << ": " << document.schedule.transfers.size()
            << " transfers in " << document.schedule.stepCount() << " steps\n";
  return Ok;
}

// The errors the target runtime would report on `text`: judge the text as written, not the
// program it came from.
std::vector<Diagnostic> targetErrors(const std::string& text, DialectId target,
                                     std::optional<GpuModelId> gpu)
{
  const ReadResult exported = readMscclXml(text);
  CheckOptions check;
  check.dialect = target;
  check.semantic = false;
  check.gpu = gpu;
  std::vector<Diagnostic> problems = exported.diagnostics;
  if (exported.program) {
    const std::vector<Diagnostic> found = checkProgram(*exported.program, check);
    problems.insert(problems.end(), found.begin(), found.end());
  }
  std::vector<Diagnostic> errors;
  for (const Diagnostic& d : problems) {
    if (d.severity == Severity::Error)
      errors.push_back(d);
  }
  return errors;
}

int runExport(const ExportOptions& options)
{
  if (isDesignPath(options.output) && !isDesignPath(options.input))
    return runLift(options);
  const DialectId target = *parseDialect(options.dialect);
  const ProgramInput input = readProgramInput(options.input, target, options.lowering, "exporting");
  if (!input.program)
    return UsageError;
  const WriteResult written = writeMscclXml(*input.program, {target});
  printDiagnostics(std::cerr, options.output, written.notes);

  // A file the runtime refuses is worse than none: MSCCL skips it silently or fails to start
  // (msccl-format pitfall P1). Say why and write nothing.
  const std::vector<Diagnostic> errors = targetErrors(written.text, target, input.gpu);
  if (!errors.empty()) {
    printDiagnostics(std::cerr, options.output, errors);
    std::cout << "not written: " << dialect(target).title << " would reject " << options.output
              << ": " << countSummary(errors) << '\n';
    return Problems;
  }
  if (const std::string failure = writeTextFileAtomically(options.output, written.text);
      !failure.empty()) {
    std::cerr << "cstudio export: " << failure << '\n';
    return UsageError;
  }
  std::cout << "wrote " << options.output << " for " << dialect(target).title << '\n';
  return Ok;
}

} // namespace

Runner addExportCommand(CLI::App& app)
{
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app.add_subcommand(
      "export", "Write an MSCCL XML file in the exact subset a runtime generation loads");
  command
      ->add_option("input", options->input, "MSCCL XML file, or design document (.json) to lower")
      ->required()
      ->type_name("IN");
  command
      ->add_option("-o,--output", options->output,
                   "File to write: MSCCL XML, or a design document (.json) lifted from IN")
      ->required()
      ->type_name("OUT");
  command->add_option("--dialect", options->dialect, "Target runtime")
      ->check(CLI::IsMember({"classic", "executor", "rccl"}))
      ->capture_default_str();
  addLoweringOptions(command, options->lowering);
  addGpuOption(command, options->lowering.gpu);
  command->footer("Exit status: 0 written and accepted by the target runtime, 1 not written "
                  "because the runtime would reject it, 2 usage error or unreadable input.");
  return [options] { return runExport(*options); };
}

} // namespace cs::cli
