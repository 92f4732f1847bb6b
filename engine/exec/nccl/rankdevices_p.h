#pragma once

// Which GPU runs which rank in an NCCL run: one rank per GPU, never two on one (NCCL does not
// support a device twice in a communicator). Plain C++ so the messages can be tested anywhere.

#include "model/diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace cs::nccl {

/// What the CUDA runtime reported: the number of visible GPUs, or why it could not count them.
struct VisibleDevices {
  std::optional<int> count;
  std::string why; ///< the runtime's reason when `count` is absent ("no CUDA-capable device")
};

/// The device of each of `ranks` ranks: `deviceOfRank` when given (one distinct visible device
/// per rank), else rank r on device r. nullopt with an exec.nccl-devices error in `out` when the
/// run needs more GPUs than are visible (always at least 2) or `deviceOfRank` is unusable.
std::optional<std::vector<int>> assignDevices(int ranks, const VisibleDevices& visible,
                                              const std::vector<int>& deviceOfRank,
                                              Diagnostics& out);

/// The device of the one rank a launcher started this process for (ExecOptions::rankGroup): its
/// local rank, or `deviceOfRank[localRank]` when given (under a launcher the list maps the local
/// ranks of a node). nullopt with an exec.nccl-devices error when no GPU is visible or the device
/// is not.
std::optional<int> launchedRankDevice(int rank, int localRank, const VisibleDevices& visible,
                                      const std::vector<int>& deviceOfRank, Diagnostics& out);

} // namespace cs::nccl
