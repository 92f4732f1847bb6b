#pragma once

// What the Run panel says about a finished run, and keeping it: the verdict for people
// ("verified", "3 wrong", "hung: 4 threadblocks blocked") and the record (with its trace) in the
// user's library, under the version of the algorithm the document was opened from.

#include "runjob.h"

#include <QString>

namespace cs::storage {
class Library;
}

namespace cs::visualizer {

/// One line for people: "verified in 12.3 µs", "2 wrong of 4096", "hung: …", "cancelled".
QString runVerdict(const RunOutcome& outcome);
/// Whether the outcome holds a run worth keeping and replaying (it ran, with a trace).
bool runHasTrace(const RunOutcome& outcome);
/// The run's trace; only when runHasTrace().
const Trace& runTrace(const RunOutcome& outcome);

/// Where a run is stored: a library algorithm's version (libraryName empty: none).
struct RunTarget {
  QString libraryName;
  int libraryVersion = 0; ///< 0: the head
};

/// Stores the run of `request` with its trace in `library` under `target`; says what happened
/// ("stored as run 12 of ring v3", "not stored: save the algorithm to the library first").
QString storeRun(storage::Library* library, const RunTarget& target, const RunRequest& request,
                 const RunOutcome& outcome);

} // namespace cs::visualizer
