// The registry of execution backends (executor.h): the CPU reference always, the CUDA and NCCL
// executors where this build has them. It is its own target (cs_executors) because the GPU
// targets build on the engine and the engine must not depend on them (DESIGN.md §2).

#include "executor.h"

#include "cpu/cpuexecutor.h"
#if CSTUDIO_HAVE_CUDA
#include "cuda/cudaexecutor.h"
#endif
#if CSTUDIO_HAVE_NCCL
#include "nccl/ncclexecutor.h"
#endif

namespace cs {

std::vector<BackendInfo> executorBackends()
{
  std::vector<BackendInfo> backends{{"cpu", true, {}}};
#if CSTUDIO_HAVE_CUDA
  backends.push_back({"cuda", true, {}});
#else
  backends.push_back(
      {"cuda", false,
       "the CUDA executor is not built in this build (configure on a machine with nvcc)"});
#endif
#if CSTUDIO_HAVE_NCCL
  backends.push_back({"nccl", true, {}});
#else
  backends.push_back(
      {"nccl", false,
       "the NCCL executor is not built in this build (configure where CUDA and NCCL are found)"});
#endif
  return backends;
}

std::unique_ptr<Executor> makeExecutor(std::string_view name, std::string* error)
{
  if (name == "cpu")
    return std::make_unique<CpuExecutor>();
#if CSTUDIO_HAVE_CUDA
  if (name == "cuda")
    return makeCudaExecutor();
#endif
#if CSTUDIO_HAVE_NCCL
  if (name == "nccl")
    return makeNcclExecutor();
#endif
  for (const BackendInfo& backend : executorBackends()) {
    if (backend.name == name) {
      if (error)
        *error = backend.reason;
      return nullptr;
    }
  }
  if (error)
    *error = "unknown backend '" + std::string(name) + "' (known: cpu, cuda, nccl)";
  return nullptr;
}

} // namespace cs
