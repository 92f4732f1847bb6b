#pragma once

// `cstudio run FILE --backend nccl` started once per rank by mpirun, srun or torchrun
// (docs/launchers.md): each process runs its own rank through the NCCL executor, the processes
// meet at rank 0's rendezvous (MASTER_ADDR:MASTER_PORT) for NCCL's unique id, and rank 0 gathers
// every rank's verification and time and prints the run as one table or JSON object.
//
// Where to start when changing it: runLaunched() is the whole flow; the engine's side is
// engine/exec/launch (environment, rendezvous) and the NCCL executor's RankGroup branch.

#include "exec/executor.h"
#include "exec/launch/launchenv.h"

#include <optional>
#include <string>

namespace cs::cli {

/// `cstudio run`'s exit status for a verdict (0 verified or nothing to verify, 1 wrong, 3 hung,
/// 2 failed), for the single-process run and the launcher run alike.
int exitCodeOf(ExecStatus status);

/// The launcher flags of `cstudio run` (negative: not given).
struct LaunchFlags {
  int rank = -1;
  int world = -1;
  int localRank = -1;
  double rendezvousTimeout = 120; ///< seconds for every rank to arrive, and for the results
  /// `--rendezvous`: empty (meet at MASTER_ADDR:MASTER_PORT) or file:PATH.
  std::string rendezvous;
};

/// The path of `--rendezvous file:PATH` (empty when `value` is empty), or an error saying what
/// the option takes.
std::string rendezvousFileOf(const std::string& value, std::string* error);

/// This process's place in a launcher run, from its environment and `flags`: none when neither a
/// launcher nor the flags say anything, or an error naming the variable or flag.
launch::LaunchParse launchPlaceOf(const LaunchFlags& flags);

/// What a launcher run prints and stores.
struct LaunchedRun {
  std::string file;
  std::string backend;
  bool json = false;
  double rendezvousTimeout = 120;
  std::string rendezvousFile; ///< empty: MASTER_ADDR:MASTER_PORT
};

/// Runs this process's rank of `program` with `executor` (ExecOptions::rankGroup set here),
/// meets the others and, on rank 0, prints every rank's result. Returns the exit code: the worst
/// rank's status, or UsageError when the run could not start, a rank was missing or went away.
int runLaunched(const launch::LaunchPlace& place, const LaunchedRun& run, const Program& program,
                Executor& executor, ExecOptions exec);

} // namespace cs::cli
