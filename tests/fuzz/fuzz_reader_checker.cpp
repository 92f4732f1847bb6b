// Untrusted files must never crash or hang the program: any bytes go through the reader, the
// whole checker for every dialect and connection capacity, lifting onto a Schedule and lowering
// it again with the Schedule checks (what the editor does when it opens a file and on the first
// timeline edit), and the writer. A document the reader
// accepts without errors must survive a write/read round trip unchanged, unless the writer had to
// decide something the program does not say (each such decision is a note, e.g. inventing the
// name a runtime requires). What the executors plan before a run (buffer geometry, connections,
// the GPU executor's block layout and its pull-or-stage decisions) must also hold for any input.

#include "check/checker.h"
#include "check/schedulecheck.h"
#include "compile/lift.h"
#include "compile/lower.h"
#include "exec/block/blocklayout.h"
#include "exec/plan/runplan.h"
#include "io/mscclxmlreader.h"
#include "io/mscclxmlwriter.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const cs::ReadResult read = cs::readMscclXml(text);
  if (!read.program)
    return 0;
  for (const cs::DialectId id : cs::allDialects()) {
    cs::CheckOptions options;
    options.dialect = id;
    options.fifoSlots = id == cs::DialectId::Classic ? 1 : 2;
    (void)cs::checkProgram(*read.program, options);
  }
  const cs::LiftResult lifted = cs::liftProgram(*read.program);
  if (lifted.schedule) {
    (void)cs::checkSchedule(*lifted.schedule);
    (void)cs::lowerSchedule(*lifted.schedule, {.dialect = cs::detectDialect(*read.program),
                                               .protocol = read.program->proto,
                                               .instances = 1});
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
