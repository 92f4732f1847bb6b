#pragma once

// The SQLite library of topologies, algorithms (versioned), runs and traces (DESIGN.md §2,
// docs/library.md). One Library is one open file; it is not thread-safe (one per thread), but any
// number of processes may use the same file at once: writes wait up to the busy timeout.
//
// Guarantees, each covered by tests/storage:
// - every save is one IMMEDIATE transaction; once it returned, the version survives a kill of
//   the process (WAL; see library.cpp for why synchronous=NORMAL suffices);
// - a file that is not a library (random bytes, truncated, text, another program's SQLite) is
//   refused with a message naming it and is never written;
// - a library written by a newer schema opens read-only, never downgraded;
// - a failed save (read-only file, full disk, busy) stores nothing.
// Start with open(); the operations are grouped by the file that implements them.

#include "records.h"
#include "result.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cs::storage {

/// The default library file: $CSTUDIO_LIBRARY when set, else
/// $XDG_DATA_HOME/collective-studio/library.sqlite, else
/// ~/.local/share/collective-studio/library.sqlite.
std::filesystem::path defaultLibraryPath();

/// The environment variable that overrides the default location.
inline constexpr const char* kLibraryEnvironmentVariable = "CSTUDIO_LIBRARY";

struct OpenOptions {
  bool create = true;    ///< create (and seed) the file when it does not exist
  bool seed = true;      ///< seed a newly created library with the shipped examples
  bool readOnly = false; ///< never write, not even a migration
  int busyTimeoutMs = 5000;
  /// SQLite's page limit (PRAGMA max_page_count), 0 for none: a quota, and the way tests make
  /// the "disk" full without a small file system.
  int maxPageCount = 0;
};

class Library
{
public:
  /// Opens (or creates) the library at `path`. Fails with Corrupt for anything that is not a
  /// library, leaving the file untouched.
  static Result<Library> open(const std::filesystem::path& path, const OpenOptions& options = {});

  Library(Library&&) noexcept;
  Library& operator=(Library&&) noexcept;
  ~Library();

  const std::filesystem::path& path() const;
  /// Whether writes are refused (asked for, or a newer schema).
  bool readOnly() const;
  /// Why the library was opened read-only, or what open() did that a user should hear about
  /// ("created and seeded …", "upgraded from schema 1"); empty otherwise.
  const std::string& notice() const;
  /// The schema version of the file as found (before any upgrade).
  int fileSchemaVersion() const;

  // Algorithms and versions (libraryversions.cpp).

  /// Saves a new version of `request.name`, creating the algorithm on first save. Content equal
  /// to the head version stores nothing (created = false); content equal to an older version
  /// adds a version that shares the stored content.
  Result<SaveOutcome> save(const SaveRequest& request);
  /// Saves many in one transaction (import, seeding): all or nothing.
  Result<std::vector<SaveOutcome>> saveAll(const std::vector<SaveRequest>& requests);
  /// The algorithm called `name` (exact), or NotFound.
  Result<AlgorithmRecord> algorithm(const std::string& name) const;
  Result<AlgorithmRecord> algorithm(std::int64_t id) const;
  /// Every version of an algorithm, oldest first.
  Result<std::vector<VersionRecord>> history(std::int64_t algorithmId) const;
  /// Version `number` of an algorithm (0: the head).
  Result<VersionRecord> version(std::int64_t algorithmId, int number) const;
  Result<VersionContent> content(std::int64_t versionId) const;
  /// Ranks, threadblocks, steps and verdicts of two versions, and transfers added or removed when
  /// both carried a Schedule.
  Result<VersionDiff> diff(std::int64_t fromVersionId, std::int64_t toVersionId) const;
  /// Makes version `number`'s content the head again, as a new version.
  Result<SaveOutcome> restore(std::int64_t algorithmId, int number, const std::string& message);
  /// Sets tags and notes (searchable) without a new version.
  Status describe(std::int64_t algorithmId, const std::vector<std::string>& tags,
                  const std::string& notes);
  /// Deletes an algorithm with its versions, runs and traces.
  Status remove(std::int64_t algorithmId);

  // Listing and search (librarysearch.cpp).

  /// Every algorithm, by name.
  Result<std::vector<AlgorithmRecord>> list() const;
  /// Full-text search with filters, best match first (by name without text).
  Result<std::vector<AlgorithmRecord>> search(const SearchQuery& query) const;

  // Topologies (librarysearch.cpp).

  /// Stores topology JSON under `name`, replacing an earlier one of that name.
  Result<std::int64_t> saveTopology(const std::string& name, const std::string& json);
  Result<std::vector<TopologyRecord>> topologies() const;

  // Calibrations of the simulator (librarycalibrations.cpp).
  /// Stores a calibration under `record.name` (topology, backend and json from the record),
  /// replacing an earlier one of that name; returns its id.
  Result<std::int64_t> saveCalibration(const CalibrationRecord& record);
  /// Every calibration, by name.
  Result<std::vector<CalibrationRecord>> calibrations() const;
  /// The calibration called `name` (exact), or NotFound.
  Result<CalibrationRecord> calibration(const std::string& name) const;

  // Runs and traces (libraryruns.cpp).

  /// Records a measurement of a version, with its trace (compressed) when given.
  Result<std::int64_t> addRun(const RunRecord& run, const Trace* trace = nullptr);
  /// The benchmark history of an algorithm: every run of every version, oldest first.
  Result<std::vector<RunRecord>> runs(std::int64_t algorithmId) const;
  Result<Trace> trace(std::int64_t runId) const;

  // Folders (libraryfiles.cpp).

  using ProgressCallback = std::function<void(const Progress&)>;
  /// Imports every *.xml file of `folder` (not recursive) as a version of the algorithm named
  /// after the file. Files that fail are listed, the others imported.
  Result<ImportReport> importFolder(const std::filesystem::path& folder,
                                    const ProgressCallback& progress = {});
  /// Writes every algorithm's head as NAME.xml (and NAME.design.json), every version under
  /// history/NAME/, topologies under topologies/, and library.json describing them all.
  Result<int> exportAll(const std::filesystem::path& folder,
                        const ProgressCallback& progress = {}) const;

  // Settings (library.cpp).

  Result<std::string> setting(const std::string& key, const std::string& fallback = {}) const;
  Status setSetting(const std::string& key, const std::string& value);

  /// Seeds the shipped examples (done on creation): exampleRequests(). Idempotent: identical
  /// content is not stored again.
  Status seedExamples();

  /// PRAGMA integrity_check: "ok" or the problems it lists.
  Result<std::string> integrityCheck() const;

  struct Impl;

private:
  explicit Library(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

/// The examples a new library is seeded with: every classic-algorithm catalogue entry at 8 ranks
/// (and the ring all-reduce at 4), lowered for the current executor, with its design document.
std::vector<SaveRequest> exampleRequests();

/// The topology preset an example runs on (the start document uses it too): the ring algorithms
/// on a ring of their ranks ("ring-4"), the others on a DGX H100 at 8 ranks and fully connected
/// GPUs otherwise, so every exchange has a route.
std::string exampleTopologyPreset(std::string_view key, int ranks);

} // namespace cs::storage
