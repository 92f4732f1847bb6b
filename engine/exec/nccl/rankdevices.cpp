#include "rankdevices_p.h"

#include <algorithm>
#include <set>

namespace cs::nccl {

namespace {

std::string gpus(int count)
{
  return std::to_string(count) + (count == 1 ? " GPU is" : " GPUs are");
}

} // namespace

std::optional<std::vector<int>> assignDevices(int ranks, const VisibleDevices& visible,
                                              const std::vector<int>& deviceOfRank,
                                              Diagnostics& out)
{
  const std::string rankText = std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
  if (!visible.count) {
    out.error("exec.nccl-devices",
              "the NCCL executor runs one rank per GPU, but the CUDA runtime found no GPU (" +
                  visible.why + "); this program has " + rankText +
                  "; use --backend cpu to run it without a GPU");
    return std::nullopt;
  }
  const int count = *visible.count;
  if (count < ranks) {
    out.error("exec.nccl-devices", "the NCCL executor runs one rank per GPU: this program has " +
                                       rankText + " but " + gpus(count) +
                                       " visible; use --backend cuda to run many ranks on one GPU");
    return std::nullopt;
  }
  if (deviceOfRank.empty()) {
    std::vector<int> devices(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
      devices[static_cast<std::size_t>(r)] = r;
    return devices;
  }
  if (static_cast<int>(deviceOfRank.size()) != ranks) {
    out.error("exec.nccl-devices", "the device list names " + std::to_string(deviceOfRank.size()) +
                                       " devices but this program has " + rankText);
    return std::nullopt;
  }
  std::set<int> used;
  for (int r = 0; r < ranks; ++r) {
    const int device = deviceOfRank[static_cast<std::size_t>(r)];
    if (device < 0 || device >= count) {
      out.error("exec.nccl-devices", "rank " + std::to_string(r) + " is mapped to device " +
                                         std::to_string(device) + " but only devices 0.." +
                                         std::to_string(count - 1) + " are visible");
      return std::nullopt;
    }
    if (!used.insert(device).second) {
      const auto first = std::find(deviceOfRank.begin(), deviceOfRank.end(), device);
      out.error("exec.nccl-devices",
                "ranks " + std::to_string(first - deviceOfRank.begin()) + " and " +
                    std::to_string(r) + " are both mapped to device " + std::to_string(device) +
                    "; the NCCL executor runs one rank per GPU (--backend cuda shares GPUs)");
      return std::nullopt;
    }
  }
  return deviceOfRank;
}

std::optional<int> launchedRankDevice(int rank, int localRank, const VisibleDevices& visible,
                                      const std::vector<int>& deviceOfRank, Diagnostics& out)
{
  const std::string who =
      "rank " + std::to_string(rank) + " (local rank " + std::to_string(localRank) + ")";
  if (!visible.count || *visible.count < 1) {
    out.error("exec.nccl-devices", who + " needs a GPU, but the CUDA runtime found none" +
                                       (visible.why.empty() ? "" : " (" + visible.why + ")"));
    return std::nullopt;
  }
  int device = localRank;
  if (!deviceOfRank.empty()) {
    if (localRank >= static_cast<int>(deviceOfRank.size())) {
      out.error("exec.nccl-devices", "the device list names " +
                                         std::to_string(deviceOfRank.size()) +
                                         " devices, none for " + who +
                                         " (under a launcher it maps the local ranks of a node)");
      return std::nullopt;
    }
    device = deviceOfRank[static_cast<std::size_t>(localRank)];
  }
  if (device < 0 || device >= *visible.count) {
    out.error("exec.nccl-devices", who + " would run on device " + std::to_string(device) +
                                       " but " + gpus(*visible.count) +
                                       " visible on its node (start at most one process per GPU)");
    return std::nullopt;
  }
  return device;
}

} // namespace cs::nccl
