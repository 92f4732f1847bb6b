#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "check/checker.h"
#include "compile/lift.h"
#include "io/bytesize.h"
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
  bool json = false;
  std::string maxBytes; ///< --max-bytes: largest call size, "64M" and the like
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
  if (options.json)
    std::cout << jsonText({{"input", options.input},
                           {"output", options.output},
                           {"written", true},
                           {"transfers", document.schedule.transfers.size()},
                           {"steps", document.schedule.stepCount()}},
                          2)
              << '\n';
  else
    std::cout << "wrote " << options.output << ": " << document.schedule.transfers.size()
              << " transfers in " << document.schedule.stepCount() << " steps\n";
  return Ok;
}

// What the target runtime would report on `text`, errors and warnings (a warning says what loads
// but hurts at run time, such as the scratch the classic runtime reserves): judge the text as
// written, not the program it came from, on the chosen GPU.
std::vector<Diagnostic> targetProblems(const std::string& text, DialectId target,
                                       std::optional<GpuModelId> gpu, Severity severity)
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
  std::vector<Diagnostic> kept;
  for (const Diagnostic& d : problems) {
    if (d.severity == severity)
      kept.push_back(d);
  }
  return kept;
}

nlohmann::json changeJson(const ValueChange& change)
{
  const auto text = [](const std::optional<std::string>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  return {{"attribute", change.attribute},
          {"from", text(change.from)},
          {"to", text(change.to)},
          {"severity", std::string(severityName(change.severity))},
          {"why", change.why}};
}

// {"input","output","dialect","written","changes":[…],"notes":[…],"errors":[…],"warnings":[…]}:
// what the conversion changed (also when it then refused to write), the writer's notes, the
// target runtime's errors that stopped the write, and its warnings on the file written.
void printExportJson(const ExportOptions& options, const WriteResult& written,
                     const std::vector<Diagnostic>& errors, const std::vector<Diagnostic>& warnings,
                     bool wrote)
{
  nlohmann::json changes = nlohmann::json::array();
  for (const ValueChange& change : written.changes)
    changes.push_back(changeJson(change));
  const nlohmann::json object = {{"input", options.input},
                                 {"output", options.output},
                                 {"dialect", options.dialect},
                                 {"written", wrote},
                                 {"changes", changes},
                                 {"notes", diagnosticsToJson(written.notes)},
                                 {"errors", diagnosticsToJson(errors)},
                                 {"warnings", diagnosticsToJson(warnings)}};
  std::cout << jsonText(object, 2) << '\n';
}

int runExport(const ExportOptions& options)
{
  if (isDesignPath(options.output) && !isDesignPath(options.input))
    return runLift(options);
  const DialectId target = *parseDialect(options.dialect);
  const ProgramInput input = readProgramInput(options.input, target, options.lowering, "exporting");
  if (!input.program)
    return UsageError;
  WriteOptions write{.dialect = target, .maxCallBytes = std::nullopt};
  if (!options.maxBytes.empty()) {
    write.maxCallBytes = parseByteSize(options.maxBytes);
    if (!write.maxCallBytes) {
      std::cerr << "cstudio export: --max-bytes " << options.maxBytes
                << " is not a size (4096, 64K, 256M, 1G)\n";
      return UsageError;
    }
  }
  const WriteResult written = writeMscclXml(*input.program, write);

  // A file the runtime refuses is worse than none: MSCCL skips it silently or fails to start
  // (msccl-format pitfall P1). Say why and write nothing; the writer's notes ("written as …")
  // would describe a file that does not exist, so they are not printed.
  const std::vector<Diagnostic> errors =
      targetProblems(written.text, target, input.gpu, Severity::Error);
  if (!errors.empty()) {
    if (options.json) {
      printExportJson(options, written, errors, {}, false);
      return Problems;
    }
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
  const std::vector<Diagnostic> warnings =
      targetProblems(written.text, target, input.gpu, Severity::Warning);
  if (options.json) {
    printExportJson(options, written, errors, warnings, true);
    return Ok;
  }
  // Every value converted, filled in or dropped is one note: "maxBytes 409600 -> 409599: …".
  printDiagnostics(std::cerr, options.output, written.notes);
  printDiagnostics(std::cerr, options.output, warnings);
  std::cout << "wrote " << options.output << " for " << dialect(target).title;
  if (!written.changes.empty())
    std::cout << ", " << written.changes.size()
              << (written.changes.size() == 1 ? " value" : " values")
              << " changed (listed in the notes)";
  std::cout << '\n';
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
  command
      ->add_option("--max-bytes", options->maxBytes,
                   "Largest call size the exported algorithm is selected for (4096, 64K, 256M): "
                   "caps maxBytes, and with it the scratch the classic runtime reserves")
      ->type_name("SIZE");
  command->add_flag("--json", options->json,
                    "Print a JSON object: written or not, every value changed, notes, errors");
  addLoweringOptions(command, options->lowering);
  addGpuOption(command, options->lowering.gpu);
  command->footer("Every value converted, filled in or dropped for the target runtime is listed "
                  "(maxBytes 409600 -> 409599). Exit status: 0 written and loaded by the target "
                  "runtime (dropping an attribute no runtime reads is a warning), 1 not written "
                  "because the runtime would reject it, 2 usage error or unreadable input.");
  return [options] { return runExport(*options); };
}

} // namespace cs::cli
