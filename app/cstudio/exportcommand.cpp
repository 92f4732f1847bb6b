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

int runExport(const ExportOptions& options)
{
  if (isDesignPath(options.output) && !isDesignPath(options.input))
    return runLift(options);
  const DialectId target = *parseDialect(options.dialect);
  const ProgramInput input = readProgramInput(options.input, target, options.lowering, "exporting");
  if (!input.program)
    return UsageError;
  const WriteResult written = writeMscclXml(*input.program, {target});
  if (const std::string failure = writeTextFileAtomically(options.output, written.text);
      !failure.empty()) {
    std::cerr << "cstudio export: " << failure << '\n';
    return UsageError;
  }
  printDiagnostics(std::cerr, options.output, written.notes);

  // Tell the user at once whether the runtime will take what was written: judge the text as
  // written, not the program it came from.
  const ReadResult exported = readMscclXml(written.text);
  CheckOptions check;
  check.dialect = target;
  check.semantic = false;
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
  printDiagnostics(std::cerr, options.output, errors);
  std::cout << "wrote " << options.output << " for " << dialect(target).title;
  if (errors.empty()) {
    std::cout << '\n';
    return Ok;
  }
  std::cout << ", which will reject it: " << countSummary(errors) << '\n';
  return Problems;
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
  command->footer("Exit status: 0 written and accepted by the target runtime, 1 written but the "
                  "runtime would reject it, 2 usage error or unreadable input.");
  return [options] { return runExport(*options); };
}

} // namespace cs::cli
