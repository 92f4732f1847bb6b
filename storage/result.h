#pragma once

// What every storage call returns instead of throwing (STYLE.md 11): a value or an Error whose
// message names the library file and says what went wrong, in words a user can act on. The kind
// lets callers (the CLI's exit codes, the GUI's dialogs) react without parsing the message.

#include <optional>
#include <string>
#include <utility>

namespace cs::storage {

enum class ErrorKind {
  Invalid,  ///< bad argument: unknown algorithm, empty name, unreadable input file
  NotFound, ///< the library file or a named row does not exist
  Corrupt,  ///< not an SQLite file, truncated, damaged, or not a Collective Studio library
  TooNew,   ///< written by a newer schema: opened read-only, writes refused
  ReadOnly, ///< the file or its directory cannot be written
  Full,     ///< the disk (or the configured page limit) is full; nothing was saved
  Busy,     ///< another process held the lock for longer than the busy timeout
  Io,       ///< any other SQLite or file-system failure
};

/// A failure: a kind for programs and a message for people.
struct Error {
  ErrorKind kind = ErrorKind::Io;
  std::string message;
};

/// A value or an Error. Access value() only when ok().
template <typename T> class Result
{
public:
  Result(T value) : m_value(std::move(value)) {}
  Result(Error error) : m_error(std::move(error)) {}

  bool ok() const { return m_value.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *m_value; }
  const T& value() const { return *m_value; }
  T* operator->() { return &*m_value; }
  const T* operator->() const { return &*m_value; }
  T& operator*() { return *m_value; }
  const T& operator*() const { return *m_value; }
  /// The failure; meaningful only when !ok().
  const Error& error() const { return m_error; }

private:
  std::optional<T> m_value;
  Error m_error;
};

/// A Result without a value: success or an Error.
struct Status {
  std::optional<Error> failure;

  static Status success() { return {}; }
  Status() = default;
  Status(Error error) : failure(std::move(error)) {}
  bool ok() const { return !failure.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *failure; }
};

} // namespace cs::storage
