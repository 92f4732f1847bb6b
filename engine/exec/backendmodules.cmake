# The GPU backend modules (exec/backendmodule.h): the CUDA and NCCL executors as shared libraries
# the registry (exec/backendloader.cpp) loads with dlopen, so that the programs never link the
# CUDA runtime or NCCL. Included from engine/CMakeLists.txt; paths are relative to engine/.
#
# In the build tree the modules go to ${CSTUDIO_BUILD_BACKEND_DIR}; installed, to
# ${CSTUDIO_INSTALL_BACKEND_DIR} in the `gpu` component (the collective-studio-gpu package).

set(CSTUDIO_INSTALL_BACKEND_DIR ${CMAKE_INSTALL_LIBDIR}/collective-studio/backends)
set(CSTUDIO_BUILD_BACKEND_DIR ${PROJECT_BINARY_DIR}/backends)
set(cs_backend_modules)

# A module links its executor and the engine statically (built position-independent for it) and
# exports only its entry point.
function(cstudio_add_backend_module name executor source)
  set(target cs_backend_${name})
  add_library(${target} MODULE ${source})
  target_link_libraries(${target} PRIVATE ${executor} cs::engine CUDA::cudart)
  target_link_options(${target} PRIVATE LINKER:--exclude-libs,ALL LINKER:--no-undefined)
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME cs-backend-${name}
    LIBRARY_OUTPUT_DIRECTORY ${CSTUDIO_BUILD_BACKEND_DIR} CXX_VISIBILITY_PRESET hidden)
  set_target_properties(${executor} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  cstudio_target_warnings(${target})
  install(TARGETS ${target} LIBRARY DESTINATION ${CSTUDIO_INSTALL_BACKEND_DIR} COMPONENT gpu)
  set(cs_backend_modules ${cs_backend_modules} ${target} PARENT_SCOPE)
endfunction()

if(TARGET cs_exec_cuda)
  cstudio_add_backend_module(cuda cs_exec_cuda exec/cuda/cudamodule.cpp)
endif()
if(TARGET cs_exec_nccl)
  cstudio_add_backend_module(nccl cs_exec_nccl exec/nccl/ncclmodule.cpp)
endif()
if(cs_backend_modules)
  set_target_properties(cs_engine PROPERTIES POSITION_INDEPENDENT_CODE ON)
endif()
