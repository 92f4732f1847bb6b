#include "gpuruntimes.h"

#include <dlfcn.h>

#include <initializer_list>

namespace cs {

namespace {

/// Loads the first of `libraries` that exists, calls its `symbol` (an int (*)(int*) that returns
/// 0 on success, as cuDriverGetVersion, cudaRuntimeGetVersion and ncclGetVersion are) and
/// unloads it again.
GpuRuntimeVersion probe(const char* name, std::initializer_list<const char*> libraries,
                        const char* symbol, std::string (*text)(int))
{
  GpuRuntimeVersion result{name, false, {}, {}};
  for (const char* library : libraries) {
    result.library += (result.library.empty() ? "" : ", ") + std::string(library);
    void* handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr)
      continue;
    using GetVersion = int (*)(int*);
    // POSIX guarantees that a function's address survives the round trip through void*.
    auto* getVersion = reinterpret_cast<GetVersion>(dlsym(handle, symbol));
    int version = 0;
    if (getVersion != nullptr && getVersion(&version) == 0 && version > 0) {
      result.found = true;
      result.version = text(version);
      result.library = library;
    }
    dlclose(handle);
    if (result.found)
      break;
  }
  return result;
}

} // namespace

std::string cudaVersionText(int version)
{
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string ncclVersionText(int version)
{
  // NCCL_VERSION_CODE is major*10000 + minor*100 + patch since 2.9, major*1000 + minor*100 +
  // patch before.
  const int major = version >= 20900 ? version / 10000 : version / 1000;
  const int minor = version >= 20900 ? version % 10000 / 100 : version % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

std::vector<GpuRuntimeVersion> probeGpuRuntimes()
{
  return {
      probe("CUDA driver", {"libcuda.so.1"}, "cuDriverGetVersion", cudaVersionText),
      probe("CUDA runtime",
            {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"},
            "cudaRuntimeGetVersion", cudaVersionText),
      probe("NCCL", {"libnccl.so.2", "libnccl.so"}, "ncclGetVersion", ncclVersionText),
  };
}

} // namespace cs
