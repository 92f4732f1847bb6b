#pragma once

// The rows of the library as plain structs: what callers pass in to save and get back from
// queries. Ids are the database's integer primary keys; they never change once given out.

#include "model/program.h"
#include "model/schedule.h"
#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::storage {

/// Where an algorithm came from.
enum class Provenance { Drawn, Imported, Generated, Synthesized };
/// "drawn", "imported", "generated", "synthesized" (the database spelling).
std::string_view provenanceName(Provenance provenance);
std::optional<Provenance> parseProvenance(std::string_view text);

/// A named topology (JSON text in io/topologyjson.h's format, stored as given).
struct TopologyRecord {
  std::int64_t id = 0;
  std::string name;
  std::string json;
  std::string created;
};

/// A calibration of the simulator (engine/sim/calibration.h) stored under a name.
struct CalibrationRecord {
  std::int64_t id = 0;
  std::string name;
  std::string topology; ///< the topology it was measured for
  std::string backend;  ///< the backend measured
  std::string json;     ///< writeCalibrationJson()
  std::string created;
};

/// One algorithm with the summary of its newest version ("head").
struct AlgorithmRecord {
  std::int64_t id = 0;
  std::string name;
  std::string collective; ///< collectiveTitle() of the head version: "all-reduce"
  int ranks = 0;
  Provenance provenance = Provenance::Imported;
  std::string sourceFile;
  std::vector<std::string> tags;
  std::string notes;
  std::optional<std::int64_t> topologyId;
  int headVersion = 0; ///< number of the newest version (= how many versions exist)
  std::string created;
  std::string updated;
};

/// The checker's verdict on a version's MSCCL XML, as stored at save time.
struct VerdictSummary {
  std::string verdict; ///< "ok", "errors", "unreadable" or "no xml"
  int errors = 0;
  int warnings = 0;
  std::string firstError; ///< "code: message" of the first error, or empty
};

/// The shape of a version, from its Program (and Schedule when the save carried one).
struct ShapeSummary {
  std::string collective;
  int ranks = 0;
  int threadblocks = 0; ///< 0 without XML
  int steps = 0;        ///< Program steps (instructions), or Schedule steps without XML
  int transfers = -1;   ///< Schedule transfers; -1 when the save carried no Schedule
};

/// One version of an algorithm, without its (possibly large) content.
struct VersionRecord {
  std::int64_t id = 0;
  std::int64_t algorithmId = 0;
  int number = 0; ///< 1, 2, 3, … per algorithm
  std::string created;
  std::string message;
  std::optional<int> restoredFrom; ///< the version number a restore copied
  ShapeSummary shape;
  VerdictSummary verdict;
  std::int64_t xmlBytes = 0;
  std::int64_t designBytes = 0;
};

/// What a version stores.
struct VersionContent {
  std::string xml;        ///< MSCCL XML, or empty
  std::string designJson; ///< the design document (io/designdocument.h), or empty
};

/// A save: the algorithm's name (created on first save) and the new content.
struct SaveRequest {
  std::string name;
  Provenance provenance = Provenance::Drawn;    ///< used when the algorithm is created
  std::string sourceFile;                       ///< kept when empty
  std::optional<std::vector<std::string>> tags; ///< replaces the tags when set
  std::optional<std::string> notes;             ///< replaces the notes when set
  std::optional<std::int64_t> topologyId;       ///< replaces the topology when set
  std::string message;                          ///< the version's commit message
  VersionContent content;
  /// The Schedule the design document holds, for the summary and transfer diff (storage does
  /// not parse the design JSON itself). Optional.
  std::optional<Schedule> schedule;
};

/// What a save did.
struct SaveOutcome {
  std::int64_t algorithmId = 0;
  std::int64_t versionId = 0;
  int number = 0;
  bool created = false; ///< false: the content equals the head version; nothing was stored
};

/// The summary difference between two versions of one or two algorithms.
struct VersionDiff {
  ShapeSummary from;
  ShapeSummary to;
  VerdictSummary fromVerdict;
  VerdictSummary toVerdict;
  bool sameContent = false;
  /// Whether both versions carried a Schedule, so transfers were compared.
  bool transfersCompared = false;
  std::vector<std::string> transfersAdded; ///< "step 2: r0 i[1] -> r1 i[1] x1 reduce"
  std::vector<std::string> transfersRemoved;
};

/// Search filters; every set field must match.
struct SearchQuery {
  std::string text; ///< words matched as prefixes against names, tags and notes (all must match)
  std::optional<std::string> collective; ///< any spelling parseCollective() knows
  std::optional<int> ranks;
  int limit = 0; ///< 0: no limit
};

/// One measurement (nccl-tests' columns) of a version.
struct RunRecord {
  std::int64_t id = 0;
  std::int64_t versionId = 0;
  int versionNumber = 0; ///< filled by queries
  std::string backend;   ///< "simulator", "cpu", "cuda", "nccl"
  std::string device;
  std::string dtype; ///< "float", "half", …
  std::string op;    ///< "sum", …
  std::int64_t bytes = 0;
  double timeUs = 0;
  double algbwGBps = 0;
  double busbwGBps = 0;
  std::int64_t wrong = 0; ///< #wrong as nccl-tests reports it
  /// How the run ended: execStatusName() ("verified", "wrong", "not-verified", "hung") or
  /// "simulated"; empty in runs stored before schema 3.
  std::string status;
  std::string verdict; ///< the verdict for people ("verified, 12.3 µs per iteration"), or empty
  std::string created;
  bool hasTrace = false;
};

/// What importing a folder did.
struct ImportReport {
  int files = 0;
  int added = 0;                     ///< new algorithms or new versions
  int unchanged = 0;                 ///< identical to the stored head
  std::vector<std::string> failures; ///< "file: reason", one per file not imported
};

/// Progress of a long operation: done of total, and the current item.
struct Progress {
  int done = 0;
  int total = 0;
  std::string item;
};

} // namespace cs::storage
