#pragma once

// The interface a GPU backend module exports (DESIGN.md §2): the CUDA and NCCL executors are
// shared libraries (cs-backend-cuda.so, cs-backend-nccl.so) that the backend registry
// (backends.cpp) loads with dlopen when present, so the programs never link the CUDA runtime or
// NCCL themselves and one build runs on machines with and without them.
//
// A module defines one extern "C" function, kBackendEntryPoint, returning its BackendModule. The
// registry reads interfaceVersion first (its place never changes) and refuses any other version;
// then it compares the layout fingerprint, because the executor interface passes C++ objects
// (Program, ExecOptions, ExecResult) across the boundary and both sides must agree on them. Bump
// kBackendInterfaceVersion whenever this struct changes.

#include "executor.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace cs {

inline constexpr int kBackendInterfaceVersion = 1;
/// The symbol every module exports, defined as
///   extern "C" __attribute__((visibility("default"))) const cs::BackendModule*
///   cstudio_backend_module();
inline constexpr const char* kBackendEntryPoint = "cstudio_backend_module";

struct BackendModule {
  int interfaceVersion = 0; ///< kBackendInterfaceVersion of the build that made the module
  /// backendLayoutFingerprint() of that build.
  std::size_t layoutFingerprint = 0;
  const char* name = nullptr; ///< "cuda", "nccl": the name in its file name
  /// The GPUs the backend can use on this machine, or nullopt with the reason in `why` (no
  /// driver, no device: the CUDA runtime's own words).
  std::optional<int> (*devices)(std::string* why) = nullptr;
  /// A new executor (runs fail with a clear diagnostic when the GPUs do not suffice).
  std::unique_ptr<Executor> (*create)() = nullptr;
};

/// The sizes of the types that cross the module boundary, folded into one number: a module built
/// from other sources than the program that loads it is refused rather than run.
constexpr std::size_t backendLayoutFingerprint()
{
  std::size_t fingerprint = 0;
  for (const std::size_t size :
       {sizeof(BackendModule), sizeof(Program), sizeof(ExecOptions), sizeof(ExecResult),
        sizeof(Trace), sizeof(Diagnostic), sizeof(std::string), sizeof(std::vector<int>)})
    fingerprint = fingerprint * 1000003u + size;
  return fingerprint;
}

using BackendEntryPoint = const BackendModule* (*)();

} // namespace cs
