// `cstudio library`: the SQLite library from the command line (docs/library.md).

#include "commands.h"
#include "libraryoutput.h"
#include "output.h"

#include "library.h"
#include "storagebench.h"

#include <unistd.h>

#include <iostream>
#include <map>
#include <memory>
#include <optional>

namespace cs::cli {

namespace {

struct LibraryOptions {
  std::string library;
  bool json = false;
  std::string name;
  int version = 0;
  int from = 0;
  int to = 0;
  std::vector<std::string> words;
  std::string collective;
  int ranks = 0;
  int limit = 0;
  std::string folder;
  std::string message;
  bool xml = false;
  bool design = false;
  bench::StorageBenchOptions bench;
};

void fail(const std::string& message)
{
  std::cerr << "cstudio library: " << message << '\n';
}

// Read-only commands fall back to a read-only connection where the file or its directory cannot
// be written (a shared, read-only library); writing commands report why they cannot write.
std::optional<storage::Library> openLibrary(const LibraryOptions& options, bool writes)
{
  const std::filesystem::path path = options.library.empty()
                                         ? storage::defaultLibraryPath()
                                         : std::filesystem::path(options.library);
  storage::Result<storage::Library> library = storage::Library::open(path);
  if (!library && !writes && library.error().kind == storage::ErrorKind::ReadOnly) {
    storage::OpenOptions readOnly;
    readOnly.readOnly = true;
    library = storage::Library::open(path, readOnly);
  }
  if (!library) {
    fail(library.error().message);
    return std::nullopt;
  }
  if (!library->notice().empty())
    fail(path.string() + ": " + library->notice());
  return std::move(*library);
}

// Prints rows as one JSON array or through `print`; a failed query is reported instead.
template <typename Record>
int emitRows(const storage::Result<std::vector<Record>>& rows, bool json,
             void (*print)(std::ostream&, const std::vector<Record>&))
{
  if (!rows) {
    fail(rows.error().message);
    return UsageError;
  }
  if (json) {
    nlohmann::json array = nlohmann::json::array();
    for (const Record& row : *rows)
      array.push_back(toJson(row));
    std::cout << jsonText(array, 2) << '\n';
  } else {
    print(std::cout, *rows);
  }
  return Ok;
}

std::optional<storage::AlgorithmRecord> findAlgorithm(const storage::Library& library,
                                                      const std::string& name)
{
  storage::Result<storage::AlgorithmRecord> algorithm = library.algorithm(name);
  if (!algorithm) {
    fail(algorithm.error().message);
    return std::nullopt;
  }
  return *algorithm;
}

int runList(storage::Library& library, const LibraryOptions& options, bool search)
{
  storage::SearchQuery query;
  if (search)
    for (const std::string& word : options.words)
      query.text += word + " ";
  if (!options.collective.empty())
    query.collective = options.collective;
  if (options.ranks > 0)
    query.ranks = options.ranks;
  query.limit = options.limit;
  return emitRows(library.search(query), options.json, printAlgorithms);
}

int runShow(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  storage::Result<storage::VersionRecord> version = library.version(algorithm->id, options.version);
  if (!version) {
    fail(version.error().message);
    return UsageError;
  }
  if (options.xml || options.design) {
    storage::Result<storage::VersionContent> content = library.content(version->id);
    if (!content) {
      fail(content.error().message);
      return UsageError;
    }
    const std::string& text = options.xml ? content->xml : content->designJson;
    if (text.empty()) {
      fail(options.name + " v" + std::to_string(version->number) + " has no " +
           (options.xml ? "MSCCL XML" : "design document"));
      return Problems;
    }
    std::cout << text;
    return Ok;
  }
  if (options.json) {
    nlohmann::json object = toJson(*algorithm);
    object["version"] = toJson(*version);
    std::cout << jsonText(object, 2) << '\n';
  } else {
    printAlgorithm(std::cout, *algorithm, *version);
  }
  return Ok;
}

int runHistory(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  return emitRows(library.history(algorithm->id), options.json, printHistory);
}

int runDiff(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  storage::Result<storage::VersionRecord> from = library.version(algorithm->id, options.from);
  storage::Result<storage::VersionRecord> to = library.version(algorithm->id, options.to);
  if (!from || !to) {
    fail((!from ? from : to).error().message);
    return UsageError;
  }
  storage::Result<storage::VersionDiff> diff = library.diff(from->id, to->id);
  if (!diff) {
    fail(diff.error().message);
    return UsageError;
  }
  if (options.json) {
    std::cout << jsonText(toJson(*diff), 2) << '\n';
  } else {
    std::cout << options.name << ": v" << from->number << " -> v" << to->number << '\n';
    printDiff(std::cout, *diff);
  }
  return Ok;
}

int runRestore(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  storage::Result<storage::SaveOutcome> restored =
      library.restore(algorithm->id, options.version, options.message);
  if (!restored) {
    fail(restored.error().message);
    return UsageError;
  }
  if (options.json)
    std::cout << jsonText(
                     nlohmann::json{{"version", restored->number}, {"created", restored->created}})
              << '\n';
  else if (restored->created)
    std::cout << options.name << ": v" << options.version << " restored as v" << restored->number
              << '\n';
  else
    std::cout << options.name << ": v" << options.version << " is already the current content (v"
              << restored->number << ")\n";
  return Ok;
}

int runImport(storage::Library& library, const LibraryOptions& options)
{
  // A terminal gets one updating line; a log gets a line per file.
  const bool terminal = ::isatty(2) != 0;
  const auto progress = [terminal](const storage::Progress& step) {
    if (step.item.empty()) {
      if (terminal)
        std::cerr << '\n';
      return;
    }
    std::cerr << (terminal ? "\r\033[K" : "") << "import: [" << step.done + 1 << "/" << step.total
              << "] " << step.item << (terminal ? "" : "\n") << std::flush;
  };
  storage::Result<storage::ImportReport> report = library.importFolder(options.folder, progress);
  if (!report) {
    fail(report.error().message);
    return UsageError;
  }
  for (const std::string& failure : report->failures)
    fail(failure);
  if (options.json) {
    std::cout << jsonText(nlohmann::json{{"files", report->files},
                                         {"added", report->added},
                                         {"unchanged", report->unchanged},
                                         {"failures", report->failures}},
                          2)
              << '\n';
  } else {
    std::cout << "imported " << report->added << " of " << report->files << " files ("
              << report->unchanged << " unchanged, " << report->failures.size() << " failed)\n";
  }
  return report->failures.empty() ? Ok : Problems;
}

int runExport(storage::Library& library, const LibraryOptions& options)
{
  storage::Result<int> exported = library.exportAll(options.folder);
  if (!exported) {
    fail(exported.error().message);
    return UsageError;
  }
  if (options.json)
    std::cout << jsonText(nlohmann::json{{"algorithms", *exported}, {"folder", options.folder}})
              << '\n';
  else
    std::cout << "exported " << *exported << " algorithms to " << options.folder << '\n';
  return Ok;
}

int runRuns(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  return emitRows(library.runs(algorithm->id), options.json, printRuns);
}

int runDelete(storage::Library& library, const LibraryOptions& options)
{
  const auto algorithm = findAlgorithm(library, options.name);
  if (!algorithm)
    return UsageError;
  if (storage::Status removed = library.remove(algorithm->id); !removed) {
    fail(removed.error().message);
    return UsageError;
  }
  if (options.json)
    std::cout << jsonText(nlohmann::json{{"deleted", options.name},
                                         {"versions", algorithm->headVersion}})
              << '\n';
  else
    std::cout << "deleted " << options.name << " (" << algorithm->headVersion << " versions)\n";
  return Ok;
}

int runCalibrations(storage::Library& library, const LibraryOptions& options)
{
  return emitRows(library.calibrations(), options.json, printCalibrations);
}

using Action = int (*)(storage::Library&, const LibraryOptions&);

struct Subcommand {
  CLI::App* app = nullptr;
  Action action = nullptr;
  bool writes = false;
};

/// Registers the library's subcommands, each with the options it takes.
class LibraryCommandBuilder
{
public:
  LibraryCommandBuilder(CLI::App* command, std::shared_ptr<LibraryOptions> options)
      : m_command(command), m_options(std::move(options))
  {
    common(m_command);
  }

