// Folders: importing MSCCL XML files and exporting the whole library.

#include "libraryimpl_p.h"

#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace cs::storage {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> readWholeFile(const fs::path& path, std::string& why)
{
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot be read";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    why = "reading failed";
    return std::nullopt;
  }
  return text.str();
}

// A file name for `name` that every file system accepts and no other algorithm of the export
// uses (case-insensitively, for macOS and Windows users of the folder).
std::string fileNameFor(const std::string& name, std::int64_t id, std::set<std::string>& used)
{
  std::string safe;
  for (char c : name)
    safe +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (safe.empty() || safe.front() == '.')
    safe.insert(safe.begin(), '_');
  std::string lower = safe;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!used.insert(lower).second) {
    safe += "-" + std::to_string(id);
    used.insert(lower + "-" + std::to_string(id));
  }
  return safe;
}

} // namespace

Result<ImportReport> Library::importFolder(const fs::path& folder, const ProgressCallback& progress)
{
  if (auto refused = m_impl->refuseWrite())
    return *refused;
  std::error_code error;
  if (!fs::is_directory(folder, error))
    return Error{ErrorKind::Invalid, folder.string() + ": not a folder"};
  std::vector<fs::path> files;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    std::error_code typeError;
    if (it->is_regular_file(typeError) && it->path().extension() == ".xml")
      files.push_back(it->path());
  }
  if (error)
    return Error{ErrorKind::Io, folder.string() + ": cannot list the folder: " + error.message()};
  std::sort(files.begin(), files.end());

  ImportReport report;
  report.files = static_cast<int>(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& file = files[i];
    if (progress)
      progress({static_cast<int>(i), report.files, file.filename().string()});
    std::string why;
    std::optional<std::string> text = readWholeFile(file, why);
    if (!text) {
      report.failures.push_back(file.string() + ": " + why);
      continue;
    }
    // Only what the reader can model is an algorithm; checker errors are kept as the verdict.
    const ReadResult read = readMscclXml(*text);
    if (!read.program) {
      const std::string first = read.diagnostics.empty() ? "" : ": " + read.diagnostics[0].message;
      report.failures.push_back(file.string() + ": not MSCCL XML" + first);
      continue;
    }
    SaveRequest request;
    request.name = file.stem().string();
    request.provenance = Provenance::Imported;
    request.sourceFile = fs::absolute(file, error).string();
    request.message = "imported from " + file.filename().string();
    request.content.xml = std::move(*text);
    Result<SaveOutcome> saved = save(request);
    if (!saved) {
      // The library itself failing (full, read-only, busy) ends the import: every further file
      // would fail the same way.
      if (saved.error().kind != ErrorKind::Invalid)
        return saved.error();
      report.failures.push_back(file.string() + ": " + saved.error().message);
      continue;
    }
    ++(saved->created ? report.added : report.unchanged);
  }
  if (progress)
    progress({report.files, report.files, {}});
  return report;
}

namespace {

using nlohmann::json;

/// One export folder: each file replaced atomically, its folders made as needed.
class ExportFolder
{
public:
  explicit ExportFolder(fs::path root) : m_root(std::move(root)) {}

  Status write(const fs::path& relative, const std::string& text) const
  {
    std::error_code ignored;
    fs::create_directories((m_root / relative).parent_path(), ignored);
    if (const std::string failure = writeTextFileAtomically(m_root / relative, text);
        !failure.empty())
      return Error{ErrorKind::Io, failure};
    return Status::success();
  }

