#include "passes_p.h"
#include "symbolicreports_p.h"
#include "symbolicrun.h"

#include "model/fifodepth.h"

#include <new>

namespace cs::passes {

void checkSemantics(const Program& program, const CheckOptions& options, Diagnostics& out)
{
  try {
    SymbolicRunOptions runOptions;
    runOptions.fifoSlots = options.fifoSlots.value_or(connectionSlots(program.proto));
    runOptions.modes = declaredModes(program);
    SymbolicRun run(program, runOptions);
    if (!run.refusal().empty()) {
      out.info(run.tooLarge() ? "check.too-large" : "check.semantic-skipped",
               "deadlock, race and postcondition checks were skipped: " + run.refusal());
      return;
    }
    const SymbolicRun::Outcome outcome = run.run();
    if (!run.raceRefusal().empty())
      out.info("check.too-large", run.raceRefusal());
    if (outcome == SymbolicRun::Outcome::Abandoned) {
      out.info("check.too-large",
               "deadlock, race and postcondition checks were abandoned: the symbolic values of "
               "the chunks grew too large to track");
      return;
    }
    if (outcome == SymbolicRun::Outcome::Deadlocked)
      detail::reportDeadlock(run, out);
    detail::reportRaces(run, out);
    detail::checkPostconditions(run, options, out);
  } catch (const std::bad_alloc&) {
    out.info("check.too-large", "deadlock, race and postcondition checks ran out of memory");
  }
}

} // namespace cs::passes
