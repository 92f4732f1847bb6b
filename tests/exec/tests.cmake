# Unit tests of engine/exec; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_cpuexecutor SOURCES exec/tst_cpuexecutor.cpp LIBS cs::executors)
cstudio_add_test(tst_execcorpus SOURCES exec/tst_execcorpus.cpp LIBS cs::executors)
# The GPU executor's logic on host threads (everywhere) and on a GPU (label gpu; skips without).
cstudio_add_test(tst_gpuemulation SOURCES exec/tst_gpuexecutor.cpp LIBS cs::executors)
if(TARGET cs_exec_cuda)
  cstudio_add_test(tst_cudaexecutor SOURCES exec/tst_gpuexecutor.cpp
    LIBS cs::executors cs_exec_cuda LABELS gpu)
  target_compile_definitions(tst_cudaexecutor PRIVATE CS_GPU_TEST_ON_CUDA=1)
endif()
# Every catalogue algorithm (rooted ones from several roots) on the CPU executor and the host
# emulation, which must agree byte for byte; custom collectives are compared the same way.
cstudio_add_test(tst_execcatalogue SOURCES exec/tst_execcatalogue.cpp exec/ncclroundcheck.cpp
  LIBS cs::executors)
# The NCCL executor's round scheduler is plain C++: tested on every machine and sanitizer build.
cstudio_add_test(tst_ncclrounds SOURCES exec/tst_ncclrounds.cpp exec/ncclroundcheck.cpp
  LIBS cs::executors)
if(TARGET cs_exec_nccl)
  cstudio_add_test(tst_ncclexecutor SOURCES exec/tst_ncclexecutor.cpp exec/ncclroundcheck.cpp
    LIBS cs::executors cs_exec_nccl LABELS gpu)
endif()
# Verification names the first wrong element of every wrong chunk; a cancel stops every backend
# that runs here.
cstudio_add_test(tst_wrongchunks SOURCES exec/tst_wrongchunks.cpp LIBS cs::executors)
cstudio_add_test(tst_execcancel SOURCES exec/tst_execcancel.cpp LIBS cs::executors)
