# Sources of engine/exec (the executor interface, the CPU reference executor and the GPU block
# program), relative to engine/. The CUDA and NCCL executors are separate optional targets
# (DESIGN.md §2): exec/cuda/cuda.cmake and exec/nccl/nccl.cmake.
list(APPEND cs_engine_area_sources
  exec/executor.h exec/executor.cpp
  exec/polling.h
  # The GPU runtime libraries the machine has, found at run time (About dialog).
  exec/gpuruntimes.h exec/gpuruntimes.cpp
  # What every backend shares: the run plan, host memory, element types and arithmetic, and
  # the host reference (inputs and verification).
  exec/plan/runplan.h exec/plan/runplan.cpp
  exec/plan/executorcosts.h exec/plan/executorcosts.cpp
  exec/plan/hostmemory.h
  exec/plan/elementtypes.h
  exec/plan/reference.h exec/plan/reference.cpp
  exec/plan/hostdevice.h
  exec/plan/elementops.h
  exec/plan/kernelselect.h
  exec/plan/runloop.h exec/plan/runloop.cpp
  exec/plan/callcheck.h exec/plan/callcheck.cpp
  # The CPU reference executor.
  exec/cpu/cpuexecutor.h exec/cpu/cpuexecutor.cpp
  exec/cpu/runstate_p.h exec/cpu/runstate.cpp
  exec/cpu/waiting_p.h
  exec/cpu/connection_p.h exec/cpu/connection.cpp
  exec/cpu/interpreter_p.h exec/cpu/interpreter.cpp
  exec/cpu/kernels_p.h exec/cpu/kernels.cpp
  exec/cpu/watchdog_p.h exec/cpu/watchdog.cpp
  # The GPU block program, its interpreter and the block executors' run flow, shared by the
  # CUDA executor (exec/cuda) and its host emulation (exec/gpu); plain C++.
  exec/block/lowlatency.h
  exec/block/blockprogram.h
  exec/block/blockinterpreter.h
  exec/block/blocklayout.h exec/block/blocklayout.cpp
  exec/block/blockexecutor.h exec/block/blockexecutor.cpp
  # The host emulation of the block program (the CUDA executor's logic on host threads).
  exec/gpu/hostplatform_p.h
  exec/gpu/emulatedexecutor.h exec/gpu/emulatedexecutor.cpp
  # The NCCL executor's round scheduler and device assignment: plain C++, so they are built and
  # tested on every machine and under the sanitizers (the rest of exec/nccl needs CUDA and NCCL).
  exec/nccl/ncclrounds_p.h exec/nccl/ncclrounds.cpp
  exec/nccl/phasegraph_p.h
  exec/nccl/roundassembly_p.h exec/nccl/roundassembly.cpp
  exec/nccl/rankdevices_p.h exec/nccl/rankdevices.cpp
  # Runs started once per rank by mpirun, srun or torchrun: the launcher's environment and the
  # rendezvous that hands every rank the communicator's id and gathers the results (POSIX
  # sockets, plain C++; docs/launchers.md).
  exec/launch/launchenv.h exec/launch/launchenv.cpp
  exec/launch/wiremessages.h exec/launch/wiremessages.cpp
  exec/launch/tcpchannel.h exec/launch/tcpchannel.cpp
  exec/launch/rendezvous.h exec/launch/rendezvous.cpp
  exec/launch/runwatcher.h exec/launch/runwatcher.cpp
  exec/launch/rendezvousfile.h exec/launch/rendezvousfile.cpp
)
# The CPU executor runs one thread per (rank, threadblock).
find_package(Threads REQUIRED)
