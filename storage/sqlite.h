#pragma once

// A small RAII layer over the SQLite C API (storage/ uses it; its tests and the storage
// benchmark's raw-SQLite baseline too, which is why it is public): a Connection owns a database
// handle, a Statement a prepared statement, a Transaction an IMMEDIATE transaction that rolls back
// unless committed. Nothing here throws; every call reports failure through its return value and
// the connection keeps SQLite's code and message for the error the caller builds (STYLE.md 12:
// every statement's result is checked). Only parameterised SQL: values are always bound.
//
// The header forward-declares SQLite's handle types so no sqlite3.h leaks to users of storage.

#include "result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace cs::storage::sql {

/// The version of the SQLite library loaded at run time ("3.40.1"), for the About dialog.
std::string libraryVersion();

/// How Connection::open opens the file.
enum class OpenMode { ReadWrite, ReadOnly, Create };

/// One database handle. Move-only; closes on destruction.
class Connection
{
public:
  Connection() = default;
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Opens `path` (never creates it unless `mode` is Create). Extended result codes are on.
  bool open(const std::string& path, OpenMode mode);
  void close();
  bool isOpen() const { return m_db != nullptr; }

  /// Runs SQL without parameters (schema scripts, pragmas, BEGIN/COMMIT).
  bool exec(std::string_view sql);
  /// The first column of the first row of a query without parameters, or `fallback`.
  std::int64_t queryInt(std::string_view sql, std::int64_t fallback = -1);

  /// SQLite's extended result code and message of the last failure.
  int lastCode() const { return m_lastCode; }
  const std::string& lastMessage() const { return m_lastMessage; }
  /// Records a failure of a call made outside this class (the statement's step).
  void recordFailure(int code);
  /// Puts back a failure saved earlier (a ROLLBACK must not hide why the transaction failed).
  void setFailure(int code, std::string message);
  /// An Error for the last failure, classified by SQLite's code, saying `what` failed on `file`.
  Error error(const std::string& what, const std::string& file) const;

  std::int64_t lastInsertId() const;
  /// Rows the last INSERT, UPDATE or DELETE changed.
  int changes() const;
  sqlite3* handle() const { return m_db; }

private:
  sqlite3* m_db = nullptr;
  int m_lastCode = 0;
  std::string m_lastMessage;
};

/// Classifies an SQLite result code (primary or extended).
ErrorKind errorKindOf(int code);

/// What Statement::step found.
enum class StepResult { Row, Done, Failed };

/// One prepared statement. Bind indexes are 1-based, column indexes 0-based (as in SQLite).
class Statement
{
public:
  Statement(Connection& connection, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  /// Whether the SQL prepared; a statement that did not prepare fails every step.
  bool prepared() const { return m_stmt != nullptr; }

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bindBlob(int index, std::span<const std::uint8_t> bytes);
  Statement& bindNull(int index);

  StepResult step();
  /// Steps once and expects no row (INSERT, UPDATE, DELETE).
  bool run() { return step() == StepResult::Done; }
  /// Resets for another execution; bindings are cleared.
  void reset();

  bool isNull(int column) const;
  std::int64_t int64At(int column) const;
  int intAt(int column) const { return static_cast<int>(int64At(column)); }
  double doubleAt(int column) const;
  std::string textAt(int column) const;
  std::span<const std::uint8_t> blobAt(int column) const;

private:
  Connection& m_connection;
  sqlite3_stmt* m_stmt = nullptr;
  bool m_bindFailed = false;
};

/// BEGIN IMMEDIATE on construction (so the busy timeout applies to taking the write lock, and a
/// read never has to be upgraded to a write mid-transaction); ROLLBACK on destruction unless
/// commit() succeeded.
class Transaction
{
public:
  explicit Transaction(Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  bool begun() const { return m_begun; }
  bool commit();

private:
  Connection& m_connection;
  bool m_begun = false;
  bool m_done = false;
};

} // namespace cs::storage::sql
