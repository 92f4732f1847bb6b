#pragma once

// Which GPU runtime libraries this machine has, found at run time (dlopen) rather than at build
// time, for the About dialog and version reports: the CUDA driver, the CUDA runtime and NCCL. A
// build without the GPU executors still reports what the machine has; nothing here initialises a
// GPU or keeps a library loaded.

#include <string>
#include <vector>

namespace cs {

/// One runtime library and the version it reports.
struct GpuRuntimeVersion {
  std::string name;    ///< "CUDA driver", "CUDA runtime", "NCCL"
  bool found = false;  ///< the library loaded and reported a version
  std::string version; ///< "12.4", "2.21.5"; empty when not found
  std::string library; ///< the file that answered ("libnccl.so.2"), or the ones tried
};

/// The CUDA driver (libcuda, the CUDA version it supports), the CUDA runtime (libcudart) and NCCL
/// (libnccl), in that order.
std::vector<GpuRuntimeVersion> probeGpuRuntimes();

/// "12.4" for CUDA's integer versions (12040).
std::string cudaVersionText(int version);
/// "2.21.5" for NCCL's integer versions (22105; 2304 for 2.3.4 before NCCL 2.9).
std::string ncclVersionText(int version);

} // namespace cs
