#pragma once

// Finding and loading the GPU backend modules (backendmodule.h) with dlopen, for the registry
// (backends.cpp) and its tests. A module that loads stays loaded for the life of the process: the
// executors it creates run its code.

#include "backendmodule.h"

#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// The outcome of looking for one backend's module.
struct LoadedBackend {
  const BackendModule* module = nullptr; ///< null: not usable, `error` says why
  bool found = false;                    ///< a file was there (unusable rather than missing)
  std::string path;                      ///< the file loaded, or the one that was refused
  std::string error;                     ///< for people: what is missing or wrong, and where
};

/// The environment variable that replaces the default search folders (colon-separated).
inline constexpr const char* kBackendPathVariable = "CSTUDIO_BACKEND_PATH";

/// "cs-backend-cuda.so" for "cuda".
std::string backendFileName(std::string_view name);

/// The folders searched for modules, in order: those of CSTUDIO_BACKEND_PATH when it is set and
/// not empty; otherwise `backends` next to the executable, the install folder
/// (${CMAKE_INSTALL_LIBDIR}/collective-studio/backends) relative to the executable (a package may
/// install under another prefix than the build's), and the build tree's folder when the
/// executable lies in that build tree.
std::vector<std::string> backendSearchDirs();

/// Loads the module of backend `name` from the first of `dirs` holding its file and checks its
/// entry point, interface version, layout and name. Never throws.
LoadedBackend loadBackendModule(std::string_view name, const std::vector<std::string>& dirs);

} // namespace cs
