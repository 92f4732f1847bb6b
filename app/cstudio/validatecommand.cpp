#include "commands.h"
#include "output.h"

#include "check/checker.h"
#include "io/mscclxmlreader.h"

#include <iostream>
#include <memory>

namespace cs::cli {

namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool json = false;
  std::string dialect;
  int fifoSlots = 2;
  int root = -1;
};

int runValidate(const ValidateOptions& options)
{
  int exitCode = Ok;
  for (const std::string& file : options.files) {
    ReadResult read = readMscclXmlFile(file);
    std::vector<Diagnostic> diagnostics = read.diagnostics;
    DialectId target = DialectId::Executor;
    if (read.program) {
      target =
          options.dialect.empty() ? detectDialect(*read.program) : *parseDialect(options.dialect);
      CheckOptions check;
      check.dialect = target;
      check.fifoSlots = options.fifoSlots;
      if (options.root >= 0)
        check.root = options.root;
      // Values the reader had to default would make the semantic passes report noise.
      check.semantic = !read.hasErrors();
      const std::vector<Diagnostic> found = checkProgram(*read.program, check);
      diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    }
    const bool ok = !hasErrors(diagnostics);
    if (read.unreadable || !read.program)
      exitCode = UsageError;
    else if (!ok && exitCode == Ok)
      exitCode = Problems;

    if (options.json) {
      nlohmann::json object = {
          {"file", file}, {"ok", ok}, {"diagnostics", diagnosticsToJson(diagnostics)}};
      if (read.program) {
        object["collective"] = read.program->collSpelling;
        object["ngpus"] = read.program->ngpus;
        object["dialect"] = std::string(dialect(target).key);
      } else {
        object["collective"] = nullptr;
        object["ngpus"] = nullptr;
        object["dialect"] = nullptr;
      }
      std::cout << object.dump() << '\n';
      continue;
    }
    printDiagnostics(std::cout, file, diagnostics);
    std::cout << file << ": " << (ok ? "ok" : "FAILED");
    if (read.program) {
      std::cout << " (" << collectiveTitle(read.program->collective) << ", " << read.program->ngpus
                << " ranks, checked for " << dialect(target).key << ")";
    }
    std::cout << ": " << countSummary(diagnostics) << '\n';
  }
  return exitCode;
}

} // namespace

Runner addValidateCommand(CLI::App& app)
{
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand(
      "validate", "Check MSCCL XML files: format, structure, runtime limits, selection, matching, "
                  "dependencies, deadlocks, races and the collective's postcondition");
  command->add_option("files", options->files, "MSCCL XML files")->required()->type_name("FILE");
  command->add_flag("--json", options->json, "Print one JSON object per file");
  command
      ->add_option("--dialect", options->dialect,
                   "Target runtime (default: the one the file was written for)")
      ->check(CLI::IsMember({"classic", "executor", "rccl"}));
  command
      ->add_option("--fifo-slots", options->fifoSlots,
                   "Messages a connection holds before the sender blocks (deadlock check)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  command
      ->add_option("--root", options->root,
                   "Root rank of a broadcast or reduce (default: inferred when unambiguous)")
      ->check(CLI::NonNegativeNumber);
  command->footer("Exit status: 0 no file has an error, 1 some file has an error, 2 usage error "
                  "or unreadable file.");
  return [options] { return runValidate(*options); };
}

} // namespace cs::cli