  /// history/BASE/vN.xml and .design.json (and BASE.* for the head); the manifest entry.
  Result<json> writeVersion(const VersionRecord& version, const VersionContent& content,
                            const std::string& base, bool head) const
  {
    const std::string stem = "history/" + base + "/v" + std::to_string(version.number);
    json entry = {{"number", version.number},
                  {"created", version.created},
                  {"message", version.message},
                  {"verdict", version.verdict.verdict},
                  {"errors", version.verdict.errors}};
    const auto both = [&](const std::string& suffix, const std::string& text) -> Status {
      Status status = write(stem + suffix, text);
      if (status.ok() && head)
        status = write(base + suffix, text);
      return status;
    };
    if (!content.xml.empty()) {
      if (Status written = both(".xml", content.xml); !written.ok())
        return *written.failure;
      entry["xml"] = stem + ".xml";
    }
    if (!content.designJson.empty()) {
      if (Status written = both(".design.json", content.designJson); !written.ok())
        return *written.failure;
      entry["design"] = stem + ".design.json";
    }
    return entry;
  }

private:
  fs::path m_root;
};

/// Every version of `algorithm`; its manifest entry.
Result<json> exportAlgorithm(const Library& library, const ExportFolder& folder,
                             const AlgorithmRecord& algorithm, const std::string& base)
{
  Result<std::vector<VersionRecord>> versions = library.history(algorithm.id);
  if (!versions)
    return versions.error();
  json versionList = json::array();
  for (const VersionRecord& version : *versions) {
    Result<VersionContent> content = library.content(version.id);
    if (!content)
      return content.error();
    Result<json> entry =
        folder.writeVersion(version, *content, base, version.number == algorithm.headVersion);
    if (!entry)
      return entry.error();
    versionList.push_back(std::move(*entry));
  }
  return json{{"name", algorithm.name},
              {"file", base},
              {"collective", algorithm.collective},
              {"ranks", algorithm.ranks},
              {"provenance", provenanceName(algorithm.provenance)},
              {"source", algorithm.sourceFile},
              {"tags", algorithm.tags},
              {"notes", algorithm.notes},
              {"versions", std::move(versionList)}};
}

/// topologies/NAME.json for every stored topology; the manifest's list.
Result<json> exportTopologies(const Library& library, const ExportFolder& folder)
{
  Result<std::vector<TopologyRecord>> rows = library.topologies();
  if (!rows)
    return rows.error();
  json list = json::array();
  std::set<std::string> used;
  for (const TopologyRecord& topology : *rows) {
    const std::string relative =
        "topologies/" + fileNameFor(topology.name, topology.id, used) + ".json";
    if (Status written = folder.write(relative, topology.json); !written.ok())
      return *written.failure;
    list.push_back({{"name", topology.name}, {"file", relative}});
  }
  return list;
}

} // namespace

Result<int> Library::exportAll(const fs::path& folder, const ProgressCallback& progress) const
{
  std::error_code error;
  fs::create_directories(folder / "history", error);
  if (!error)
    fs::create_directories(folder / "topologies", error);
  if (error)
    return Error{ErrorKind::ReadOnly,
                 folder.string() + ": cannot create the folder: " + error.message()};
  const ExportFolder out(folder);
  Result<std::vector<AlgorithmRecord>> algorithms = list();
  if (!algorithms)
    return algorithms.error();
  json manifest = {{"format", "collective-studio-library-export"}, {"version", 1}};
  json algorithmList = json::array();
  std::set<std::string> used;
  int done = 0;
  for (const AlgorithmRecord& algorithm : *algorithms) {
    if (progress)
      progress({done, static_cast<int>(algorithms->size()), algorithm.name});
    Result<json> entry =
        exportAlgorithm(*this, out, algorithm, fileNameFor(algorithm.name, algorithm.id, used));
    if (!entry)
      return entry.error();
    algorithmList.push_back(std::move(*entry));
    ++done;
  }
  manifest["algorithms"] = std::move(algorithmList);
  Result<json> topologyList = exportTopologies(*this, out);
  if (!topologyList)
    return topologyList.error();
  manifest["topologies"] = std::move(*topologyList);
  if (Status written = out.write(
          "library.json", manifest.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
      !written.ok())
    return *written.failure;
  if (progress)
    progress({done, done, {}});
  return done;
}

} // namespace cs::storage
