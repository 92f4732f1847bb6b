// A stand-in GPU backend module for the loader's tests (tst_backendloader, tst_backendcli): plain
// C++, so it builds where nvcc is missing. Built once per variant (tests/exec/tests.cmake):
//   CS_FAKE_INTERFACE_VERSION   the interface version it claims
//   CS_FAKE_FINGERPRINT_SHIFT   added to the layout fingerprint (another build's types)
//   CS_FAKE_NO_ENTRY_POINT      leaves the entry point out
//   CS_FAKE_NEEDS_RUNTIME       asks a shared library the loader cannot find (fakeruntime.cpp)

#include "exec/backendmodule.h"

namespace {

class FakeExecutor : public cs::Executor
{
public:
  std::string_view name() const override { return "fake"; }
  cs::ExecResult run(const cs::Program& /*program*/, const cs::ExecOptions& /*options*/) override
  {
    cs::ExecResult result;
    result.verification = "fake backend";
    return result;
  }
};

#if CS_FAKE_NEEDS_RUNTIME
extern "C" int cs_fake_runtime_devices();
#else
/// Three GPUs, so that a test can tell the module's answer from a default.
int cs_fake_runtime_devices()
{
  return 3;
}
#endif

std::optional<int> fakeDevices(std::string* /*why*/)
{
  return cs_fake_runtime_devices();
}

std::unique_ptr<cs::Executor> makeFakeExecutor()
{
  return std::make_unique<FakeExecutor>();
}

const cs::BackendModule kFakeModule{CS_FAKE_INTERFACE_VERSION,
                                    cs::backendLayoutFingerprint() + CS_FAKE_FINGERPRINT_SHIFT,
                                    "fake", &fakeDevices, &makeFakeExecutor};

} // namespace

#if CS_FAKE_NO_ENTRY_POINT
extern "C" __attribute__((visibility("default"))) const cs::BackendModule* other_entry_point()
#else
extern "C" __attribute__((visibility("default"))) const cs::BackendModule* cstudio_backend_module()
#endif
{
  return &kFakeModule;
}
