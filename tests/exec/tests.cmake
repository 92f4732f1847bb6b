# Unit tests of engine/exec; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_cpuexecutor SOURCES exec/tst_cpuexecutor.cpp LIBS cs::executors)
cstudio_add_test(tst_execcorpus SOURCES exec/tst_execcorpus.cpp LIBS cs::executors)
# The GPU executor's logic on host threads (everywhere) and on a GPU (label gpu; skips without).
cstudio_add_test(tst_gpuemulation SOURCES exec/tst_gpuexecutor.cpp LIBS cs::executors)
if(TARGET cs_exec_cuda)
  cstudio_add_test(tst_cudaexecutor SOURCES exec/tst_gpuexecutor.cpp LIBS cs::executors
    LABELS gpu)
  target_compile_definitions(tst_cudaexecutor PRIVATE CS_GPU_TEST_ON_CUDA=1)
endif()
if(TARGET cs_exec_nccl)
  cstudio_add_test(tst_ncclexecutor SOURCES exec/tst_ncclexecutor.cpp
    LIBS cs::executors cs_exec_nccl LABELS gpu)
endif()
