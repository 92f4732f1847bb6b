#pragma once

// Library's private state and the helpers its implementation files share.

#include "library.h"
#include "sqlite.h"

#include <string>

namespace cs::storage {

struct Library::Impl {
  sql::Connection db;
  std::filesystem::path path;
  std::string file; ///< path as text, for messages
  OpenOptions options;
  bool readOnly = false;
  bool tooNew = false;
  int fileSchema = 0;
  std::string notice;

  /// An Error for the connection's last failure while doing `what`.
  Error fail(const std::string& what) const { return db.error(what, file); }
  /// The error every write returns on a read-only library; nullopt when writes are allowed.
  std::optional<Error> refuseWrite() const;
};

/// Splits "a, b,c" into trimmed, non-empty tags; joins them back as "a,b,c".
std::vector<std::string> splitTags(const std::string& text);
std::string joinTags(const std::vector<std::string>& tags);

/// Reads an algorithm row from a statement whose columns are kAlgorithmColumns.
AlgorithmRecord algorithmFromRow(const sql::Statement& row);
/// The column list algorithmFromRow() expects, prefixed by `a.`.
inline constexpr const char* kAlgorithmColumns =
    "a.id, a.name, a.collective, a.ranks, a.provenance, a.source_file, a.tags, a.notes, "
    "a.topology_id, a.head_version, a.created, a.updated";

} // namespace cs::storage
