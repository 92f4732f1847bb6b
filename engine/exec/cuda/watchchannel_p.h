#pragma once

// What the host watchdog shares with the persistent kernel while it runs. The blocks' statuses and
// the abort flag live in device memory: blocks write their position on every wait and read the
// abort flag while they spin, and in mapped host memory each of those would be a bus round trip
// that the next flag release waits for, on the critical path of every step. The host reads and
// writes them with copies on a stream of its own, which run beside the kernel.

#include "devicebuffers_p.h"
#include "exec/block/blockprogram.h"

#include <cstddef>
#include <cstdint>

namespace cs::cuda {

class WatchChannel
{
public:
  /// Statuses for `runners` blocks and the abort flag on `device` (other GPUs reach them as peers).
  bool allocate(int device, std::size_t runners, Diagnostics& out);
  gpu::BlockStatus* deviceStatuses() const;
  std::uint32_t* deviceAbort() const;
  /// Zeroes the statuses and the abort flag, in order with the launches on `stream`.
  bool clear(cudaStream_t stream, Diagnostics& out);
  /// A copy of the statuses as the blocks last published them (the previous copy if this one
  /// failed: a faulted device is reported by the launch, not here).
  const gpu::BlockStatus* read();
  /// Makes every waiting block leave at its next look at the flag.
  void raiseAbort();
  /// Forgets its memory without freeing it (a kernel that cannot be stopped still uses it).
  void abandon();
  void reset();

private:
  DeviceBuffer m_device;     ///< statuses, then the abort flag on its own line
  MappedHostBuffer m_mirror; ///< pinned: the statuses read back, then the word abort() copies
  cudaStream_t m_stream = nullptr;
  std::size_t m_statusBytes = 0;
};

/// Holds a stream until the host opens it, so that the launches queued behind it start back to
/// back on the GPU and the events around them time the GPU's work, not the host's launch calls
/// (as nccl-tests' back-to-back launches do).
class LaunchGate
{
public:
  bool allocate(Diagnostics& out);
  /// Queues a one-thread kernel on `stream` that waits until open() (cleared first).
  bool hold(cudaStream_t stream, int device, Diagnostics& out);
  void open();
  /// Opens the gate and forgets its word without freeing it (freeing would wait for the kernel).
  void abandon();
  void reset();

private:
  MappedHostBuffer m_word;
  bool m_closed = false;
};

} // namespace cs::cuda
