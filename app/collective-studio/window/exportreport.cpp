#include "exportreport.h"

#include "check/checker.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

namespace cs::editor {

DialectReport reportForDialect(const Program& program, DialectId id)
{
  DialectReport report;
  report.dialect = id;
  WriteResult written = writeMscclXml(program, {.dialect = id});
  for (Diagnostic& note : written.notes) {
    if (note.severity == Severity::Error)
      report.errors.push_back(std::move(note));
    else
      report.notes.push_back(std::move(note));
  }
  report.xml = std::move(written.text);

  const ReadResult reread = readMscclXml(report.xml);
  std::vector<Diagnostic> found = reread.diagnostics;
  if (reread.program) {
    CheckOptions options;
    options.dialect = id;
    options.semantic = false;
    std::vector<Diagnostic> checked = checkProgram(*reread.program, options);
    found.insert(found.end(), checked.begin(), checked.end());
  }
  for (Diagnostic& diagnostic : found) {
    if (diagnostic.severity == Severity::Error)
      report.errors.push_back(std::move(diagnostic));
  }
  report.accepted = report.errors.empty() && reread.program.has_value();
  return report;
}

std::vector<DialectReport> reportForAllDialects(const Program& program)
{
  std::vector<DialectReport> reports;
  for (const DialectId id : allDialects())
    reports.push_back(reportForDialect(program, id));
  return reports;
}

} // namespace cs::editor