  std::shared_ptr<std::vector<Subcommand>> subcommands() const { return m_subcommands; }

  void addBrowsing()
  {
    filters(add(
        "list", "List algorithms",
        [](storage::Library& l, const LibraryOptions& o) { return runList(l, o, false); }, false));
    CLI::App* show = add("show", "Show an algorithm and one version", runShow, false);
    nameArgument(show);
    show->add_option("--version", m_options->version, "Version number (default: the newest)")
        ->check(CLI::PositiveNumber);
    show->add_flag("--xml", m_options->xml, "Print the version's MSCCL XML");
    show->add_flag("--design", m_options->design, "Print the version's design document");
    nameArgument(add("history", "List the versions of an algorithm", runHistory, false));
  }

  void addVersions()
  {
    CLI::App* diff = add("diff",
                         "Compare two versions: ranks, threadblocks, steps, verdict and "
                         "transfers added or removed",
                         runDiff, false);
    nameArgument(diff);
    diff->add_option("from", m_options->from, "Older version number")
        ->required()
        ->check(CLI::PositiveNumber);
    diff->add_option("to", m_options->to, "Newer version number")
        ->required()
        ->check(CLI::PositiveNumber);
    CLI::App* restore = add("restore", "Make an old version the newest again", runRestore, true);
    nameArgument(restore);
    restore->add_option("version", m_options->version, "Version number to restore")
        ->required()
        ->check(CLI::PositiveNumber);
    restore->add_option("-m,--message", m_options->message, "Message of the new version");
  }

