# The collective-studio-gpu package (packaging/cpack.cmake): the CUDA and NCCL backend modules
# (engine/exec/backendmodules.cmake installs them in the `gpu` component), its copyright and
# changelog, and its dependencies. Included before include(CPack), only where the modules are
# built.
#
# dpkg-shlibdeps computes the C and C++ runtime dependencies, but not those on the CUDA runtime and
# NCCL when they were not installed from packages (NVIDIA's runfile installers, a toolkit under
# /usr/local/cuda: `dpkg -S libcudart.so.13` finds nothing, and CPack runs dpkg-shlibdeps with
# --ignore-missing-info). So the package names them itself: the package that owns the library on
# the build machine when there is one, otherwise the names NVIDIA's CUDA repository and Debian's
# non-free archive give them (cuda-cudart-13-0 | libcudart13, libnccl2), with NCCL at least the
# version the modules were built against. -DCSTUDIO_GPU_PACKAGE_DEPENDS=... replaces those two.

set(CPACK_COMPONENT_GPU_DISPLAY_NAME "Collective Studio GPU backends")
set(CPACK_COMPONENT_GPU_DESCRIPTION
  "CUDA and NCCL executors for Collective Studio
The run-time modules that let cstudio and collective-studio run MSCCL
algorithms on NVIDIA GPUs: the CUDA executor (one process, any number of
ranks) and the NCCL executor (one rank per GPU). The programs load them
when they are installed; cstudio --version says whether they can run.")
set(CPACK_DEBIAN_GPU_PACKAGE_NAME collective-studio-gpu)
set(CPACK_DEBIAN_GPU_PACKAGE_SECTION contrib/science)

# The package owning `library` on this machine, or `fallback` when no package does.
function(cstudio_owning_package out library fallback)
  set(${out} "${fallback}" PARENT_SCOPE)
  get_filename_component(real "${library}" REALPATH)
  foreach(path "${library}" "${real}")
    execute_process(COMMAND dpkg-query -S "${path}" OUTPUT_VARIABLE owner
      RESULT_VARIABLE failed ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT failed AND owner MATCHES "^([^:,]+)")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

set(cs_gpu_depends)
get_target_property(cs_cudart_library CUDA::cudart IMPORTED_LOCATION)
set(cs_cuda_series ${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR})
cstudio_owning_package(cs_cudart_package "${cs_cudart_library}"
  "cuda-cudart-${cs_cuda_series} | libcudart${CUDAToolkit_VERSION_MAJOR}")
list(APPEND cs_gpu_depends "${cs_cudart_package}")
if(TARGET cs_backend_nccl)
  file(STRINGS ${CSTUDIO_NCCL_INCLUDE_DIR}/nccl.h cs_nccl_defines
    REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) [0-9]+")
  string(REGEX REPLACE "[^;]*NCCL_[A-Z]+ ([0-9]+)" "\\1" cs_nccl_version "${cs_nccl_defines}")
  string(REPLACE ";" "." cs_nccl_version "${cs_nccl_version}")
  cstudio_owning_package(cs_nccl_package "${CSTUDIO_NCCL_LIBRARY}" "libnccl2")
  list(APPEND cs_gpu_depends "${cs_nccl_package} (>= ${cs_nccl_version})")
endif()
list(JOIN cs_gpu_depends ", " cs_gpu_depends)
# -DCSTUDIO_GPU_PACKAGE_DEPENDS="..." replaces the CUDA and NCCL part (other package names).
if(CSTUDIO_GPU_PACKAGE_DEPENDS)
  set(cs_gpu_depends "${CSTUDIO_GPU_PACKAGE_DEPENDS}")
endif()
set(CPACK_DEBIAN_GPU_PACKAGE_DEPENDS
  "collective-studio (= ${CPACK_PACKAGE_VERSION}), ${cs_gpu_depends}")
message(STATUS "Packages: collective-studio-gpu depends on ${CPACK_DEBIAN_GPU_PACKAGE_DEPENDS}")

# Debian wants a copyright file and a changelog in every package's doc folder.
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/copyright ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/collective-studio-gpu COMPONENT gpu)
