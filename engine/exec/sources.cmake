# Sources of engine/exec (the executor interface and the CPU reference executor), relative to
# engine/. The CUDA and NCCL executors are separate optional targets (DESIGN.md §2).
list(APPEND cs_engine_area_sources
  exec/executor.h exec/executor.cpp
  exec/cpu/cpuexecutor.h exec/cpu/cpuexecutor.cpp
  exec/cpu/runplan.h exec/cpu/runplan.cpp
  exec/cpu/runstate.h exec/cpu/runstate.cpp
  exec/cpu/waiting.h
  exec/cpu/connection.h exec/cpu/connection.cpp
  exec/cpu/interpreter.h exec/cpu/interpreter.cpp
  exec/cpu/kernels.h exec/cpu/kernels.cpp
  exec/cpu/elementtypes.h
  exec/cpu/reference.h exec/cpu/reference.cpp
  exec/cpu/watchdog.h exec/cpu/watchdog.cpp
)
# The CPU executor runs one thread per (rank, threadblock).
find_package(Threads REQUIRED)
