#include "storagebench.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"
#include "library.h"
#include "sqlite.h"
#include "versionsummary.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

namespace cs::bench {

namespace {

namespace fs = std::filesystem;

template <typename Work> double medianOf(int repeats, Work work)
{
  std::vector<double> samples;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work(i);
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// A 16-rank, 24-channel ring: 11,520 steps, about 1.4 MB of XML like the largest corpus files.
std::string largeRing()
{
  RingAllReduceOptions ring;
  ring.ranks = 16;
  ring.channels = 24;
  return writeMscclXml(makeRingAllReduce(ring), {}).text;
}

// Each saved version must differ, or de-duplication would store nothing: vary the algo name.
std::string variant(const std::string& xml, int index)
{
  const std::size_t name = xml.find("name=\"");
  if (name == std::string::npos)
    return xml;
  return xml.substr(0, name + 6) + "v" + std::to_string(index) + "-" + xml.substr(name + 6);
}

void row(std::ostream& out, const char* what, double ms, double baselineMs, double goalMs)
{
  char line[200];
  std::snprintf(line, sizeof line, "%-44s %9.2f %11.2f %7.1fx   <= %.0f ms %s\n", what, ms,
                baselineMs, ms / std::max(baselineMs, 1e-6), goalMs, ms <= goalMs ? "ok" : "OVER");
  out << line;
}

int fill(storage::Library& library, int count, std::ostream& out)
{
  // Ten distinct ring sizes: the checker runs once per distinct content within a batch.
  std::vector<std::string> rings;
  for (int ranks = 2; ranks < 12; ++ranks) {
    RingAllReduceOptions ring;
    ring.ranks = ranks;
    rings.push_back(writeMscclXml(makeRingAllReduce(ring), {}).text);
  }
  const char* words[] = {"ring",   "tree", "halving",    "doubling",  "hierarchical",
                         "nvlink", "pcie", "infiniband", "pipelined", "lowlatency"};
  std::vector<storage::SaveRequest> batch;
  for (int i = 0; i < count; ++i) {
    storage::SaveRequest request;
    request.name = std::string(words[i % 10]) + "-variant-" + std::to_string(i);
    request.provenance = storage::Provenance::Synthesized;
    request.tags = std::vector<std::string>{words[(i / 10) % 10], words[(i / 100) % 10]};
    request.notes = "benchmark variant " + std::to_string(i) + " tuned for " + words[(i / 7) % 10];
    request.message = "bench";
    request.content.xml = rings[static_cast<std::size_t>(i) % rings.size()];
    batch.push_back(std::move(request));
    if (batch.size() == 1000 || i + 1 == count) {
      storage::Result<std::vector<storage::SaveOutcome>> saved = library.saveAll(batch);
      if (!saved) {
        out << "storage bench: " << saved.error().message << '\n';
        return 2;
      }
      batch.clear();
    }
  }
  return 0;
}

/// The large XML to save: the file the options name, or a generated 16-rank ring.
std::optional<std::string> largeXmlOf(const StorageBenchOptions& options, std::ostream& out)
{
  if (options.largeXml.empty())
    return largeRing();
  std::ifstream in(options.largeXml, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) {
    out << "storage bench: " << options.largeXml << ": cannot be read\n";
    return std::nullopt;
  }
  return bytes.str();
}

/// Listing and searching the library, against bare SQLite scanning the same rows.
void benchQueries(storage::Library& library, storage::sql::Connection& bare,
                  const StorageBenchOptions& options, int repeats, std::ostream& out)
{
  const double scanMs = medianOf(repeats, [&bare](int) {
    storage::sql::Statement scan(bare,
                                 "SELECT id, name, tags, notes FROM algorithms ORDER BY name");
    while (scan.step() == storage::sql::StepResult::Row) {
    }
  });
  std::size_t listed = 0;
  const double listMs =
      medianOf(repeats, [&library, &listed](int) { listed = library.list().value().size(); });
  row(out, ("list (" + std::to_string(listed) + " rows)").c_str(), listMs, scanMs,
      options.listGoalMs);
  std::size_t found = 0;
  const double searchMs = medianOf(repeats, [&library, &found](int) {
    storage::SearchQuery query;
    query.text = "ring nvl";
    found = library.search(query).value().size();
  });
  row(out, ("search \"ring nvl\" (" + std::to_string(found) + " hits)").c_str(), searchMs, scanMs,
      options.listGoalMs);
  const double filterMs = medianOf(repeats, [&library, &found](int) {
    storage::SearchQuery query;
    query.text = "variant";
    query.collective = "allreduce";
    query.ranks = 8;
    found = library.search(query).value().size();
  });
  row(out, ("search \"variant\" allreduce 8 ranks (" + std::to_string(found) + " hits)").c_str(),
      filterMs, scanMs, options.listGoalMs);
}

/// Saving a large version, against bare SQLite inserting the same bytes; false if a save failed.
bool benchSave(storage::Library& library, storage::sql::Connection& bare, const std::string& xml,
               const StorageBenchOptions& options, int repeats, std::ostream& out)
{
  const double insertMs = medianOf(repeats, [&bare, &xml](int i) {
    storage::sql::Transaction transaction(bare);
    storage::sql::Statement insert(bare, "INSERT INTO bench_blobs(data) VALUES (?)");
    insert.bind(1, variant(xml, i));
    insert.run();
    transaction.commit();
  });
  const double summaryMs = medianOf(repeats, [&xml](int i) {
    (void)storage::summariseContent({variant(xml, i), {}}, nullptr);
  });
  bool saveFailed = false;
  const double saveMs = medianOf(repeats, [&library, &xml, &saveFailed](int i) {
    storage::SaveRequest request;
    request.name = "large";
    request.content.xml = variant(xml, 1000 + i);
    saveFailed = saveFailed || !library.save(request);
  });
  char what[120];
  std::snprintf(what, sizeof what, "save a %.2f MB version", static_cast<double>(xml.size()) / 1e6);
  row(out, what, saveMs, insertMs, options.saveGoalMs);
  std::snprintf(what, sizeof what, "  of which read + check the XML: %.2f ms", summaryMs);
  out << what << '\n';
  if (saveFailed)
    out << "storage bench: saving the large version failed\n";
  return !saveFailed;
}

/// Fills a fresh library in `file` and runs every measurement on it.
int benchLibrary(const fs::path& file, const std::string& xml, const StorageBenchOptions& options,
                 std::ostream& out)
{
  storage::OpenOptions open;
  open.seed = false;
  storage::Result<storage::Library> library = storage::Library::open(file, open);
  if (!library) {
    out << "storage bench: " << library.error().message << '\n';
    return 2;
  }
  const auto filled = std::chrono::steady_clock::now();
  if (fill(*library, options.algorithms, out) != 0)
    return 2;
  const double fillS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - filled).count();
  out << "library of " << options.algorithms << " algorithms built in " << fillS
      << " s (batches of 1000)\n";

  // Baseline: bare SQLite on the same file through a second connection.
  storage::sql::Connection bare;
  bare.open(file.string(), storage::sql::OpenMode::ReadWrite);
  bare.exec("CREATE TABLE IF NOT EXISTS bench_blobs (id INTEGER PRIMARY KEY, data TEXT)");
  char header[200];
  std::snprintf(header, sizeof header, "%-44s %9s %11s %8s   %s\n", "operation", "median ms",
                "baseline ms", "ratio", "goal");
  out << header;
  const int repeats = std::max(1, options.repeats);
  benchQueries(*library, bare, options, repeats, out);
  return benchSave(*library, bare, xml, options, repeats, out) ? 0 : 2;
}

} // namespace

int runStorageBench(const StorageBenchOptions& options, std::ostream& out)
{
  const std::optional<std::string> xml = largeXmlOf(options, out);
  if (!xml)
    return 2;
  const fs::path directory =
      fs::temp_directory_path() / ("cstudio-storagebench-" + std::to_string(::getpid()));
  std::error_code ignored;
  fs::remove_all(directory, ignored);
  fs::create_directories(directory, ignored);
  const int status = benchLibrary(directory / "library.sqlite", *xml, options, out);
  fs::remove_all(directory, ignored);
  return status;
}

} // namespace cs::bench
