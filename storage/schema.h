#pragma once

// The library's schema and its migrations (PRAGMA user_version). Each version's SQL is frozen
// once released: a new library runs the version 1 creation script and then every migration, the
// same path an old library takes, so the migrations are exercised on every creation. To change
// the schema, append a migration to schema.cpp and raise kSchemaVersion; never edit an old one.
// tests/storage opens a library made by every earlier version.

#include "result.h"
#include "sqlite.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cs::storage {

/// The schema this build writes. 1: tables; 2: the FTS5 search index over names, tags, notes;
/// 3: run status and verdict; 4: calibrations.
inline constexpr int kSchemaVersion = 4;
/// PRAGMA application_id of every library ("CSTD"), so a foreign SQLite file is recognised.
inline constexpr std::int32_t kApplicationId = 0x43535444;

/// The SQL that takes an empty database to schema `version` from `version - 1` (version 1: from
/// nothing). Empty for versions this build does not know.
std::string_view schemaStep(int version);

/// Upgrades `db` from schema `from` (0: empty) to `to` in one transaction, so a failure leaves
/// the file as it was. `file` names the library in the error.
Status migrateSchema(sql::Connection& db, int from, int to, const std::string& file);

/// Creates an empty, unseeded library file at an older or the current schema `version`. For the
/// migration tests and tools; Library::open creates libraries itself.
Status createLibraryFileAtVersion(const std::string& path, int version);

} // namespace cs::storage
