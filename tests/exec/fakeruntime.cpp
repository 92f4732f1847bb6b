// A stand-in for the CUDA runtime that the "needsruntime" fake backend module links
// (tests/exec/tests.cmake) and that the loader cannot find: a module whose library is missing.

extern "C" __attribute__((visibility("default"))) int cs_fake_runtime_devices()
{
  return 3;
}
