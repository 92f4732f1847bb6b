// Folders: importing MSCCL XML files and exporting the whole library.

#include "libraryimpl.h"

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

Result<int> Library::exportAll(const fs::path& folder, const ProgressCallback& progress) const
{
  using nlohmann::json;
  std::error_code error;
  fs::create_directories(folder / "history", error);
  if (!error)
    fs::create_directories(folder / "topologies", error);
  if (error)
    return Error{ErrorKind::ReadOnly,
                 folder.string() + ": cannot create the folder: " + error.message()};
  const auto write = [&folder](const fs::path& relative,
                               const std::string& text) -> std::optional<Error> {
    std::error_code ignored;
    fs::create_directories((folder / relative).parent_path(), ignored);
    if (const std::string failure = writeTextFileAtomically(folder / relative, text);
        !failure.empty())
      return Error{ErrorKind::Io, failure};
    return std::nullopt;
  };

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
    const std::string base = fileNameFor(algorithm.name, algorithm.id, used);
    Result<std::vector<VersionRecord>> versions = history(algorithm.id);
    if (!versions)
      return versions.error();
    json versionList = json::array();
    for (const VersionRecord& version : *versions) {
      Result<VersionContent> content = this->content(version.id);
      if (!content)
        return content.error();
      const std::string stem = "history/" + base + "/v" + std::to_string(version.number);
      json entry = {{"number", version.number},
                    {"created", version.created},
                    {"message", version.message},
                    {"verdict", version.verdict.verdict},
                    {"errors", version.verdict.errors}};
      const bool head = version.number == algorithm.headVersion;
      if (!content->xml.empty()) {
        if (auto failed = write(stem + ".xml", content->xml))
          return *failed;
        if (head)
          if (auto failed = write(base + ".xml", content->xml))
            return *failed;
        entry["xml"] = stem + ".xml";
      }
      if (!content->designJson.empty()) {
        if (auto failed = write(stem + ".design.json", content->designJson))
          return *failed;
        if (head)
          if (auto failed = write(base + ".design.json", content->designJson))
            return *failed;
        entry["design"] = stem + ".design.json";
      }
      versionList.push_back(std::move(entry));
    }
    algorithmList.push_back({{"name", algorithm.name},
                             {"file", base},
                             {"collective", algorithm.collective},
                             {"ranks", algorithm.ranks},
                             {"provenance", provenanceName(algorithm.provenance)},
                             {"source", algorithm.sourceFile},
                             {"tags", algorithm.tags},
                             {"notes", algorithm.notes},
                             {"versions", std::move(versionList)}});
    ++done;
  }
  manifest["algorithms"] = std::move(algorithmList);

  Result<std::vector<TopologyRecord>> topologyRows = topologies();
  if (!topologyRows)
    return topologyRows.error();
  json topologyList = json::array();
  std::set<std::string> usedTopologies;
  for (const TopologyRecord& topology : *topologyRows) {
    const std::string relative =
        "topologies/" + fileNameFor(topology.name, topology.id, usedTopologies) + ".json";
    if (auto failed = write(relative, topology.json))
      return *failed;
    topologyList.push_back({{"name", topology.name}, {"file", relative}});
  }
  manifest["topologies"] = std::move(topologyList);
  if (auto failed = write("library.json",
                          manifest.dump(2, ' ', false, json::error_handler_t::replace) + "\n"))
    return *failed;
  if (progress)
    progress({done, done, {}});
  return done;
}

} // namespace cs::storage
