// Untrusted files must never crash or hang the program: any bytes go through the reader, the
// whole checker for every dialect and connection capacity, lifting onto a Schedule and lowering
// it again with the Schedule checks (what the editor does when it opens a file and on the first
// timeline edit), and the writer. A document the reader
// accepts without errors must survive a write/read round trip unchanged, unless the writer had to
// decide something the program does not say (each such decision is a note, e.g. inventing the
// name a runtime requires).

#include "check/checker.h"
#include "check/schedulecheck.h"
#include "compile/lift.h"
#include "compile/lower.h"
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
