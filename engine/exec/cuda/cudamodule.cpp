// The CUDA executor as a module (cs-backend-cuda.so) for the backend registry: its one exported
// function (backendmodule.h). The module links the CUDA runtime; the programs do not.

#include "cudaexecutor.h"
#include "exec/backendmodule.h"

namespace {

const cs::BackendModule kCudaModule{cs::kBackendInterfaceVersion, cs::backendLayoutFingerprint(),
                                    "cuda", &cs::visibleCudaDevices, &cs::makeCudaExecutor};

} // namespace

extern "C" __attribute__((visibility("default"))) const cs::BackendModule* cstudio_backend_module()
{
  return &kCudaModule;
}
