// Untrusted files must never crash or hang the program: any bytes go through the reader, the
// whole checker for every dialect and connection capacity, lifting onto a Schedule and lowering
// it again with the Schedule checks (what the editor does when it opens a file and on the first
// timeline edit), and the writer. A document the reader
// accepts without errors must survive a write/read round trip unchanged, unless the writer had to
// decide something the program does not say (each such decision is a note, e.g. inventing the
// name a runtime requires). What the executors plan before a run (buffer geometry, connections,
// the GPU executor's block layout and its pull-or-stage decisions) must also hold for any input.
// Whatever was read and found is then shown as the commands show it (cstudio validate's
// diagnostics and cstudio info's summary, as JSON and as text): the file's own bytes end up in
// messages and fields, and every output must stay well-formed UTF-8, JSON that parses, text
// without control characters (issue 16: a non-UTF-8 byte used to abort `validate --json`).

#include "check/checker.h"
#include "check/schedulecheck.h"
#include "compile/lift.h"
#include "compile/lower.h"
#include "exec/block/blocklayout.h"
#include "exec/plan/runplan.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"
#include "model/untrustedtext.h"

#include "infosummary.h" // app/cstudio: what `cstudio info` prints
#include "output.h"      // app/cstudio: how every command prints diagnostics

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <vector>

namespace {

void fail(const char* what, const std::string& text)
{
  std::fprintf(stderr, "%s:\n%s\n", what, text.c_str());
  std::abort();
}

// JSON output must be valid UTF-8 and parse back.
void requireJson(const nlohmann::json& json)
{
  const std::string text = cs::cli::jsonText(json, 2);
  if (nlohmann::json::parse(text, nullptr, false).is_discarded())
    fail("the JSON output does not parse", text);
}

// Text output: what the file said, printable (tab and newline only among the controls).
void requireText(const std::string& text)
{
  if (!cs::isPrintableUtf8(text))
    fail("the text output holds bytes a terminal should not get", text);
}

// The output paths of `cstudio validate` and `cstudio info` on what was read and found.
void renderAsTheCommandsDo(const cs::ReadResult& read, const std::vector<cs::Diagnostic>& found)
{
  std::ostringstream text;
  cs::cli::printDiagnostics(text, "fuzz.xml", found);
  requireText(text.str());
  requireJson({{"file", "fuzz.xml"},
               {"ok", !cs::cli::hasErrors(found)},
               {"diagnostics", cs::cli::diagnosticsToJson(found)},
               {"summary", cs::cli::countSummary(found)}});
  if (!read.program)
    return;
  requireJson(cs::cli::infoJson("fuzz.xml", *read.program, read.diagnostics));
  std::ostringstream info;
  cs::cli::printInfo(info, "fuzz.xml", *read.program, read.diagnostics);
  requireText(info.str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const cs::ReadResult read = cs::readMscclXml(text);
  std::vector<cs::Diagnostic> found = read.diagnostics;
  if (!read.program) {
    renderAsTheCommandsDo(read, found);
    return 0;
  }
  for (const cs::DialectId id : cs::allDialects()) {
    cs::CheckOptions options;
    options.dialect = id;
    options.fifoSlots = id == cs::DialectId::Classic ? 1 : 2;
    const std::vector<cs::Diagnostic> checked = cs::checkProgram(*read.program, options);
    found.insert(found.end(), checked.begin(), checked.end());
  }
  renderAsTheCommandsDo(read, found);
  const cs::LiftResult lifted = cs::liftProgram(*read.program);
  if (lifted.schedule) {
    (void)cs::checkSchedule(*lifted.schedule);
    (void)cs::lowerSchedule(*lifted.schedule, {.dialect = cs::detectDialect(*read.program),
                                               .protocol = read.program->proto,
                                               .instances = 1,
                                               .gpu = {}});
  }
  const int chunks = read.program->nchunksperloop;
  if (chunks > 0 && chunks <= 4096 && read.program->ngpus > 0 && read.program->ngpus <= 4096) {
    cs::ExecOptions exec;
    exec.bytes = std::int64_t{chunks} *
                 cs::sizeMultiplier(read.program->collective, read.program->ngpus) * 3 * 4;
    cs::Diagnostics ignored;
    if (const auto plan = cs::plan::planRun(*read.program, exec, ignored))
      (void)cs::gpu::layoutBlocks(*plan);
  }
  if (read.hasErrors())
    return 0;
  const cs::DialectId dialect = cs::detectDialect(*read.program);
  const cs::WriteResult written = cs::writeMscclXml(*read.program, {dialect});
  if (!written.notes.empty())
    return 0;
  const cs::ReadResult back = cs::readMscclXml(written.text);
  if (!back.program || !(*back.program == *read.program)) {
    std::fprintf(stderr, "round trip changed the program:\n%s\n", written.text.c_str());
    std::abort();
  }
  return 0;
}
