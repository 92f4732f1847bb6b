# Unit tests of engine/exec; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_cpuexecutor SOURCES exec/tst_cpuexecutor.cpp LIBS cs::executors)
# The simulator, the checker and the CPU executor agree on deadlocks at 1 and 2 FIFO slots.
cstudio_add_test(tst_fifoverdicts SOURCES exec/tst_fifoverdicts.cpp LIBS cs::executors)
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
    LIBS cs::executors cs_exec_nccl cs_exec_cuda LABELS gpu)
endif()
# Verification names the first wrong element of every wrong chunk; a cancel stops every backend
# that runs here.
cstudio_add_test(tst_wrongchunks SOURCES exec/tst_wrongchunks.cpp LIBS cs::executors)
cstudio_add_test(tst_execcancel SOURCES exec/tst_execcancel.cpp LIBS cs::executors)

# The backend registry's module loader, on fake modules (plain C++, built everywhere): one that
# loads, and ones refused for their interface version, their types or a missing entry point, or
# unloadable because a library they link (a stand-in for libcudart) is not on the loader's path;
# each in its own folder as cs-backend-fake.so.
set(cs_fake_backend_root ${CMAKE_CURRENT_BINARY_DIR}/fakebackends)
add_library(cs_fakeruntime SHARED exec/fakeruntime.cpp)
set_target_properties(cs_fakeruntime PROPERTIES OUTPUT_NAME cs-fake-runtime
  LIBRARY_OUTPUT_DIRECTORY ${cs_fake_backend_root}/runtime CXX_VISIBILITY_PRESET hidden)
cstudio_target_warnings(cs_fakeruntime)
set(cs_fake_backends)
foreach(variant "good;1;0;0;0" "oldversion;0;0;0;0" "otherlayout;1;1;0;0" "noentry;1;0;1;0"
                "needsruntime;1;0;0;1")
  list(GET variant 0 name)
  list(GET variant 1 version_offset)
  list(GET variant 2 shift)
  list(GET variant 3 no_entry)
  list(GET variant 4 needs_runtime)
  add_library(cs_fakebackend_${name} MODULE exec/fakebackend.cpp)
  target_include_directories(cs_fakebackend_${name} PRIVATE ${PROJECT_SOURCE_DIR}/engine)
  target_compile_definitions(cs_fakebackend_${name} PRIVATE
    CS_FAKE_INTERFACE_VERSION=cs::kBackendInterfaceVersion-1+${version_offset}
    CS_FAKE_FINGERPRINT_SHIFT=${shift} CS_FAKE_NO_ENTRY_POINT=${no_entry}
    CS_FAKE_NEEDS_RUNTIME=${needs_runtime})
  if(needs_runtime)
    # No RPATH: the loader must not find the runtime, as on a machine without libcudart.
    target_link_libraries(cs_fakebackend_${name} PRIVATE cs_fakeruntime)
    set_target_properties(cs_fakebackend_${name} PROPERTIES SKIP_BUILD_RPATH ON)
  endif()
  if(NOT CSTUDIO_SANITIZE) # a sanitizer's runtime symbols come from the executable
    target_link_options(cs_fakebackend_${name} PRIVATE LINKER:--no-undefined)
  endif()
  set_target_properties(cs_fakebackend_${name} PROPERTIES PREFIX "" OUTPUT_NAME cs-backend-fake
    LIBRARY_OUTPUT_DIRECTORY ${cs_fake_backend_root}/${name} CXX_VISIBILITY_PRESET hidden)
  cstudio_target_warnings(cs_fakebackend_${name})
  list(APPEND cs_fake_backends cs_fakebackend_${name})
endforeach()
cstudio_add_test(tst_backendloader SOURCES exec/tst_backendloader.cpp LIBS cs::executors)
target_compile_definitions(tst_backendloader PRIVATE
  CS_FAKE_BACKEND_DIR="${cs_fake_backend_root}" CS_BUILD_BACKEND_DIR="${PROJECT_BINARY_DIR}/backends")
add_dependencies(tst_backendloader ${cs_fake_backends})
# `cstudio --version` and `run --backend` with modules missing, unloadable, refused or (where
# this build has them) present without a GPU.
cstudio_add_test(tst_backendcli SOURCES exec/tst_backendcli.cpp)
cstudio_test_uses_cli(tst_backendcli)
target_compile_definitions(tst_backendcli PRIVATE CS_FAKE_BACKEND_DIR="${cs_fake_backend_root}")
add_dependencies(tst_backendcli ${cs_fake_backends})
if(TARGET cs_backend_cuda)
  target_compile_definitions(tst_backendcli PRIVATE CS_HAVE_REAL_BACKENDS=1)
endif()

# Runs started once per rank by a launcher: the environment of mpirun, srun and torchrun and the
# rendezvous wire format; then the rendezvous itself over loopback with rendezvouspeer processes.
cstudio_add_test(tst_launchenv SOURCES exec/tst_launchenv.cpp)
add_executable(rendezvouspeer exec/rendezvouspeer.cpp)
target_link_libraries(rendezvouspeer PRIVATE cs::engine)
cstudio_target_warnings(rendezvouspeer)
cstudio_add_test(tst_rendezvous SOURCES exec/tst_rendezvous.cpp)
target_compile_definitions(tst_rendezvous PRIVATE
  CSTUDIO_RENDEZVOUS_PEER="$<TARGET_FILE:rendezvouspeer>")
add_dependencies(tst_rendezvous rendezvouspeer)
# The whole `cstudio run --backend nccl` launcher path in four cstudio processes, with a stand-in
# NCCL module (no GPU) that passes a made-up id through the executor's RankGroup.
add_library(cs_fakelaunchbackend MODULE exec/fakelaunchbackend.cpp)
target_include_directories(cs_fakelaunchbackend PRIVATE ${PROJECT_SOURCE_DIR}/engine)
set_target_properties(cs_fakelaunchbackend PROPERTIES PREFIX "" OUTPUT_NAME cs-backend-nccl
  LIBRARY_OUTPUT_DIRECTORY ${cs_fake_backend_root}/launch CXX_VISIBILITY_PRESET hidden)
cstudio_target_warnings(cs_fakelaunchbackend)
cstudio_add_test(tst_launchedrun SOURCES exec/tst_launchedrun.cpp)
cstudio_test_uses_cli(tst_launchedrun)
target_compile_definitions(tst_launchedrun PRIVATE
  CS_FAKE_LAUNCH_BACKEND_DIR="${cs_fake_backend_root}/launch")
add_dependencies(tst_launchedrun cs_fakelaunchbackend)
