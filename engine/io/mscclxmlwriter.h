#pragma once

// Writes a Program as the XML subset every runtime's home-made parser accepts (msccl-format.md §1
// and §11): no declaration, double quotes, one element per line with single spaces between
// attributes, all ten attributes on every step, decimal numbers, and the `coll` spelling and
// required `<algo>` attributes of the chosen dialect.

#include "../model/dialect.h"
#include "../model/program.h"
#include "model/diagnostic.h"

#include <filesystem>
#include <string>

namespace cs {

struct WriteOptions {
  DialectId dialect = DialectId::Executor;
};

struct WriteResult {
  std::string text;
  /// What the conversion had to decide or could not express, e.g. a `custom` collective for a
  /// runtime that has no such `coll`, or both call modes for the classic runtime.
  std::vector<Diagnostic> notes;
};

/// Serialises `program` for `options.dialect`. Writing in the dialect a file was read in
/// (detectDialect) reproduces the same Program when read back.
WriteResult writeMscclXml(const Program& program, const WriteOptions& options);

/// Writes atomically (temporary file + rename) so a failed write never truncates `path`.
/// Returns an empty string on success, otherwise the reason.
std::string writeTextFileAtomically(const std::filesystem::path& path, std::string_view text);

} // namespace cs
