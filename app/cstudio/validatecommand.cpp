#include "commands.h"
#include "output.h"
#include "programinput.h"

#include "analysis/analysis.h"
#include "check/checker.h"
#include "check/topologyfit.h"
#include "io/designdocument.h"
#include "io/mscclxmlreader.h"
#include "io/topologyloader.h"

#include <iostream>
#include <memory>
#include <optional>

namespace cs::cli {

namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool json = false;
  std::string dialect;
  std::optional<int> fifoSlots; ///< absent: the runtime's depth for the protocol
  int root = -1;
  LoweringChoice lowering;
  std::string topology; ///< preset or file the algorithms must fit; empty: a document's own
};

/// What validating one file found, whatever level it holds.
struct Verdict {
  bool readable = false;
  bool checked = false; ///< a Program or Schedule was read, so the fields below are set
  std::vector<Diagnostic> diagnostics;
  // What was checked, when the file was readable.
  std::string collectiveSpelling;
  Collective collective = Collective::AllReduce;
  int ranks = 0;
  DialectId dialect = DialectId::Executor;
};

Verdict validateXml(const std::string& file, const ValidateOptions& options,
                    const Topology* topology)
{
  Verdict verdict;
  ReadResult read = readMscclXmlFile(file);
  verdict.diagnostics = read.diagnostics;
  verdict.readable = read.program && !read.unreadable;
  if (!read.program)
    return verdict;
  verdict.checked = true;
  verdict.dialect =
      options.dialect.empty() ? detectDialect(*read.program) : *parseDialect(options.dialect);
  CheckOptions check;
  check.dialect = verdict.dialect;
  check.fifoSlots = options.fifoSlots;
  check.gpu = chosenGpu(options.lowering.gpu);
  if (options.root >= 0)
    check.root = options.root;
  // Values the reader had to default would make the semantic passes report noise.
  check.semantic = !read.hasErrors();
  const std::vector<Diagnostic> found = checkProgram(*read.program, check);
  verdict.diagnostics.insert(verdict.diagnostics.end(), found.begin(), found.end());
  if (topology) {
    Diagnostics fit;
    checkTopologyFit(*topology, read.program->ngpus, programExchanges(*read.program), fit);
    const std::vector<Diagnostic> fitting = fit.take();
    verdict.diagnostics.insert(verdict.diagnostics.end(), fitting.begin(), fitting.end());
  }
  verdict.collectiveSpelling = read.program->collSpelling;
  verdict.collective = read.program->collective;
  verdict.ranks = read.program->ngpus;
  return verdict;
}

/// A design document gets exactly the editor's problem list (engine/analysis): the Schedule
/// checks, lowering and the Program checker, each problem naming its transfer, and the fit to
/// `topology`, else to the document's own topology when it has one.
Verdict validateDesign(const std::string& file, const ValidateOptions& options,
                       const Topology* topology)
{
  Verdict verdict;
  DesignReadResult read = readDesignDocumentFile(file);
  verdict.diagnostics = read.diagnostics;
  if (!read.document)
    return verdict;
  verdict.readable = true;
  verdict.checked = true;
  LowerOptions lowering = loweringOptions(options.lowering, options.dialect);
  if (!lowering.gpu)
    lowering.gpu = read.document->gpu;
  Analysis analysis = analyseSchedule(read.document->schedule, lowering);
  if (!topology && read.document->topology)
    topology = &*read.document->topology;
  // Without one the editor's Problems panel says none was checked; scripts need no such line.
  if (topology)
    addTopologyProblems(analysis, topology, false);
  const std::vector<Diagnostic> problems = analysis.diagnostics();
  verdict.diagnostics.insert(verdict.diagnostics.end(), problems.begin(), problems.end());
  verdict.dialect = lowering.dialect;
  verdict.collective = read.document->schedule.collective;
  verdict.collectiveSpelling = analysis.program ? analysis.program->collSpelling
                                                : std::string(collectiveTitle(verdict.collective));
  verdict.ranks = read.document->schedule.ranks;
  return verdict;
}

void printVerdict(const std::string& file, const Verdict& verdict, bool json)
{
  const bool ok = !hasErrors(verdict.diagnostics);
  if (json) {
    nlohmann::json object = {
        {"file", file}, {"ok", ok}, {"diagnostics", diagnosticsToJson(verdict.diagnostics)}};
    object["collective"] = nullptr;
    object["ngpus"] = nullptr;
    object["dialect"] = nullptr;
    if (verdict.checked) {
      object["collective"] = verdict.collectiveSpelling;
      object["ngpus"] = verdict.ranks;
      object["dialect"] = std::string(dialect(verdict.dialect).key);
    }
    std::cout << jsonText(object) << '\n';
    return;
  }
  printDiagnostics(std::cout, file, verdict.diagnostics);
  std::cout << file << ": " << (ok ? "ok" : "FAILED");
  if (verdict.checked) {
    std::cout << " (" << collectiveTitle(verdict.collective) << ", " << verdict.ranks
              << " ranks, checked for " << dialect(verdict.dialect).key << ")";
  }
  std::cout << ": " << countSummary(verdict.diagnostics) << '\n';
}

int runValidate(const ValidateOptions& options)
{
  std::optional<Topology> topology;
  if (!loadTopologyOption(options.topology, topology))
    return UsageError;
  const Topology* fit = topology ? &*topology : nullptr;
  int exitCode = Ok;
  for (const std::string& file : options.files) {
    const Verdict verdict =
        isDesignPath(file) ? validateDesign(file, options, fit) : validateXml(file, options, fit);
    if (!verdict.readable)
      exitCode = UsageError;
    else if (hasErrors(verdict.diagnostics) && exitCode == Ok)
      exitCode = Problems;
    printVerdict(file, verdict, options.json);
  }
  return exitCode;
}

} // namespace

Runner addValidateCommand(CLI::App& app)
{
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand(
      "validate", "Check MSCCL XML files: format, structure, runtime limits, selection, matching, "
                  "dependencies, deadlocks, races and the collective's postcondition; check "
                  "design documents (.json) as the editor does: the Schedule, then its lowering");
  command->add_option("files", options->files, "MSCCL XML files or design documents (.json)")
      ->required()
      ->type_name("FILE");
  command->add_flag("--json", options->json, "Print one JSON object per file");
  command
      ->add_option("--dialect", options->dialect,
                   "Target runtime (default: the one an XML file was written for; executor for "
                   "a design document)")
      ->check(CLI::IsMember({"classic", "executor", "rccl"}));
  command
      ->add_option("--fifo-slots", options->fifoSlots,
                   "Messages a connection holds before the sender blocks (deadlock check; XML); "
                   "default: the runtime's, 2 Simple or 8 LL/LL128 messages")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--root", options->root,
                   "Root rank of a broadcast or reduce (XML; default: inferred when unambiguous)")
      ->check(CLI::NonNegativeNumber);
  command
      ->add_option("--topology", options->topology,
                   "Also check that the algorithm fits this topology (a preset such as dgx-h100 "
                   "or a file): every rank on a GPU, a route between every pair that exchanges "
                   "data; a design document is checked against its own topology by default")
      ->type_name("PRESET|FILE");
  addLoweringOptions(command, options->lowering);
  addGpuOption(command, options->lowering.gpu);
  command->footer("Exit status: 0 no file has an error, 1 some file has an error, 2 usage error "
                  "or unreadable file.");
  return [options] { return runValidate(*options); };
}

} // namespace cs::cli
