#pragma once

// The CUDA executor (DESIGN.md §5): one process, any number of ranks mapped onto the visible GPUs,
// one persistent kernel per GPU holding every (rank, threadblock) block of the ranks it hosts. The
// blocks run the same interpreter as the host emulation (engine/exec/gpu), with connection and
// dependency counters in device memory, progress and positions in mapped host memory for the host
// watchdog, and per-step timestamps from the GPU's global timer. This header includes no CUDA
// header; the target it belongs to (cs_exec_cuda) exists only where nvcc was found.

#include "exec/executor.h"

#include <memory>
#include <optional>
#include <string>

namespace cs {

/// A new CUDA executor (runs fail with a clear diagnostic when no GPU is visible).
std::unique_ptr<Executor> makeCudaExecutor();

/// The GPUs this process sees, for people and for skipping GPU tests: the count, or nullopt with
/// the CUDA runtime's reason in `why` (no driver, no device).
std::optional<int> visibleCudaDevices(std::string* why = nullptr);

/// Bytes per second a device-to-device copy reaches on `device`, read and write counted (the
/// roofline of `cstudio bench --backend cuda`), copying `bytes` in all; nullopt without a GPU.
std::optional<double> measureCudaCopyBandwidth(int device, std::int64_t bytes);

} // namespace cs
