#include "backendloader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace cs {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitPathList(std::string_view list)
{
  std::vector<std::string> dirs;
  while (!list.empty()) {
    const std::size_t colon = list.find(':');
    const std::string_view dir = list.substr(0, colon);
    if (!dir.empty())
      dirs.emplace_back(dir);
    if (colon == std::string_view::npos)
      break;
    list.remove_prefix(colon + 1);
  }
  return dirs;
}

/// The running executable's folder; empty where /proc is not mounted.
fs::path executableDir()
{
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : executable.parent_path();
}

bool isInside(const fs::path& file, const fs::path& folder)
{
  std::error_code error; // /proc/self/exe has its links resolved; the build tree's path may not
  const fs::path canonical = fs::weakly_canonical(folder, error);
  const fs::path relative = file.lexically_relative(error ? folder : canonical);
  return !relative.empty() && *relative.begin() != "..";
}

std::string dlErrorText()
{
  const char* text = dlerror();
  return text ? text : "unknown dynamic loader error";
}

const char* const kReinstall = "install the collective-studio-gpu package of the same version as "
                               "collective-studio, or rebuild both from one source tree";

/// Checks what the entry point returned; empty when the module is usable as `name`.
std::string refusalOf(const BackendModule* module, std::string_view name)
{
  if (!module)
    return std::string(kBackendEntryPoint) + " returned no module";
  if (module->interfaceVersion != kBackendInterfaceVersion)
    return "has backend interface version " + std::to_string(module->interfaceVersion) +
           ", this program needs " + std::to_string(kBackendInterfaceVersion) + ": " + kReinstall;
  if (module->layoutFingerprint != backendLayoutFingerprint())
    return std::string("was built from other Collective Studio sources than this program (the "
                       "types it shares differ): ") +
           kReinstall;
  if (!module->name || name != module->name)
    return "holds backend '" + std::string(module->name ? module->name : "") + "', not '" +
           std::string(name) + "'";
  if (!module->devices || !module->create)
    return "leaves functions of its interface empty";
  return {};
}

LoadedBackend loadFile(std::string_view name, const std::string& path)
{
  LoadedBackend loaded;
  loaded.found = true;
  loaded.path = path;
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    loaded.error = path + " cannot be loaded: " + dlErrorText();
    return loaded;
  }
  void* symbol = dlsym(handle, kBackendEntryPoint);
  if (!symbol) {
    loaded.error = path + " is not a Collective Studio backend module: it has no " +
                   kBackendEntryPoint + " function (" + dlErrorText() + ")";
    dlclose(handle);
    return loaded;
  }
  BackendEntryPoint entry = nullptr;
  static_assert(sizeof(entry) == sizeof(symbol));
  std::memcpy(&entry, &symbol, sizeof(entry)); // POSIX: data and function pointers convert
  const BackendModule* module = entry();
  if (std::string refusal = refusalOf(module, name); !refusal.empty()) {
    loaded.error = path + " " + refusal;
    dlclose(handle);
    return loaded;
  }
  loaded.module = module; // the handle stays open for the life of the process
  return loaded;
}

} // namespace

std::string backendFileName(std::string_view name)
{
  return "cs-backend-" + std::string(name) + ".so";
}

std::vector<std::string> backendSearchDirs()
{
  const char* override = std::getenv(kBackendPathVariable);
  if (override && *override != '\0') // set but empty counts as unset, as for PATH-like variables
    return splitPathList(override);
  std::vector<std::string> dirs;
  const fs::path exeDir = executableDir();
  if (!exeDir.empty()) {
    dirs.push_back((exeDir / "backends").string());
    dirs.push_back((exeDir / CSTUDIO_BACKEND_DIR_FROM_BINDIR).lexically_normal().string());
  }
  if (!exeDir.empty() && isInside(exeDir, CSTUDIO_BUILD_TREE))
    dirs.emplace_back(CSTUDIO_BUILD_BACKEND_DIR);
  // Run from the build tree's bin folder, two of them may be one: name it once.
  std::vector<std::string> distinct;
  for (std::string& dir : dirs)
    if (std::find(distinct.begin(), distinct.end(), dir) == distinct.end())
      distinct.push_back(std::move(dir));
  return distinct;
}

LoadedBackend loadBackendModule(std::string_view name, const std::vector<std::string>& dirs)
{
  const std::string file = backendFileName(name);
  std::string searched;
  for (const std::string& dir : dirs) {
    const fs::path path = fs::path(dir) / file;
    std::error_code error;
    if (fs::exists(path, error))
      return loadFile(name, path.string());
    searched += (searched.empty() ? "" : ", ") + dir;
  }
  LoadedBackend missing;
  missing.error = "no module " + file + " in " + (searched.empty() ? "(no folders)" : searched) +
                  " (install the collective-studio-gpu package, or name its folder in " +
                  kBackendPathVariable + ")";
  return missing;
}

} // namespace cs