  void addSearch()
  {
    CLI::App* search = add(
        "search", "Full-text search over names, tags and notes",
        [](storage::Library& l, const LibraryOptions& o) { return runList(l, o, true); }, false);
    search->add_option("words", m_options->words, "Words (prefixes) that must all match");
    filters(search);
  }

  void addFolders()
  {
    add("import", "Import every *.xml file of a folder (progress on stderr)", runImport, true)
        ->add_option("folder", m_options->folder, "Folder of MSCCL XML files")
        ->required();
    add("export", "Export every algorithm, version and topology to a folder", runExport, false)
        ->add_option("folder", m_options->folder, "Destination folder")
        ->required();
  }

  void addRunsAndRemoval()
  {
    nameArgument(add("runs", "Benchmark history: every run of every version", runRuns, false));
    add("calibrations", "List the simulator's calibrations (cstudio calibrate --save)",
        runCalibrations, false);
    nameArgument(
        add("delete", "Delete an algorithm with its versions, runs and traces", runDelete, true));
  }

  CLI::App* addBench()
  {
    CLI::App* benchmark = m_command->add_subcommand(
        "bench", "Benchmark the library: list and search over many algorithms, saving a large "
                 "version (ratios against bare SQLite measured in the same run)");
    benchmark->add_option("--algorithms", m_options->bench.algorithms, "Algorithms to create")
        ->check(CLI::Range(10, 1000000))
        ->capture_default_str();
    benchmark->add_option("--xml", m_options->bench.largeXml,
                          "MSCCL XML to save as the large version (default: a generated ring)");
    benchmark->add_option("--repeat", m_options->bench.repeats, "Runs per measurement")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    return benchmark;
  }

private:
  void common(CLI::App* sub)
  {
    sub->add_option("--library", m_options->library,
                    "Library file (default: $CSTUDIO_LIBRARY, else the XDG data directory)")
        ->type_name("PATH");
    sub->add_flag("--json", m_options->json, "Print JSON");
  }

  CLI::App* add(const char* name, const char* description, Action action, bool writes)
  {
    CLI::App* sub = m_command->add_subcommand(name, description);
    common(sub);
    sub->footer("Exit status: 0 success, 1 some input was not imported (import), 2 usage error, "
                "unknown name, or a library that cannot be opened or written.");
    m_subcommands->push_back({sub, action, writes});
    return sub;
  }

  void nameArgument(CLI::App* sub)
  {
    sub->add_option("name", m_options->name, "Algorithm name")->required();
  }

  void filters(CLI::App* sub)
  {
    sub->add_option("--collective", m_options->collective, "Only this collective (any spelling)");
    sub->add_option("--ranks", m_options->ranks, "Only this rank count")
        ->check(CLI::PositiveNumber);
    sub->add_option("--limit", m_options->limit, "At most this many results")
        ->check(CLI::PositiveNumber);
  }

  CLI::App* m_command;
  std::shared_ptr<LibraryOptions> m_options;
  std::shared_ptr<std::vector<Subcommand>> m_subcommands =
      std::make_shared<std::vector<Subcommand>>();
};

} // namespace

Runner addLibraryCommand(CLI::App& app)
{
  auto options = std::make_shared<LibraryOptions>();
  CLI::App* command = app.add_subcommand(
      "library", "The algorithm library: versioned algorithms, topologies, runs and traces in "
                 "SQLite (default ~/.local/share/collective-studio/library.sqlite, or "
                 "$CSTUDIO_LIBRARY)");
  command->require_subcommand(1);
  LibraryCommandBuilder builder(command, options);
  builder.addBrowsing();
  builder.addVersions();
  builder.addSearch();
  builder.addFolders();
  builder.addRunsAndRemoval();
  CLI::App* benchmark = builder.addBench();
  auto subcommands = builder.subcommands();

  return [options, subcommands, benchmark]() -> int {
    if (benchmark->parsed())
      return bench::runStorageBench(options->bench, std::cout);
    for (const Subcommand& sub : *subcommands) {
      if (!sub.app->parsed())
        continue;
      std::optional<storage::Library> library = openLibrary(*options, sub.writes);
      if (!library)
        return UsageError;
      return sub.action(*library, *options);
    }
    return UsageError;
  };
}

} // namespace cs::cli
