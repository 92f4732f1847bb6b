# Optional dependencies: each is on when found and off with a message when not. A missing GPU
# toolchain or Graphviz never fails the configure step (STYLE.md 13).

include(CheckLanguage)

option(CSTUDIO_CUDA "Build the CUDA and NCCL executors when nvcc is found" ON)
set(CSTUDIO_HAVE_CUDA OFF)
if(CSTUDIO_CUDA AND (CSTUDIO_SANITIZE OR CSTUDIO_FUZZ))
  # nvcc takes no -fsanitize, and the sanitizer runtimes do not mix with the CUDA driver.
  message(STATUS "Sanitizer and fuzzing builds leave the GPU executors out")
elseif(CSTUDIO_CUDA)
  check_language(CUDA)
endif()
if(CMAKE_CUDA_COMPILER AND NOT (CSTUDIO_SANITIZE OR CSTUDIO_FUZZ))
  # Hopper (H100/H200) by default, with PTX that later GPUs compile on load; override with
  # -DCMAKE_CUDA_ARCHITECTURES=... for other cards.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  # CMake before 3.26 does not know nvcc's C++20 flag.
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  find_package(CUDAToolkit)
  if(CUDAToolkit_FOUND)
    set(CSTUDIO_HAVE_CUDA ON)
  endif()
endif()

set(CSTUDIO_HAVE_NCCL OFF)
if(CSTUDIO_HAVE_CUDA)
  find_path(CSTUDIO_NCCL_INCLUDE_DIR nccl.h
    HINTS ENV NCCL_HOME ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(CSTUDIO_NCCL_LIBRARY nccl
    HINTS ENV NCCL_HOME ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  if(CSTUDIO_NCCL_INCLUDE_DIR AND CSTUDIO_NCCL_LIBRARY)
    set(CSTUDIO_HAVE_NCCL ON)
  endif()
endif()

set(CSTUDIO_HAVE_GRAPHVIZ OFF)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(CSTUDIO_GRAPHVIZ QUIET IMPORTED_TARGET libgvc libcgraph)
  if(CSTUDIO_GRAPHVIZ_FOUND)
    set(CSTUDIO_HAVE_GRAPHVIZ ON)
  endif()
endif()

set(CSTUDIO_HAVE_QT OFF)
if(CSTUDIO_BUILD_GUI OR CSTUDIO_BUILD_TESTS)
  find_package(Qt6 QUIET COMPONENTS Core Test)
  if(Qt6_FOUND)
    set(CSTUDIO_HAVE_QT ON)
  else()
    message(STATUS "Qt 6 not found: GUI and QTest unit tests are not built")
    set(CSTUDIO_BUILD_GUI OFF)
    set(CSTUDIO_BUILD_TESTS OFF)
  endif()
endif()

function(cstudio_print_summary)
  message(STATUS "Collective Studio ${PROJECT_VERSION}:")
  message(STATUS "  CUDA executor     ${CSTUDIO_HAVE_CUDA}")
  message(STATUS "  NCCL executor     ${CSTUDIO_HAVE_NCCL}")
  message(STATUS "  Graphviz layout   ${CSTUDIO_HAVE_GRAPHVIZ}")
  message(STATUS "  Qt GUI            ${CSTUDIO_BUILD_GUI}")
  message(STATUS "  unit tests        ${CSTUDIO_BUILD_TESTS}")
  message(STATUS "  ccache            ${CSTUDIO_CCACHE}")
  message(STATUS "  sanitizers        '${CSTUDIO_SANITIZE}'")
endfunction()
