#include "schema.h"

#include <filesystem>

namespace cs::storage {

namespace {

// Version 1, frozen. Times are ISO 8601 UTC text. `contents` holds each distinct design once;
// versions point at it, so a restore or a re-save of old content stores no second copy.
constexpr std::string_view kVersion1 = R"sql(
CREATE TABLE topologies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  json TEXT NOT NULL,
  created TEXT NOT NULL
);
CREATE TABLE algorithms (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
  collective TEXT NOT NULL,
  ranks INTEGER NOT NULL,
  provenance TEXT NOT NULL
    CHECK (provenance IN ('drawn', 'imported', 'generated', 'synthesized')),
  source_file TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '',
  notes TEXT NOT NULL DEFAULT '',
  topology_id INTEGER REFERENCES topologies(id) ON DELETE SET NULL,
  head_version INTEGER NOT NULL DEFAULT 0,
  created TEXT NOT NULL,
  updated TEXT NOT NULL
);
CREATE INDEX algorithms_filter ON algorithms(collective, ranks);
CREATE TABLE contents (
  id INTEGER PRIMARY KEY,
  hash INTEGER NOT NULL,
  xml TEXT NOT NULL,
  design_json TEXT NOT NULL,
  collective TEXT NOT NULL,
  ranks INTEGER NOT NULL,
  threadblocks INTEGER NOT NULL,
  steps INTEGER NOT NULL,
  transfers INTEGER NOT NULL,
  transfer_list TEXT NOT NULL,
  verdict TEXT NOT NULL,
  errors INTEGER NOT NULL,
  warnings INTEGER NOT NULL,
  first_error TEXT NOT NULL
);
CREATE INDEX contents_hash ON contents(hash);
CREATE TABLE versions (
  id INTEGER PRIMARY KEY,
  algorithm_id INTEGER NOT NULL REFERENCES algorithms(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  content_id INTEGER NOT NULL REFERENCES contents(id),
  message TEXT NOT NULL DEFAULT '',
  restored_from INTEGER,
  created TEXT NOT NULL,
  UNIQUE (algorithm_id, number)
);
CREATE INDEX versions_content ON versions(content_id);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
  backend TEXT NOT NULL,
  device TEXT NOT NULL,
  dtype TEXT NOT NULL,
  op TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  time_us REAL NOT NULL,
  algbw REAL NOT NULL,
  busbw REAL NOT NULL,
  wrong INTEGER NOT NULL,
  created TEXT NOT NULL
);
CREATE INDEX runs_version ON runs(version_id);
CREATE TABLE traces (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  format INTEGER NOT NULL,
  raw_size INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
)sql";

// Version 2, frozen: full-text search over names, tags and notes. An external-content FTS5
// table kept in step by triggers, so the text is stored once. The update trigger fires only for
// the indexed columns: saving a version (which touches head_version) costs no index work.
constexpr std::string_view kVersion2 = R"sql(
CREATE VIRTUAL TABLE algorithms_fts USING fts5(
  name, tags, notes, content='algorithms', content_rowid='id');
CREATE TRIGGER algorithms_fts_insert AFTER INSERT ON algorithms BEGIN
  INSERT INTO algorithms_fts(rowid, name, tags, notes)
    VALUES (new.id, new.name, new.tags, new.notes);
END;
CREATE TRIGGER algorithms_fts_delete AFTER DELETE ON algorithms BEGIN
  INSERT INTO algorithms_fts(algorithms_fts, rowid, name, tags, notes)
    VALUES ('delete', old.id, old.name, old.tags, old.notes);
END;
CREATE TRIGGER algorithms_fts_update AFTER UPDATE OF name, tags, notes ON algorithms BEGIN
  INSERT INTO algorithms_fts(algorithms_fts, rowid, name, tags, notes)
    VALUES ('delete', old.id, old.name, old.tags, old.notes);
  INSERT INTO algorithms_fts(rowid, name, tags, notes)
    VALUES (new.id, new.name, new.tags, new.notes);
END;
INSERT INTO algorithms_fts(algorithms_fts) VALUES ('rebuild');
)sql";

// Version 3: how each run ended, so the Runs list can say "hung" or "3 wrong" without reading
// its trace. Rows of older files read as an unknown status with no verdict text.
constexpr std::string_view kVersion3 = R"sql(
ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN verdict TEXT NOT NULL DEFAULT '';
)sql";

// Version 4: calibrations of the simulator (engine/sim/calibration.h), one JSON document each,
// named by the user; the topology and backend are columns so a list needs no JSON parse.
constexpr std::string_view kVersion4 = R"sql(
CREATE TABLE calibrations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
  topology TEXT NOT NULL,
  backend TEXT NOT NULL,
  json TEXT NOT NULL,
  created TEXT NOT NULL
);
)sql";

} // namespace

std::string_view schemaStep(int version)
{
  switch (version) {
  case 1:
    return kVersion1;
  case 2:
    return kVersion2;
  case 3:
    return kVersion3;
  case 4:
    return kVersion4;
  default:
    return {};
  }
}

Status migrateSchema(sql::Connection& db, int from, int to, const std::string& file)
{
  sql::Transaction transaction(db);
  if (!transaction.begun())
    return db.error("starting the schema upgrade", file);
  for (int version = from + 1; version <= to; ++version) {
    const std::string_view step = schemaStep(version);
    if (step.empty())
      return Error{ErrorKind::Invalid,
                   file + ": no migration to schema version " + std::to_string(version)};
    if (!db.exec(step))
      return db.error("upgrading the schema to version " + std::to_string(version), file);
  }
  // PRAGMAs take no parameters; both values are integers of this program, not input.
  if (!db.exec("PRAGMA application_id = " + std::to_string(kApplicationId)) ||
      !db.exec("PRAGMA user_version = " + std::to_string(to)))
    return db.error("recording the schema version", file);
  if (!transaction.commit())
    return db.error("committing the schema upgrade", file);
  return {};
}

Status createLibraryFileAtVersion(const std::string& path, int version)
{
  if (version < 1 || version > kSchemaVersion)
    return Error{ErrorKind::Invalid, "no schema version " + std::to_string(version)};
  std::error_code ignored;
  if (std::filesystem::exists(path, ignored))
    return Error{ErrorKind::Invalid, path + ": already exists"};
  sql::Connection db;
  if (!db.open(path, sql::OpenMode::Create))
    return db.error("creating the library", path);
  return migrateSchema(db, 0, version, path);
}

} // namespace cs::storage
