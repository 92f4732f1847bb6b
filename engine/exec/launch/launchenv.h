#pragma once

// Where this process stands in a run started once per rank by a launcher (docs/launchers.md):
// Open MPI's mpirun, Slurm's srun or PyTorch's torchrun each set the rank, the world size and the
// rank on this node in variables of their own. This reads them from an environment given as a map
// (tests pass one; `cstudio run` passes its own environment), lets the --rank/--world/--local-rank
// flags override them, and refuses what is missing or inconsistent with a message that names the
// variable. Plain C++: it runs on GPU nodes without Qt.
//
// Where to start when changing it: kLaunchers lists the variables of each launcher.

#include <map>
#include <optional>
#include <string>

namespace cs::launch {

/// The environment as name → value.
using Environment = std::map<std::string, std::string>;

/// The values of --rank, --world and --local-rank; absent where not given.
struct LaunchOverrides {
  std::optional<int> rank;
  std::optional<int> world;
  std::optional<int> localRank;
};

/// This process's place in the run.
struct LaunchPlace {
  int rank = 0;
  int world = 1;
  int localRank = 0;  ///< the GPU index on this node (the NCCL rank's device)
  std::string source; ///< "Open MPI", "Slurm", "torchrun", "flags", or "torchrun and flags"
};

/// What parseLaunchPlace() found: a place, or nothing (not started by a launcher, no flags), or
/// an error that says which variable or flag is wrong.
struct LaunchParse {
  std::optional<LaunchPlace> place;
  std::string error; ///< empty unless the environment or the flags are wrong
};

/// Reads the launcher variables of `environment`. A launcher counts as present when any of its
/// three variables is set, and then all three must be set to whole numbers with rank < world and
/// local rank < world; two launchers whose values differ are an error (a torchrun inside an srun
/// allocation sets both, and they must agree). Flags override the environment field by field;
/// with no launcher, --rank and --world must both be given and the local rank defaults to the
/// rank (every process on one node).
LaunchParse parseLaunchPlace(const Environment& environment, const LaunchOverrides& overrides);

/// Empty, or why a run of `world` processes cannot run a program of `programRanks` ranks (one
/// process per rank).
std::string checkWorldMatchesProgram(const LaunchPlace& place, int programRanks);

/// Where rank 0 listens: MASTER_ADDR and MASTER_PORT (torchrun sets both; under mpirun and srun
/// the user exports them). Absent variables are an error naming them; the port must be 1..65535.
struct MasterEndpoint {
  std::string host;
  int port = 0;
};
struct MasterParse {
  std::optional<MasterEndpoint> endpoint;
  std::string error;
};
MasterParse parseMasterEndpoint(const Environment& environment);

/// This process's environment as a map (for the CLI; the parsers above never read it).
Environment processEnvironment();

} // namespace cs::launch
