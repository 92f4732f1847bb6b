#pragma once

// What each runtime generation would make of the exported file, for the Export dialog: the Program
// is written for a dialect (writeMscclXml), read back and checked with that dialect's static
// passes (checkProgram with semantic = false), so the verdict is about the very file that would be
// written, attributes the writer fills in included. Deadlocks, races and wrong results do not
// depend on the runtime and are the Problems dock's business.

#include "model/diagnostic.h"
#include "model/dialect.h"
#include "model/program.h"

#include <string>
#include <vector>

namespace cs::editor {

/// One dialect's verdict on the exported file.
struct DialectReport {
  DialectId dialect = DialectId::Executor;
  bool accepted = false;          ///< no error from the writer or the static checks
  std::vector<Diagnostic> errors; ///< why not: the writer's errors, then the checker's
  std::vector<Diagnostic> notes;  ///< what the writer decided (filled-in attributes, …)
  std::string xml;                ///< the text that would be written
};

/// The report for one dialect.
DialectReport reportForDialect(const Program& program, DialectId dialect);
/// The reports for every dialect, in allDialects() order.
std::vector<DialectReport> reportForAllDialects(const Program& program);

} // namespace cs::editor
