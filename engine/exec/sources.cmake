# Sources of engine/exec (the executor interface, the CPU reference executor and the GPU block
# program), relative to engine/. The CUDA and NCCL executors are separate optional targets
# (DESIGN.md §2): exec/cuda/cuda.cmake and exec/nccl/nccl.cmake.
list(APPEND cs_engine_area_sources
  exec/executor.h exec/executor.cpp
  exec/polling.h
  # What every backend shares: the run plan, host memory, element types and arithmetic, and
  # the host reference (inputs and verification).
  exec/plan/runplan.h exec/plan/runplan.cpp
  exec/plan/hostmemory.h
  exec/plan/elementtypes.h
  exec/plan/reference.h exec/plan/reference.cpp
  exec/plan/hostdevice.h
  exec/plan/elementops.h
  exec/plan/kernelselect.h
  # The CPU reference executor.
  exec/cpu/cpuexecutor.h exec/cpu/cpuexecutor.cpp
  exec/cpu/runstate.h exec/cpu/runstate.cpp
  exec/cpu/waiting.h
  exec/cpu/connection.h exec/cpu/connection.cpp
  exec/cpu/interpreter.h exec/cpu/interpreter.cpp
  exec/cpu/kernels.h exec/cpu/kernels.cpp
  exec/cpu/watchdog.h exec/cpu/watchdog.cpp
  # The GPU executor's block program and interpreter, shared by the CUDA kernel and the host
  # emulation that tests it (plain C++; the CUDA parts live in exec/cuda).
  exec/gpu/lowlatency.h
  exec/gpu/blockprogram.h
  exec/gpu/blockinterpreter.h
  exec/gpu/blocklayout.h exec/gpu/blocklayout.cpp
  exec/gpu/blockexecutor.h exec/gpu/blockexecutor.cpp
  exec/gpu/hostplatform.h
  exec/gpu/emulatedexecutor.h exec/gpu/emulatedexecutor.cpp
)
# The CPU executor runs one thread per (rank, threadblock).
find_package(Threads REQUIRED)
