// The NCCL executor as a module (cs-backend-nccl.so) for the backend registry: its one exported
// function (backendmodule.h). The module links the CUDA runtime and NCCL; the programs do not.

#include "exec/backendmodule.h"
#include "exec/cudart/cudastatus.h"
#include "ncclexecutor.h"

namespace {

const cs::BackendModule kNcclModule{cs::kBackendInterfaceVersion, cs::backendLayoutFingerprint(),
                                    "nccl", &cs::plan::countCudaDevices, &cs::makeNcclExecutor};

} // namespace

extern "C" __attribute__((visibility("default"))) const cs::BackendModule* cstudio_backend_module()
{
  return &kNcclModule;
}
