#pragma once

// Reads MSCCL algorithm XML the way the runtimes do (msccl-format.md §1-§3), with diagnostics a
// person can act on: every problem carries a line, a column where known, and the element and
// attribute involved. Malformed input never crashes or hangs the reader; it yields format.*
// diagnostics and, when the document is too broken to model, no Program.

#include "../model/program.h"
#include "model/diagnostic.h"

#include <filesystem>
#include <optional>
#include <string_view>

namespace cs {

struct ReadResult {
  std::optional<Program> program; ///< absent when the document could not be modelled at all
  std::vector<Diagnostic> diagnostics;
  bool unreadable = false; ///< the file could not be opened or read (CLI exit code 2)

  bool hasErrors() const;
};

/// Parses `text`. Besides XML well-formedness it applies the runtimes' lexical subset (no XML
/// declaration, double quotes, attributes on one line, no tabs between elements, numbers as
/// strtol(…, 0) reads them) and requires every attribute that all runtimes require. Attributes that
/// only some runtimes require are kept optional in the Program; the checker judges them per
/// dialect. Gpus and threadblocks are sorted by id; steps stay in document order.
ReadResult readMscclXml(std::string_view text);

/// Reads a file; a file that cannot be read gives `unreadable` and a format.io diagnostic.
ReadResult readMscclXmlFile(const std::filesystem::path& path);

} // namespace cs
