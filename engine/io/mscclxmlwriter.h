#pragma once

// Writes a Program as the XML subset every runtime's home-made parser accepts (msccl-format.md §1
// and §11): no declaration, double quotes, one element per line with single spaces between
// attributes, all ten attributes on every step, decimal numbers, and the `coll` spelling and
// required `<algo>` attributes of the chosen dialect.

#include "../model/dialect.h"
#include "../model/program.h"
#include "model/diagnostic.h"

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace cs {

struct WriteOptions {
  DialectId dialect = DialectId::Executor;
  /// The largest call size in bytes the algorithm should be selected for: maxBytes is capped so
  /// that the target selects it for no larger call (written as N + 1 for the classic runtime,
  /// whose bound is exclusive). The classic runtime reserves scratch for that size up front.
  std::optional<std::int64_t> maxCallBytes = std::nullopt;
};

/// One <algo> value the writer changed for the target runtime, e.g. maxBytes 409600 -> 409599
/// (an exclusive bound made inclusive). `from` is empty when the attribute was absent (filled in),
/// `to` when it was not written (dropped).
struct ValueChange {
  std::string attribute;
  std::optional<std::string> from;
  std::optional<std::string> to;
  Severity severity = Severity::Info; ///< warning where the runtime's behaviour changes
  std::string why;
};

/// "maxBytes 409600 -> 409599", with "(absent)" and "(dropped)" for a missing side.
std::string describeChange(const ValueChange& change);

struct WriteResult {
  std::string text;
  /// What the conversion had to decide or could not express, e.g. a `custom` collective for a
  /// runtime that has no such `coll`, or both call modes for the classic runtime. Every change
  /// below is also a note.
  std::vector<Diagnostic> notes;
  /// Every <algo> value converted, filled in or dropped, in the order written.
  std::vector<ValueChange> changes;
};

/// Serialises `program` for `options.dialect`. Writing in the dialect a file was read in
/// (detectDialect) reproduces the same Program when read back.
WriteResult writeMscclXml(const Program& program, const WriteOptions& options);

/// The same text written piece by piece to `sink` (WriteResult::text stays empty): a 1,024-rank
/// program is 250 MB of XML, which need not be held whole on its way to a file.
WriteResult writeMscclXml(const Program& program, const WriteOptions& options, std::ostream& sink);

/// Writes atomically (temporary file + rename) so a failed write never truncates `path`.
/// Returns an empty string on success, otherwise the reason.
std::string writeTextFileAtomically(const std::filesystem::path& path, std::string_view text);

/// Writes what `produce` puts into a temporary file next to `path` and renames it over `path`
/// when `produce` returns an empty string; its non-empty answer (a reason to keep nothing) or a
/// failed write removes the temporary file, leaves `path` as it was and is returned.
std::string writeFileAtomically(const std::filesystem::path& path,
                                const std::function<std::string(std::ostream&)>& produce);

} // namespace cs
