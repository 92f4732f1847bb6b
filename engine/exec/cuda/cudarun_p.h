#pragma once

// The CUDA executor's state for one run: per GPU, its queue, the launch order of its blocks, the
// counters, staging slots and the block program's tables; over all GPUs, the ranks' buffers and
// their initial copies, the watchdog's channel and the launch gate.

#include "cudaexecutor.h"
#include "devicebuffers_p.h"
#include "exec/block/blockexecutor.h"
#include "watchchannel_p.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cs::cuda {

inline constexpr std::size_t kLine = 128; // counters and staging slots start on their own line

inline std::size_t roundUp(std::size_t value, std::size_t to)
{
  return (value + to - 1) / to * to;
}

/// Everything one GPU holds for a run beside the ranks' buffers.
struct DeviceRun {
  int device = 0;
  int threads = 0;
  int sms = 0; ///< streaming multiprocessors
  bool cooperative = false;
  DeviceQueue queue;
  std::vector<std::int32_t> runners; ///< launch order: runner of each GPU block
  DeviceBuffer sync;    ///< counters and descriptors of connections received here; flags
  DeviceBuffer staging; ///< staging slots of connections sent from here
  DeviceBuffer tables;  ///< the block program's arrays, copied for this device
  gpu::BlockProgram program;
};

/// The CUDA executor: one CUDA block per (rank, tb) replica, the hooks of gpu::BlockExecutor.
/// cudaprepare.cpp allocates and lays out a run, cudaexecutor.cpp launches and releases it.
class CudaExecutor final : public gpu::BlockExecutor
{
public:
  std::string_view name() const override { return "cuda"; }
  /// A device-to-device copy on GPU 0 (the roofline of `cstudio bench --backend cuda`).
  std::optional<double> copyBandwidth(std::int64_t bytes) override
  {
    return measureCudaCopyBandwidth(0, bytes);
  }

private:
  bool prepare(const Setup& setup, Diagnostics& out) override;
  int replicas() const override { return m_replicas; }
  bool restore(Diagnostics& out) override;
  bool start(bool trace, Diagnostics& out) override;
  bool finished() override;
  bool launchSucceeded(Diagnostics& out) override;
  void abort() override;
  const gpu::BlockStatus* statuses() override;
  std::optional<double> elapsedUs(Diagnostics& out) override;
  bool download(plan::HostMemory& mirror, std::vector<std::uint64_t>* trace,
                Diagnostics& out) override;
  std::string traceSource() const override { return "cuda"; }
  std::string deviceDescription() const override { return m_description; }
  void release() override;

  bool mapRanks(const Setup& setup, int visible, Diagnostics& out);
  bool enablePeerAccess(Diagnostics& out);
  bool allocateBuffers(const Setup& setup, Diagnostics& out);
  bool chooseGeometry(const Setup& setup, Diagnostics& out);
  /// Threads per block to try, most first, halving down to the fewest.
  struct ThreadRange {
    int most = 0;
    int fewest = 0;
  };
  /// The user's choice, else for LL a thread per line of a message (at least 128), else 512 to 32.
  static ThreadRange threadRange(const Setup& setup);
  /// Whether `replicas` copies of the `blocks` blocks on `run`'s GPU can all be resident at once;
  /// sets run.threads to the largest block size in `threads` that allows it.
  bool fits(DeviceRun& run, int blocks, int replicas, ThreadRange threads, Diagnostics& out);
  bool buildSync(const plan::RunPlan& plan, Diagnostics& out);
  bool buildTables(const Setup& setup, Diagnostics& out);
  DeviceRun& runOf(int rank);
  bool synchronizeAll(const char* after, Diagnostics& out);
  /// After a failed launch on one GPU: makes the blocks already queued leave before anything
  /// they use is freed.
  void stopQueued();

  gpu::BlockLayout m_layout;
  std::vector<int> m_deviceOfRank;
  std::vector<DeviceRun> m_devices;
  std::vector<std::array<DeviceBuffer, kBufferCount>> m_memory;
  std::vector<std::array<DeviceBuffer, kBufferCount>> m_pristine;
  WatchChannel m_watch;
  LaunchGate m_gate;
  DeviceBuffer m_trace;
  std::vector<gpu::ConnectionView> m_views; ///< replicas × connections
  std::vector<gpu::Counter*> m_flags;       ///< replicas × blocks
  std::vector<std::byte*> m_memoryTable;    ///< ranks × 3
  const void* m_kernel = nullptr;
  std::map<int, int> m_blocksOn; ///< threadblocks per device
  int m_replicas = 1;
  bool m_traced = false;
  Diagnostics m_failure;       ///< why the last launch failed, found by finished()
  Diagnostics m_laterFailures; ///< failures after the first, dropped
  std::string m_description;
};

} // namespace cs::cuda
