#include "sqlite.h"

#include <sqlite3.h>

#include <utility>

namespace cs::storage::sql {

std::string libraryVersion()
{
  return sqlite3_libversion();
}

Connection::~Connection()
{
  close();
}

Connection::Connection(Connection&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_lastCode(other.m_lastCode),
      m_lastMessage(std::move(other.m_lastMessage))
{
}

Connection& Connection::operator=(Connection&& other) noexcept
{
  if (this != &other) {
    close();
    m_db = std::exchange(other.m_db, nullptr);
    m_lastCode = other.m_lastCode;
    m_lastMessage = std::move(other.m_lastMessage);
  }
  return *this;
}

bool Connection::open(const std::string& path, OpenMode mode)
{
  close();
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
  case OpenMode::ReadWrite:
    flags |= SQLITE_OPEN_READWRITE;
    break;
  case OpenMode::ReadOnly:
    flags |= SQLITE_OPEN_READONLY;
    break;
  case OpenMode::Create:
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    break;
  }
  const int code = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
  if (code != SQLITE_OK) {
    m_lastCode = code;
    m_lastMessage = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(code);
    close();
    return false;
  }
  sqlite3_extended_result_codes(m_db, 1);
  return true;
}

void Connection::close()
{
  if (m_db) {
    // close_v2 defers the close until the last statement is finalised instead of failing.
    sqlite3_close_v2(m_db);
    m_db = nullptr;
  }
}

void Connection::recordFailure(int code)
{
  m_lastCode = code;
  m_lastMessage = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(code);
}

void Connection::setFailure(int code, std::string message)
{
  m_lastCode = code;
  m_lastMessage = std::move(message);
}

bool Connection::exec(std::string_view sql)
{
  if (!m_db) {
    recordFailure(SQLITE_MISUSE);
    return false;
  }
  const std::string text(sql);
  const int code = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) {
    recordFailure(code);
    return false;
  }
  return true;
}

std::int64_t Connection::queryInt(std::string_view sql, std::int64_t fallback)
{
  Statement statement(*this, sql);
  if (statement.step() != StepResult::Row)
    return fallback;
  return statement.int64At(0);
}

std::int64_t Connection::lastInsertId() const
{
  return m_db ? sqlite3_last_insert_rowid(m_db) : -1;
}

int Connection::changes() const
{
  return m_db ? sqlite3_changes(m_db) : 0;
}

ErrorKind errorKindOf(int code)
{
  switch (code & 0xff) {
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB:
    return ErrorKind::Corrupt;
  case SQLITE_READONLY:
  case SQLITE_PERM:
  case SQLITE_CANTOPEN:
    return ErrorKind::ReadOnly;
  case SQLITE_FULL:
    return ErrorKind::Full;
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    return ErrorKind::Busy;
  case SQLITE_CONSTRAINT:
  case SQLITE_MISMATCH:
  case SQLITE_RANGE:
  case SQLITE_TOOBIG:
    return ErrorKind::Invalid;
  default:
    return ErrorKind::Io;
  }
}

Error Connection::error(const std::string& what, const std::string& file) const
{
  const ErrorKind kind = errorKindOf(m_lastCode);
  std::string reason;
  switch (kind) {
  case ErrorKind::Full:
    reason = "the disk is full (or the library's size limit was reached)";
    break;
  case ErrorKind::ReadOnly:
    reason = "the file or its directory is not writable";
    break;
  case ErrorKind::Busy:
    reason = "another process kept the library locked";
    break;
  case ErrorKind::Corrupt:
    reason = "the file is damaged or is not a library";
    break;
  default:
    break;
  }
  std::string message = file + ": " + what + " failed";
  if (!reason.empty())
    message += ": " + reason;
  message += " (SQLite: " + m_lastMessage + ")";
  return {kind, message};
}

Statement::Statement(Connection& connection, std::string_view sql) : m_connection(connection)
{
  if (!connection.handle()) {
    connection.recordFailure(SQLITE_MISUSE);
    return;
  }
  const int code = sqlite3_prepare_v2(connection.handle(), sql.data(), static_cast<int>(sql.size()),
                                      &m_stmt, nullptr);
  if (code != SQLITE_OK) {
    connection.recordFailure(code);
    sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
  }
}

Statement::~Statement()
{
  sqlite3_finalize(m_stmt);
}

namespace {

bool bindOk(Connection& connection, int code)
{
  if (code == SQLITE_OK)
    return true;
  connection.recordFailure(code);
  return false;
}

} // namespace

Statement& Statement::bind(int index, std::int64_t value)
{
  if (m_stmt && !bindOk(m_connection, sqlite3_bind_int64(m_stmt, index, value)))
    m_bindFailed = true;
  return *this;
}

Statement& Statement::bind(int index, double value)
{
  if (m_stmt && !bindOk(m_connection, sqlite3_bind_double(m_stmt, index, value)))
    m_bindFailed = true;
  return *this;
}

Statement& Statement::bind(int index, std::string_view text)
{
  // SQLITE_TRANSIENT: SQLite copies, so callers may bind temporaries.
  if (m_stmt && !bindOk(m_connection, sqlite3_bind_text64(m_stmt, index, text.data(), text.size(),
                                                          SQLITE_TRANSIENT, SQLITE_UTF8)))
    m_bindFailed = true;
  return *this;
}

Statement& Statement::bindBlob(int index, std::span<const std::uint8_t> bytes)
{
  if (m_stmt && !bindOk(m_connection, sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(),
                                                          SQLITE_TRANSIENT)))
    m_bindFailed = true;
  return *this;
}

Statement& Statement::bindNull(int index)
{
  if (m_stmt && !bindOk(m_connection, sqlite3_bind_null(m_stmt, index)))
    m_bindFailed = true;
  return *this;
}

StepResult Statement::step()
{
  if (!m_stmt || m_bindFailed)
    return StepResult::Failed;
  const int code = sqlite3_step(m_stmt);
  if (code == SQLITE_ROW)
    return StepResult::Row;
  if (code == SQLITE_DONE)
    return StepResult::Done;
  m_connection.recordFailure(code);
  return StepResult::Failed;
}

void Statement::reset()
{
  if (!m_stmt)
    return;
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
  m_bindFailed = false;
}

bool Statement::isNull(int column) const
{
  return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t Statement::int64At(int column) const
{
  return sqlite3_column_int64(m_stmt, column);
}

double Statement::doubleAt(int column) const
{
  return sqlite3_column_double(m_stmt, column);
}

std::string Statement::textAt(int column) const
{
  const unsigned char* text = sqlite3_column_text(m_stmt, column);
  if (!text)
    return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)));
}

std::span<const std::uint8_t> Statement::blobAt(int column) const
{
  const void* data = sqlite3_column_blob(m_stmt, column);
  if (!data)
    return {};
  return {static_cast<const std::uint8_t*>(data),
          static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))};
}

Transaction::Transaction(Connection& connection) : m_connection(connection)
{
  m_begun = connection.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction()
{
  if (m_begun && !m_done) {
    // Keep the original failure's code and message for the caller's error.
    const int code = m_connection.lastCode();
    const std::string message = m_connection.lastMessage();
    m_connection.exec("ROLLBACK");
    m_connection.setFailure(code, message);
  }
}

bool Transaction::commit()
{
  if (!m_begun || m_done)
    return false;
  if (!m_connection.exec("COMMIT"))
    return false; // the destructor rolls back
  m_done = true;
  return true;
}

} // namespace cs::storage::sql
