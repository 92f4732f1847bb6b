// The registry of execution backends (executor.h): the CPU reference, built in, and the CUDA and
// NCCL executors, modules loaded at run time where present (backendloader.h). It is its own target
// (cs_executors) because it is the one place that names every executor (DESIGN.md §2).

#include "backendloader.h"
#include "executor.h"

#include "cpu/cpuexecutor.h"

#include <array>

namespace cs {

namespace {

constexpr std::array<const char*, 2> kModuleBackends{"cuda", "nccl"};

/// The modules, looked for once: loading one initialises nothing on a GPU.
const std::vector<LoadedBackend>& moduleBackends()
{
  static const std::vector<LoadedBackend> modules = [] {
    const std::vector<std::string> dirs = backendSearchDirs();
    std::vector<LoadedBackend> loaded;
    for (const char* name : kModuleBackends)
      loaded.push_back(loadBackendModule(name, dirs));
    return loaded;
  }();
  return modules;
}

BackendInfo judgeModule(const char* name, const LoadedBackend& loaded)
{
  BackendInfo info{name, false, {}, BackendState::Ready, loaded.path, 0};
  if (!loaded.module) {
    info.state = loaded.found ? BackendState::ModuleUnusable : BackendState::NoModule;
    info.reason = loaded.error;
    return info;
  }
  std::string why;
  const std::optional<int> devices = loaded.module->devices(&why);
  if (!devices) {
    info.state = BackendState::NoDevice;
    info.reason = "no usable GPU: " + why;
    return info;
  }
  info.available = true;
  info.devices = *devices;
  return info;
}

} // namespace

std::vector<BackendInfo> executorBackends()
{
  std::vector<BackendInfo> backends{{"cpu", true, {}, BackendState::Ready, {}, 0}};
  const std::vector<LoadedBackend>& modules = moduleBackends();
  for (std::size_t index = 0; index < kModuleBackends.size(); ++index)
    backends.push_back(judgeModule(kModuleBackends[index], modules[index]));
  return backends;
}

std::unique_ptr<Executor> makeExecutor(std::string_view name, std::string* error)
{
  if (name == "cpu")
    return std::make_unique<CpuExecutor>();
  const std::vector<LoadedBackend>& modules = moduleBackends();
  for (std::size_t index = 0; index < kModuleBackends.size(); ++index) {
    if (name != kModuleBackends[index])
      continue;
    const BackendInfo info = judgeModule(kModuleBackends[index], modules[index]);
    if (info.available)
      return modules[index].module->create();
    if (error)
      *error = "the " + std::string(name) + " backend is unavailable: " + info.reason;
    return nullptr;
  }
  if (error)
    *error = "unknown backend '" + std::string(name) + "' (known: cpu, cuda, nccl)";
  return nullptr;
}

} // namespace cs
