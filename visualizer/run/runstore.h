#pragma once

// What the Run panel says about a finished run, and keeping it: the verdict for people
// ("verified", "3 wrong", "hung: 4 threadblocks blocked") and the record (with its trace) in the
// user's library, under the version of the algorithm the document was opened from.

#include "runjob.h"

#include "records.h"

#include <QString>

namespace cs::storage {
class Library;
}

namespace cs::visualizer {

struct ReplayOpen;

/// One line for people: "verified in 12.3 µs", "2 wrong of 4096", "hung: …", "cancelled".
QString runVerdict(const RunOutcome& outcome);
/// Whether the outcome holds a run worth keeping and replaying (it ran, with a trace).
bool runHasTrace(const RunOutcome& outcome);
/// The run's trace; only when runHasTrace().
const Trace& runTrace(const RunOutcome& outcome);
/// The replay of a run with a trace (runHasTrace()): the request's program over its topology, in
/// the call mode it ran; a run the watchdog stopped opens at the stop, where the blocked
/// threadblocks are what the views show.
ReplayOpen openRunReplay(const RunRequest& request, const RunOutcome& outcome);
/// Why openRunReplay gave no session: its first diagnostic ("" when there is none).
QString whyNoReplay(const ReplayOpen& opened);

/// Where a run is stored: a library algorithm's version (libraryName empty: none).
struct RunTarget {
  QString libraryName;
  int libraryVersion = 0; ///< 0: the head
};

/// The library record of a run that ran (runHasTrace()): backend, size, time, algbw and busbw
/// (nccl-tests' factor for the collective), #wrong; without its version.
storage::RunRecord runRecord(const RunRequest& request, const RunOutcome& outcome);

/// What storing one run did: stored under `versionLabel` ("ring v3"), or why not in `message`.
struct StoredRun {
  bool stored = false;
  QString message;      ///< for people: "stored in the library under ring v3", "not stored: …"
  QString versionLabel; ///< "ring v3" when stored
};

/// Stores the run of `request` with its trace in `library` under `target` (the Run panel's one
/// run, each point of a sweep).
StoredRun keepRun(storage::Library* library, const RunTarget& target, const RunRequest& request,
                  const RunOutcome& outcome);

/// keepRun()'s message: "stored in the library under ring v3", "not stored: save the algorithm
/// to the library first".
QString storeRun(storage::Library* library, const RunTarget& target, const RunRequest& request,
                 const RunOutcome& outcome);

} // namespace cs::visualizer
