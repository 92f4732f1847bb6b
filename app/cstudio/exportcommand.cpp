#include "commands.h"
#include "output.h"

#include "check/checker.h"
#include "compile/lift.h"
#include "compile/lower.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace cs::cli {

namespace {

struct ExportOptions {
  std::string input;
  std::string output;
  std::string dialect = "executor";
  std::string protocol = "Simple";
  int instances = 1;
};

bool isDesignPath(const std::string& path)
{
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

// A design document (.json) is lowered; anything else is read as MSCCL XML.
std::optional<Program> readInput(const ExportOptions& options, DialectId target)
{
  if (!isDesignPath(options.input)) {
    ReadResult read = readMscclXmlFile(options.input);
    if (!read.program || read.hasErrors()) {
      printDiagnostics(std::cerr, options.input, read.diagnostics);
      std::cerr << options.input << ": not exported: the file has format errors\n";
      return std::nullopt;
    }
    return std::move(read.program);
  }
  std::ifstream file(options.input, std::ios::binary);
  if (!file) {
    std::cerr << "cstudio export: cannot read " << options.input << '\n';
    return std::nullopt;
  }
  std::ostringstream text;
  text << file.rdbuf();
  const DesignReadResult design = readDesignDocument(text.str());
  if (!design.document) {
    printDiagnostics(std::cerr, options.input, design.diagnostics);
    std::cerr << options.input << ": not exported: the design document is not readable\n";
    return std::nullopt;
  }
  LowerResult lowered = lowerSchedule(
      design.document->schedule, {target, *parseProtocol(options.protocol), options.instances});
  printDiagnostics(std::cerr, options.input, lowered.diagnostics);
  if (!lowered.program) {
    std::cerr << options.input << ": not exported: the schedule cannot be lowered\n";
    return std::nullopt;
  }
  return std::move(lowered.program);
}

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
  const std::optional<Program> program = readInput(options, target);
  if (!program)
    return UsageError;
  const WriteResult written = writeMscclXml(*program, {target});
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
  command->add_option("--proto", options->protocol, "Protocol when lowering a design document")
      ->check(CLI::IsMember({"Simple", "LL", "LL128"}))
      ->capture_default_str();
  command
      ->add_option("--instances", options->instances,
                   "Instances when lowering a design document (msccl-tools style)")
      ->check(CLI::Range(1, 32))
      ->capture_default_str();
  command->footer("Exit status: 0 written and accepted by the target runtime, 1 written but the "
                  "runtime would reject it, 2 usage error or unreadable input.");
  return [options] { return runExport(*options); };
}

} // namespace cs::cli
